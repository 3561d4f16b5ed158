// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeySet checks the bitmap's queries against a map of the same indexes.
func TestKeySet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const num = 1000
	s := newKeySet(num)
	model := map[uint64]bool{}
	for i := 0; i < 60; i++ {
		v := rng.Uint64N(num)
		s.add(v)
		model[v] = true
	}
	require.Equal(t, int64(len(model)), s.count())
	for a := uint64(0); a < num; a++ {
		require.Equal(t, model[a], s.has(a))
		for _, n := range []uint64{0, 1, 7, 63, 64, 65, 200} {
			want := false
			for v := a; v < a+n; v++ {
				want = want || model[v]
			}
			require.Equal(t, want, s.anyIn(a, a+n), "[%d, %d)", a, a+n)
		}
		next, ok := s.nextFrom(a)
		require.True(t, ok)
		want := a
		for !model[want%num] {
			want++
		}
		require.Equal(t, want%num, next)
	}
	_, ok := newKeySet(num).nextFrom(5)
	require.False(t, ok)
}

// TestSeekTargetsSparse checks the targets after a sparse fill: empty
// ranges hold no written key, the others start at one, about the asked
// fraction is empty, and the key set read back from keys (as
// -use_existing_db does) equals the one the fill recorded.
func TestSeekTargetsSparse(t *testing.T) {
	c, err := parseFlags([]string{"-num=100000", "-writes=3000", "-seek_upper_bound_len=8",
		"-empty_range_fraction=0.9"}, &bytes.Buffer{})
	require.NoError(t, err)
	require.NotNil(t, c.written)
	g := c.keyGen()
	rng := rand.New(rand.NewPCG(1, 2))
	written := map[uint64]bool{}
	key := make([]byte, c.keySize)
	reread := newKeySet(c.num)
	for i := int64(0); i < c.writes; i++ {
		v := rng.Uint64N(uint64(c.num))
		c.written.add(v)
		written[v] = true
		g.fill(key, g.written(v))
		reread.add(g.index(key))
	}
	require.Equal(t, c.written.words, reread.words)

	targets := c.seekTargets()
	upper := make([]byte, c.keySize)
	empties := 0
	const draws = 5000
	for i := 0; i < draws; i++ {
		empty := targets.next(rng, key, upper)
		lo, hi := bigEndian(key[:8]), bigEndian(upper[:8])
		require.Equal(t, uint64(8), hi-lo)
		if !empty {
			require.True(t, written[lo], "non-empty range starts at unwritten %d", lo)
			continue
		}
		empties++
		for v := lo; v < hi; v++ {
			require.False(t, written[v], "key %d in an empty range", v)
		}
	}
	require.InDelta(t, 0.9*draws, empties, 0.03*draws)
}
