// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/rangequery"
	"github.com/pebblerf/pebble/rangefilter"
)

// Range lengths as the range filter would see them. A range filter's
// false-positive bound, ℓ/2^(B-2), depends on ℓ, the number of values of the
// table's own key map that a query's bounds cover; and whether the filter
// must pass a table depends on whether the table holds a key in the bounds.
// Neither can be read off the bounds alone: both need the table's key map.
// Tables written with range filters carry it in their filter, and Pebble
// hands each table's filter property to any block-property filter of that
// name when it opens the table for an iterator, whether or not the iterator
// filters by range. So, while statistics are on, each bounded iterator gets
// one more filter, rangeLenObserver, which always answers "may intersect"
// and records, per row, how the bounds looked to the table's filter
// (rangequery.Coverage): the map's verdict (outside every value, or a
// stored value inside), whether the filter stores its values exactly, and a
// log2 histogram of ℓ. The what-if (whatif.go) turns them into expected
// false positives at any budget and into the loads a filter must pass.
//
// The observer runs where Pebble consults a range filter: once per table
// Pebble opens for the iterator (per seek for iterators opened per seek),
// before any block of it is read. It counts the check and, for a sample of
// the checks, maps two keys through the table's key map, as a range filter's
// check does (which makes a mapped check cost about a filter query), adding
// to counters of a shard of its own; it allocates nothing. Data blocks carry no range-filter property,
// so block loads cost it nothing. Tables written without range filters
// (before the plug-in was on, or on a level a per-level plan leaves out,
// whose tables carry an empty property) are not observed: the what-if then
// falls back to an assumed ℓ (WhatIf.RangeLen) and says so.
//
// Pebble calls an iterator's filters at a table in the order of
// PointKeyFilters, and the observer comes right after the tracker's own
// filter, whose table-level call names the table (rangecount.go); the
// observer reads that number without consuming it, so a range filter's
// counting wrapper after it still finds it.

// LenBuckets is the number of buckets of RangeLens' histograms: bucket b > 0
// counts ranges of ℓ with bits.Len64(ℓ) = b, that is 2^(b-1) <= ℓ < 2^b,
// and the last bucket also every longer range.
const LenBuckets = 34

// RangeLens is what one row's bounded iterators' range-filter checks saw, as
// the tables' own range filters would have seen them.
type RangeLens struct {
	// Checks are table-level checks observed: a bounded iterator opened a
	// table that carries a range filter. All are counted; the counts below
	// cover a sample of them (Sampled): every check while a counter shard's
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
	// whose filter hashes, the ones whose false positives FPRBound bounds.
	Lens, HashedLens, HashedLenSum [LenBuckets]uint64
	// HashedHolds are the hashed checks where the filter said "may
	// intersect": true and false positives together.
	HashedHolds uint64
	// HashedFPRSum is the sum over the hashed checks of the filter's own
	// expected false-positive rate for the query (rangequery.Coverage.FPR),
	// and HashedBitsSum of the budget it was written with: the false
	// positives the filters as written would give, and their mean budget.
	HashedFPRSum, HashedBitsSum float64
}

// Sampled returns the checks whose coverage was taken: the denominator of
// the other counts' shares.
func (l *RangeLens) Sampled() uint64 {
	n := l.Outside
	for _, c := range l.Lens {
		n += c
	}
	return n
}

// Hashed returns the checks of tables whose filter hashes.
func (l *RangeLens) Hashed() uint64 {
	var n uint64
	for _, c := range l.HashedLens {
		n += c
	}
	return n
}

// ExpectedFalsePositives is the sum over the sampled hashed checks of
// cfg.FPRBound(ℓ): the false positives that filters of cfg's budget would
// be expected to give on them, if none of those tables held a key in the
// bounds (those that do pass anyway, so this is an upper bound). Checks of
// exactly stored tables, and those outside the map, give none.
func (l *RangeLens) ExpectedFalsePositives(cfg rangefilter.Config) float64 {
	perPosition := cfg.FPRBound(1)
	var fp float64
	for b := range l.HashedLens {
		// FPRBound is linear in ℓ up to its cap of 1 per check; a bucket's
		// checks are summed as one, which is exact unless the cap falls
		// inside the bucket.
		fp += min(float64(l.HashedLens[b]), float64(l.HashedLenSum[b])*perPosition)
	}
	return fp
}

