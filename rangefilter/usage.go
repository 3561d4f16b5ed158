// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// What a DB's bounded reads make of its range filters.
//
// A range filter pays only where bounded reads come, and there only where
// their spans miss tables: a filter no bounded read consults cost its build
// at every flush and compaction for nothing, and one that never says no
// costs a query at every table a read opens. So a Policy keeps a record of
// what its DB's bounded reads do, per key region (a key's first byte, see
// regionOf), and uses it three ways:
//
//   - The gate (reads). The bounds filters of plain iterators count their
//     table-level answers; when an iterator is done, Report adds them to its
//     region's window, and each full window gives a verdict: fewer than one
//     check in MinRuledOut ruled its table out closes the region's gate,
//     anything else opens it. While a region's gate is closed, Admit gives
//     filters to one new iterator in SampleEvery only, so that the gate
//     notices when spans start missing tables again; its window is then
//     SampleEvery times shorter, so that reopening takes about as many new
//     iterators as closing.
//   - Demand (writes, under a Plan with OnDemand). A table gets a filter
//     only if a bounded read came to its key region (the region of its
//     first key) within DemandHorizon, and its level there is not known to
//     gain nothing: the same windows, kept per level and region from the
//     tables' own answers (each table says in its property which level
//     wrote it), close a level of a region where its filters rule out
//     almost nothing; its new tables then get a filter one in SampleEvery,
//     enough to keep watching. Tables written before any bounded read came
//     (a DB loaded, then read) have none.
//   - Backfill. A bounded read that meets a table without a filter notes
//     the table (its property names it); Policy.Backfill derives the
//     filters of such tables from their keys, so that a DB that starts
//     taking bounded reads gets its filters without waiting for its own
//     compactions (backfill.go).
//
// A key region is coarse, and that is enough where a keyspace's parts start
// differently, as CockroachDB's do: its local keys, lock table included,
// begin with \x01, its table data with \x88 and above, so lock-table
// checks (spans that miss) and MVCC scans (spans that hold keys) are judged
// apart. A program whose keys all share a first byte gets one verdict per
// level for the DB.
//
// Leaving a filter off never loses a key: an iterator without one reads as
// upstream's does, a table without one reads as "may intersect". What the
// record costs: per table check one uncontended atomic add (in the bounds
// filter); per new bounded iterator one atomic load (the region's demand,
// set once per table started), and while its region's gate is closed an
// atomic add; per iterator at Report an atomic add per level it checked;
// per table written a lock and a clock read.

const (
	// Window is the number of table checks behind each verdict of an open
	// gate, or of a level of a region that gains from its filters; a closed
	// one judges every Window/SampleEvery.
	Window = 512
	// MinRuledOut: a window in which fewer than one check in MinRuledOut
	// rules its table out closes the gate, or marks the level of the region
	// as gaining nothing.
	MinRuledOut = 32
	// SampleEvery: while a region's gate is closed, one new iterator in
	// SampleEvery gets range filters; while a level of a region gains
	// nothing, one new table in SampleEvery gets a filter.
	SampleEvery = 16
	// DemandHorizon is how long after the last bounded read of a key region
	// its new tables still get filters under an OnDemand plan.
	DemandHorizon = 10 * time.Minute
)

// regions is the number of key regions: one per value of a key's first
// byte.
const regions = 256

// regionOf is the key region of a read with bounds [lower, upper): the
// first byte of its lower bound, or of its upper bound when it has no lower
// one. The region of a table is that of its first key.
func regionOf(lower, upper []byte) uint8 {
	if len(lower) == 0 {
		lower = upper
	}
	if len(lower) == 0 {
		return 0
	}
	return lower[0]
}

// usage is one DB's record (see above).
type usage struct {
	regions [regions]regionUsage
	levels  [PlanLevels][regions]verdictWindow
	// unfiltered holds the file numbers of tables without a filter that
	// bounded reads consulted, one slot per number modulo its length, for
	// the backfill; noted is signalled (without blocking) when one is
	// added. A table whose slot another takes is noted again by the next
	// read that meets it.
	unfiltered [64]atomic.Uint64
	noted      chan struct{}

	// mu guards the write side: each region's lastRead and each level's
	// sampling count.
	mu      sync.Mutex
	now     func() time.Time
	sampled [PlanLevels][regions]uint32
}

// regionUsage is the record of one key region.
type regionUsage struct {
	gate verdictWindow
	// asked counts the iterators Admit was asked about while the gate was
	// closed, to pick samples.
	asked atomic.Uint64
	// read is set by each bounded read, and cleared when a table started in
	// the region finds it set and moves lastRead (under usage.mu) to then.
	read     atomic.Bool
	lastRead time.Time
}

// verdictWindow is a window of table checks and the verdict of the last
// full one: whether the filters ruled out almost nothing.
type verdictWindow struct {
	// window packs the checks (low 32 bits) and the tables ruled out (high
	// 32 bits) reported since the last verdict, so that one atomic add
	// reports both.
	window atomic.Uint64
	// judged is set once a window was full; useless is the last verdict.
	judged, useless atomic.Bool
}

func newUsage() *usage {
	return &usage{noted: make(chan struct{}, 1), now: time.Now}
}

