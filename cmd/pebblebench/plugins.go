// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"math"
	"os"
	"time"

	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
)

// The pebblerf plug-ins the flags select (range filters, query builder,
// compaction shape and advisor, statistics), and their validation. The
// shape is the one plug-in both engines get: a benchmark of an LSM shape
// must compare the engines on the same shape.

// validatePlugins checks the flags of this file and of the seek-target
// generator, naming the flag at fault.
func (c *config) validatePlugins() error {
	if c.keyStride < 1 {
		return badFlag("key_stride", "%d must be at least 1", c.keyStride)
	}
	if c.keyStride > 1 && c.num > math.MaxInt64/c.keyStride {
		return badFlag("key_stride", "%d times -num=%d overflows the key space", c.keyStride, c.num)
	}
	if c.keyStride > 1 && c.keysPerPrefix > 0 {
		return badFlag("key_stride", "cannot be combined with -keys_per_prefix, whose prefixes are taken from the key number")
	}
	if c.seekUpperBoundLen < 0 {
		return badFlag("seek_upper_bound_len", "%d must not be negative", c.seekUpperBoundLen)
	}
	if !(c.emptyRangeFraction >= 0 && c.emptyRangeFraction <= 1) {
		return badFlag("empty_range_fraction", "%g must be in [0, 1]", c.emptyRangeFraction)
	}
	if c.emptyRangeFraction > 0 {
		if c.seekUpperBoundLen == 0 {
			return badFlag("empty_range_fraction", "needs -seek_upper_bound_len > 0 (an unbounded range is never empty)")
		}
		if c.written == nil && c.keyStride <= c.seekUpperBoundLen {
			return badFlag("empty_range_fraction", "needs -key_stride=%d > -seek_upper_bound_len=%d, so a gap between written keys holds a whole range (or -writes, whose sparse fill leaves gaps)", c.keyStride, c.seekUpperBoundLen)
		}
	}
	if c.fillSeqOverwriteWindow < 0 {
		return badFlag("fillseq_overwrite_window", "%d must not be negative", c.fillSeqOverwriteWindow)
	}
	if c.seekTargetRangeMultiplier < 1 {
		return badFlag("seek_target_range_multiplier", "%d must be at least 1", c.seekTargetRangeMultiplier)
	}
	if c.rangeFilterBits != 0 {
		if err := c.rangeFilterConfig().Validate(); err != nil || math.IsNaN(c.rangeFilterBits) {
			return badFlag("range_filter_bits", "%g must be 0 (off) or in [4, 40]", c.rangeFilterBits)
		}
	}
	if err := c.validateRangeFilterPlan(); err != nil {
		return err
	}
	if _, err := c.plan(); err != nil {
		return err
	}
	if _, err := c.shape(); err != nil {
		return err
	}
	if c.compactionStyle == 1 && c.numLevelsGiven && c.numLevels < 2 {
		return badFlag("num_levels", "%d sorted runs: the many-runs profile needs at least 2", c.numLevels)
	}
	if !(c.seekHotFraction >= 0 && c.seekHotFraction <= 1) {
		return badFlag("seek_hot_fraction", "%g must be in [0, 1]", c.seekHotFraction)
	}
	if !(c.seekHotRange > 0 && c.seekHotRange <= 1) {
		return badFlag("seek_hot_range", "%g must be in (0, 1]", c.seekHotRange)
	}
	if !(c.seekHotStart >= 0 && c.seekHotStart+c.seekHotRange <= 1+1e-9) {
		return badFlag("seek_hot_start", "%g plus -seek_hot_range %g must be in [0, 1]", c.seekHotStart, c.seekHotRange)
	}
	if c.advisorIntervalMs < 0 {
		return badFlag("compaction_advisor_interval_ms", "%d must not be negative", c.advisorIntervalMs)
	}
	if math.IsNaN(c.advisorBudget) || math.IsInf(c.advisorBudget, 0) {
		return badFlag("compaction_advisor_write_budget", "%g must be a number (negative: no bound)", c.advisorBudget)
	}
	if c.sliceBytes < 0 {
		return badFlag("many_runs_slice_bytes", "%d must not be negative", c.sliceBytes)
	}
	if c.lsmSampleMs < 0 {
		return badFlag("lsm_sample_ms", "%d must not be negative", c.lsmSampleMs)
	}
	if c.compactionAdvisor && !c.pebblerfStatistics {
		return badFlag("compaction_advisor", "needs -pebblerf_statistics, whose wasted-seek counts drive it")
	}
	return nil
}

