// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/rangefilter"
)

// Table filters for -bloom_bits, -use_ribbon_filter and -bloom_before_level.
//
// Upstream Pebble gets its own bloom.FilterPolicy with -bloom_bits rounded
// to whole bits (see options), on every level; it has no Ribbon filter, so
// -use_ribbon_filter applies to pebblerf only. pebblerf gets
// rangefilter.Bloom, or with -use_ribbon_filter rangefilter.Ribbon sized for
// the false-positive rate of a Bloom filter of -bloom_bits, with Bloom kept
// for the levels above -bloom_before_level as RocksDB's
// NewRibbonFilterPolicy(bits, bloom_before_level) does:
//
//	-1   Ribbon on every level
//	0    Bloom for flushes, Ribbon elsewhere. Pebble's per-level options cannot
//	     tell a flush from an L0 compaction, so this is Bloom on L0, which
//	     makes 0 and 1 the same here.
//	N    Bloom on L0..L(N-1), Ribbon from LN down; 7 or more: Bloom everywhere
//
// Filters are written on every level, L6 included; Pebble reads L6 filters
// only with IterOptions.UseL6Filters (-use_l6_filters).

// pebbleRFFilter returns pebblerf's filter policy for a level.
func (c *config) pebbleRFFilter(level int) (upstream.FilterPolicy, error) {
	if c.useRibbonFilter && !c.bloomOnLevel(level) {
		return rangefilter.NewRibbon(c.bloomBits)
	}
	return rangefilter.NewBloom(c.bloomBits)
}

// bloomOnLevel reports whether a level keeps Bloom under -use_ribbon_filter.
func (c *config) bloomOnLevel(level int) bool {
	if c.bloomBeforeLevel < 0 {
		return false
	}
	return level < max(c.bloomBeforeLevel, 1)
}

// applyPebbleRFFilters installs pebblerf's filters into o.Levels.
func (c *config) applyPebbleRFFilters(o *upstream.Options) error {
	for i := range o.Levels {
		policy, err := c.pebbleRFFilter(i)
		if err != nil {
			return badFlag("bloom_bits", "%v", err)
		}
		o.Levels[i].FilterPolicy = policy
		o.Levels[i].FilterType = upstream.TableFilter
	}
	return nil
}

// filterDescription says which filter each engine uses, for the header.
func (c *config) filterDescription() string {
	if !c.filtersEnabled() {
		return "none"
	}
	rf := fmt.Sprintf("rangefilter.Bloom(%g) on all levels", c.bloomBits)
	if c.useRibbonFilter {
		bloomLevels := 0
		for i := 0; i < 7; i++ {
			if c.bloomOnLevel(i) {
				bloomLevels++
			}
		}
		switch bloomLevels {
		case 0:
			rf = fmt.Sprintf("rangefilter.Ribbon(%g) on all levels", c.bloomBits)
		case 7:
			rf = fmt.Sprintf("rangefilter.Bloom(%g) on all levels (-bloom_before_level=%d)", c.bloomBits, c.bloomBeforeLevel)
		default:
			rf = fmt.Sprintf("rangefilter.Bloom(%g) on L0-L%d, rangefilter.Ribbon(%g) below", c.bloomBits, bloomLevels-1, c.bloomBits)
		}
	}
	l6 := "L6 filters written, read only by seeks with -use_l6_filters"
	if c.useL6Filters {
		l6 = "L6 filters read (-use_l6_filters)"
	}
	return fmt.Sprintf("pebble: bloom.FilterPolicy(%d) on all levels; pebblerf: %s; %s", c.upstreamBloomBits(), rf, l6)
}
