// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import "encoding/binary"

// 128-bit helpers for Ribbon rows, which are held as (lo, hi) pairs of
// uint64. Go defines shifts by 64 or more as producing zero, which the
// formulas below rely on at their edges (s = 0 and s = 128).

// pointShl128 returns (lo, hi) << s for s in [0, 127].
func pointShl128(lo, hi uint64, s uint) (uint64, uint64) {
	if s < 64 {
		return lo << s, hi<<s | lo>>(64-s)
	}
	return 0, lo << (s - 64)
}

// pointShr128 returns (lo, hi) >> s for s in [1, 128].
func pointShr128(lo, hi uint64, s uint) (uint64, uint64) {
	if s < 64 {
		return lo>>s | hi<<(64-s), hi >> s
	}
	return hi >> (s - 64), 0
}

func pointLE64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func pointPutLE64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
