// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"math"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/pointfilter"
)

// Table filters for -bloom_bits, -use_ribbon_filter, -bloom_before_level
// and -use_l6_filters.
//
// pebblerf gets dbBenchFilterPlan, which maps the flags as
// RocksDB reads them: -bloom_bits below 0.5 means no filter, other values are
// clamped to [1, 100]; Bloom everywhere, or with -use_ribbon_filter Ribbon
// from the level -bloom_before_level names (-1: everywhere; 0: all but L0,
// where flushes write). Upstream Pebble has only its own Bloom filter, so it
// gets bloom.FilterPolicy with the bits rounded to whole bits on every level
// and ignores -use_ribbon_filter.
//
// L6 is treated alike in both engines: its tables get filters only with
// -use_l6_filters, which also makes the reads ask for them
// (IterOptions.UseL6Filters). Pebble never reads L6 filters otherwise, so
// writing them would cost build time and space for nothing, and giving one
// engine L6 filters the other lacks would skew both the write figures and
// the filter footprint in levelstats.

// filterPlan is pebblerf's plan for the flags.
func (c *config) filterPlan() (pointfilter.Plan, error) {
	return dbBenchFilterPlan(c.bloomBits, c.useRibbonFilter, c.bloomBeforeLevel, c.useL6Filters)
}

// filtersEnabled reports whether -bloom_bits asks for table filters.
func (c *config) filtersEnabled() bool {
	plan, err := c.filterPlan()
	return err == nil && plan.BitsPerKey > 0
}

// upstreamBloomBits is the whole bits per key upstream's Bloom filter gets.
func (c *config) upstreamBloomBits() int {
	return int(math.Round(min(max(c.bloomBits, 1), 100)))
}

// applyFilters installs the engine's table filters into o.Levels.
func (c *config) applyFilters(engineName string, o *upstream.Options) error {
	if !c.filtersEnabled() {
		return nil
	}
	if engineName == enginePebbleRF {
		plan, err := c.filterPlan()
		if err != nil {
			return err
		}
		return plan.Apply(o)
	}
	policy := bloom.FilterPolicy(c.upstreamBloomBits())
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = policy
	}
	if !c.useL6Filters {
		o.Levels[len(o.Levels)-1].FilterPolicy = upstream.NoFilterPolicy
	}
	return nil
}

// filterDescription says which filters each engine uses, for the header.
func (c *config) filterDescription() string {
	if !c.filtersEnabled() {
		return "none"
	}
	plan, _ := c.filterPlan()
	levels := "L0-L5, none on L6"
	if c.useL6Filters {
		levels = "L0-L6 (L6 read with UseL6Filters)"
	}
	return fmt.Sprintf("pebble: bloom.FilterPolicy(%d) on %s; pebblerf: %s", c.upstreamBloomBits(), levels, plan)
}

// dbBenchFilterPlan maps db_bench's (and RocksDB's) filter options onto a
// plan:
//
//   - bloomBits is -bloom_bits. As in RocksDB, values below 0.5 (db_bench's
//     default is -1) mean no filters, [0.5, 1) means 1, and values above 100
//     mean 100.
//   - useRibbon is -use_ribbon_filter. Without it every level uses Bloom.
//   - bloomBeforeLevel is RocksDB's bloom_before_level, with which levels
//     below it use Bloom and the rest Ribbon, a flush counting as level −1.
//     Pebble builds flushed tables and intra-L0 compaction outputs with the
//     same L0 options and cannot tell them apart, so: −1 (Ribbon always) maps
//     to RibbonFromLevel 0; 0 (RocksDB's default: Bloom for flushes only)
//     maps to 1, Bloom in L0; N ≥ 1 maps to N; math.MaxInt32 or more (Bloom
//     always) maps to pointfilter.NoRibbon. Values below −1 are an error.
//   - useL6Filters is -use_l6_filters: write L6 filters (and read them, via
//     UseL6Filters). Without it L6 has none, as Pebble never reads them
//     unless asked.
func dbBenchFilterPlan(bloomBits float64, useRibbon bool, bloomBeforeLevel int, useL6Filters bool) (pointfilter.Plan, error) {
	plan := pointfilter.Plan{L6Filters: useL6Filters, RibbonFromLevel: pointfilter.NoRibbon}
	switch {
	case math.IsNaN(bloomBits):
		return pointfilter.Plan{}, errors.Newf("-bloom_bits %v is not a number", bloomBits)
	case bloomBits < 0.5:
		plan.BitsPerKey = 0
	default:
		plan.BitsPerKey = min(max(bloomBits, 1), 100)
	}
	if !useRibbon {
		return plan, nil
	}
	switch {
	case bloomBeforeLevel < -1:
		return pointfilter.Plan{}, errors.Newf("-bloom_before_level %d is below -1", bloomBeforeLevel)
	case bloomBeforeLevel == -1:
		plan.RibbonFromLevel = 0
	case bloomBeforeLevel == 0:
		plan.RibbonFromLevel = 1
	case bloomBeforeLevel >= math.MaxInt32:
		plan.RibbonFromLevel = pointfilter.NoRibbon
	default:
		plan.RibbonFromLevel = bloomBeforeLevel
	}
	return plan, nil
}
