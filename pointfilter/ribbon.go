// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"math"
)

// A Standard Ribbon filter with 128-bit coefficient rows (Dillinger &
// Walzer, "Ribbon filter: practically smaller than Bloom and Xor", 2021),
// stored column by column so that a query reads each result column's 128
// bits with two unaligned loads.
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
// The builder first buckets keys by start slot (one counting pass on the
// hash bits that choose it, into buckets of a few hundred slots), so banding
// works inside a cache-sized stretch at a time instead of missing the cache
// once or twice per key on large filters.
//
// Hashing (format version 2). Everything comes from the key's 64-bit
// pointHash h, already fully mixed. With seed 0, which nearly every build
// keeps, x = h; a retry uses the rehash x = (h ⊕ seed·M_s)·M_x, a bijection
// that moves every key (a seed that only XORed h would keep clusters of
// hashes together and could not cure an overloaded stretch of slots). Then
//
//	b = fastrange(x, B−16)       start byte, start slot s = 8·b: one multiply
//	c = (x·M_lo | 1, x·M_hi)     two multiplies, independent of b's
//	f = bits 16.. of x           free; the start uses the top bits
//
// so the first load waits on the hash and one multiply, and the row's two
// multiplies run beside it. Starts fall on byte boundaries so that a
// column's window is two whole, if unaligned, 64-bit words and the row
// needs no shifting; restricting starts to every 8th slot did not change
// how often the first seed bands (measured at 300 to 10^6 keys; every 16th
// slot already did).
//
// Storage (format version 2) is column-major: column j is a bitmap of the
// m = 8·B slots, B bytes, slot i in bit i%8 of byte i/8, and the columns lie
// one after another. A key's window in a column is the 16 bytes from its
// start byte b, read as two little-endian words and masked with the row's
// halves, then reduced to one parity bit: two loads, two ANDs, one XOR and
// an 8-instruction parity per column. The 16 bytes lie in one 64-byte cache
// line 49 times in 64. The query exits at the first column that disagrees,
// which for a key not in the set is the first column half of the time, the
// second a quarter, and so on; it loads each pair of columns before testing
// the first of them, so that when the first agrees the second's line, B
// bytes away and usually in another page, is already being fetched, while
// the first test waits only for its own line. (Version 1 interleaved the
// columns in 128-slot blocks, so that even the first column read two lines
// 96 to 112 bytes apart, behind three more multiplies; see ribbon_v1.go.)
//
// Fractional bits per key. r is an integer, but the last column stores only
// the slots from byte L on (L a multiple of 8): keys whose start byte b is
// below L check r−1 columns, the rest r. With a fraction p = L/(B−16) of
// the starts below L the false-positive rate is
//
//	ε = p·2^−(r−1) + (1−p)·2^−r = (1+p)·2^−r,                 (2)
//
// which is linear in p, so any ε between 2^−r and 2^−(r−1) is reachable. The
// windows of the keys that check the last column lie wholly at or above L,
// so dropping its first L bytes loses nothing they read.
//
// Sizing. Ribbon(b) aims at the false-positive rate this package's Bloom
// filter has at b bits per key (bloomEstimateFPR), as RocksDB's
// NewRibbonFilterPolicy does; r and p then follow from (2). The slot count is
// m = n·(1+ε_m(n)) rounded up to a multiple of 64, with the overhead ε_m
// chosen so that the first seed nearly always works (see ribbonOverhead).
// With 128-bit rows the overhead is 3–6% for thousands to tens of millions
// of keys, so at b = 10 (ε ≈ 0.95%, log2(1/ε) ≈ 6.7) the filter uses
// 6.7 × (1.03 to 1.06), about 6.9 to 7.1 bits per key, instead of 10
// (docs/benchmarks.md, "Point filters", has the measured sizes).
//
// Fallback. Tiny filters (where Ribbon is no smaller than Bloom) and builds
// that fail ribbonMaxAttempts times are written as a Bloom filter; the
// trailer says which, and every policy reads both.
//
// Parameters:
//   - w = 128 coefficient bits (ribbonW): wide enough that the overhead stays
//     small up to ~10^9 keys; 64-bit rows would need ~10% more slots at 10^6;
//   - B = m/8 bytes per column, a multiple of 8 and at least 24; start bytes
//     are uniform over [0, B−16), start slots over the multiples of 8 below
//     m−128;
//   - r in [1, ribbonMaxResultBits] result bits and L bytes missing from the
//     last column, from (2);
//   - seed: an ordinal 0..255 stored in the trailer.

const (
	ribbonW = 128
	// ribbonWindowBytes is what a query reads of each column: the 128 slots
	// from its start, which is always the first slot of a byte.
	ribbonWindowBytes = ribbonW / 8
	// ribbonMinColumnBytes is the smallest column: 16 bytes of window and
	// at least one byte of possible starts, rounded up to whole words.
	ribbonMinColumnBytes = 24
	// ribbonMaxResultBits is the widest fingerprint: f is taken from 32 hash
	// bits. 2^−32 is far below anything a table filter needs.
	ribbonMaxResultBits = 32
)

// Odd 64-bit multipliers with balanced bits, drawn at random for format
// version 2; part of the format.
const (
	ribbonSeedMul   = 0xd00cb6b8b3c3e1c3
	ribbonRehashMul = 0x4bc0df56391795ad
	ribbonLoMul     = 0xef1841144cb3e93d
	ribbonHiMul     = 0x411ef29ba40aff8f
)