// add adds checks table checks of which ruledOut ruled their table out, and
// gives a verdict when the window is full: Window checks, Window/SampleEvery
// while judged useless (its checks come from samples) and, with quick, for
// the first verdict (a level's first filters are a backfill's probe).
func (w *verdictWindow) add(checks, ruledOut uint64, quick bool) {
	if checks == 0 {
		return
	}
	v := w.window.Add(checks | ruledOut<<32)
	n, out := uint64(uint32(v)), v>>32
	size := uint64(Window)
	if w.useless.Load() || (quick && !w.judged.Load()) {
		size = Window / SampleEvery
	}
	if n < size {
		return
	}
	// The reporter whose swap empties the window gives the verdict; one
	// that lost the race added to a window another one judges or will.
	if w.window.CompareAndSwap(v, 0) {
		w.useless.Store(out*MinRuledOut < n)
		w.judged.Store(true)
	}
}

// read notes a bounded read of region r.
func (u *usage) read(r uint8) {
	if g := &u.regions[r]; !g.read.Load() {
		g.read.Store(true)
	}
}

// admit reports whether a plain iterator of region r gets range filters.
func (u *usage) admit(r uint8) bool {
	g := &u.regions[r]
	u.read(r)
	if !g.gate.useless.Load() {
		return true
	}
	return g.asked.Add(1)%SampleEvery == 0
}

// demanded reports, for a table starting in region r, whether a bounded
// read came to the region within DemandHorizon.
func (u *usage) demanded(r uint8) bool {
	g := &u.regions[r]
	u.mu.Lock()
	defer u.mu.Unlock()
	now := u.now()
	if g.read.Swap(false) {
		g.lastRead = now
	}
	return !g.lastRead.IsZero() && now.Sub(g.lastRead) < DemandHorizon
}

// sample reports whether a new table at a level of region r that gains
// nothing from its filters is one of the sampled ones.
func (u *usage) sample(level int, r uint8) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.sampled[level][r]++
	return u.sampled[level][r]%SampleEvery == 1
}

// useless reports whether the filters of level in region r were last judged
// to rule out almost nothing.
func (u *usage) useless(level int, r uint8) bool {
	w := &u.levels[level][r]
	return w.judged.Load() && w.useless.Load()
}

// judged reports whether the filters of level in region r were judged yet.
func (u *usage) judged(level int, r uint8) bool { return u.levels[level][r].judged.Load() }

// noteUnfiltered notes table num, which a bounded read consulted and found
// without a filter.
func (u *usage) noteUnfiltered(num uint64) {
	s := &u.unfiltered[num%uint64(len(u.unfiltered))]
	if s.Load() == num {
		return
	}
	s.Store(num)
	select {
	case u.noted <- struct{}{}:
	default:
	}
}

// takeUnfiltered appends the noted tables to dst and forgets them.
func (u *usage) takeUnfiltered(dst []uint64) []uint64 {
	for i := range u.unfiltered {
		if n := u.unfiltered[i].Swap(0); n != 0 {
			dst = append(dst, n)
		}
	}
	return dst
}

// report adds the answers of one bounds filter: per level, the checks of
// the tables that level wrote (levels[PlanLevels] for tables that do not
// say), and their sum to the gate.
func (u *usage) report(r uint8, tally *[PlanLevels + 1]atomic.Uint64) {
	var checks, out uint64
	for level := range tally {
		t := tally[level].Load()
		if t == 0 {
			continue
		}
		c, o := uint64(uint32(t)), t>>32
		checks, out = checks+c, out+o
		if level < PlanLevels {
			u.levels[level][r].add(c, o, true)
		}
	}
	u.regions[r].gate.add(checks, out, false)
}

// Admit reports whether a plain iterator opening now with bounds
// [lower, upper) gets range filters: always while the filters of its key
// region rule tables out, one in SampleEvery while they rule out almost
// nothing (see the record's rules at the top of usage.go). It also notes
// the bounded read, which an OnDemand plan builds filters for. Iterators
// it admits report their filters' answers with Report once done.
func (p *Policy) Admit(lower, upper []byte) bool {
	if lower == nil && upper == nil {
		return false
	}
	return p.usage.admit(regionOf(lower, upper))
}

// Report adds the answers of an iterator's range filters, once the iterator
// is done with them, to the record Admit and the OnDemand plan decide by.
// Filters of other policies and packages are ignored, but for those that
// wrap one of the policy's (an Unwrap() pebble.BlockPropertyFilter method,
// as the statistics' counting wrapper has).
func (p *Policy) Report(filters []pebble.BlockPropertyFilter) {
	for _, f := range filters {
		for {
			w, ok := f.(interface {
				Unwrap() pebble.BlockPropertyFilter
			})
			if !ok {
				break
			}
			f = w.Unwrap()
		}
		if b, ok := f.(*rangeBoundsFilter); ok && b.p == p {
			p.usage.report(b.region, &b.tally)
		}
	}
}

// GateClosed reports whether the gate of the key region of key is closed:
// its last verdict found the filters of plain iterators there ruling out
// almost nothing, so that only one new iterator in SampleEvery gets them.
func (p *Policy) GateClosed(key []byte) bool {
	return p.usage.regions[regionOf(key, nil)].gate.useless.Load()
}
