// Copyright 2026 The pebblerf Authors. All rights reserved.

package keyspace

import (
	"math/bits"
	"sync/atomic"
)

// Set records which key indexes of [0, num) random fills wrote (index i is
// key number i*stride). It serves sparse fills (pebblebench's -writes),
// where most key positions stay unwritten: there the seek targets need it
// to tell an empty range from a non-empty one without asking the DB
// (Targets). Two engines filled with the same keys set the same bits, so
// recording a fill twice changes nothing.
//
// One bit per index: 1 MB for an 8M-key space.
type Set struct {
	words []uint64
	n     atomic.Int64 // bits set, counted once
}

// NewSet returns an empty set of the indexes [0, num).
func NewSet(num int64) *Set {
	return &Set{words: make([]uint64, (num+63)/64)}
}

// Add records index i; fill threads call it concurrently.
func (s *Set) Add(i uint64) {
	bit := uint64(1) << (i % 64)
	if atomic.OrUint64(&s.words[i/64], bit)&bit == 0 {
		s.n.Add(1)
	}
}

// Count is the number of distinct indexes recorded.
func (s *Set) Count() int64 { return s.n.Load() }

// Has reports whether index i was written.
func (s *Set) Has(i uint64) bool { return s.word(i/64)&(1<<(i%64)) != 0 }

// word loads a word atomically: a *whilewriting writer may be adding to
// the set while the readers draw targets from it.
func (s *Set) word(wi uint64) uint64 { return atomic.LoadUint64(&s.words[wi]) }

// AnyIn reports whether an index in [a, b) was written.
func (s *Set) AnyIn(a, b uint64) bool {
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

// NextFrom returns the first written index at or after i, wrapping around
// at the end; ok is false if none was written.
func (s *Set) NextFrom(i uint64) (uint64, bool) {
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
