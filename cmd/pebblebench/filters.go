// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/pointfilter"
)

// Table filters for -bloom_bits, -use_ribbon_filter, -bloom_before_level
// and -use_l6_filters.
//
// When pebblerf runs as pebble.Open opens it, or with the recommended set
// (upstreamFilters), both engines get upstream's policy described below. Otherwise pebblerf gets
// dbbench.FilterPlan, which maps the flags as RocksDB reads them:
// -bloom_bits below 0.5 means no filter, other values are clamped to
// [1, 100]; Bloom everywhere, or with -use_ribbon_filter Ribbon from the
// level -bloom_before_level names (-1: everywhere; 0: all but L0, where
// flushes write). Upstream Pebble has only its own Bloom filter, so it gets
// bloom.FilterPolicy with the bits rounded to whole bits on every level and
// ignores -use_ribbon_filter.
//
// L6 is treated alike in both engines: its tables get filters only with
// -use_l6_filters, which also makes the reads ask for them
// (IterOptions.UseL6Filters), or with -get_l6_filters, under which
// pebblerf's Gets read them and upstream's DB.Get does not (writeL6Filters).
// Pebble never reads L6 filters otherwise, so writing them would cost build
// time and space for nothing, and giving one engine L6 filters the other
// lacks would skew both the write figures and the filter footprint in
// levelstats.

// filterPlan is pebblerf's plan for the flags.
func (c *config) filterPlan() (pointfilter.Plan, error) {
	return dbbench.FilterPlan(c.bloomBits, c.useRibbonFilter, c.bloomBeforeLevel, c.writeL6Filters())
}

// filtersEnabled reports whether -bloom_bits asks for table filters.
func (c *config) filtersEnabled() bool {
	if c.filterPlanName != "" {
		return true
	}
	plan, err := c.filterPlan()
	return err == nil && plan.BitsPerKey > 0
}

// upstreamBloomBits is the whole bits per key upstream's Bloom filter gets.
func (c *config) upstreamBloomBits() int {
	return int(math.Round(min(max(c.bloomBits, 1), 100)))
}

// applyFilters installs the engine's table filters into o.Levels. Under
// -filter_plan pebblerf's filters are a planner's instead: o keeps none, and
// the planner is returned, for Plugins.Filters (pebblerfPlugins); else the
// planner is nil.
func (c *config) applyFilters(engineName string, o *upstream.Options) (*pointfilter.Planner, error) {
	if !c.filtersEnabled() {
		return nil, nil
	}
	if engineName == enginePebbleRF {
		if preset, ok, err := c.presetPlan(); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return newPlanner(o, preset)
		}
		plan, err := c.filterPlan()
		if err != nil {
			return nil, err
		}
		return nil, plan.Apply(o)
	}
	policy := bloom.FilterPolicy(c.upstreamBloomBits())
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = policy
	}
	if !c.writeL6Filters() {
		o.Levels[len(o.Levels)-1].FilterPolicy = upstream.NoFilterPolicy
	}
	return nil, nil
}

// filterDescription says which filters each engine uses, for the header.
func (c *config) filterDescription() string {
	if !c.filtersEnabled() {
		return "none"
	}
	fixed, _ := c.filterPlan()
	plan := fixed.String()
	if preset, ok, _ := c.presetPlan(); ok {
		plan = preset.String()
		if c.filterPlanName == filterPlanOptimal {
			plan = fmt.Sprintf("optimal for %g bits/key, re-planned every %s from %s", c.filterBudgetBits, replanEvery, preset)
		}
	}
	levels := "L0-L5, none on L6"
	if c.useL6Filters {
		levels = "L0-L6 (L6 read with UseL6Filters)"
	} else if c.writeL6Filters() {
		levels = "L0-L6 (L6 read by pebblerf's Gets, -get_l6_filters)"
	}
	if c.upstreamFilters() {
		how := "pebblerf as pebble.Open opens it"
		if c.recommended {
			how = "pebblerf given upstream's policy, as pebble.Recommended() leaves it"
		} else if c.getsConsultL6() {
			how = "pebblerf given upstream's policy"
		}
		return fmt.Sprintf("bloom.FilterPolicy(%d) on %s for both (%s)", c.upstreamBloomBits(), levels, how)
	}
	return fmt.Sprintf("pebble: bloom.FilterPolicy(%d) on %s; pebblerf: %s", c.upstreamBloomBits(), levels, plan)
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
type filterPlanFlags struct {
	filterPlanName   string
	filterBudgetBits float64
	// The range filters' per-level plan (rangeplan.go).
	rangePlanFlags
}

// Names of -filter_plan.
const (
	filterPlanUniform     = "uniform"
	filterPlanProgressive = "progressive"
	filterPlanOptimal     = "optimal"
)

func (f *filterPlanFlags) registerFilterPlanFlags(fs *flag.FlagSet) {
	fs.StringVar(&f.filterPlanName, "filter_plan", "", "pebblerf: per-level point filters: uniform, progressive or optimal (overrides -bloom_bits for pebblerf)")
	fs.Float64Var(&f.filterBudgetBits, "filter_budget_bits", 10, "with -filter_plan: uniform's bits per key; optimal's budget, average bits per key over the DB")
	f.registerRangePlanFlags(fs)
}

// presetPlan is the plan of -filter_plan before any re-planning; ok is false
// without -filter_plan.
func (c *config) presetPlan() (plan pointfilter.Plan, ok bool, err error) {
	l6 := func(p pointfilter.Plan) pointfilter.Plan {
		if !c.writeL6Filters() {
			p.Levels[len(p.Levels)-1] = pointfilter.LevelFilter{}
		}
		return p
	}
	switch c.filterPlanName {
	case "":
		return plan, false, nil
	case filterPlanUniform, filterPlanOptimal:
		// Optimal starts uniform: an empty DB has no shape to plan for.
		if _, err := pointfilter.NewBloom(c.filterBudgetBits); err != nil {
			return plan, false, errors.Wrap(err, "-filter_budget_bits")
		}
		p := pointfilter.Uniform(c.filterBudgetBits)
		p.L6Filters = c.writeL6Filters()
		filters, _ := p.Filters()
		return pointfilter.Plan{Levels: filters[:]}, true, nil
	case filterPlanProgressive:
		return l6(pointfilter.Progressive()), true, nil
	}
	return plan, false, errors.Newf("-filter_plan %q is not uniform, progressive or optimal", c.filterPlanName)
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

// levelFilterOf returns the filter pebblerf's plan gives level i now, for
// levelstats: the planner's under -filter_plan, else the fixed plan's; on
// the default path, upstream's Bloom, which pebblerf is then given.
func (c *config) levelFilterOf(e engine, i int) string {
	if e.Name() != enginePebbleRF || !c.filtersEnabled() {
		return "-"
	}
	if c.upstreamFilters() {
		if i == 6 && !c.writeL6Filters() {
			return "-"
		}
		return fmt.Sprintf("pebble-bloom(%d)", c.upstreamBloomBits())
	}
	if db, ok := pebblerfDB(e); ok && db.FilterPlanner() != nil && c.filterPlanName != "" {
		return db.FilterPlanner().Level(i).String()
	}
	plan, _ := c.filterPlan()
	filters, err := plan.Filters()
	if err != nil {
		return "-"
	}
	return filters[i].String()
}
