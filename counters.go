// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"github.com/pebblerf/pebble/internal/filtercount"
)

// FilterCounters are one DB's counts of filter events that cost reads but
// never results: filters fail open, so each event below made a read look at
// a table it might have skipped. Non-zero corruption counts mean damaged or
// foreign filter bytes on disk; a non-zero universal count means a comparer
// whose Split prefixes do not sort bytewise, which the range filter cannot
// serve.
type FilterCounters struct {
	// CorruptFilters is how many point-filter queries met a filter of
	// package pointfilter whose bytes did not decode, and answered "may
	// contain".
	CorruptFilters uint64
	// CorruptRangeFilters is how many range-filter checks met a table
	// property that did not decode, and answered "may intersect".
	CorruptRangeFilters uint64
	// UniversalRangeFilters is how many tables were written with a range
	// filter that answers "may intersect" to everything, because their
	// Split prefixes did not arrive in bytewise order.
	UniversalRangeFilters uint64
}

// FilterCounters returns the DB's filter counters since it was opened. They
// count this DB alone, however many DBs the process has open: the point
// filters of package pointfilter that the DB's options name (those of
// Plugins.Filters and those found in Options.Levels and Options.Filters)
// are bound to counters of the DB's own at Open, and the range filter
// policy is made for the DB. The point count is also in the statistics, as
// the ticker pebblerf.filter.corrupt.
func (d *DB) FilterCounters() FilterCounters {
	var c FilterCounters
	if d.pointCounters != nil {
		c.CorruptFilters = d.pointCounters.Corrupt()
	}
	if d.rangeFilter != nil {
		rc := filtercount.RangeOf(d.rangeFilter)
		c.CorruptRangeFilters = rc.Corrupt()
		c.UniversalRangeFilters = rc.Universal()
	}
	return c
}

// bindFilters replaces each point-filter policy of package pointfilter in
// opts (the DB's private copy), in Levels and in Filters, by an instance
// bound to c. A policy named several times gets one bound instance, so
// levels that shared a policy still share one. The bound policies have the
// same names and write the same bytes; only where they count changes.
// Policies of other packages are left as they are.
func bindFilters(opts *Options, c *filtercount.Point) {
	bound := make(map[FilterPolicy]FilterPolicy)
	bind := func(p FilterPolicy) FilterPolicy {
		b, ours := filtercount.BindPoint(p, c)
		if !ours {
			return p // possibly not comparable, so never a map key
		}
		if shared, ok := bound[p]; ok {
			return shared
		}
		bound[p] = b
		return b
	}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bind(opts.Levels[i].FilterPolicy)
	}
	for name, p := range opts.Filters {
		opts.Filters[name] = bind(p)
	}
}
