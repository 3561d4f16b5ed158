// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"github.com/pebblerf/pebble/internal/attribution"
)

// Range lengths as the range filter would see them. A range filter's
// false-positive bound, ℓ/2^(B-2), depends on ℓ, the number of values of the
// table's own key map that a query's bounds cover; and whether the filter
// must pass a table depends on whether the table holds a key in the bounds.
// Neither can be read off the bounds alone: both need the table's key map.
// Tables written with range filters carry it in their filter, and while the
// full statistics are on each bounded iterator records, per row, how its
// bounds looked to the filters of the tables it opened, whether or not it
// filters by range. The what-if (package whatif) turns them into expected
// false positives at any budget and into the loads a filter must pass.
// Tables written without range filters (before the plug-in was on, or on a
// level a per-level plan leaves out) are not observed: the what-if then
// falls back to an assumed ℓ and says so.

// LenBuckets is the number of buckets of RangeLens' histograms: bucket b > 0
// counts ranges of ℓ with bits.Len64(ℓ) = b, that is 2^(b-1) <= ℓ < 2^b,
// and the last bucket also every longer range.
const LenBuckets = attribution.LenBuckets

// RangeLens is what one row's bounded iterators' range-filter checks saw, as
// the tables' own range filters would have seen them.
type RangeLens struct {
	// Checks are table-level checks observed: a bounded iterator opened a
	// table that carries a range filter. All are counted; the counts below
	// cover a sample of them (Outside plus the Lens buckets): every check
	// while a counter shard's
	// row has seen up to 1024, then one in 16, which keeps the observation's
	// cost a small fraction of a range filter's while its shares stay those
	// of the workload (rare events, such as a level's few checks that hold a
	// key, are seen only as often as the sample meets them).
	Checks uint64
	// Undecoded are sampled checks whose filter did not decode, or is
	// universal; they say nothing of ℓ.
	Undecoded uint64
	// Outside are checks whose bounds the table's key map puts outside all
	// its values (ℓ = 0): any range filter built from the table's keys says
	// "no", whatever its budget.
	Outside uint64
	// ExactHolds and ExactEmpty split the other checks of tables whose
	// filter stores its values exactly: the table holds a key in the bounds
	// (a range filter must pass it), or not (an exact filter says "no").
	ExactHolds, ExactEmpty uint64
	// Lens counts the checks with ℓ > 0 by bucket (see LenBuckets), over all
	// tables; HashedLens and HashedLenSum count and sum ℓ over the tables
	// whose filter hashes, the ones whose false positives
	// rangefilter.Config.FPRBound bounds.
	Lens, HashedLens, HashedLenSum [LenBuckets]uint64
	// HashedHolds are the hashed checks where the filter said "may
	// intersect": true and false positives together.
	HashedHolds uint64
	// HashedFPRSum is the sum over the hashed checks of the filter's own
	// expected false-positive rate for the query (the chance it answers
	// "may intersect" though the table holds no key in the bounds),
	// and HashedBitsSum of the budget it was written with: the false
	// positives the filters as written would give, and their mean budget.
	HashedFPRSum, HashedBitsSum float64
}

// rangeLensOf converts one row's stored counts.
func rangeLensOf(c [attribution.LenPerRow]uint64) RangeLens {
	var o RangeLens
	o.Checks = c[attribution.LenChecks]
	o.Undecoded = c[attribution.LenUndecoded]
	o.Outside = c[attribution.LenOutside]
	o.ExactHolds = c[attribution.LenExactHolds]
	o.ExactEmpty = c[attribution.LenExactEmpty]
	o.HashedHolds = c[attribution.LenHashedHolds]
	o.HashedFPRSum = float64(c[attribution.LenHashedFPR]) / attribution.LenFPRScale
	o.HashedBitsSum = float64(c[attribution.LenHashedBits]) / attribution.LenBitsScale
	for b := 0; b < LenBuckets; b++ {
		o.Lens[b] = c[attribution.LenHist+b]
		o.HashedLens[b] = c[attribution.LenHashedHist+b]
		o.HashedLenSum[b] = c[attribution.LenHashedHistSum+b]
	}
	return o
}
