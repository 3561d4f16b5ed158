// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"math"
)

// A Standard Ribbon filter with 128-bit coefficient rows and interleaved
// solution storage (Dillinger & Walzer, "Ribbon filter: practically smaller
// than Bloom and Xor", 2021).
//
// Idea. Give every key x a start slot s(x), a 128-bit coefficient row c(x)
// whose bit 0 is set, and an r-bit fingerprint f(x), all derived from its
// hash. Then find an m×r bit matrix S such that for every key
//
//	XOR over set bits j of c(x) of S[s(x)+j] = f(x)          (1)
//
// A query recomputes the left side and compares it with f: a key in the set
// always matches (no false negatives), and a key not in the set matches with
// probability 2^−r, because the left side is then a fixed value and f a fresh
// random one. Space is m·r bits with m only a few percent above n, so the
// filter spends about log2(1/ε)·(m/n) bits per key, near the lower bound
// log2(1/ε), where a Bloom filter spends 1.44·log2(1/ε) or more.
//
// Construction solves (1) over GF(2). Because every row's ones lie in a band
// of 128 columns starting at s(x), Gaussian elimination stays inside the band:
// "on-the-fly banding" inserts each row at its start; if that slot is already
// the pivot of an earlier row it XORs that row in, shifts past the now-zero
// leading bits and moves on. A row that becomes all-zero is either a duplicate
// (its fingerprint also becomes zero: nothing to do) or makes the system
// unsolvable, in which case the build retries with another hash seed, and
// after a few failures with a few more slots. Back-substitution then walks the
// slots from the top down and fixes each solution row from the rows above it.
// The builder first sorts keys by start slot (a radix sort on the hash bits
// that choose it), so banding walks memory in order instead of missing the
// cache once or twice per key on large filters.
//
// Storage is interleaved: slots come in blocks of 128, and for each block the
// filter stores one 128-bit word per result column holding that column's bits
// for the block's 128 slots. A query for start s = 128·k + o reads, for each
// column, the words of blocks k and k+1, masks them with c shifted by o, and
// takes the parity: at most two adjacent blocks, usually in one or two cache
// lines, and it stops at the first column that disagrees, so a typical
// negative query reads one or two words.
//
// Fractional bits per key. r is an integer, but the first u blocks may store
// only r−1 columns (keys starting there check r−1 bits). With a fraction
// p = u/blocks of such blocks the false-positive rate is
//
//	ε = p·2^−(r−1) + (1−p)·2^−r = (1+p)·2^−r,                 (2)
//
// which is linear in p, so any ε between 2^−r and 2^−(r−1) is reachable.
//
// Sizing. Ribbon(b) aims at the false-positive rate this package's Bloom
// filter has at b bits per key (bloomEstimateFPR), as RocksDB's
// NewRibbonFilterPolicy does; r and p then follow from (2). The slot count is
// m = n·(1+ε_m(n)) rounded up to whole blocks, with the overhead ε_m chosen so
// that the first seed nearly always works (see ribbonSlots). With 128-bit rows
// the overhead is 3–6% for thousands to tens of millions of keys, so at b = 10
// (ε ≈ 0.95%, log2(1/ε) ≈ 6.7) the filter uses about 7.0 bits per key instead
// of 10.
//
// Fallback. Tiny filters (where the block rounding makes Ribbon no smaller
// than Bloom) and builds that fail ribbonMaxAttempts times are written as a
// Bloom filter; the trailer says which, and every policy reads both.
//
// Parameters:
//   - w = 128 coefficient bits (ribbonW): wide enough that the overhead stays
//     small up to ~10^9 keys; 64-bit rows would need ~10% more slots at 10^6;
//   - r in [1, ribbonMaxResultBits] result bits, u lower blocks, from (2);
//   - m = 128·blocks slots, blocks ≥ 1; starts are uniform over [0, m−128];
//   - seed: an ordinal 0..255 stored in the trailer.

const (
	ribbonW            = 128
	ribbonSegmentBytes = ribbonW / 8
	// ribbonMaxResultBits is the widest fingerprint: f is taken from 32 hash
	// bits. 2^−32 is far below anything a table filter needs.
	ribbonMaxResultBits = 32
)

// Odd 64-bit multipliers that derive the per-key quantities from the hash.
// Any odd constants with well-spread bits work; they are part of the format.
const (
	ribbonSeedMul  = 0xd6e8feb86659fd93
	ribbonStartMul = 0x9fb21c651e98df25
	ribbonCoefMul  = 0xc2b2ae3d27d4eb4f
	ribbonHiMul    = 0x94d049bb133111eb
	ribbonFPMul    = 0xbf58476d1ce4e5b9
)

// ribbonSegments is the number of 128-bit words in a filter with blocks
// blocks, the first upper of which hold r−1 columns and the rest r.
func ribbonSegments(blocks, upper uint32, r uint8) uint64 {
	return uint64(blocks)*uint64(r) - uint64(upper)
}

// ribbonRehash is the seed-specific hash from which start, coefficients and
// fingerprint are derived. It is a bijection of hash for every seed, so
// distinct keys stay distinct.
func ribbonRehash(hash uint64, seed uint8) uint64 {
	return (hash ^ (uint64(seed)+1)*ribbonSeedMul) * ribbonStartMul
}

