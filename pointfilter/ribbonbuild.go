// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Ribbon construction: sizing, banding, back-substitution. The algorithm is
// described in ribbon.go.

const (
	// ribbonMaxAttempts bounds the seeds tried before falling back to Bloom.
	// With the sizing below the first seed succeeds in the vast majority of
	// builds; every ribbonGrowEvery failures the slot count grows by about
	// 1.5%, so the fallback is practically unreachable. (Repeated keys are
	// no obstacle: equal hashes give equal rows, which band as redundant.)
	ribbonMaxAttempts = 32
	ribbonGrowEvery   = 4
	// ribbonSortMin is the key count from which the builder buckets keys
	// by start before banding: below it the banding arrays fit in cache and
	// bucketing only costs time.
	ribbonSortMin = 1 << 14
	// ribbonBucketSlots is the span of slots a bucket should cover: the
	// banding rows of 512 slots plus the 128 its rows reach past them are
	// 13 KiB, well inside L1, so keys in any order within a bucket band
	// without cache misses.
	ribbonBucketSlots = 512
	// ribbonBucketBits caps the bucket count at 2^12 (16 KiB of counters,
	// 4096 write streams, which L2 still holds): one counting pass then
	// suffices up to about 2·10^6 keys with 512-slot buckets and keeps the
	// buckets within L2 (2^15 slots, 640 KiB) up to about 10^8.
	ribbonBucketBits = 12
)

// ribbonOverhead is ε_m(n): the fraction of slots above n. 128-bit banding
// needs a few percent of slack that grows slowly (about logarithmically) with
// n. The constants were fitted by banding random key sets so that the first
// seed works for about 96% of builds from a few hundred keys to 4·10^6 (a
// failed seed costs one more banding pass); TestRibbonFirstSeedSucceeds
// guards the fit. At 10^7 keys the overhead is 5%.
func ribbonOverhead(n int) float64 {
	lg := math.Log2(float64(max(n, 2)))
	return 0.006 + 0.0019*lg
}

// ribbonColumnBytes is the initial column size B for n keys: n·(1+ε_m)
// slots rounded up to whole 64-bit words.
func ribbonColumnBytes(n int) uint32 {
	slots := float64(n) * (1 + ribbonOverhead(n))
	return max(ribbonMinColumnBytes, 8*uint32(math.Ceil(slots/64)))
}

// ribbonLayoutFor fixes r and the last column's missing bytes L for
// columns of colBytes bytes: L/(B−16) of the starts check r−1 columns.
func ribbonLayoutFor(colBytes uint32, r uint8, p float64, seed uint8) ribbonLayout {
	starts := uint32(ribbonStartBytes(uint64(colBytes)))
	low := 8 * uint32(math.Round(p*float64(starts)/8))
	if r < 2 {
		low = 0
	}
	return ribbonLayout{colBytes: colBytes, lowBytes: min(low, starts&^7), r: r, seed: seed}
}

// ribbonSize is the encoded size of a filter with layout l, trailer included.
func ribbonSize(l ribbonLayout) int {
	return int(ribbonBodyBytes(l.colBytes, l.lowBytes, l.r)) + pointTrailerLen
}

// ribbonBuilder holds the scratch space of a build. Pebble makes a writer
// per table, so builds take it from ribbonBuilders instead of each writer
// keeping its own: a flush or compaction writing many tables reuses one
// set of buffers instead of allocating (and zeroing) about 29 bytes per key
// for each table. sync.Pool drops them at the second GC after their last
// use, so idle writers hold nothing.
type ribbonBuilder struct {
	keys           []uint64 // rehashed keys, bucketed by start
	coefLo, coefHi []uint64 // banded rows; coefLo[i] == 0 means slot i is free
	res            []uint32 // banded fingerprints
}

// ribbonBuilders pools *ribbonBuilder scratch across writers.
var ribbonBuilders = sync.Pool{New: func() any { return new(ribbonBuilder) }}

// ribbonBuild is ribbonBuilder.build with pooled scratch space.
func ribbonBuild(dst []byte, hashes *pointHashes, bloomBits float64) []byte {
	b := ribbonBuilders.Get().(*ribbonBuilder)
	dst = b.build(dst, hashes, bloomBits)
	ribbonBuilders.Put(b)
	return dst
}

// build appends to dst a filter for hashes at the given Bloom-equivalent
// bits/key: a Ribbon filter, or a Bloom filter where Ribbon would be no
// smaller or cannot be built.
func (b *ribbonBuilder) build(dst []byte, hashes *pointHashes, bloomBits float64) []byte {
	r, p := ribbonParams(bloomBits)
	colBytes := ribbonColumnBytes(hashes.len())
	if ribbonSize(ribbonLayoutFor(colBytes, r, p, 0)) >= bloomSize(hashes.len(), bloomBits) {
		return bloomAppend(dst, hashes, bloomBits, bloomProbes(bloomBits))
	}
	return b.buildFrom(dst, hashes, bloomBits, colBytes)
}

// buildFrom tries seeds from columns of colBytes bytes upwards and falls
// back to Bloom when ribbonMaxAttempts seeds have failed.
func (b *ribbonBuilder) buildFrom(dst []byte, hashes *pointHashes, bloomBits float64, colBytes uint32) []byte {
	r, p := ribbonParams(bloomBits)
	for attempt := 0; attempt < ribbonMaxAttempts; attempt++ {
		if attempt > 0 && attempt%ribbonGrowEvery == 0 {
			colBytes += 8 * max(1, colBytes/512)
		}
		l := ribbonLayoutFor(colBytes, r, p, uint8(attempt))
		if b.band(hashes, l) {
			return b.solve(dst, l)
		}
	}
	return bloomAppend(dst, hashes, bloomBits, bloomProbes(bloomBits))
}

