// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package rangegate decides whether a DB's new plain iterators get range
// filters, from what the range filters of earlier iterators ruled out. The
// root package makes one Gate per DB and puts it in its readers'
// iterhooks.Hooks; rangefilter's bounds filters tally their answers for it.
//
// A range filter pays off only on reads whose spans miss tables. When every
// span a program reads holds keys in every table it overlaps (short MVCC
// scans over an L0 where each flush wrote every key, for one), each filter
// still costs its query at every table open, and the table it passes keeps
// Pebble decoding block properties at every block it loads, for nothing:
// the filter never says no.
//
// A Gate notices that from the answers the filters give, and stops
// attaching filters to plain iterators while they rule out (almost)
// nothing. The rule:
//
//   - The filters of admitted iterators count their table-level answers
//     (tables without a filter are not counted: they cost no query). When
//     an iterator closes its counts join the gate's window; each time the
//     window is full it gives a verdict and starts again.
//   - A window in which fewer than one check in MinRuledOut ruled its
//     table out closes the gate; any other window opens it.
//   - While the gate is closed, one new iterator in SampleEvery still
//     gets filters, so that the gate notices when spans start missing
//     tables again. The window then fills from those samples alone, and
//     is SampleEvery times shorter (Window/SampleEvery checks),
//     so that reopening takes about as many new iterators as closing.
//
// Leaving a filter off never loses a key: an iterator without one reads as
// upstream's does. What a closed gate can cost is the skips the sampled-out
// iterators would have made, while the windows of samples say there are
// almost none. What the gate costs: one uncontended atomic add per table
// check (in the filter); per new iterator with bounds, one atomic load, and
// while its region is closed an atomic add on the region's sample counter;
// per admitted iterator at its close, a load and an atomic add on its
// region's window. The region's counters are shared by the iterators of
// all goroutines.
//
// A program often mixes reads whose spans miss tables with reads whose
// spans never do: CockroachDB checks the lock table, which is almost always
// empty, before the MVCC scans it guards. One verdict for both would keep
// filters on the scans or take them off the checks, so the gate judges key
// regions apart: a span's region is its lower bound's first byte (its
// upper bound's when it has no lower one), and each region has its own
// window, verdict and samples. A first byte is a coarse key region, and
// that is enough where a keyspace's parts start differently, as
// CockroachDB's do: its local keys, lock table included, begin with \x01,
// its table data with \x88 and above. A program whose keys all share a
// first byte gets one verdict for the DB; one whose two kinds of read share
// a region gets the verdict of their mix.
package rangegate

import (
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

type Gate struct {
	regions [gateRegions]gateRegion
}

// gateRegions is the number of key regions a Gate judges apart: one per
// value of a key's first byte.
const gateRegions = 256

// gateRegion is the gate of one key region.
type gateRegion struct {
	closed atomic.Bool
	// window packs the checks (low 32 bits) and the tables ruled out (high
	// 32 bits) reported since the last verdict, so that one atomic add
	// reports both.
	window atomic.Uint64
	// asked counts the iterators asked about while closed, to pick samples.
	asked atomic.Uint64
}

// RegionOf is the key region of an iterator with bounds [lower, upper):
// the first byte of its lower bound, or of its upper bound when it has no
// lower one.
func RegionOf(lower, upper []byte) uint8 {
	if len(lower) == 0 {
		lower = upper
	}
	if len(lower) == 0 {
		return 0
	}
	return lower[0]
}

const (
	// Window is the number of table checks behind each verdict of an
	// open gate; a closed one judges every Window/SampleEvery.
	Window = 512
	// MinRuledOut: a window in which fewer than one check in
	// MinRuledOut rules its table out closes the gate.
	MinRuledOut = 32
	// SampleEvery: while the gate is closed, one new iterator in
	// SampleEvery gets range filters.
	SampleEvery = 16
)

// Admit reports whether an iterator opening now with bounds [lower, upper)
// gets range filters.
func (g *Gate) Admit(lower, upper []byte) bool {
	return g.regions[RegionOf(lower, upper)].admit()
}

// Closed reports whether the gate of the key region of key is closed: its
// last verdict found the filters ruling out almost nothing.
func (g *Gate) Closed(key []byte) bool {
	return g.regions[RegionOf(key, nil)].closed.Load()
}

func (r *gateRegion) admit() bool {
	if !r.closed.Load() {
		return true
	}
	return r.asked.Add(1)%SampleEvery == 0
}

// Tallied is a filter that tallies its table-level answers for a Gate:
// rangefilter's bounds filters.
type Tallied interface {
	// GateTally returns the table checks the filter answered from a
	// table's filter, those of them that ruled the table out, and the key
	// region of the bounds it was made for (RegionOf).
	GateTally() (checks, ruledOut uint64, region uint8)
}

// Report adds the answers of an admitted iterator's filters, once the
// iterator is done with them. Filters that do not tally are ignored.
func (g *Gate) Report(filters []pebble.BlockPropertyFilter) {
	for _, f := range filters {
		if t, ok := f.(Tallied); ok {
			checks, ruledOut, region := t.GateTally()
			g.regions[region].add(checks, ruledOut)
		}
	}
}

// add adds checks table checks of which ruledOut ruled their table out, and
// gives a verdict when the window is full.
func (r *gateRegion) add(checks, ruledOut uint64) {
	if checks == 0 {
		return
	}
	w := r.window.Add(checks | ruledOut<<32)
	n, out := uint64(uint32(w)), w>>32
	size := uint64(Window)
	if r.closed.Load() {
		size = Window / SampleEvery
	}
	if n < size {
		return
	}
	// The reporter whose swap empties the window gives the verdict; a
	// reporter that lost the race added to a window another one judges or
	// will judge.
	if r.window.CompareAndSwap(w, 0) {
		r.closed.Store(out*MinRuledOut < n)
	}
}
