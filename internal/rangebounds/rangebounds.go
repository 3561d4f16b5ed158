// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package rangebounds is how a bounded read looks to a table's range filter,
// for the packages on both sides of it: the bounds a filter is asked about
// (Bounds), and what a reader that predicts what a filter would do, without
// asking it to decide, learns from a table's filter (Coverage, through a
// Reader). Package rangefilter, which owns the filter's encoding,
// implements Reader; the statistics read through it, and so need not
// import rangefilter.
package rangebounds

import "github.com/cockroachdb/pebble/v2"

// Coverage is how a query [lower, upper) looks to one table's filter.
type Coverage struct {
	// Positions is the number of key-map values the query covers once its
	// bounds are mapped and clamped to the table's values: 0 when the map
	// alone excludes the table (any filter built from these keys answers
	// "no"), otherwise the ℓ of the bound ℓ/2^(B-2) for a hashed filter.
	Positions uint64
	// Hashed is set when the filter reduces its values by the hash, so
	// that rangefilter.Config.FPRBound(Positions) bounds its false-positive
	// rate; otherwise it stores the values exactly and Holds is its exact
	// answer.
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
	// rangefilter's range_hash.go), which are taken to be spread evenly over
	// the key map.
	// Where the map spans few blocks of r = n·2^(B-2) values, as with keys
	// only somewhat sparser than the budget stores exactly, it is well
	// below the bound. Zero for an exact filter.
	FPR float64
	// BitsPerKey, for a hashed filter, is the budget it was written with,
	// 2 + log2(r/n) (a little over it where hashed values collided).
	BitsPerKey float64
}

// Reader reads range filters out of table properties for a reader that
// predicts what a filter would answer without asking it to decide (the
// statistics' range-length recording): rangefilter.Properties is one.
type Reader interface {
	// Name is the name of the block property that holds the filter.
	Name() string
	// Filter returns the range filter held in a table's range-filter block
	// property, as Pebble passes it to a BlockPropertyFilter's Intersects
	// at the table level. ok is false, with no error, for a table written
	// without a filter; err is set when the property does not decode.
	Filter(prop []byte) (filter []byte, ok bool, err error)
	// Coverage is the Coverage of [lower, upper), bounds prepared by
	// Bounds, in filter, an encoded range filter. ok is false for a filter
	// that does not decode or is universal (it answers "may intersect" to
	// all). It does not allocate.
	Coverage(filter, lower, upper []byte) (Coverage, bool)
}

// Bounds turns an iterator's bounds [lower, upper) into the bounds its
// range filter is asked about: keys >= lower have prefixes >= split(lower),
// keys < upper have prefixes <= split(upper), and < upper when upper is a
// bare prefix (a bare prefix sorts before its extensions). The upper bound
// is appended to buf when it needs a byte added; the lower one aliases
// lower. Nil bounds stay nil (open).
func Bounds(split pebble.Split, lower, upper, buf []byte) (lo, hi, newBuf []byte) {
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
