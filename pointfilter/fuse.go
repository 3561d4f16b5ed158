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
// within three consecutive segments, that is three cache lines (and, once a
// segment spans a 4 KiB page, three pages), where the cache-local Bloom
// filter reads one. The build is a few linear passes over the keys and needs
// about 20 bytes of scratch memory per key.
//
// Keys are this package's pointHash values; the library mixes them with the
// filter's 64-bit seed before use, so its fingerprints and slots are as good
// as pointHash is uniform. The library builds the filter; queries compute
// the same three slots and fingerprint over the stored bytes themselves
// (fuseMayContain), which saves building the library's filter value and a
// call per query, and lets a cold query fetch the fingerprints before the
// seed and trailer have arrived.
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
// The seed sits next to the trailer, so that checking both costs one cache
// line (two when they straddle a line), and the trailer fixes the body's
// length: (a+2)·s + 8 bytes.

const (
	// fuseFingerprintBits is the fingerprint width this package writes.
	fuseFingerprintBits = 8
	// fuseMaxSegmentShift bounds q: the library caps segments at 2^18.
	fuseMaxSegmentShift = 18
	// fuseArity is the number of slots per key.
	fuseArity = 3
)

// fuseFPR is the false-positive rate of the binary fuse filters this
// package writes: 2^-8, whatever the key count.
const fuseFPR = 1.0 / (1 << fuseFingerprintBits)

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
//
// The query path runs it before every fuse query, on trailer bytes a cold
// query is still waiting for, so the parameters are checked with arithmetic
// and one branch rather than a branch each: in a run of queries, every
// branch still waiting on a cache miss holds back the queries behind it
// (see fuseMayContain).
func fuseCheck(n int, a uint32, p, q uint8) pointFault {
	// params is at most fuseMaxSegmentShift if and only if p is 8 and q is
	// at most fuseMaxSegmentShift; the bit taken from each difference is
	// its borrow, set when the value is out of range (a = 0 included, as
	// a-1 then wraps around).
	params := uint32(p^fuseFingerprintBits)<<8 | uint32(q)
	if (fuseMaxSegmentShift-params)>>31|uint32((fuseMaxSegments-1-uint64(a-1))>>63) != 0 {
		return pointFaultParams
	}
	if uint64(n) != fuseBodyBytes(a, q) {
		return pointFaultLength
	}
	return pointOK
}

// fuseMaxSegments bounds a fuse trailer's segment count, so that the
// segments with the two after them hold fewer than 2^32 bytes at the largest
// segment length, as the library's uint32 positions require.
const fuseMaxSegments = math.MaxUint32>>fuseMaxSegmentShift - fuseArity

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

// fuseMayContain answers for key hash h against a fuse body whose trailer
// and seed have been checked (fuseCheck, fuseSeed): seed and segment shift q
// are the filter's own; its segment count is implied by the body's length,
// which fuseCheck compared with it.
//
// It computes what the library's BinaryFuse[uint8].Contains(h) computes
// (binaryfusefilter.go in github.com/FastFilter/xorfilter v0.5.1), over the
// filter's bytes: h plus the seed goes through murmur3's 64-bit finalizer;
// the high half of the product of that mix x with the length of all
// segments but the last two is the first slot; the second and third are the
// same offset one and two segments on, with bits 18 up and 0 up of x XORed
// into their offsets within the segment; the fingerprint is x XORed with its
// upper half, truncated to 8 bits. TestFuseProbeMatchesLibrary holds it to
// the library's answers.
//
// The seed and q come from the filter's last bytes, which a cold query waits
// for. So the query first guesses both from what it has before any of the
// filter's bytes arrive: the library tries a fixed sequence of seeds and
// nearly always keeps the first (fuseFirstSeed), and q follows from the
// body's length (fuseGuessShift). With the guess, the three fingerprint
// addresses depend only on h and len(body), so the body's lines are fetched
// while the trailer's is still on its way instead of after it; the guess is
// confirmed once the seed and trailer arrive. A filter built otherwise takes
// its own seed and q, and its query waits for them.
func fuseMayContain(body []byte, seed uint64, _ uint32, q uint8, h uint64) bool {
	n := uint64(len(body) - 8)
	gq := fuseGuessShift(n)
	s := uint64(fuseFirstSeed)
	if seed^s|uint64(q^gq) != 0 {
		// Set here rather than passed to a second function, so that this
		// one stays a leaf, without a stack frame to set up per query.
		s, gq = seed, q
	}
	return fuseProbe(body, n, gq, fuseMix(h+s))
}

