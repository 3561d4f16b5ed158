// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import "encoding/binary"

// 128-bit helpers for Ribbon rows, which are held as (lo, hi) pairs of
// uint64. Go defines a shift by 64 or more as producing zero, and s−64 and
// 64−s wrap around to huge counts when negative, so each formula below is
// exact for every s in its range without a branch: the terms that do not
// apply shift to zero.

// pointShl128 returns (lo, hi) << s for s in [0, 127].
func pointShl128(lo, hi uint64, s uint) (uint64, uint64) {
	return lo << s, hi<<s | lo<<(s-64) | lo>>(64-s)
}

// pointShr128 returns (lo, hi) >> s for s in [0, 128].
func pointShr128(lo, hi uint64, s uint) (uint64, uint64) {
	return lo>>s | hi>>(s-64) | hi<<(64-s), hi >> s
}

func pointLE64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func pointPutLE64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
