// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"

	"github.com/pebblerf/pebble/internal/bench/config"
)

func registerRangePlanFlags(fs *flag.FlagSet, f *config.Config) {
	fs.StringVar(&f.RangeFilterPlanName, "range_filter_plan", "", "pebblerf, with -range_filter_bits: which levels get range filters: all (default); demand (all, where bounded reads come,\nas pebble.Recommended()); l0; stats (where the statistics see skips, within -range_filter_budget_bits)")
	fs.Float64Var(&f.RangeFilterBudgetBits, "range_filter_budget_bits", 2, "with -range_filter_plan=stats: the range filters' memory budget, average bits per key over the DB")
}

func validateRangeFilterPlan(c *config.Config) error {
	switch c.RangeFilterPlanName {
	case "", config.RangePlanAll, config.RangePlanDemand, config.RangePlanL0:
	case config.RangePlanStats:
		if !c.PebbleRFStatistics {
			return config.BadFlag("range_filter_plan", "stats needs -pebblerf_statistics, whose counts drive it")
		}
		if !(c.RangeFilterBudgetBits >= 0) {
			return config.BadFlag("range_filter_budget_bits", "%g must not be negative", c.RangeFilterBudgetBits)
		}
	default:
		return config.BadFlag("range_filter_plan", "%q is not all, demand, l0 or stats", c.RangeFilterPlanName)
	}
	if c.RangeFilterPlanName != "" && c.RangeFilterBits == 0 {
		return config.BadFlag("range_filter_plan", "needs -range_filter_bits")
	}
	return nil
}
