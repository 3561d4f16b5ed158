// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"math"

	"github.com/pebblerf/pebble/internal/rangebounds"
	"github.com/pebblerf/pebble/internal/tableprops"
)

// A filter's false-positive bound depends on how many key-map values a
// query covers in the table it is asked about, which only the table's own
// key map knows: the same bounds cover two values of a dense table and
// thousands of a sparse one. Properties answers that question for a reader
// that wants to predict what a filter would do (pebblerf's statistics
// record it for the what-if) without asking the filter to decide anything.

// Coverage is how a query [lower, upper) looks to one table's filter
// (Properties.Coverage).
type Coverage = rangebounds.Coverage

// Properties reads range filters out of table properties, as Pebble hands
// them to a block-property filter of the range filter's Name when it opens
// a table. pebblerf's statistics read them through it.
type Properties struct{}

var _ rangebounds.Reader = Properties{}

// Name is the name of the block property that holds the filter.
func (Properties) Name() string { return Name }

// Filter returns the range filter held in a table's range-filter block
// property, as Pebble passes it to a BlockPropertyFilter's Intersects at
// the table level. ok is false, with no error, for the property of a table
// written without a filter; err is set when the property does not decode.
func (Properties) Filter(prop []byte) (filter []byte, ok bool, err error) {
	return filterOfProperty(prop)
}

// Coverage is the query's Coverage in filter, an encoded range filter;
// lower and upper are bounds prepared as a bounds filter prepares them
// (Split prefixes, the upper one extended by a zero byte where it is a bare
// prefix). ok is false for a filter that does not decode or is universal
// (it answers "may intersect" to all). It does not allocate.
func (Properties) Coverage(filter, lower, upper []byte) (Coverage, bool) {
	return coverageOf(filter, lower, upper)
}

// filterOfProperty is Properties.Filter.
func filterOfProperty(prop []byte) (filter []byte, ok bool, err error) {
	return tableprops.Lookup(prop, rangeFilterProp)
}

// coverageOf is Properties.Coverage.
func coverageOf(filter, lower, upper []byte) (c rangebounds.Coverage, ok bool) {
	var v rangeFilterView
	if !v.parse(filter) || v.flags&rangeFlagUniversal != 0 {
		return rangebounds.Coverage{}, false
	}
	if v.n == 0 {
		return rangebounds.Coverage{}, true
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

// hashedFPR is rangebounds.Coverage.FPR for the values [lo, hi] of a hashed filter.
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