// fuseMayContainFirst answers for key hash h if filter is a fuse filter as
// the library nearly always builds it: its first seed, and the segment
// length its body's length implies (see fuseMayContain). ok is false for
// anything else (other kinds, other seeds or segment lengths, bytes that do
// not decode), whose answer is then the caller's to find on the generic
// path; when ok is true, the answer is the one that path gives.
//
// For such a filter every byte of the seed and trailer follows from
// len(filter) alone. So the three fingerprints are loaded first, addressed
// from h and the length; then the seed and trailer are compared, whole
// words at once, with the values the length implies, and one branch takes
// the answer or leaves it. No branch that waits on the filter's bytes comes
// before the fingerprint loads, so in a run of cold queries each one's
// misses start as soon as its key is hashed. fusePolicy.MayContain is this
// function written out with the same inlined parts; this one is what the
// tests call to see whether the shortcut was taken.
//
// It reads within filter for any length: the guessed segment length leaves
// three whole segments inside the fingerprints (fuseGuessShift), and the
// slots are taken within the largest whole number of segments there, which
// is every fingerprint of a filter that confirms.
func fuseMayContainFirst(filter []byte, h uint64) (answer, ok bool) {
	m := uint64(len(filter)) - (8 + pointTrailerLen)
	if m-fuseArity >= fuseFirstMaxBytes-fuseArity {
		// Too short for three slots (or shorter than seed and trailer,
		// where m wrapped around), or longer than any fuse filter.
		return false, false
	}
	q := fuseGuessShift(m)
	return fuseProbe(filter, m, q, fuseMix(h+fuseFirstSeed)), fuseFirstConfirms(filter, m, q)
}

// fuseProbe queries the fingerprints of a fuse filter, the first m bytes of
// filter, with segment shift q, for x, the key hash mixed with the seed
// (fuseMix). The slots are taken within the largest whole number of
// segments in m, which is all m bytes of a filter whose trailer confirms q,
// and within filter whatever m and q a guess gives (fuseMayContainFirst).
// It and fuseFirstConfirms are small enough for the compiler to inline, so
// that fusePolicy.MayContain makes no call but the hash on its way to the
// loads: every call and spill costs instructions that hold back the next
// query's loads in a run of cold queries.
func fuseProbe(filter []byte, m uint64, q uint8, x uint64) bool {
	seg := uint64(1) << q
	h0, _ := bits.Mul64(x, m&^(seg-1)-2*seg)
	h1 := (h0 + seg) ^ (x>>18)&(seg-1)
	h2 := (h0 + 2*seg) ^ x&(seg-1)
	return uint8(x^x>>32)^filter[h0]^filter[h1]^filter[h2] == 0
}

// fuseFirstConfirms reports whether the seed and trailer of filter are what
// the library's first seed and the guessed shift q give for m fingerprint
// bytes: the trailer's first word is the segment count a and the seed's
// fold, its second p, q, kind and version, then the check, which with every
// field but a and q fixed is a ^ q<<24 ^ fuseFirstCheck; and a+2 segments
// must be the fingerprints' length. (Then a is at least 1, as three
// segments fit, and at most fuseMaxSegments, as m is below
// fuseFirstMaxBytes: TestFuseMayContainFirstBounds.)
func fuseFirstConfirms(filter []byte, m uint64, q uint8) bool {
	tail := (*[8 + pointTrailerLen]byte)(filter[m:])
	a := binary.LittleEndian.Uint64(tail[8:16]) ^ fuseFirstX // a, if the fold is right
	bad := binary.LittleEndian.Uint64(tail[0:8]) ^ fuseFirstSeed
	bad |= binary.LittleEndian.Uint64(tail[16:24]) ^ (uint64(q)<<8 | uint64(q)<<56) ^ fuseFirstY ^ a<<32
	bad |= a>>32 | ((a+fuseArity-1)<<q ^ m)
	return bad == 0
}

// fuseFirstMaxBytes bounds the fingerprints' length in fuseMayContainFirst:
// the most that fuseMaxSegments segments of the largest length, with the two
// after them, hold.
const fuseFirstMaxBytes = (fuseMaxSegments + fuseArity - 1) << fuseMaxSegmentShift

