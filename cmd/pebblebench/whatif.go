// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"strings"

	upstream "github.com/cockroachdb/pebble/v2"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/whatif"
)

// defaultPrefixWhatIfBits is the Bloom budget of the prefix what-if when
// -bloom_bits sets none: db_bench's customary 10 bits per key.
const defaultPrefixWhatIfBits = 10

// whatIfBits returns the budgets of the range and prefix what-ifs the flags
// ask for, 0 for none.
func (c *config) whatIfBits() (rangeBits, prefixBits float64) {
	switch {
	case c.rangeWhatIfBits > 0:
		rangeBits = c.rangeWhatIfBits
	case c.rangeWhatIfBits == 0 && c.rangeFilterBits == 0:
		rangeBits = rangefilter.DefaultBitsPerKey
	}
	switch {
	case c.prefixSize == 0:
		// Without -prefix_size seekrandom uses SeekGE, which consults no
		// prefix filter: a prefix filter would save nothing.
	case c.prefixWhatIfBits > 0:
		prefixBits = c.prefixWhatIfBits
	case c.prefixWhatIfBits == 0 && c.bloomBits >= 0.5:
		prefixBits = c.bloomBits
	case c.prefixWhatIfBits == 0:
		prefixBits = defaultPrefixWhatIfBits
	}
	return rangeBits, prefixBits
}

// whatIfs computes the what-ifs the flags ask for on db's statistics and
// its current LSM shape.
func whatIfs(db *pebblerf.DB, c *config) (rng, prefix []whatif.Level, w whatif.Options, err error) {
	levels, err := db.SSTables(upstream.WithProperties())
	if err != nil {
		return nil, nil, w, err
	}
	w.Shape = whatif.ShapeOf(levels)
	sn := db.Statistics().PerLevel().Snapshot()
	rb, pb := c.whatIfBits()
	if rb > 0 {
		w.BitsPerKey = rb
		rng = whatif.RangeFilters(&sn, w)
	}
	if pb > 0 {
		w.BitsPerKey = pb
		prefix = whatif.PrefixFilters(&sn, w)
	}
	return rng, prefix, w, nil
}

// whatIfLines are the "what-if" lines printed under the per-level table:
// per level, what range filters of -range_filter_whatif_bits and prefix
// filters of -prefix_filter_whatif_bits would save and cost on the
// workload counted (whatif.RangeFilters and whatif.PrefixFilters).
func whatIfLines(db *pebblerf.DB, c *config) string {
	rng, prefix, _, err := whatIfs(db, c)
	if err != nil {
		return fmt.Sprintf("what-if: %v\n", err)
	}
	rb, pb := c.whatIfBits()
	var b strings.Builder
	if len(rng) > 0 {
		fmt.Fprintf(&b, "what-if range filters of %g bits/key (FPR bound at the range lengths observed in the tables' range filters,"+
			" else at %d key positions; filter bytes at the budget are an upper bound, those as written are measured):\n",
			rb, whatif.DefaultRangeLen)
		b.WriteString(whatif.Table("range", rng))
	}
	if len(prefix) > 0 {
		fmt.Fprintf(&b, "what-if prefix filters of %g bits/key on levels no prefix filter decided (assumes SeekPrefixGE seeks):\n", pb)
		b.WriteString(whatif.Table("prefix", prefix))
	}
	return b.String()
}
