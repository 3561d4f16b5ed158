// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
)

// Point lookups. A filter check carries no context, but Pebble's Get passes
// the caller's key slice itself (its prefix, key[:Split(key)]) down to every
// filter check, whereas iterators first copy the seek key into a buffer of
// their own. So a Get through the wrapper registers the address of its key
// for its duration, and a check whose key has that address belongs to it.
// Get is synchronous: every check made for it happens on its goroutine,
// between Begin and End.
//
// What can be known exactly, and what cannot:
//   - Which tables' filters were checked, and their answers: exact. Pebble's
//     Get never consults L6 filters (it sets no UseL6Filters), so L6 tables
//     never appear here.
//   - The true positive: if the Get found its key in a table with a checked
//     filter, Get stopped there, so it was the last positive check. But the
//     key may instead have come from a table checked without a filter after
//     that check (an L6 table, or one without a filter), which makes the last
//     positive a false one. The fast rule credits the last positive when the
//     Get found its key, and counts TruePositiveUncertain when such a table
//     spans the key. A Get that ends in a point tombstone reports
//     ErrNotFound; the fast rule counts its positives as false, where RocksDB
//     (and the exact mode) count the tombstone's table as a true positive.
//   - In exact mode, a ScanInternal probe gives the level of the key's newest
//     version, and the true positive is exact.
const getSlots = 32

type getRegistry struct {
	// active counts registered Gets and overflow the unregistered ones, so
	// that a seek's filter check pays one atomic load when no Get runs.
	active   atomic.Int32
	overflow atomic.Int32
	slots    [getSlots]atomic.Pointer[GetScope]
}

func (r *getRegistry) find(key []byte) *GetScope {
	p := unsafe.SliceData(key)
	for i := range r.slots {
		if g := r.slots[i].Load(); g != nil && g.keyPtr == p {
			return g
		}
	}
	return nil
}

// register claims a slot for g; false if none is free, or if another Get
// registered the same key slice (their checks could not be told apart).
func (r *getRegistry) register(g *GetScope) bool {
	if g.keyPtr == nil || r.find(g.key) != nil {
		return false
	}
	for i := range r.slots {
		if r.slots[i].CompareAndSwap(nil, g) {
			g.slot = i
			return true
		}
	}
	return false
}

type check struct {
	f   *fileInfo
	may bool
}

// GetScope collects the filter checks of one Get.
type GetScope struct {
	s      *Statistics
	key    []byte
	keyPtr *byte
	slot   int // -1 if not registered
	checks []check
	buf    [8]check
}

var scopePool = sync.Pool{New: func() any { return new(GetScope) }}

// BeginGet registers a Get of key; the caller must call End with Get's error.
func (s *Statistics) BeginGet(key []byte) *GetScope {
	g := scopePool.Get().(*GetScope)
	*g = GetScope{s: s, key: key, keyPtr: unsafe.SliceData(key), slot: -1}
	g.checks = g.buf[:0]
	if s.gets.register(g) {
		s.gets.active.Add(1)
	} else {
		s.gets.overflow.Add(1)
		s.gets.active.Add(1)
	}
	return g
}

func (g *GetScope) record(f *fileInfo, may bool) {
	g.checks = append(g.checks, check{f, may})
}

// End counts the Get's filter checks. err is what Get returned.
func (g *GetScope) End(err error) {
	s := g.s
	if g.slot >= 0 {
		s.gets.slots[g.slot].Store(nil)
	} else {
		s.gets.overflow.Add(-1)
	}
	s.gets.active.Add(-1)
	if len(g.checks) > 0 {
		g.count(err)
	}
	*g = GetScope{}
	scopePool.Put(g)
}

func (g *GetScope) count(err error) {
	s := g.s
	sh := s.c.shardFor(g.key)
	whole := s.split(g.key) == len(g.key)
	last := -1
	for i, c := range g.checks {
		switch {
		case whole && c.may:
			sh.addTicker(BloomFilterFullPositive, 1)
		case whole:
			sh.addTicker(BloomFilterUseful, 1)
		case c.may:
			sh.addTicker(BloomFilterPrefixChecked, 1)
		default:
			sh.addTicker(BloomFilterPrefixChecked, 1)
			sh.addTicker(BloomFilterPrefixUseful, 1)
		}
		if c.may {
			last = i
		}
	}
	if last < 0 || (err != nil && !errors.Is(err, pebble.ErrNotFound)) {
		return
	}
	fastTP := err == nil
	uncertain := fastTP && s.mayHoldUnchecked(g.checks[last].f, g.key)
	tp := fastTP
	if s.cfg.ExactAttribution {
		loc := s.probe(g.key)
		tp = loc.f != nil && loc.f == g.checks[last].f
		switch {
		case tp == fastTP:
			sh.addTicker(VerifyGetAgree, 1)
		case uncertain || (!fastTP && err != nil):
			sh.addTicker(VerifyGetUncertain, 1)
		default:
			sh.addTicker(VerifyGetUnexpected, 1)
		}
	} else if uncertain {
		sh.addTicker(TruePositiveUncertain, 1)
	}
	if !tp {
		return
	}
	if whole {
		sh.addTicker(BloomFilterFullTruePositive, 1)
	} else {
		sh.addTicker(BloomFilterPrefixTruePositive, 1)
	}
}

// mayHoldUnchecked reports whether a table that Get reads without consulting
// its filter, other than f, lies below f and spans key: an L6 table, or one
// not (yet) known to have a filter. An unknown f is always uncertain.
func (s *Statistics) mayHoldUnchecked(f *fileInfo, key []byte) bool {
	if f == nil {
		return true
	}
	set := s.files.current.Load()
	var buf [4]*fileInfo
	for l := f.level; l <= 6; l++ {
		for _, o := range set.covering(s.cmp, l, key, buf[:0]) {
			if o.num != f.num && (l == 6 || !o.hasFilter.Load()) {
				return true
			}
		}
	}
	return false
}