// The constant parts of the seed and trailer words fuseMayContainFirst
// expects: the fold of fuseFirstSeed (fuseSeedFold) in fuseFirstX; p, kind
// and version in fuseFirstY, with the part of the check (pointTrailerCheck)
// they and the fold make. TestFuseMayContainFirstConstants derives them.
const (
	fuseFirstSeedFold = fuseFirstSeed&0xffffffff ^ fuseFirstSeed>>32<<16&0xffffffff ^ fuseFirstSeed>>48 ^ pointMagic
	fuseFirstX        = fuseFirstSeedFold << 32
	fuseFirstYLow     = fuseFingerprintBits | uint64(pointTagFuse)<<16
	fuseFirstCheck    = (fuseFirstSeedFold<<8&0xffffffff | fuseFirstSeedFold>>24) ^
		(fuseFirstYLow<<16&0xffffffff | fuseFirstYLow>>16) ^ pointMagic
	fuseFirstY = fuseFirstYLow | fuseFirstCheck<<32
)

// fuseMix is the library's mix of a key hash with the seed added: murmur3's
// 64-bit finalizer.
func fuseMix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// fuseFirstSeed is the first seed the library tries: splitmix64 of its
// counter, which starts at 1 for every build. A build keeps it unless
// peeling fails, which for tables of thousands of keys or more is rare
// (TestFuseFirstSeedIsUsual).
const fuseFirstSeed = 0x910a2dec89025cc1

// fuseGuessShift returns the segment shift q the library picks for a filter
// whose fingerprints take n bytes, when it keeps its first choice of segment
// length. The library derives the segment length 2^q and the length n from
// the key count, both growing with it, so n alone tells q except for a few
// key counts at each step of q, whose n the previous q's largest key counts
// also produce (the guess is the previous q; the others are queried with
// their own).
//
// Each step of q multiplies the key count by 3.33, so every power of two
// holds at most one step's smallest n: the table gives, for n's bit length,
// that n (from the top 56 bits) and the q below it (the low 8 bits).
func fuseGuessShift(n uint64) uint8 {
	e := fuseShiftSteps[bits.Len64(n)&63]
	q := uint8(e)
	if n >= e>>8 {
		q++
	}
	return q
}

// fuseShiftSteps is fuseGuessShift's table.
var fuseShiftSteps = fuseMakeShiftSteps()

// fuseMakeShiftSteps builds fuseShiftSteps from the library's sizing rule
// (calculateSegmentLength and calculateSizeFactor in binaryfusefilter.go):
// for s keys the segment length is 2^⌊log_3.33(s) + 2.25⌋, at most 2^18, and
// the fingerprints fill ⌈c·s⌉ rounded up to whole segments, at least three,
// with c as in fuseBitsPerKey. It finds each q's smallest key count by
// bisection, since q grows with s.
func fuseMakeShiftSteps() (t [64]uint64) {
	shift := func(s uint64) uint8 {
		if s == 0 {
			return 2
		}
		return uint8(min(fuseMaxSegmentShift, math.Floor(math.Log(float64(s))/math.Log(3.33)+2.25)))
	}
	length := func(s uint64) uint64 {
		seg := uint64(1) << shift(s)
		var c uint64
		if s > 1 {
			c = uint64(math.Round(float64(s) * math.Max(1.125, 0.875+0.25*math.Log(1e6)/math.Log(float64(s)))))
		}
		return max((c+seg-1)/seg, fuseArity) * seg
	}
	// steps[q] is the smallest n of shift q; below q = 2, the least n that
	// three segments need, so that every guess leaves three segments.
	var steps [fuseMaxSegmentShift + 1]uint64
	for q := range steps {
		steps[q] = fuseArity << q
		if q <= 2 {
			continue
		}
		lo, hi := uint64(1), uint64(math.MaxUint32)
		for lo < hi {
			if mid := lo + (hi-lo)/2; shift(mid) >= uint8(q) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		steps[q] = max(length(lo), steps[q])
		if length(lo-1) == steps[q] {
			// A length both q-1 and q produce: the smaller guess, since
			// key counts at a step's start are where the library's first
			// segment length fails most and it falls back to half.
			steps[q]++
		}
	}
	for l := range t {
		// The q of the largest step at or below 2^(l-1), the smallest n
		// of bit length l, and the next step if it lies within length l.
		q := 0
		for q+1 < len(steps) && steps[q+1] < 1<<max(l-1, 0) {
			q++
		}
		next := uint64(math.MaxUint64 >> 8)
		if q+1 < len(steps) && steps[q+1]>>l == 0 {
			next = steps[q+1]
		}
		t[l] = next<<8 | uint64(q)
	}
	return t
}
