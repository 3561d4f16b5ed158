// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"github.com/cockroachdb/pebble/v2"
)

// Range filters rule tables out through a block-property filter of the
// iterator, which Pebble asks once per table it opens for the iterator (its
// table-level check) before reading any of the table's blocks. A range
// filter that says "no" there saved the seek everything a prefix filter's
// "no" saves, so it is counted as FILTERED for the table's row, and in
// FilteredRange for the breakdown.
//
// The filter is not told which table it is asked about, but Pebble's
// table-level check calls an iterator's filters in the order of its
// PointKeyFilters, stopping at the first "no", and only for the filters
// whose property the table carries. The tracker's own filter comes first
// and the range filters right after it (the caller's own filters follow),
// so for a table written with statistics its table-level call, which
// carries the file number, immediately precedes the range filter's call for
// the same table: the tracker arms itself with the number there, and the
// range filter's wrapper consumes it. A table written without the
// statistics' tag leaves the tracker unarmed, and its rule-outs are counted
// as unattributed. The one inexact case: a table with the tag but without
// a range filter arms the tracker without consuming it, and if, before any
// other call reaches the tracker's filter (a block load, a seek), Pebble
// opens a table with a range filter but without the tag (written with
// statistics off), that table's rule-out is credited to the first table's
// row. Tables of one DB written with both plug-ins, or with neither, never
// meet this case.
//
// With Config.FiltersOnly the tracker adds no filter of its own, so range
// filters' rule-outs are counted, but as unattributed.
//
// Pebble keeps an iterator's table-level verdict while the iterator stays
// on the table, so a table is counted each time Pebble checks it for the
// iterator: once per seek for iterators opened per seek (as db_bench's
// are), and possibly once for several seeks of a long-lived iterator.

// CountRangeFilter wraps f, a range filter's block-property filter that
// judges tables (its block properties are empty; pebblerf's rangefilter
// writes none), so that the statistics of the iterator it is attached to
// count the tables it rules out. The wrapper is bound to the first tracker
// whose options carry it (IterTracker.SetOptions, Statistics.NewIter), so a
// wrapper must be made for each iterator's options; without a tracker it
// only passes f's answers through.
func CountRangeFilter(f pebble.BlockPropertyFilter) pebble.BlockPropertyFilter {
	return &rangeCounter{inner: f}
}

type rangeCounter struct {
	inner pebble.BlockPropertyFilter
	t     *IterTracker
}

func (c *rangeCounter) Name() string { return c.inner.Name() }

// Unwrap returns the filter counted, for the policy that tallies its
// answers (rangefilter.Policy.Report).
func (c *rangeCounter) Unwrap() pebble.BlockPropertyFilter { return c.inner }

// Intersects answers as the inner filter, and reports table-level answers
// (non-empty properties) to the tracker.
func (c *rangeCounter) Intersects(prop []byte) (bool, error) {
	ok, err := c.inner.Intersects(prop)
	if c.t != nil && len(prop) > 0 && err == nil {
		c.t.rangeChecked(ok)
	}
	return ok, err
}

// SyntheticSuffixIntersects is Intersects for tables ingested with a
// synthetic suffix.
func (c *rangeCounter) SyntheticSuffixIntersects(prop, suffix []byte) (bool, error) {
	ok, err := c.inner.SyntheticSuffixIntersects(prop, suffix)
	if c.t != nil && len(prop) > 0 && err == nil {
		c.t.rangeChecked(ok)
	}
	return ok, err
}

// rangeChecked counts a range filter's table-level answer for the table the
// tracker was armed with.
func (t *IterTracker) rangeChecked(intersects bool) {
	num, armed := t.tableNum, t.tableArmed
	t.tableArmed = false
	if intersects {
		return
	}
	row := RowUnattributed
	if armed && num != 0 {
		if f := t.s.files.lookup(num); f != nil {
			row = f.row()
		}
	}
	t.sh.AddRow(row, FilteredRange)
}
