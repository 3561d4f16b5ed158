// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFuseFPRAndSize checks the binary fuse filter against fuse.go's math:
// a false-positive rate within 10% of 2^-8 (with 1M negatives at 0.39% the
// sampling error is about 1.6% relative) and the space the sizing rule
// predicts, below Bloom's at the Bloom bits/key of equal rate.
func TestFuseFPRAndSize(t *testing.T) {
	pointSkipUnderRace(t)
	const negatives = 1000000
	for _, n := range []int{1000, 100000} {
		keyOf := func(i int) []byte { return pointDBBenchKey(uint64(i), 16) }
		keys := make([][]byte, n)
		for i := range keys {
			keys[i] = keyOf(i)
		}
		p := Fuse()
		filter := pointBuild(p, keys)
		requireNoFalseNegatives(t, p, filter, keys)
		info, err := Describe(filter)
		require.NoError(t, err)
		require.Equal(t, "fuse", info.Kind)
		require.Equal(t, FuseFPR, info.ExpectedFPR)
		got := pointMeasureFPR(p, filter, negatives, func(i int) []byte { return keyOf(n + i) })
		require.InEpsilon(t, FuseFPR, got, 0.10, "n=%d", n)
		bitsPerKey := float64(8*len(filter)) / float64(n)
		// Rounding to whole segments adds at most one segment.
		slack := float64(8*(info.SegmentLength+pointTrailerLen+8)) / float64(n)
		require.InDelta(t, fuseBitsPerKey(float64(n)), bitsPerKey, slack, "n=%d", n)
		if n >= 100000 {
			require.Less(t, bitsPerKey, 10.0, "n=%d", n)
		}
	}
}

// TestFuseDuplicateHashes feeds the writer repeats that are not consecutive
// (consecutive ones the writer drops itself): the library removes them, and
// every key is still found.
func TestFuseDuplicateHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	keys := pointTestKeys(rng, 3000)
	keys = append(keys, keys[:1000]...)
	p := Fuse()
	filter := pointBuild(p, keys)
	require.NoError(t, Validate(filter))
	requireNoFalseNegatives(t, p, filter, keys)
}