// ribbonLayout is what a reader needs to locate a key's bits.
type ribbonLayout struct {
	colBytes uint32 // B: bytes per column; m = 8·B slots
	lowBytes uint32 // L: the last column starts at slot 8·L
	r        uint8  // result bits (columns)
	seed     uint8
}

// ribbonBodyBytes is the size of a body with layout l: r−1 full columns
// and the last one without its first L bytes.
func ribbonBodyBytes(colBytes, lowBytes uint32, r uint8) uint64 {
	return uint64(r)*uint64(colBytes) - uint64(lowBytes)
}

// ribbonStartBytes is the number of possible starts in a column of
// colBytes bytes: every byte whose 128-slot window fits in the column.
func ribbonStartBytes(colBytes uint64) uint64 {
	return colBytes - ribbonWindowBytes
}

// ribbonStart is the start byte b of a key with rehash x; its start slot
// is 8·b.
func ribbonStart(x, colBytes uint64) uint64 {
	return pointFastRange(x, ribbonStartBytes(colBytes))
}

// ribbonRehash is the seed-specific hash from which start, coefficients and
// fingerprint are derived. It is a bijection of hash for every seed, so
// distinct keys stay distinct. Seed 0 uses the hash as it is, which saves
// the query a multiply on the way to its first load in nearly every filter.
func ribbonRehash(hash uint64, seed uint8) uint64 {
	if seed == 0 {
		return hash
	}
	return (hash ^ uint64(seed)*ribbonSeedMul) * ribbonRehashMul
}

// ribbonRow derives a key's coefficient row (lo, hi: bits 0-63 and 64-127)
// and fingerprint from its rehash x. The start is pointFastRange(x, ...),
// which uses the top bits of x; the row is mixed from all of x by two
// independent multiplies. The fingerprint is bits 16-47 of x: the r of them
// that are compared lie below the bits that choose the start in any filter
// of fewer than 2^(48−r) slots (2^41 at r = 7).
func ribbonRow(x uint64) (lo, hi uint64, f uint32) {
	return x*ribbonLoMul | 1, x * ribbonHiMul, uint32(x >> 16)
}

// ribbonMayContain answers a query for hash against a decoded Ribbon body.
// It does not allocate; the only data-dependent branch is the exit at the
// first column that disagrees. The conversions to array pointers make one
// bounds check per 16-byte window.
func ribbonMayContain(body []byte, l ribbonLayout, hash uint64) bool {
	x := ribbonRehash(hash, l.seed)
	colBytes := uint64(l.colBytes)
	b := ribbonStart(x, colBytes)
	lo, hi, f := ribbonRow(x)
	off := b
	j := l.r - 1
	for ; j >= 2; j -= 2 {
		// Both columns' loads come before the first exit (see Storage
		// above); each exit waits only for its own column.
		w0 := (*[ribbonWindowBytes]byte)(body[off:])
		w1 := (*[ribbonWindowBytes]byte)(body[off+colBytes:])
		v0 := pointLE64(w0[0:8])&lo ^ pointLE64(w0[8:16])&hi
		v1 := pointLE64(w1[0:8])&lo ^ pointLE64(w1[8:16])&hi
		if pointParity(v0)^f&1 != 0 {
			return false
		}
		if pointParity(v1)^f>>1&1 != 0 {
			return false
		}
		f >>= 2
		off += 2 * colBytes
	}
	if j > 0 {
		w := (*[ribbonWindowBytes]byte)(body[off:])
		if pointParity(pointLE64(w[0:8])&lo^pointLE64(w[8:16])&hi)^f&1 != 0 {
			return false
		}
		f >>= 1
		off += colBytes
	}
	// The last column holds slots from byte L on; keys starting below it
	// check only the full columns. off is now b plus r−1 columns.
	low := uint64(l.lowBytes)
	if b < low {
		return true
	}
	w := (*[ribbonWindowBytes]byte)(body[off-low:])
	return pointParity(pointLE64(w[0:8])&lo^pointLE64(w[8:16])&hi)^f&1 == 0
}

// ribbonParams turns a Bloom-equivalent bits/key into result bits r and the
// fraction p of starts that check only r−1 columns, from equation (2).
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
		// A last column missing for some keys would leave them with zero
		// columns, answering "yes" to everything; keep it everywhere.
		return 1, 0
	}
	p = fpr*math.Ldexp(1, int(r)) - 1
	return r, min(max(p, 0), 1)
}

// ribbonFPR is equation (2).
func ribbonFPR(r uint8, p float64) float64 {
	return (1 + p) * math.Ldexp(1, -int(r))
}

// ribbonExpectedFPR is equation (2) for a built filter.
func ribbonExpectedFPR(l ribbonLayout) float64 {
	return ribbonFPR(l.r, float64(l.lowBytes)/float64(ribbonStartBytes(uint64(l.colBytes))))
}

// pointParity returns the parity of v (0 or 1). Two xor-shifts leave the
// parity of each nibble in its low bit; one multiply then sums those 16
// bits into the top nibble, whose low bit is the parity. That is 8
// instructions where folding down to a table lookup takes 16.
// bits.OnesCount64 would be one instruction, but unless the module is built
// for GOAMD64=v2 or later Go guards it with a CPU-feature test and a
// fallback call, and the call makes the compiler keep the query loop's
// values on the stack.
func pointParity(v uint64) uint32 {
	v ^= v >> 1
	v ^= v >> 2
	return uint32((v&pointNibbles)*pointNibbles>>60) & 1
}

// pointNibbles has bit 0 of every nibble set.
const pointNibbles = 0x1111111111111111
