// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

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
	// active counts Gets in flight and overflow those that found no free
	// slot, so that a seek's filter check pays one atomic load when no Get
	// runs.
	active   atomic.Int32
	overflow atomic.Int32
	// mu serialises registration; finding is lock-free.
	mu    sync.Mutex
	slots [getSlots]getSlot
}

// getSlot holds a registered Get. The key's address is kept beside the scope
// rather than read from it, so that a finder never touches a scope that is
// being recycled: only a goroutine inside a Get of that very key can match a
// live key's address.
type getSlot struct {
	key   atomic.Pointer[byte]
	scope atomic.Pointer[GetScope]
}

func (r *getRegistry) find(key []byte) *GetScope {
	p := unsafe.SliceData(key)
	if p == nil {
		return nil
	}
	for i := range r.slots {
		if r.slots[i].key.Load() == p {
			return r.slots[i].scope.Load()
		}
	}
	return nil
}

// register returns the scope for a Get of key, or nil if no slot is free (or
// the key has no address). Concurrent Gets of the same key slice share one
// scope: their checks cannot be told apart.
func (r *getRegistry) register(s *Stats, key []byte) *GetScope {
	p := unsafe.SliceData(key)
	if p == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	free := -1
	for i := range r.slots {
		switch r.slots[i].key.Load() {
		case p:
			g := r.slots[i].scope.Load()
			g.refs++
			g.shared = true
			return g
		case nil:
			if free < 0 {
				free = i
			}
		}
	}
	if free < 0 {
		return nil
	}
	g := scopePool.Get().(*GetScope)
	*g = GetScope{s: s, key: key, slot: free, refs: 1}
	g.checks = g.buf[:0]
	r.slots[free].scope.Store(g)
	r.slots[free].key.Store(p)
	return g
}

// unregister drops one Get from g's scope and reports whether it was the
// last one, which then owns g.
func (r *getRegistry) unregister(g *GetScope) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	g.refs--
	if g.refs > 0 {
		return false
	}
	r.slots[g.slot].key.Store(nil)
	r.slots[g.slot].scope.Store(nil)
	return true
}

type check struct {
	f   *fileInfo
	may bool
}

// GetScope collects the filter checks of one Get (or of concurrent Gets of
// one key slice).
type GetScope struct {
	s    *Stats
	key  []byte
	slot int
	// refs and shared are guarded by the registry's mu.
	refs   int
	shared bool
	mu     sync.Mutex
	checks []check
	buf    [8]check
}

var scopePool = sync.Pool{New: func() any { return new(GetScope) }}

// GetToken is one Get's registration; End it with the Get's error.
type GetToken struct {
	s *Stats
	g *GetScope // nil if the Get could not be registered
}

// BeginGet registers a Get of key.
func (s *Stats) BeginGet(key []byte) GetToken {
	s.gets.active.Add(1)
	g := s.gets.register(s, key)
	if g == nil {
		s.gets.overflow.Add(1)
	}
	return GetToken{s: s, g: g}
}

func (g *GetScope) record(f *fileInfo, may bool) {
	g.mu.Lock()
	g.checks = append(g.checks, check{f, may})
	g.mu.Unlock()
}

// End counts the Get's filter checks; err is what Get returned.
func (t GetToken) End(err error) {
	s, g := t.s, t.g
	if g == nil {
		s.gets.overflow.Add(-1)
		s.gets.active.Add(-1)
		return
	}
	last := s.gets.unregister(g)
	s.gets.active.Add(-1)
	if !last {
		return
	}
	if len(g.checks) > 0 {
		g.count(err)
	}
	*g = GetScope{}
	scopePool.Put(g)
}

func (g *GetScope) count(err error) {
	s := g.s
	sh := s.c().ShardFor(g.key)
	whole := s.split(g.key) == len(g.key)
	last := -1
	for i, c := range g.checks {
		switch {
		case whole && c.may:
			sh.AddTicker(BloomFilterFullPositive, 1)
		case whole:
			sh.AddTicker(BloomFilterUseful, 1)
		case c.may:
			sh.AddTicker(BloomFilterPrefixChecked, 1)
		default:
			sh.AddTicker(BloomFilterPrefixChecked, 1)
			sh.AddTicker(BloomFilterPrefixUseful, 1)
		}
		if c.may {
			last = i
			sh.AddRow(checkRow(c.f), GetPositive)
		} else {
			sh.AddRow(checkRow(c.f), GetUseful)
		}
	}
	if last < 0 || (err != nil && !errors.Is(err, pebble.ErrNotFound)) {
		return
	}
	if g.shared {
		// Several Gets of one key slice: whose check found the key is
		// unknown, so no true positive is credited.
		sh.AddTicker(GetSharedKey, 1)
		return
	}
	fastTP := err == nil
	uncertain := fastTP && s.mayHoldUnchecked(g.checks[last].f, g.key)
	tp := fastTP
	exact := s.cfg.ExactAttribution
	var loc location
	if exact {
		// A failed probe leaves this Get to the fast rule.
		loc = s.probe(g.key)
		exact = !loc.failed
	}
	if exact {
		tp = loc.f != nil && g.checks[last].f != nil && loc.f.num == g.checks[last].f.num
		switch {
		case tp == fastTP:
			sh.AddTicker(VerifyGetAgree, 1)
		case uncertain:
			sh.AddTicker(VerifyGetUncertain, 1)
		case !fastTP && err != nil:
			sh.AddTicker(VerifyGetTombstone, 1)
		default:
			sh.AddTicker(VerifyGetUnexpected, 1)
		}
	} else if uncertain {
		sh.AddTicker(TruePositiveUncertain, 1)
	}
	if !tp {
		return
	}
	sh.AddRow(checkRow(g.checks[last].f), GetTruePositive)
	if whole {
		sh.AddTicker(BloomFilterFullTruePositive, 1)
	} else {
		sh.AddTicker(BloomFilterPrefixTruePositive, 1)
	}
}

// checkRow is the row of a checked table; nil (unknown) is unattributed.
func checkRow(f *fileInfo) int {
	if f == nil {
		return RowUnattributed
	}
	return f.row()
}

// mayHoldUnchecked reports whether a table that Get reads without consulting
// its filter, other than f, lies below f and spans key: an L6 table, or one
// not (yet) known to have a filter. An unknown f is always uncertain.
func (s *Stats) mayHoldUnchecked(f *fileInfo, key []byte) bool {
	if f == nil {
		return true
	}
	set := s.files.current.Load()
	var buf [4]*fileInfo
	for l := f.level; l <= 6; l++ {
		for _, o := range set.covering(s.cmp, l, key, buf[:0]) {
			if o.num != f.num && (l == 6 || !o.filtered()) {
				return true
			}
		}
	}
	return false
}
