// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/FastFilter/xorfilter"
)

// A 3-wise binary fuse filter with 8-bit fingerprints, built and queried by
// github.com/FastFilter/xorfilter (Graf and Lemire, "Binary Fuse Filters:
// Fast and Smaller Than Xor Filters", 2022).
//
// The filter is an array of m 8-bit fingerprints split into segments of
// s = 2^q slots. A key's hash h picks a start segment and one slot in each of
// three consecutive segments, h0, h1 and h2, and a fingerprint f(h); the
// build solves, by peeling a 3-hypergraph, for an array in which
//
//	F[h0] ⊕ F[h1] ⊕ F[h2] = f(h)
//
// holds for every key of the set. A query checks the equation: keys of the
// set always pass it (no false negatives), any other key passes only when its
// XOR of three effectively random bytes happens to equal its fingerprint, so
//
//	FPR = 2^-8 ≈ 0.39%,
//
// independent of the key count. Peeling succeeds with high probability when
// m ≥ c·n with c = max(1.125, 0.875 + 0.25·ln(10^6)/ln n), so a filter spends
// 8·c bits per key: 9.0 at a million keys, about 9.4 at 100,000 and 11 at a
// thousand (plus rounding up to whole segments). That is 1.13 times the lower
// bound log2(1/ε) = 8, against 1.44 for Bloom; a query reads three bytes
// within three consecutive segments, that is at most three cache lines, where
// the cache-local Bloom filter reads one. The build is a few linear passes
// over the keys and needs about 20 bytes of scratch memory per key.
//
// Keys are this package's pointHash values; the library mixes them with the
// filter's 64-bit seed before use, so its fingerprints and slots are as good
// as pointHash is uniform.
//
// Layout: the m fingerprints, then the 64-bit seed (little-endian), then the
// trailer (see trailer.go), format version 2, kind fuse:
//   - a: the segment count m/s − 2;
//   - b: a 32-bit fold of the seed, so that a damaged seed, which would
//     otherwise decode into a filter answering "no" for keys it holds, is
//     detected like a damaged trailer;
//   - p: fingerprint bits (8);
//   - q: log2 of the segment length s.
//
// The seed sits next to the trailer so that a cold query finds both in the
// same or adjacent cache lines, and the trailer fixes the body's length:
// (a+2)·s + 8 bytes.

const (
	// fuseFingerprintBits is the fingerprint width this package writes.
	fuseFingerprintBits = 8
	// fuseMaxSegmentShift bounds q: the library caps segments at 2^18.
	fuseMaxSegmentShift = 18
	// fuseArity is the number of slots per key.
	fuseArity = 3
)

// FuseFPR is the false-positive rate of the binary fuse filters this
// package writes: 2^-8, whatever the key count.
const FuseFPR = 1.0 / (1 << fuseFingerprintBits)

// fuseBitsPerKey is the space a fuse filter of n keys is expected to spend,
// in bits per key, from the sizing rule above (segment rounding ignored).
func fuseBitsPerKey(n float64) float64 {
	c := 1.125
	if n > 1 {
		c = max(c, 0.875+0.25*math.Log(1e6)/math.Log(n))
	} else {
		c = 3 // a single key still gets three slots
	}
	return fuseFingerprintBits * c
}

// fuseAppend appends to dst a binary fuse filter holding hashes, using b's
// scratch memory. keys is scratch space the hashes are copied into (the
// library reorders it and drops duplicates in it); it is returned for reuse.
func fuseAppend(dst []byte, hashes *pointHashes, b *xorfilter.BinaryFuseBuilder, keys []uint64) ([]byte, []uint64) {
	keys = keys[:0]
	for _, chunk := range hashes.chunks {
		keys = append(keys, chunk...)
	}
	f, err := xorfilter.BuildBinaryFuse[uint8](b, keys)
	if err != nil {
		// The library fails only after many seeds in a row, which its
		// authors put below the odds of a cosmic ray; a Bloom filter of
		// the same false-positive rate keeps the table filtered.
		return bloomAppend(dst, hashes, fuseBloomFallbackBits, bloomProbes(fuseBloomFallbackBits)), keys
	}
	dst = append(dst, f.Fingerprints...)
	dst = binary.LittleEndian.AppendUint64(dst, f.Seed)
	return pointAppendTrailer(dst, pointTrailer{
		a: f.SegmentCount, b: fuseSeedFold(f.Seed),
		p: fuseFingerprintBits, q: uint8(bits.TrailingZeros32(f.SegmentLength)),
		kind: pointKindFuse, version: pointFormatRibbon,
	}), keys
}

// fuseSeedFold is the trailer's check of the seed.
func fuseSeedFold(seed uint64) uint32 {
	return uint32(seed) ^ bits.RotateLeft32(uint32(seed>>32), 16) ^ pointMagic
}

// fuseBloomFallbackBits is the Bloom bits/key whose estimated rate is
// closest to 2^-8, for the (practically impossible) failed build.
const fuseBloomFallbackBits = 12.5

// fuseCheck checks a fuse trailer's segment count a, fingerprint bits p and
// segment shift q against a body of n bytes.
func fuseCheck(n int, a uint32, p, q uint8) pointFault {
	if p != fuseFingerprintBits || q > fuseMaxSegmentShift || a == 0 || a > math.MaxUint32>>fuseMaxSegmentShift-fuseArity {
		return pointFaultParams
	}
	if uint64(n) != fuseBodyBytes(a, q) {
		return pointFaultLength
	}
	return pointOK
}

// fuseBodyBytes is the body length a fuse trailer implies.
func fuseBodyBytes(a uint32, q uint8) uint64 {
	return (uint64(a)+fuseArity-1)<<q + 8
}

// fuseSeed returns the seed of a fuse body whose trailer has been checked,
// and whether it matches the trailer's fold b.
func fuseSeed(body []byte, b uint32) (uint64, bool) {
	seed := binary.LittleEndian.Uint64(body[len(body)-8:])
	return seed, fuseSeedFold(seed) == b
}

// fuseMayContain answers a query against a fuse body whose trailer and seed
// have been checked. The filter value lives on the stack: Contains does not
// keep it.
func fuseMayContain(body []byte, seed uint64, count uint32, q uint8, h uint64) bool {
	seg := uint32(1) << q
	f := xorfilter.BinaryFuse[uint8]{
		Seed:               seed,
		SegmentLength:      seg,
		SegmentLengthMask:  seg - 1,
		SegmentCount:       count,
		SegmentCountLength: count * seg,
		Fingerprints:       body[:len(body)-8],
	}
	return f.Contains(h)
}
