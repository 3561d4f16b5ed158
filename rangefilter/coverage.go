// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"math"

	"github.com/pebblerf/pebble/internal/rangequery"
	"github.com/pebblerf/pebble/internal/tableprops"
)

// A filter's false-positive bound depends on how many key-map values a
// query covers in the table it is asked about, which only the table's own
// key map knows: the same bounds cover two values of a dense table and
// thousands of a sparse one. coverageOf answers that question
// (rangequery.CoverageOf) for a reader that wants to predict what a filter
// would do (the statistics' range-length recording, for the what-if)
// without asking the filter to decide anything.

func init() {
	rangequery.FilterOfProperty = filterOfProperty
	rangequery.CoverageOf = coverageOf
}

// filterOfProperty returns the range filter held in a table's range-filter
// block property, as Pebble passes it to a BlockPropertyFilter's Intersects
// at the table level. ok is false, with no error, for the empty property of
// a table its level's plan left without a filter; err is set when the
// property does not decode.
func filterOfProperty(prop []byte) (filter []byte, ok bool, err error) {
	return tableprops.Lookup(prop, rangeFilterProp)
}

// coverageOf is the query's Coverage in filter, an encoded range filter;
// lower and upper are bounds prepared by rangequery.Bounds. ok is false for
// a filter that does not decode or is universal (it answers "may
// intersect" to all). It does not allocate.
func coverageOf(filter, lower, upper []byte) (c rangequery.Coverage, ok bool) {
	var v rangeFilterView
	if !v.parse(filter) || v.flags&rangeFlagUniversal != 0 {
		return rangequery.Coverage{}, false
	}
	if v.n == 0 {
		return rangequery.Coverage{}, true
	}
	c.Hashed = v.flags&rangeFlagHashed != 0
	lo, hi, empty, ok := v.valueRange(lower, upper)
	if !ok || empty {
		return c, ok
	}
	c.Positions = hi - lo + 1
	if c.Positions == 0 {
		c.Positions = ^uint64(0) // the whole 64-bit axis
	}
	if c.Hashed {
		c.Holds, ok = v.h.anyInRange(&v.ef, lo, hi)
		c.FPR = hashedFPR(&v, lo, hi)
		c.BitsPerKey = 2 + math.Log2(float64(v.h.r)/float64(v.n))
	} else {
		c.Holds, ok = v.ef.anyInRange(lo, hi)
	}
	return c, ok
}

// hashedFPR is rangequery.Coverage.FPR for the values [lo, hi] of a hashed filter.
func hashedFPR(v *rangeFilterView, lo, hi uint64) float64 {
	r := v.h.r
	if hi-lo >= r-1 {
		return 1 // the filter answers "may intersect" to such queries
	}
	u := float64(v.segs.total) + 1
	start := float64(lo/r) * float64(r)
	end := min((float64(hi/r)+1)*float64(r), u)
	other := max(0, 1-(end-start)/u)
	return min(1, float64(hi-lo+1)*float64(v.n)*other/float64(r))
}
