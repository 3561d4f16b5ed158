// Copyright 2026 The pebblerf Authors. All rights reserved.

package config

import (
	"fmt"
	"math"
	"time"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
)

// FilterPlan is pebblerf's plan for the flags.
func (c *Config) FilterPlan() (pointfilter.Plan, error) {
	return dbbench.FilterPlan(c.BloomBits, c.UseRibbonFilter, c.BloomBeforeLevel, c.WriteL6Filters())
}

// FiltersEnabled reports whether -bloom_bits asks for table filters.
func (c *Config) FiltersEnabled() bool {
	if c.FilterPlanName != "" {
		return true
	}
	plan, err := c.FilterPlan()
	return err == nil && plan.BitsPerKey > 0
}

// UpstreamBloomBits is the whole bits per key upstream's Bloom filter gets.
func (c *Config) UpstreamBloomBits() int {
	return int(math.Round(min(max(c.BloomBits, 1), 100)))
}

// applyFilters installs the engine's table filters into o.Levels. Under
// -filter_plan pebblerf's filters are a planner's instead: o keeps none, and
// the planner is returned, for Plugins.Filters (pebblerfPlugins); else the
// planner is nil.
func (c *Config) applyFilters(engineName string, o *upstream.Options) (*pointfilter.Planner, error) {
	if !c.FiltersEnabled() {
		return nil, nil
	}
	if engineName == EnginePebbleRF {
		if preset, ok, err := c.PresetPlan(); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return newPlanner(o, preset)
		}
		plan, err := c.FilterPlan()
		if err != nil {
			return nil, err
		}
		return nil, plan.Apply(o)
	}
	policy := bloom.FilterPolicy(c.UpstreamBloomBits())
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = policy
	}
	if !c.WriteL6Filters() {
		o.Levels[len(o.Levels)-1].FilterPolicy = upstream.NoFilterPolicy
	}
	return nil, nil
}

// FilterDescription says which filters each engine uses, for the header.
func (c *Config) FilterDescription() string {
	if !c.FiltersEnabled() {
		return "none"
	}
	fixed, _ := c.FilterPlan()
	plan := fixed.String()
	if preset, ok, _ := c.PresetPlan(); ok {
		plan = preset.String()
		if c.FilterPlanName == FilterPlanOptimal {
			plan = fmt.Sprintf("optimal for %g bits/key, re-planned every %s from %s", c.FilterBudgetBits, ReplanEvery, preset)
		}
	}
	levels := "L0-L5, none on L6"
	if c.UseL6Filters {
		levels = "L0-L6 (L6 read with UseL6Filters)"
	} else if c.WriteL6Filters() {
		levels = "L0-L6 (L6 read by pebblerf's Gets, -get_l6_filters)"
	}
	if c.UpstreamFilters() {
		how := "pebblerf as pebble.Open opens it"
		if c.Recommended {
			how = "pebblerf given upstream's policy, as pebble.Recommended() leaves it"
		} else if c.GetsConsultL6() {
			how = "pebblerf given upstream's policy"
		}
		return fmt.Sprintf("bloom.FilterPolicy(%d) on %s for both (%s)", c.UpstreamBloomBits(), levels, how)
	}
	return fmt.Sprintf("pebble: bloom.FilterPolicy(%d) on %s; pebblerf: %s", c.UpstreamBloomBits(), levels, plan)
}

// Per-level filter plans for -filter_plan and -filter_budget_bits
// (pebblerf only; upstream keeps bloom.FilterPolicy of -bloom_bits).
//
//   - uniform: Bloom at -filter_budget_bits on every level (L6 only with
//     -use_l6_filters, as above);
//   - progressive: Pebble's preset, 16/16/16/16/14/10/8 bits/key on L0-L6
//     (L6 likewise);
//   - optimal: pointfilter.Optimal for a budget of -filter_budget_bits
//     averaged over the DB's keys, re-planned from the DB's own tables every
//     replanEvery while it is open (a pointfilter.Planner), so that tables
//     written as the levels grow get the plan for the current shape
//     (DB.PointFilterLoads). Until the per-level statistics have counted
//     lookups, these are assumed to consult each level's filters once (L0:
//     once per sublevel); L6's only with -use_l6_filters, which is when
//     readrandom and seekrandom read them (DB.Get never does).

// Names of -filter_plan.
const (
	FilterPlanUniform     = "uniform"
	FilterPlanProgressive = "progressive"
	FilterPlanOptimal     = "optimal"
)

// PresetPlan is the plan of -filter_plan before any re-planning; ok is false
// without -filter_plan.
func (c *Config) PresetPlan() (plan pointfilter.Plan, ok bool, err error) {
	l6 := func(p pointfilter.Plan) pointfilter.Plan {
		if !c.WriteL6Filters() {
			p.Levels[len(p.Levels)-1] = pointfilter.LevelFilter{}
		}
		return p
	}
	switch c.FilterPlanName {
	case "":
		return plan, false, nil
	case FilterPlanUniform, FilterPlanOptimal:
		// Optimal starts uniform: an empty DB has no shape to plan for.
		if _, err := pointfilter.NewBloom(c.FilterBudgetBits); err != nil {
			return plan, false, errors.Wrap(err, "-filter_budget_bits")
		}
		p := pointfilter.Uniform(c.FilterBudgetBits)
		p.L6Filters = c.WriteL6Filters()
		filters, _ := p.Filters()
		return pointfilter.Plan{Levels: filters[:]}, true, nil
	case FilterPlanProgressive:
		return l6(pointfilter.Progressive()), true, nil
	}
	return plan, false, errors.Newf("-filter_plan %q is not uniform, progressive or optimal", c.FilterPlanName)
}

// newPlanner makes -filter_plan's planner for plan; o keeps no filters of
// its own.
func newPlanner(o *upstream.Options, plan pointfilter.Plan) (*pointfilter.Planner, error) {
	pl, err := pointfilter.NewPlanner(plan)
	if err != nil {
		return nil, err
	}
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = upstream.NoFilterPolicy
	}
	return pl, nil
}

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

// Names of -range_filter_plan.
const (
	RangePlanAll    = "all"
	RangePlanDemand = "demand"
	RangePlanL0     = "l0"
	RangePlanStats  = "stats"
)

// rangeFilterPlan is the plan pebblerf opens with; ok is false for every
// level, the policy's own default.
func (c *Config) rangeFilterPlan() (plan rangefilter.Plan, ok bool) {
	switch c.RangeFilterPlanName {
	case RangePlanL0:
		return rangefilter.OverlappingRuns(c.RangeFilterBits), true
	case RangePlanDemand:
		return rangefilter.OnDemand(c.RangeFilterBits), true
	}
	return plan, false
}

// ReplanEvery is how often an open DB under -filter_plan=optimal re-plans.
const ReplanEvery = time.Second
