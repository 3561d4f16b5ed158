// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// pointHash is the one 64-bit hash every point filter in this package starts
// from. Both filters need more than 32 bits of hash: Bloom uses the top half
// to pick a cache line and the bottom half to place probes, and Ribbon derives
// a 128-bit coefficient row and a fingerprint from it. xxHash64 is fast on
// short keys, allocation-free and stable across platforms and releases, which
// matters because the hash is part of the on-disk format.
func pointHash(key []byte) uint64 {
	return xxhash.Sum64(key)
}

// pointFastRange maps a uniformly distributed 64-bit x onto [0, n) without a
// division: the high 64 bits of the 128-bit product x*n. It keeps the order of
// x, which the Ribbon builder relies on when it sorts keys by start slot.
func pointFastRange(x, n uint64) uint64 {
	hi, _ := bits.Mul64(x, n)
	return hi
}
