// Copyright 2026 The pebblerf Authors. All rights reserved.

package keyspace

import "math/rand/v2"

// Targets draws the targets and upper bounds of seeks. Like every key
// choice it depends only on the caller's random source (and, after a sparse
// fill, on the keys that fill wrote, the same for both engines), so two
// engines seek the same targets with the same bounds.
//
// A target is a written key number i*stride, i uniform in [0, Space) (past
// the filled range when Space exceeds Keys.Num), made absent with
// probability MissingFraction. With probability EmptyFraction a target is
// instead placed in a gap: i*stride+o with o in [1, stride-UpperLen], so
// [target, target+UpperLen) ends at or before the next written key
// (i+1)*stride and holds no key. The upper bound is the key UpperLen
// positions after the target.
//
// After a sparse fill (Written set), where most key positions were never
// written, bounded targets come from the recorded key set instead: a
// non-empty range starts at a uniformly chosen written key, and an empty
// one at a uniformly chosen key position whose range holds no written key.
type Targets struct {
	Keys Gen
	// Space is the number of written key positions targets are drawn from.
	Space uint64
	// UpperLen is the key positions from a target to its upper bound; 0
	// for seeks without one.
	UpperLen        uint64
	EmptyFraction   float64
	MissingFraction float64
	// Written is the sparse fill's key set, nil after a dense fill.
	Written *Set
	// HotFraction of the targets come from [HotStart, HotStart+HotSpace).
	HotFraction float64
	HotStart    uint64
	HotSpace    uint64
}

// Bounded reports whether seeks get an upper bound.
func (t Targets) Bounded() bool { return t.UpperLen > 0 }

// drawAttempts bounds the rejection sampling of key-set targets; past it a
// draw takes the next candidate by scanning, so a pathological key set
// costs time, never an endless loop.
const drawAttempts = 1000

// Next fills key with the next target and, when bounded, upper with its
// upper bound. It reports whether the range was chosen to be empty.
func (t Targets) Next(rng *rand.Rand, key, upper []byte) (empty bool) {
	var v uint64
	if t.Bounded() && t.Written != nil && t.Written.Count() > 0 {
		v, empty = t.fromKeySet(rng)
	} else {
		n := rng.Uint64N(t.Space)
		if t.HotFraction > 0 && rng.Float64() < t.HotFraction {
			n = t.HotStart + rng.Uint64N(t.HotSpace)
		}
		v = t.Keys.Written(n)
		if t.EmptyFraction > 0 && rng.Float64() < t.EmptyFraction {
			v += 1 + rng.Uint64N(t.Keys.Stride-t.UpperLen)
			empty = true
		}
	}
	t.Keys.Fill(key, v)
	if !empty && t.MissingFraction > 0 && rng.Float64() < t.MissingFraction {
		t.Keys.MakeMissing(key)
	}
	if t.Bounded() {
		t.Keys.Fill(upper, v+t.UpperLen)
	}
	return empty
}

// fromKeySet draws a target key number from the recorded key set: empty
// with probability emptyFraction (a key position whose range holds no
// written key), else a written key. If no empty range turns up, the draw
// falls back to a non-empty one and says so.
func (t Targets) fromKeySet(rng *rand.Rand) (v uint64, empty bool) {
	num := uint64(len(t.Written.words)) * 64
	stride := t.Keys.Stride
	if t.EmptyFraction > 0 && rng.Float64() < t.EmptyFraction {
		positions := t.Space * stride
		for k := 0; k < drawAttempts; k++ {
			v = rng.Uint64N(positions)
			// Written key numbers i*stride in [v, v+len): i in [ceil(v/stride), ceil((v+len)/stride)).
			a, b := (v+stride-1)/stride, (v+t.UpperLen+stride-1)/stride
			if !t.Written.AnyIn(a, b) {
				return v, true
			}
		}
	}
	for k := 0; k < drawAttempts; k++ {
		if i := rng.Uint64N(num); i < t.Space && t.Written.Has(i) {
			return t.Keys.Written(i), false
		}
	}
	i, _ := t.Written.NextFrom(rng.Uint64N(num))
	return t.Keys.Written(i), false
}
