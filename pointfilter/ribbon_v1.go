// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

// The reader for Ribbon filters of format version 1, kept so that tables
// written before version 2 are still filtered rather than failing open. No
// writer produces this layout any more.
//
// Layout v1: slots come in blocks of 128; for each block the filter stores
// one 128-bit word (lo, hi little-endian) per result column holding that
// column's bits for the block's slots, the first `upper` blocks with r−1
// columns and the rest with r. A key's start is the fastrange of a seeded
// rehash over the m−127 possible starts, its row and fingerprint are mixed
// from the same rehash (ribbonV1Row). A query reads, for each column, the
// words of the start's block and the next, which lie a whole block (96 to
// 112 bytes at r = 7) apart: two cache lines for the first column, and more
// for later ones.

const (
	ribbonV1W            = 128
	ribbonV1SegmentBytes = ribbonV1W / 8
)

// Odd 64-bit multipliers of the v1 hashing; part of the v1 format.
const (
	ribbonV1SeedMul  = 0xd6e8feb86659fd93
	ribbonV1StartMul = 0x9fb21c651e98df25
	ribbonV1CoefMul  = 0xc2b2ae3d27d4eb4f
	ribbonV1HiMul    = 0x94d049bb133111eb
	ribbonV1FPMul    = 0xbf58476d1ce4e5b9
)

// ribbonV1Layout is a v1 filter's trailer fields.
type ribbonV1Layout struct {
	blocks uint32 // 128-slot blocks
	upper  uint32 // blocks [0, upper) hold r−1 columns
	r      uint8  // result bits
	seed   uint8
}

// ribbonV1Segments is the number of 128-bit words in a v1 filter.
func ribbonV1Segments(blocks, upper uint32, r uint8) uint64 {
	return uint64(blocks)*uint64(r) - uint64(upper)
}

// ribbonV1Check checks a version 1 Ribbon trailer's blocks a, lower blocks
// b and result bits p against a body of n bytes.
func ribbonV1Check(n int, a, b uint32, p uint8) pointFault {
	if a == 0 || b > a || p == 0 || p > ribbonMaxResultBits || (b > 0 && p < 2) {
		return pointFaultParams
	}
	if uint64(n) != ribbonV1Segments(a, b, p)*ribbonV1SegmentBytes {
		return pointFaultLength
	}
	return pointOK
}

// ribbonV1Rehash is v1's seed-specific hash.
func ribbonV1Rehash(hash uint64, seed uint8) uint64 {
	return (hash ^ (uint64(seed)+1)*ribbonV1SeedMul) * ribbonV1StartMul
}

// ribbonV1Row derives v1's coefficient row and fingerprint from a rehash.
func ribbonV1Row(h uint64) (lo, hi uint64, f uint32) {
	a := h * ribbonV1CoefMul
	lo = a | 1
	hi = (a ^ a>>31) * ribbonV1HiMul
	f = uint32((h ^ h>>29) * ribbonV1FPMul >> 32)
	return lo, hi, f
}

// ribbonV1ExpectedFPR is equation (2) of ribbon.go for a v1 layout, whose
// lower region is counted in blocks.
func ribbonV1ExpectedFPR(l ribbonV1Layout) float64 {
	return ribbonFPR(l.r, float64(l.upper)/float64(l.blocks))
}

// ribbonV1MayContain answers a query against a v1 body. The row's window
// covers bits o..127 of block k's words and bits 0..o−1 of block k+1's;
// seen as 64-bit halves it starts in half o/64 at bit o%64 and spans three
// consecutive halves, masked by m0, m1, m2. Choices that depend on where the
// start lands are made with masks, not branches, which would mispredict.
func ribbonV1MayContain(body []byte, l ribbonV1Layout, hash uint64) bool {
	h := ribbonV1Rehash(hash, l.seed)
	start := pointFastRange(h, uint64(l.blocks)*ribbonV1W-ribbonV1W+1)
	lo, hi, f := ribbonV1Row(h)
	k, o := start/ribbonV1W, uint(start%ribbonV1W)
	r, upper := uint64(l.r), uint64(l.upper)
	// k and upper are below 2^32, so k−upper has its top bit set exactly
	// when k < upper.
	lower := (k - upper) >> 63
	cols := uint(r - lower)
	base := k*r - (upper ^ (k^upper)&-lower) // k*r − min(k, upper)
	o6 := o & 63
	m0 := lo << o6
	m1 := hi<<o6 | lo>>1>>(^o6&63)
	m2 := hi >> 1 >> (^o6 & 63)
	// Block k+1's column j is cols words after block k's. For o = 0 the
	// window lies in block k alone (m2 = 0), and block k+1 may not exist:
	// the third half is then read from block k and masked away.
	next := cols * ribbonV1SegmentBytes & -((o + ribbonV1W - 1) / ribbonV1W)
	ob := o >> 6 * 8
	second := -(o >> 6)
	off0, off1, off2 := ob, 8^(8^next)&second, next+ob
	w := body[base*ribbonV1SegmentBytes:]
	w = w[:cols*ribbonV1SegmentBytes+next]
	for j := uint(0); j < cols*ribbonV1SegmentBytes; j += ribbonV1SegmentBytes {
		v := pointLE64(w[j+off0:])&m0 ^ pointLE64(w[j+off1:])&m1 ^ pointLE64(w[j+off2:])&m2
		if (pointParity(v)^f)&1 != 0 {
			return false
		}
		f >>= 1
	}
	return true
}
