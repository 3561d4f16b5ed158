// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"math"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/tableprops"
)

// A filter's false-positive bound depends on how many key-map values a
// query covers in the table it is asked about, which only the table's own
// key map knows: the same bounds cover two values of a dense table and
// thousands of a sparse one. Coverage answers that question for a reader
// that wants to predict what a filter would do (package seekstats' what-if)
// without asking the filter to decide anything.

// Coverage is how a query [lower, upper) looks to one table's filter.
type Coverage struct {
	// Positions is the number of key-map values the query covers once its
	// bounds are mapped and clamped to the table's values: 0 when the map
	// alone excludes the table (any filter built from these keys answers
	// "no"), otherwise the ℓ of the bound ℓ/2^(B-2) for a hashed filter.
	Positions uint64
	// Hashed is set when the filter reduces its values by the hash, so that
	// Config.FPRBound(Positions) bounds its false-positive rate; otherwise it
	// stores the values exactly and Holds is its exact answer.
	Hashed bool
	// Holds is set when a stored value lies in the covered positions: for an
	// exact filter, the table holds a key in the bounds (rounded outward
	// where a bound is not a table key), so any range filter must pass it;
	// for a hashed one, the filter answers "may intersect".
	Holds bool
	// FPR, for a hashed filter, is the chance that it answers "may
	// intersect" to the query if the table holds no key in the bounds: the
	// bound ℓ/2^(B-2) scaled by the share of the table's keys outside the
	// query's hash blocks (keys inside them cannot collide with it; see
	// range_hash.go), which are taken to be spread evenly over the key map.
	// Where the map spans few blocks of r = n·2^(B-2) values, as with keys
	// only somewhat sparser than the budget stores exactly, it is well
	// below the bound. Zero for an exact filter.
	FPR float64
	// BitsPerKey, for a hashed filter, is the budget it was written with,
	// 2 + log2(r/n) (a little over it where hashed values collided).
	BitsPerKey float64
}

// FilterOfProperty returns the range filter held in a table's range-filter
// block property, as Pebble passes it to a BlockPropertyFilter's Intersects
// at the table level. ok is false, with no error, for the empty property of
// a table its level's plan left without a filter; err is set when the
// property does not decode.
func FilterOfProperty(prop []byte) (filter []byte, ok bool, err error) {
	return tableprops.Lookup(prop, rangeFilterProp)
}

// CoverageOfProperty is Coverage for a table's range-filter block property as
// Pebble passes it to a BlockPropertyFilter's Intersects at the table level
// (the property named Name). lower and upper are bounds prepared by
// QueryBounds. ok is false when the property holds no filter, or one that
// does not decode or is universal (it answers "may intersect" to all).
func CoverageOfProperty(prop, lower, upper []byte) (c Coverage, ok bool) {
	filter, ok, err := FilterOfProperty(prop)
	if err != nil || !ok {
		return Coverage{}, false
	}
	return CoverageOf(filter, lower, upper)
}

// CoverageOf is the query's Coverage in filter, an encoded range filter;
// see CoverageOfProperty. It does not allocate.
func CoverageOf(filter, lower, upper []byte) (c Coverage, ok bool) {
	var v rangeFilterView
	if !v.parse(filter) || v.flags&rangeFlagUniversal != 0 {
		return Coverage{}, false
	}
	if v.n == 0 {
		return Coverage{}, true
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

// hashedFPR is Coverage.FPR for the values [lo, hi] of a hashed filter.
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

// QueryBounds turns an iterator's bounds [lower, upper) into the bounds its
// range filter is asked about: keys >= lower have prefixes >= split(lower),
// keys < upper have prefixes <= split(upper), and < upper when upper is a
// bare prefix (a bare prefix sorts before its extensions). The upper bound
// is appended to buf when it needs a byte added; the lower one aliases
// lower. Nil bounds stay nil (open).
func QueryBounds(split pebble.Split, lower, upper, buf []byte) (lo, hi, newBuf []byte) {
	prefix := func(key []byte) []byte {
		n := len(key)
		if split != nil {
			n = split(key)
		}
		return key[:max(0, min(n, len(key)))]
	}
	if lower != nil {
		lo = prefix(lower)
		if lo == nil {
			lo = []byte{}
		}
	}
	if upper != nil {
		up := prefix(upper)
		switch {
		case len(up) < len(upper):
			buf = append(append(buf[:0], up...), 0)
			hi = buf
		default:
			hi = up
		}
		if hi == nil {
			hi = []byte{}
		}
	}
	return lo, hi, buf
}
