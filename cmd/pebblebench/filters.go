// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"math"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/compactionext"
)

// Table filters for -bloom_bits, -use_ribbon_filter, -bloom_before_level
// and -use_l6_filters.
//
// pebblerf gets compactionext.DBBenchFilterPlan, which maps the flags as
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
func (c *config) filterPlan() (compactionext.FilterPlan, error) {
	return compactionext.DBBenchFilterPlan(c.bloomBits, c.useRibbonFilter, c.bloomBeforeLevel, c.useL6Filters)
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
