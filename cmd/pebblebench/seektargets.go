// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import "math/rand/v2"

// seekTargets draws seekrandom's targets and upper bounds. Like every key
// choice it depends only on the worker's random source, so both engines of
// -engine=both seek the same targets with the same bounds.
//
// A target is a written key number i*stride, i uniform in
// [0, num*seek_target_range_multiplier) (past the filled range with a
// multiplier above 1), possibly made absent by -missing_fraction. With
// -empty_range_fraction a target is instead placed in a gap: i*stride+o with
// o in [1, stride-len], so [target, target+len) ends at or before the next
// written key (i+1)*stride and holds no key. The upper bound is the key
// -seek_upper_bound_len positions after the target.
type seekTargets struct {
	keys            keyGen
	space           uint64 // written key positions targets are drawn from
	upperLen        uint64
	emptyFraction   float64
	missingFraction float64
	// hotFraction of the targets come from [0, hotSpace).
	hotFraction float64
	hotSpace    uint64
}

func (c *config) seekTargets() seekTargets {
	return seekTargets{
		keys:            c.keyGen(),
		space:           uint64(c.num) * uint64(c.seekTargetRangeMultiplier),
		upperLen:        uint64(c.seekUpperBoundLen),
		emptyFraction:   c.emptyRangeFraction,
		missingFraction: c.missingFraction,
		hotFraction:     c.seekHotFraction,
		hotSpace:        max(uint64(float64(c.num)*c.seekHotRange), 1),
	}
}

// bounded reports whether seeks get an upper bound.
func (t seekTargets) bounded() bool { return t.upperLen > 0 }

// next fills key with the next target and, when bounded, upper with its
// upper bound. It reports whether the range was chosen to be empty.
func (t seekTargets) next(rng *rand.Rand, key, upper []byte) (empty bool) {
	n := rng.Uint64N(t.space)
	if t.hotFraction > 0 && rng.Float64() < t.hotFraction {
		n = rng.Uint64N(t.hotSpace)
	}
	v := t.keys.written(n)
	if t.emptyFraction > 0 && rng.Float64() < t.emptyFraction {
		v += 1 + rng.Uint64N(t.keys.stride-t.upperLen)
		empty = true
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