// ribbonRow derives a key's coefficient row (lo, hi: bits 0-63 and 64-127)
// and fingerprint from its rehash h. The start is pointFastRange(h, starts),
// which uses the top bits of h; the row and fingerprint are mixed from all of
// h so they do not depend on the start.
func ribbonRow(h uint64) (lo, hi uint64, f uint32) {
	a := h * ribbonCoefMul
	lo = a | 1
	hi = (a ^ a>>31) * ribbonHiMul
	f = uint32((h ^ h>>29) * ribbonFPMul >> 32)
	return lo, hi, f
}

// ribbonLayout is what a reader needs to locate a key's words.
type ribbonLayout struct {
	blocks uint32 // 128-slot blocks
	upper  uint32 // blocks [0, upper) hold r−1 columns
	r      uint8  // result bits
	seed   uint8
}

// ribbonMayContain answers a query for hash against a decoded Ribbon body.
//
// It is written for the query path's latency: the only data-dependent branch
// is the early exit, and the 128-bit masks are formed without the extra
// instructions Go adds to a shift whose count may exceed 63. The row's window
// covers slots s..s+127, that is bits o..127 of block k's words and bits
// 0..o−1 of block k+1's. Seen as 64-bit halves (block k's lo and hi, then
// block k+1's lo and hi), the window starts in half ob = o/64 at bit
// o6 = o%64 and spans three consecutive halves, masked by
//
//	m0 = lo<<o6,  m1 = hi<<o6 | lo>>(64−o6),  m2 = hi>>(64−o6)
//
// (m2 = 0 and the >> term vanishes when o6 = 0). The three halves' byte
// offsets from a column's word in block k are computed once per query, so
// each column costs three loads, three ANDs, two XORs and a parity fold.
func ribbonMayContain(body []byte, l ribbonLayout, hash uint64) bool {
	h := ribbonRehash(hash, l.seed)
	start := pointFastRange(h, uint64(l.blocks)*ribbonW-ribbonW+1)
	lo, hi, f := ribbonRow(h)
	k, o := start/ribbonW, uint(start%ribbonW)
	r, upper := uint64(l.r), uint64(l.upper)
	// Where the start lands is random, so every choice below is made with
	// masks rather than branches, which would mispredict often. k and upper
	// are below 2^32, so k−upper has its top bit set exactly when k < upper.
	lower := (k - upper) >> 63
	cols := uint(r - lower)
	base := k*r - (upper ^ (k^upper)&-lower) // k*r − min(k, upper)
	o6 := o & 63
	// lo>>1>>(63−o6) is lo>>(64−o6) for o6 in [1, 63] and 0 for o6 = 0,
	// with both counts provably below 64.
	m0 := lo << o6
	m1 := hi<<o6 | lo>>1>>(^o6&63)
	m2 := hi >> 1 >> (^o6 & 63)
	// Block k+1's column j is cols words after block k's. For o = 0 the
	// window lies in block k alone (m2 = 0), and block k+1 may not exist:
	// the third half is then read from block k and masked away.
	next := cols * ribbonSegmentBytes & -((o + ribbonW - 1) / ribbonW)
	ob := o >> 6 * 8    // 0 or 8
	second := -(o >> 6) // all ones when the window starts in the high half
	off0, off1, off2 := ob, 8^(8^next)&second, next+ob
	w := body[base*ribbonSegmentBytes:]
	w = w[:cols*ribbonSegmentBytes+next]
	for j := uint(0); j < cols*ribbonSegmentBytes; j += ribbonSegmentBytes {
		v := pointLE64(w[j+off0:])&m0 ^ pointLE64(w[j+off1:])&m1 ^ pointLE64(w[j+off2:])&m2
		if (pointParity(v)^f)&1 != 0 {
			return false
		}
		f >>= 1
	}
	return true
}

// columns returns the number of result columns of block k and the index of
// its first word.
func (l ribbonLayout) columns(k uint64) (cols uint8, base uint64) {
	if k < uint64(l.upper) {
		return l.r - 1, k*uint64(l.r) - k
	}
	return l.r, k*uint64(l.r) - uint64(l.upper)
}

// ribbonParams turns a Bloom-equivalent bits/key into result bits r and the
// fraction p of blocks that hold only r−1 columns, from equation (2).
func ribbonParams(bloomEquivalentBitsPerKey float64) (r uint8, p float64) {
	fpr := bloomEstimateFPR(bloomEquivalentBitsPerKey, bloomProbes(bloomEquivalentBitsPerKey))
	if fpr <= math.Ldexp(1, -ribbonMaxResultBits) {
		return ribbonMaxResultBits, 0
	}
	ri := math.Ceil(-math.Log2(fpr))
	if ri < 1 {
		ri = 1
	}
	r = uint8(ri)
	if r == 1 {
		// Blocks with zero columns would answer "yes" to everything; keep
		// the one column everywhere.
		return 1, 0
	}
	p = fpr*math.Ldexp(1, int(r)) - 1
	return r, min(max(p, 0), 1)
}

// ribbonExpectedFPR is equation (2) for a built filter.
func ribbonExpectedFPR(l ribbonLayout) float64 {
	p := float64(l.upper) / float64(l.blocks)
	return (1 + p) * math.Ldexp(1, -int(l.r))
}

// pointParity returns the parity of v in bit 0 (higher bits are garbage). It
// folds v down to four bits and looks their parity up in the 16-bit constant
// 0x6996. bits.OnesCount64 would be one instruction, but unless the module is
// built for GOAMD64=v2 or later Go guards it with a CPU-feature test and a
// fallback call, and the call makes the compiler keep the query loop's
// values on the stack.
func pointParity(v uint64) uint32 {
	v ^= v >> 32
	v ^= v >> 16
	v ^= v >> 8
	v ^= v >> 4
	return 0x6996 >> (v & 15)
}