// band runs on-the-fly Gaussian elimination of all keys' rows under layout
// l's seed and slot count. It returns false if the system has no solution.
func (b *ribbonBuilder) band(hashes *pointHashes, l ribbonLayout) bool {
	m := 8 * int(l.colBytes)
	colBytes := uint64(l.colBytes)
	topBits := 0
	if hashes.len() >= ribbonSortMin {
		// The start is monotone in the rehash, so bucketing by its top
		// bits buckets them by start (see ribbonBucketSlots).
		topBits = min(bits.Len64(uint64(m/ribbonBucketSlots)), ribbonBucketBits)
	}
	b.keys = ribbonBucketRehashes(b.keys, hashes, l.seed, topBits)
	keys := b.keys
	b.coefLo = pointZeroed(b.coefLo, m)
	b.coefHi = pointZeroed(b.coefHi, m)
	b.res = pointZeroed(b.res, m)
	// Equal lengths let one bounds check on coefLo cover all three.
	coefLo := b.coefLo
	coefHi, res := b.coefHi[:len(coefLo)], b.res[:len(coefLo)]
	for _, h := range keys {
		i := 8 * int(ribbonStart(h, colBytes))
		lo, hi, f := ribbonRow(h)
		for {
			if coefLo[i] == 0 {
				coefLo[i], coefHi[i], res[i] = lo, hi, f
				break
			}
			lo ^= coefLo[i]
			hi ^= coefHi[i]
			f ^= res[i]
			// Both rows had bit 0 set, so the leading one is at least one
			// place on. The masks tell the compiler the shifts are below
			// 64, which spares each the guard Go adds for wider shifts.
			if lo != 0 {
				tz := bits.TrailingZeros64(lo)
				lo = lo>>(tz&63) | hi<<((64-tz)&63)
				hi >>= tz & 63
				i += tz
			} else if hi != 0 {
				tz := bits.TrailingZeros64(hi)
				lo, hi = hi>>(tz&63), 0
				i += 64 + tz
			} else {
				// The row is a combination of earlier rows: harmless if
				// its fingerprint is too (a repeated key), fatal if not.
				if f != 0 {
					return false
				}
				break
			}
		}
	}
	return true
}

// solve back-substitutes the banded system into the column bitmaps of
// layout l appended to dst, followed by the trailer.
func (b *ribbonBuilder) solve(dst []byte, l ribbonLayout) []byte {
	start := len(dst)
	dst = pointGrow(dst, ribbonSize(l)-pointTrailerLen)
	body := dst[start:]
	// state[j] holds column j's solution bits for the 128 slots i..i+127,
	// slot i in bit 0: shifting it left by one makes room for the next slot
	// down, and at a multiple of 64 its low word is that word of the column.
	var stLo, stHi [ribbonMaxResultBits]uint64
	r := int(l.r)
	colBytes, low := int(l.colBytes), int(l.lowBytes)
	last := (r-1)*colBytes - low // where the last column's byte 0 would be
	for i := 8*colBytes - 1; i >= 0; i-- {
		cLo, cHi, f := b.coefLo[i], b.coefHi[i], b.res[i]
		for j := 0; j < r; j++ {
			stHi[j] = stHi[j]<<1 | stLo[j]>>63
			stLo[j] <<= 1
			if cLo != 0 {
				// Bit 0 of the state is still 0, so the pivot itself
				// drops out of the parity.
				parity := bits.OnesCount64(stLo[j]&cLo^stHi[j]&cHi) ^ int(f>>j)
				stLo[j] |= uint64(parity & 1)
			}
		}
		if i%64 == 0 {
			v := i / 8 // the word's byte in every column
			for j := 0; j < r-1; j++ {
				pointPutLE64(body[j*colBytes+v:], stLo[j])
			}
			if v >= low {
				pointPutLE64(body[last+v:], stLo[r-1])
			}
		}
	}
	return pointAppendTrailer(dst, pointTrailer{
		a: l.colBytes, b: l.lowBytes, p: l.r, q: l.seed, kind: pointKindRibbon, version: pointFormatRibbon,
	})
}

// pointZeroed returns s resized to n zero elements, reusing its capacity.
// New memory comes zeroed from make; clearing it again would write the
// whole buffer a second time.
func pointZeroed[T uint32 | uint64](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// ribbonBucketRehashes returns dst resized to hold the rehashes of hashes
// under seed, in ascending order of their top topBits bits (0 to
// ribbonBucketBits; 0 leaves them in order). One counting pass reads the
// hashes straight from their chunks, so bucketing needs no second buffer.
func ribbonBucketRehashes(dst []uint64, hashes *pointHashes, seed uint8, topBits int) []uint64 {
	n := hashes.len()
	dst = slices.Grow(dst[:0], n)[:n]
	if topBits == 0 {
		i := 0
		for _, chunk := range hashes.chunks {
			for _, h := range chunk {
				dst[i] = ribbonRehash(h, seed)
				i++
			}
		}
		return dst
	}
	shift := uint(64 - topBits)
	var next [1 << ribbonBucketBits]uint32
	for _, chunk := range hashes.chunks {
		for _, h := range chunk {
			next[ribbonRehash(h, seed)>>shift]++
		}
	}
	sum := uint32(0)
	for d, c := range next[:1<<topBits] {
		next[d] = sum
		sum += c
	}
	for _, chunk := range hashes.chunks {
		for _, h := range chunk {
			x := ribbonRehash(h, seed)
			d := x >> shift
			dst[next[d]] = x
			next[d]++
		}
	}
	return dst
}
