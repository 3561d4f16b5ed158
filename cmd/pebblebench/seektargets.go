// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import "math/rand/v2"

// seekTargets draws seekrandom's targets and upper bounds. Like every key
// choice it depends only on the worker's random source (and, after a sparse
// fill, on the keys that fill wrote, the same for both engines), so both
// engines of -engine=both seek the same targets with the same bounds.
//
// A target is a written key number i*stride, i uniform in
// [0, num*seek_target_range_multiplier) (past the filled range with a
// multiplier above 1), possibly made absent by -missing_fraction. With
// -empty_range_fraction a target is instead placed in a gap: i*stride+o with
// o in [1, stride-len], so [target, target+len) ends at or before the next
// written key (i+1)*stride and holds no key. The upper bound is the key
// -seek_upper_bound_len positions after the target.
//
// After a sparse fill (-writes), where most key positions were never
// written, bounded targets come from the recorded key set instead: a
// non-empty range starts at a uniformly chosen written key, and an empty
// one at a uniformly chosen key position whose range holds no written key.
type seekTargets struct {
	keys            keyGen
	space           uint64 // written key positions targets are drawn from
	upperLen        uint64
	emptyFraction   float64
	missingFraction float64
	written         *keySet // nil unless -writes
	// hotFraction of the targets come from [hotStart, hotStart+hotSpace).
	hotFraction float64
	hotStart    uint64
	hotSpace    uint64
}

func (c *config) seekTargets() seekTargets {
	return seekTargets{
		keys:            c.keyGen(),
		space:           uint64(c.num) * uint64(c.seekTargetRangeMultiplier),
		upperLen:        uint64(c.seekUpperBoundLen),
		emptyFraction:   c.emptyRangeFraction,
		missingFraction: c.missingFraction,
		written:         c.written,
		hotFraction:     c.seekHotFraction,
		hotStart:        uint64(float64(c.num) * c.seekHotStart),
		hotSpace:        max(uint64(float64(c.num)*c.seekHotRange), 1),
	}
}

// bounded reports whether seeks get an upper bound.
func (t seekTargets) bounded() bool { return t.upperLen > 0 }

// drawAttempts bounds the rejection sampling of key-set targets; past it a
// draw takes the next candidate by scanning, so a pathological key set
// costs time, never an endless loop.
const drawAttempts = 1000

// next fills key with the next target and, when bounded, upper with its
// upper bound. It reports whether the range was chosen to be empty.
func (t seekTargets) next(rng *rand.Rand, key, upper []byte) (empty bool) {
	var v uint64
	if t.bounded() && t.written != nil && t.written.count() > 0 {
		v, empty = t.fromKeySet(rng)
	} else {
		n := rng.Uint64N(t.space)
		if t.hotFraction > 0 && rng.Float64() < t.hotFraction {
			n = t.hotStart + rng.Uint64N(t.hotSpace)
		}
		v = t.keys.written(n)
		if t.emptyFraction > 0 && rng.Float64() < t.emptyFraction {
			v += 1 + rng.Uint64N(t.keys.stride-t.upperLen)
			empty = true
		}
	}
	t.keys.fill(key, v)
	if !empty && t.missingFraction > 0 && rng.Float64() < t.missingFraction {
		t.keys.makeMissing(key)
	}
	if t.bounded() {
		t.keys.fill(upper, v+t.upperLen)
	}
	return empty
}

// fromKeySet draws a target key number from the recorded key set: empty
// with probability emptyFraction (a key position whose range holds no
// written key), else a written key. If no empty range turns up, the draw
// falls back to a non-empty one and says so.
func (t seekTargets) fromKeySet(rng *rand.Rand) (v uint64, empty bool) {
	num := uint64(len(t.written.words)) * 64
	stride := t.keys.stride
	if t.emptyFraction > 0 && rng.Float64() < t.emptyFraction {
		positions := t.space * stride
		for k := 0; k < drawAttempts; k++ {
			v = rng.Uint64N(positions)
			// Written key numbers i*stride in [v, v+len): i in [ceil(v/stride), ceil((v+len)/stride)).
			a, b := (v+stride-1)/stride, (v+t.upperLen+stride-1)/stride
			if !t.written.anyIn(a, b) {
				return v, true
			}
		}
	}
	for k := 0; k < drawAttempts; k++ {
		if i := rng.Uint64N(num); i < t.space && t.written.has(i) {
			return t.keys.written(i), false
		}
	}
	i, _ := t.written.nextFrom(rng.Uint64N(num))
	return t.keys.written(i), false
}
