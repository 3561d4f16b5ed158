// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"sync/atomic"
	"unsafe"
)

// The range lengths: per row, what bounded iterators' range-filter checks
// saw (seekstats.RangeLens says what each count means), laid out flat in a
// shard of their own.

// LenBuckets is the number of buckets of the range-length histograms.
const LenBuckets = 34

// The counters of one row, at these offsets.
const (
	LenChecks = iota
	LenUndecoded
	LenOutside
	LenExactHolds
	LenExactEmpty
	LenHashedHolds
	LenHashedFPR  // fixed point, LenFPRScale per 1
	LenHashedBits // fixed point, LenBitsScale per bit
	LenHist
	LenHashedHist    = LenHist + LenBuckets
	LenHashedHistSum = LenHashedHist + LenBuckets
	LenPerRow        = LenHashedHistSum + LenBuckets
)

// The fixed-point scales of the hashed checks' sums of rate and budget:
// 2^32 checks of rate 1 fit, and 2^40 of 40 bits.
const (
	LenFPRScale  = 1 << 32
	LenBitsScale = 1 << 16
)

const numLenShards = 8

// LenShard is one shard of the range lengths.
type LenShard struct {
	c [Rows * LenPerRow]atomic.Uint64
	_ [64]byte
}

// Row returns row r's counters in the shard.
func (s *LenShard) Row(r int) []atomic.Uint64 { return s.c[r*LenPerRow : (r+1)*LenPerRow] }

// Lens are the range-length counters, sharded like the tickers so that
// iterators on different cores do not share a cache line. The zero value is
// ready to use.
type Lens struct {
	shards [numLenShards]LenShard
}

// ShardFor picks the shard of the recorder at p. The address is only
// hashed, never dereferenced.
func (l *Lens) ShardFor(p unsafe.Pointer) *LenShard {
	u := uintptr(p)
	return &l.shards[(u>>6^u>>12)%numLenShards]
}

// Sum returns row r's counters summed over the shards, and zeroes them if
// pop.
func (l *Lens) Sum(r int, pop bool) [LenPerRow]uint64 {
	var out [LenPerRow]uint64
	for i := range l.shards {
		c := l.shards[i].Row(r)
		for j := range out {
			if pop {
				out[j] += c[j].Swap(0)
			} else {
				out[j] += c[j].Load()
			}
		}
	}
	return out
}
