// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"
	"fmt"

	"github.com/pebblerf/pebble/rangefilter"
)

// Per-level range filters for -range_filter_plan (pebblerf only, with
// -range_filter_bits):
//
//   - all (the default): every level's tables get a range filter;
//   - demand: every level's, where bounded reads come (rangefilter.OnDemand,
//     what pebble.Recommended() uses), the filters of tables written before
//     derived by the backfill once reads consult them;
//   - l0: only L0's, where sorted runs overlap (rangefilter.OverlappingRuns);
//   - stats: rangefilter.ForBudget of -range_filter_budget_bits over the DB's
//     keys, from what the per-level statistics saw (DB.RangeFilterLoads),
//     re-planned every replanEvery while the DB is open; it starts with
//     every level, as a DB with no statistics yet has nothing to go on.
//     Needs -pebblerf_statistics.
type rangePlanFlags struct {
	rangeFilterPlanName   string
	rangeFilterBudgetBits float64
}

// Names of -range_filter_plan.
const (
	rangePlanAll    = "all"
	rangePlanDemand = "demand"
	rangePlanL0     = "l0"
	rangePlanStats  = "stats"
)

func (f *rangePlanFlags) registerRangePlanFlags(fs *flag.FlagSet) {
	fs.StringVar(&f.rangeFilterPlanName, "range_filter_plan", "", "pebblerf, with -range_filter_bits: which levels get range filters: all (default); demand (all, where bounded reads come,\nas pebble.Recommended()); l0; stats (where the statistics see skips, within -range_filter_budget_bits)")
	fs.Float64Var(&f.rangeFilterBudgetBits, "range_filter_budget_bits", 2, "with -range_filter_plan=stats: the range filters' memory budget, average bits per key over the DB")
}

func (c *config) validateRangeFilterPlan() error {
	switch c.rangeFilterPlanName {
	case "", rangePlanAll, rangePlanDemand, rangePlanL0:
	case rangePlanStats:
		if !c.pebblerfStatistics {
			return badFlag("range_filter_plan", "stats needs -pebblerf_statistics, whose counts drive it")
		}
		if !(c.rangeFilterBudgetBits >= 0) {
			return badFlag("range_filter_budget_bits", "%g must not be negative", c.rangeFilterBudgetBits)
		}
	default:
		return badFlag("range_filter_plan", "%q is not all, demand, l0 or stats", c.rangeFilterPlanName)
	}
	if c.rangeFilterPlanName != "" && c.rangeFilterBits == 0 {
		return badFlag("range_filter_plan", "needs -range_filter_bits")
	}
	return nil
}

// rangeFilterPlan is the plan pebblerf opens with; ok is false for every
// level, the policy's own default.
func (c *config) rangeFilterPlan() (plan rangefilter.Plan, ok bool) {
	switch c.rangeFilterPlanName {
	case rangePlanL0:
		return rangefilter.OverlappingRuns(c.rangeFilterBits), true
	case rangePlanDemand:
		return rangefilter.OnDemand(c.rangeFilterBits), true
	}
	return plan, false
}

// levelRangeFilterOf returns the range filter pebblerf's plan gives level i
// now, for levelstats.
func (c *config) levelRangeFilterOf(e engine, i int) string {
	db, ok := pebblerfDB(e)
	if !ok || db.RangeFilterPolicy() == nil {
		return "-"
	}
	if bits := db.RangeFilterPolicy().Plan().Levels[i]; bits != 0 {
		return fmt.Sprintf("%g bits/key", bits)
	}
	return "none"
}
