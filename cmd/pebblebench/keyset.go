// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"math/bits"
	"sync/atomic"
)

// keySet records which key indexes of [0, num) the random fills of this
// process wrote (index i is key number i*stride). It exists only with
// -writes, the sparse fill, where most key positions stay unwritten: there
// the seek targets need it to tell an empty range from a non-empty one
// without asking the DB (seektargets.go). Both engines of -engine=both write
// the same keys, so recording a fill twice sets the same bits.
//
// One bit per index: 1 MB for an 8M-key space.
type keySet struct {
	words []uint64
	n     atomic.Int64 // bits set, counted once
}

func newKeySet(num int64) *keySet {
	return &keySet{words: make([]uint64, (num+63)/64)}
}

// add records index i; fill threads call it concurrently.
func (s *keySet) add(i uint64) {
	bit := uint64(1) << (i % 64)
	if atomic.OrUint64(&s.words[i/64], bit)&bit == 0 {
		s.n.Add(1)
	}
}

// count is the number of distinct indexes recorded.
func (s *keySet) count() int64 { return s.n.Load() }

// has reports whether index i was written.
func (s *keySet) has(i uint64) bool { return s.word(i/64)&(1<<(i%64)) != 0 }

// word loads a word atomically: a *whilewriting writer may be adding to
// the set while the readers draw targets from it.
func (s *keySet) word(wi uint64) uint64 { return atomic.LoadUint64(&s.words[wi]) }

// anyIn reports whether an index in [a, b) was written.
func (s *keySet) anyIn(a, b uint64) bool {
	limit := uint64(len(s.words)) * 64
	b = min(b, limit)
	for a < b {
		w := s.word(a/64) >> (a % 64)
		if span := b - a; span < 64 {
			w &= 1<<span - 1
		}
		if w != 0 {
			return true
		}
		a = (a/64 + 1) * 64
	}
	return false
}

// nextFrom returns the first written index at or after i, wrapping around
// at the end; ok is false if none was written.
func (s *keySet) nextFrom(i uint64) (uint64, bool) {
	n := len(s.words)
	for k := 0; k <= n; k++ {
		wi := (int(i/64) + k) % n
		w := s.word(uint64(wi))
		if k == 0 {
			w &= ^uint64(0) << (i % 64)
		}
		if w != 0 {
			return uint64(wi)*64 + uint64(bits.TrailingZeros64(w)), true
		}
	}
	return 0, false
}
