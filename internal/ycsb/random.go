// Copyright 2026 The pebblerf Authors. All rights reserved.

package ycsb

import (
	"math/bits"
	"math/rand/v2"
)

// random is a deterministic stream of random numbers. It wraps PCG, whose
// output math/rand/v2 specifies, and derives floats and bounded integers
// itself, so a seed gives the same operations whatever Go release built the
// binary.
type random struct {
	pcg rand.PCG
}

// seed starts the stream for one (seed, stream) pair; distinct pairs give
// unrelated streams.
func (r *random) seed(seed, stream uint64) {
	r.pcg.Seed(mix64(seed), mix64(seed^mix64(stream)))
}

// float64 returns a uniform float64 in [0, 1).
func (r *random) float64() float64 {
	return float64(r.pcg.Uint64()>>11) * 0x1p-53
}

// uint64n returns a uniform integer in [0, n), n > 0, by Lemire's
// multiply-and-reject method ("Fast Random Integer Generation in an
// Interval", ACM TOMACS 2019).
func (r *random) uint64n(n uint64) uint64 {
	hi, lo := bits.Mul64(r.pcg.Uint64(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(r.pcg.Uint64(), n)
		}
	}
	return hi
}

// mix64 is SplitMix64's output function (Steele et al., "Fast Splittable
// Pseudorandom Number Generators", OOPSLA 2014): a golden-ratio increment,
// then xor-shifts and odd multiplications. Every step is invertible, so
// mix64 is a bijection of uint64: distinct inputs never collide, which is
// what makes hashed keys of distinct records distinct.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// fnvHash64 is YCSB's Utils.fnvhash64: 64-bit FNV-1a over the eight bytes
// of x, least significant first, then the absolute value of the result read
// as a signed integer. The scrambled Zipfian uses it, as YCSB's does, so
// that a Zipfian rank lands on the record number it lands on in YCSB.
func fnvHash64(x uint64) uint64 {
	const (
		offsetBasis = 0xcbf29ce484222325
		prime       = 1099511628211
	)
	h := uint64(offsetBasis)
	for range 8 {
		h ^= x & 0xff
		h *= prime
		x >>= 8
	}
	if int64(h) < 0 {
		// Java's Math.abs; of the minimum int64 it returns the minimum,
		// which a later remainder would make negative. Its magnitude,
		// 2^63, is the only non-negative reading.
		h = -h
	}
	return h
}
