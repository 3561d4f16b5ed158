// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"math/bits"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/rangebounds"
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
// (rangebounds.Coverage), as seekstats.RangeLens reads them: the map's
// verdict (outside every value, or a stored value inside), whether the
// filter stores its values exactly, and a log2 histogram of ℓ. The what-if
// (package whatif) turns them into expected false positives at any budget
// and into the loads a filter must pass.
//
// The observer runs where Pebble consults a range filter: once per table
// Pebble opens for the iterator (per seek for iterators opened per seek),
// before any block of it is read. It counts the check and, for a sample of
// the checks, maps two keys through the table's key map, as a range filter's
// check does (which makes a mapped check cost about a filter query), adding
// to counters of a shard of its own; it allocates nothing. Data blocks
// carry no range-filter property, so block loads cost it nothing. Tables
// written without range filters (before the plug-in was on, or on a level a
// per-level plan leaves out, whose tables carry an empty property) are not
// observed: the what-if then falls back to an assumed ℓ
// (whatif.Options.RangeLen) and says so.
//
// Pebble calls an iterator's filters at a table in the order of
// PointKeyFilters, and the observer comes right after the tracker's own
// filter, whose table-level call names the table (rangecount.go); the
// observer reads that number without consuming it, so a range filter's
// counting wrapper after it still finds it.

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

// observeRangeLens is false only in BenchmarkRangeLenObserver's runs
// without the observer, which it compares with runs with it.
var observeRangeLens = true

// rangeLenObserver is the always-true filter that records RangeLens for
// one tracker's bounded iterator.
type rangeLenObserver struct {
	t      *IterTracker
	sh     *LenShard
	active bool
	buf    []byte // the upper bound, when it needs a byte added
}

// attach appends the observer to filters when the tracker's iterator is
// bounded; the tracker's own filter must be the last one in filters.
func (o *rangeLenObserver) attach(t *IterTracker, filters []pebble.BlockPropertyFilter) []pebble.BlockPropertyFilter {
	o.t = t
	o.active = t.bounded && observeRangeLens && t.s.rangeFilters != nil
	if !o.active {
		return filters
	}
	// Trackers are pooled across DBs: the shard is picked anew each time.
	o.sh = t.s.store.Lens.ShardFor(unsafe.Pointer(o))
	return append(filters, o)
}

func (o *rangeLenObserver) Name() string { return o.t.s.rangeFilters.Name() }

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
	rf := o.t.s.rangeFilters
	filter, ok, err := rf.Filter(prop)
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
	cs := o.sh.Row(row)
	if n := cs[LenChecks].Add(1); n > lenSampleAll && !lenSampled(n) {
		return
	}
	var lo, hi []byte
	lo, hi, o.buf = rangebounds.Bounds(t.s.split, t.lower, t.upper, o.buf)
	var c rangebounds.Coverage
	if err == nil {
		c, ok = rf.Coverage(filter, lo, hi)
	}
	if err != nil || !ok {
		cs[LenUndecoded].Add(1)
		return
	}
	switch {
	case c.Positions == 0:
		cs[LenOutside].Add(1)
		return
	case !c.Hashed && c.Holds:
		cs[LenExactHolds].Add(1)
	case !c.Hashed:
		cs[LenExactEmpty].Add(1)
	case c.Holds:
		cs[LenHashedHolds].Add(1)
	}
	b := min(bits.Len64(c.Positions), LenBuckets-1)
	cs[LenHist+b].Add(1)
	if c.Hashed {
		cs[LenHashedFPR].Add(uint64(c.FPR * LenFPRScale))
		cs[LenHashedBits].Add(uint64(c.BitsPerKey * LenBitsScale))
		cs[LenHashedHist+b].Add(1)
		// ℓ past 2^40 gives every budget a bound of 1; capping it keeps the
		// sum from overflowing.
		cs[LenHashedHistSum+b].Add(min(c.Positions, 1<<40))
	}
}