func (c *config) rangeFilterConfig() rangefilter.Config {
	// A fixed seed makes the filters, and so the figures, the same run to
	// run.
	return rangefilter.Config{BitsPerKey: c.rangeFilterBits, Seed: uint64(c.seed) | 1}
}

// plan is -query_plan as a querybuilder plan.
func (c *config) plan() (querybuilder.Plan, error) {
	for _, p := range []querybuilder.Plan{querybuilder.PlanAuto, querybuilder.PlanPlain, querybuilder.PlanStepped, querybuilder.PlanPrefix} {
		if p.String() == c.queryPlan {
			return p, nil
		}
	}
	return 0, badFlag("query_plan", "%q is not one of auto, plain, stepped, prefix", c.queryPlan)
}

// shape returns a new profile for -compaction_style and -num_levels, or nil
// for level (Pebble's own compactions, no profile). A profile holds its
// driver's state, so every DB opened gets its own.
func (c *config) shape() (compactionext.Profile, error) {
	if c.compactionStyle == 0 {
		return nil, nil
	}
	p, err := parseCompactionStyle(c.compactionStyle)
	if err != nil {
		return nil, badFlag("compaction_style", "%v", err)
	}
	if m, ok := p.(*compactionext.ManyRuns); ok {
		if c.numLevelsGiven {
			m.Runs = c.numLevels
		}
		m.SliceBytes = c.sliceBytes
	}
	return p, nil
}

// runsTarget is the run count the -compaction_style shape keeps, 0 if it
// keeps none.
func (c *config) runsTarget() int {
	if p, _ := c.shape(); p != nil {
		if m, ok := p.(*compactionext.ManyRuns); ok {
			return m.Runs
		}
	}
	return 0
}

// pebblerfPlugins is what pebblerf is opened with.
func (c *config) pebblerfPlugins() pebblerf.Plugins {
	// As the library's Open: no plug-in unless a flag asks for it.
	plugins := pebblerf.Plugins{Statistics: c.pebblerfStatistics}
	if c.filterPlanName != "" {
		plugins.Filters = c.planner // made with the options (applyFilters)
	}
	if c.rangeFilterBits != 0 {
		rf := c.rangeFilterConfig()
		plugins.RangeFilter = &rf
		if plan, ok := c.rangeFilterPlan(); ok {
			plugins.RangeFilterLevels = &plan
		}
	}
	plugins.Shape, _ = c.shape() // validated
	if c.compactionAdvisor {
		plugins.Advisor = &compactionext.AdvisorConfig{
			MinInterval: time.Duration(c.advisorIntervalMs) * time.Millisecond,
			WriteBudget: c.advisorBudget,
			// The advisor's decisions are part of what a run measured.
			OnDecision: func(d compactionext.Decision) {
				c.advisorCompactions.Add(1)
				fmt.Fprintf(os.Stderr, "pebblebench: compaction advisor: %s\n", d)
			},
		}
		if c.advisorLog {
			plugins.Advisor.OnLook = func(l compactionext.Look) {
				fmt.Fprintf(os.Stderr, "pebblebench: compaction advisor looked: %s\n", l)
			}
		}
	}
	return plugins
}

// defaultPath reports whether pebblerf runs as pebble.Open opens it: no
// plug-in and no pebblerf-only flag (-compaction_style's shape is given to
// both engines, so it does not count). pebblerf then gets upstream's filter
// policy as well (applyFilters), as a program that switched its import
// path keeps the policy its options name, so that the two engines differ
// only by what the drop-in itself costs.
func (c *config) defaultPath() bool {
	return !c.pebblerfStatistics && c.rangeFilterBits == 0 && !c.compactionAdvisor &&
		!c.useRibbonFilter && c.filterPlanName == "" && !c.useQueryBuilder
}

// pluginDescription says what pebblerf runs with, for the header.
func (c *config) pluginDescription() string {
	shape := "level (Pebble's compactions)"
	if p, _ := c.shape(); p != nil {
		shape = p.Name()
		if m, ok := p.(*compactionext.ManyRuns); ok {
			shape = fmt.Sprintf("%s (%d runs)", shape, m.Runs)
		}
	}
	rf := "off"
	if c.rangeFilterBits != 0 {
		rf = fmt.Sprintf("%g bits/key (pebblerf)", c.rangeFilterBits)
		if c.rangeFilterPlanName != "" {
			rf += ", plan " + c.rangeFilterPlanName
		}
	}
	qb := "off"
	if c.useQueryBuilder {
		qb = "plan " + c.queryPlan + " (pebblerf)"
	}
	return fmt.Sprintf("shape %s (both); range filters %s; query builder %s; statistics %t; advisor %t",
		shape, rf, qb, c.pebblerfStatistics, c.compactionAdvisor)
}
