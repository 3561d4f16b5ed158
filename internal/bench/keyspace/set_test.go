// Copyright 2026 The pebblerf Authors. All rights reserved.

package keyspace

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeySet checks the bitmap's queries against a map of the same indexes.
func TestKeySet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const num = 1000
	s := NewSet(num)
	model := map[uint64]bool{}
	for i := 0; i < 60; i++ {
		v := rng.Uint64N(num)
		s.Add(v)
		model[v] = true
	}
	require.Equal(t, int64(len(model)), s.Count())
	for a := uint64(0); a < num; a++ {
		require.Equal(t, model[a], s.Has(a))
		for _, n := range []uint64{0, 1, 7, 63, 64, 65, 200} {
			want := false
			for v := a; v < a+n; v++ {
				want = want || model[v]
			}
			require.Equal(t, want, s.AnyIn(a, a+n), "[%d, %d)", a, a+n)
		}
		next, ok := s.NextFrom(a)
		require.True(t, ok)
		want := a
		for !model[want%num] {
			want++
		}
		require.Equal(t, want%num, next)
	}
	_, ok := NewSet(num).NextFrom(5)
	require.False(t, ok)
}