// WrittenBitsPerKey is the mean budget the hashed checks' filters were
// written with; ok is false without hashed checks.
func (l *RangeLens) WrittenBitsPerKey() (float64, bool) {
	n := l.Hashed()
	if n == 0 {
		return 0, false
	}
	return l.HashedBitsSum / float64(n), true
}

// LenQuantile returns an upper bound of the q-quantile (0 < q <= 1) of ℓ over
// the checks with ℓ > 0: 2^b - 1 for the bucket b it falls in; ok is false
// without such checks.
func (l *RangeLens) LenQuantile(q float64) (uint64, bool) {
	var n uint64
	for _, c := range l.Lens {
		n += c
	}
	if n == 0 {
		return 0, false
	}
	want := uint64(math.Ceil(q * float64(n)))
	var seen uint64
	for b, c := range l.Lens {
		seen += c
		if seen >= max(want, 1) {
			if b == LenBuckets-1 {
				break
			}
			return 1<<b - 1, true
		}
	}
	return math.MaxUint64, true
}

// Add adds o's counts to l.
func (l *RangeLens) Add(o RangeLens) {
	l.Checks += o.Checks
	l.Undecoded += o.Undecoded
	l.Outside += o.Outside
	l.ExactHolds += o.ExactHolds
	l.ExactEmpty += o.ExactEmpty
	l.HashedHolds += o.HashedHolds
	l.HashedFPRSum += o.HashedFPRSum
	l.HashedBitsSum += o.HashedBitsSum
	for b := range l.Lens {
		l.Lens[b] += o.Lens[b]
		l.HashedLens[b] += o.HashedLens[b]
		l.HashedLenSum[b] += o.HashedLenSum[b]
	}
}

// The counters of one row, laid out flat in a shard.
const (
	lenChecks = iota
	lenUndecoded
	lenOutside
	lenExactHolds
	lenExactEmpty
	lenHashedHolds
	lenHashedFPR  // fixed point, lenFPRScale per 1
	lenHashedBits // fixed point, lenBitsScale per bit
	lenHist
	lenHashedHist    = lenHist + LenBuckets
	lenHashedHistSum = lenHashedHist + LenBuckets
	lenPerRow        = lenHashedHistSum + LenBuckets
)

const numLenShards = 8

// The fixed-point scales of the hashed checks' sums of rate and budget:
// 2^32 checks of rate 1 fit, and 2^40 of 40 bits.
const (
	lenFPRScale  = 1 << 32
	lenBitsScale = 1 << 16
)

// lenSampleAll and lenSampleEvery set the sample (see RangeLens.Checks).
const (
	lenSampleAll   = 1024
	lenSampleEvery = 16
)

// lenSampled picks one check in lenSampleEvery by the check's number n. A
// plain n%16 would alias with workloads whose seeks check a fixed number of
// tables (always the first table of a seek, say); the golden-ratio
// sequence n·φ mod 1 falls below 1/16 for one n in 16 without a period.
func lenSampled(n uint64) bool {
	return n*0x9e3779b97f4a7c15 < (1<<64)/lenSampleEvery
}

type lenShard struct {
	c [int(NumRows) * lenPerRow]atomic.Uint64
	_ [64]byte
}

// rangeLens are a Statistics' range-length counters, sharded like the
// tickers so that iterators on different cores do not share a cache line.
type rangeLens struct {
	shards [numLenShards]lenShard
}

func (s *rangeLens) snapshot(pop bool) [NumRows]RangeLens {
	var out [NumRows]RangeLens
	for i := range s.shards {
		sh := &s.shards[i]
		for r := range out {
			c := sh.c[r*lenPerRow : (r+1)*lenPerRow]
			load := func(j int) uint64 {
				if pop {
					return c[j].Swap(0)
				}
				return c[j].Load()
			}
			o := &out[r]
			o.Checks += load(lenChecks)
			o.Undecoded += load(lenUndecoded)
			o.Outside += load(lenOutside)
			o.ExactHolds += load(lenExactHolds)
			o.ExactEmpty += load(lenExactEmpty)
			o.HashedHolds += load(lenHashedHolds)
			o.HashedFPRSum += float64(load(lenHashedFPR)) / lenFPRScale
			o.HashedBitsSum += float64(load(lenHashedBits)) / lenBitsScale
			for b := 0; b < LenBuckets; b++ {
				o.Lens[b] += load(lenHist + b)
				o.HashedLens[b] += load(lenHashedHist + b)
				o.HashedLenSum[b] += load(lenHashedHistSum + b)
			}
		}
	}
	return out
}

