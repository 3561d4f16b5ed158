// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"sync/atomic"
	"unsafe"
)

// Counters are sharded so that concurrent readers do not fight over one cache
// line: an iterator keeps to the shard it was given when it was created, and
// a filter check picks its shard from the address of the key it was given,
// which is a buffer private to one iterator (or one Get's key). Reading a
// counter sums the shards; Pop swaps each shard's value for zero, so no tick
// is lost or counted twice by a concurrent Pop.
const numShards = 16

const (
	numRowCounters = int(NumRows) * int(numRowKinds)
	numCounters    = numRowCounters + int(numTickers)
)

type shard struct {
	c [numCounters]atomic.Uint64
	// The padding keeps a neighbouring shard's counters off this shard's
	// last cache line.
	_ [64]byte
}

type counters struct {
	shards [numShards]shard
	next   atomic.Uint32
}

func rowIndex(r Row, k SeekKind) int { return int(r)*int(numRowKinds) + int(k) }
func tickerIndex(t Ticker) int       { return numRowCounters + int(t) }

// pickShard hands out shards round-robin, for iterators.
func (c *counters) pickShard() *shard {
	return &c.shards[c.next.Add(1)%numShards]
}

// shardFor picks the shard of a key buffer. The address is only hashed, never
// dereferenced.
func (c *counters) shardFor(key []byte) *shard {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(key)))
	return &c.shards[(p>>6^p>>12)%numShards]
}

func (s *shard) addRow(r Row, k SeekKind)  { s.c[rowIndex(r, k)].Add(1) }
func (s *shard) addTicker(t Ticker, n int) { s.c[tickerIndex(t)].Add(uint64(n)) }

// load sums counter i over the shards.
func (c *counters) load(i int) uint64 {
	var n uint64
	for s := range c.shards {
		n += c.shards[s].c[i].Load()
	}
	return n
}

// pop sums counter i over the shards and zeroes it.
func (c *counters) pop(i int) uint64 {
	var n uint64
	for s := range c.shards {
		n += c.shards[s].c[i].Swap(0)
	}
	return n
}
