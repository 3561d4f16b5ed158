// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import "math/bits"

// The range filter reduces the key map's values to a universe of
// r = n·2^(B-2) integers with a locality-preserving hash (the construction of
// Costa, Ferragina and Vinciguerra's Grafite, SIGMOD 2024), then stores the
// reduced values exactly with Elias-Fano, which costs about
// n·(2 + log2(r/n)) = n·B bits.
//
// The value axis is cut into blocks of r consecutive integers. Inside block q
// every value is rotated by the same offset s(q):
//
//	h(x) = (x mod r + s(x div r)) mod r,   s(q) = ((a·q + b) mod p) mod r
//
// with p = 2^61-1 and a, b drawn at random per table. A query interval shorter
// than r touches at most two blocks, and inside each block its image is an
// interval of the same length (wrapping around r at most once), so the
// filter asks Elias-Fano about at most four intervals of total length ℓ.
//
// False negatives are impossible: a key in the query interval hashes into
// the query's image. A false positive needs some key outside the interval to
// land in the image. Keys in the same block as the query do not: the rotation
// is a bijection of the block. A key in another block lands at an offset that
// is, over the choice of a and b, (nearly) uniform and independent of the
// query's offset (a·q+b mod p is pairwise independent), so it hits an image of
// length ℓ with probability about ℓ/r. Over the n keys the false-positive
// probability is at most n·ℓ/r = ℓ/2^(B-2), for every key set and every
// query, including queries placed just after a key: that is what makes the
// filter robust where trie-based filters such as SuRF are not. A query of
// length >= r is answered "may intersect".

// rangeMersenne61 is the prime p = 2^61 - 1.
const rangeMersenne61 = 1<<61 - 1

// rangeHash is the per-table hash.
type rangeHash struct {
	r, a, b uint64
}

// rangeMod61 reduces x modulo 2^61-1.
func rangeMod61(x uint64) uint64 {
	x = x&rangeMersenne61 + x>>61
	if x >= rangeMersenne61 {
		x -= rangeMersenne61
	}
	return x
}

// offset returns s(q), the rotation of block q.
func (h *rangeHash) offset(q uint64) uint64 {
	hi, lo := bits.Mul64(h.a, q) // a < 2^61, so hi < 2^61 and hi<<3 fits
	// 2^64 = 2^3 · 2^61 ≡ 8 (mod p).
	v := rangeMod61(lo) + rangeMod61(hi<<3) + h.b
	return rangeMod61(v) % h.r
}

// apply hashes x.
func (h *rangeHash) apply(x uint64) uint64 {
	y := x%h.r + h.offset(x/h.r)
	if y >= h.r {
		y -= h.r
	}
	return y
}

// rangeAnyRotated asks e about the image of [o1, o2] (offsets inside one
// block, o1 <= o2) rotated by s, which may wrap around r once.
func rangeAnyRotated(e *efView, r, o1, o2, s uint64) (found, ok bool) {
	a, b := o1+s, o2+s
	if a >= r {
		a -= r
	}
	if b >= r {
		b -= r
	}
	if a <= b {
		return e.anyInRange(a, b)
	}
	if found, ok = e.anyInRange(a, r-1); found || !ok {
		return found, ok
	}
	return e.anyInRange(0, b)
}

// anyInRange reports whether some hashed value is the image of a value in
// [x1, x2].
func (h *rangeHash) anyInRange(e *efView, x1, x2 uint64) (found, ok bool) {
	if x2-x1 >= h.r-1 {
		return true, true
	}
	// One division: x2 - x1 < r - 1, so x2 lies in block q1 or the next.
	q1, o1 := x1/h.r, x1%h.r
	q2, o2 := q1, o1+(x2-x1)
	if o2 >= h.r {
		q2, o2 = q1+1, o2-h.r
	}
	if q1 == q2 {
		return rangeAnyRotated(e, h.r, o1, o2, h.offset(q1))
	}
	if found, ok = rangeAnyRotated(e, h.r, o1, h.r-1, h.offset(q1)); found || !ok {
		return found, ok
	}
	return rangeAnyRotated(e, h.r, 0, o2, h.offset(q2))
}