// RangeLens returns each row's range-length counts (see RangeLens); zero for
// a nil *Statistics.
func (s *Statistics) RangeLens() [NumRows]RangeLens {
	if s == nil {
		return [NumRows]RangeLens{}
	}
	return s.lens.snapshot(false)
}

// resetRangeLens zeroes the range-length counts.
func (s *Statistics) resetRangeLens() { s.lens.snapshot(true) }

// observeRangeLens is false only in BenchmarkRangeLenObserver's runs
// without the observer, which it compares with runs with it.
var observeRangeLens = true

// rangeLenObserver is the always-true filter that records RangeLens for
// one tracker's bounded iterator.
type rangeLenObserver struct {
	t      *IterTracker
	sh     *lenShard
	active bool
	buf    []byte // the upper bound, when it needs a byte added
}

// attach appends the observer to filters when the tracker's iterator is
// bounded; the tracker's own filter must be the last one in filters.
func (o *rangeLenObserver) attach(t *IterTracker, filters []pebble.BlockPropertyFilter) []pebble.BlockPropertyFilter {
	o.t = t
	o.active = t.bounded && observeRangeLens
	if !o.active {
		return filters
	}
	// Trackers are pooled across DBs: the shard is picked anew each time.
	p := uintptr(unsafe.Pointer(o))
	o.sh = &t.s.lens.shards[(p>>6^p>>12)%numLenShards]
	return append(filters, o)
}

func (o *rangeLenObserver) Name() string { return rangefilter.Name }

// Intersects records a table-level check (the only non-empty property a
// range filter's collector writes) and lets everything through.
func (o *rangeLenObserver) Intersects(prop []byte) (bool, error) {
	if len(prop) > 0 {
		o.observe(prop)
	}
	return true, nil
}

// SyntheticSuffixIntersects is Intersects: a synthetic suffix does not
// change Split prefixes.
func (o *rangeLenObserver) SyntheticSuffixIntersects(prop []byte, _ []byte) (bool, error) {
	return o.Intersects(prop)
}

func (o *rangeLenObserver) observe(prop []byte) {
	filter, ok, err := rangequery.FilterOfProperty(prop)
	if err == nil && !ok {
		// A table its level's plan left without a filter.
		return
	}
	t := o.t
	row := RowUnattributed
	if t.tableArmed && t.tableNum != 0 {
		if f := t.s.files.lookup(t.tableNum); f != nil {
			row = f.row()
		}
	}
	cs := o.sh.c[int(row)*lenPerRow : (int(row)+1)*lenPerRow]
	if n := cs[lenChecks].Add(1); n > lenSampleAll && !lenSampled(n) {
		return
	}
	var lo, hi []byte
	lo, hi, o.buf = rangequery.Bounds(t.s.split, t.lower, t.upper, o.buf)
	var c rangequery.Coverage
	if err == nil {
		c, ok = rangequery.CoverageOf(filter, lo, hi)
	}
	if err != nil || !ok {
		cs[lenUndecoded].Add(1)
		return
	}
	switch {
	case c.Positions == 0:
		cs[lenOutside].Add(1)
		return
	case !c.Hashed && c.Holds:
		cs[lenExactHolds].Add(1)
	case !c.Hashed:
		cs[lenExactEmpty].Add(1)
	case c.Holds:
		cs[lenHashedHolds].Add(1)
	}
	b := min(bits.Len64(c.Positions), LenBuckets-1)
	cs[lenHist+b].Add(1)
	if c.Hashed {
		cs[lenHashedFPR].Add(uint64(c.FPR * lenFPRScale))
		cs[lenHashedBits].Add(uint64(c.BitsPerKey * lenBitsScale))
		cs[lenHashedHist+b].Add(1)
		// ℓ past 2^40 gives every budget a bound of 1; capping it keeps the
		// sum from overflowing.
		cs[lenHashedHistSum+b].Add(min(c.Positions, 1<<40))
	}
}
