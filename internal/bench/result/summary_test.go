// Copyright 2026 The pebblerf Authors. All rights reserved.

package result

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMedianRatioInverts: the median of inverted ratios is the inverse of
// the median, for odd and even counts, so a MEDIAN ratio line's micros/op
// and ops/sec cannot contradict each other as an arithmetic middle would.
func TestMedianRatioInverts(t *testing.T) {
	for _, rs := range [][]float64{
		{13.0, 0.5},
		{1.2, 0.8, 3.0},
		{0.9, 1.1, 7.5, 0.2},
	} {
		inv := make([]float64, len(rs))
		for i, r := range rs {
			inv[i] = 1 / r
		}
		require.InDelta(t, 1, MedianRatio(rs)*MedianRatio(inv), 1e-12, "%v", rs)
	}
	require.InDelta(t, 2.5495, MedianRatio([]float64{13.0, 0.5}), 1e-4)
	require.Equal(t, 1.2, MedianRatio([]float64{3.0, 1.2, 0.8}))
	require.Zero(t, MedianRatio(nil))
}
