// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"os"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestRibbonV1FiltersStillRead reads a Ribbon filter of format version 1,
// written by the last version-1 writer for db_bench keys 0..9999 at
// Ribbon(10) (testdata/ribbon_v1.bin), as a table written before
// version 2 would hold it: every key is found, keys not in it are rejected
// at the rate its layout states, and nothing is counted as corrupt.
func TestRibbonV1FiltersStillRead(t *testing.T) {
	filter, err := os.ReadFile("testdata/ribbon_v1.bin")
	require.NoError(t, err)
	info, err := Describe(filter)
	require.NoError(t, err)
	require.Equal(t, "ribbon v1 blocks=81 r=7 lower=18 seed=0 bytes=8800 fpr=0.9549%", info.String())
	const n, negatives = 10000, 300000
	for _, unbound := range []pebble.FilterPolicy{Ribbon(10), Bloom(10)} {
		var counters Counts
		p := bindTo(unbound, &counters)
		for i := 0; i < n; i++ {
			require.True(t, p.MayContain(pebble.TableFilter, filter, pointDBBenchKey(uint64(i), 16)), "key %d", i)
		}
		got := pointMeasureFPR(p, filter, negatives, func(i int) []byte { return pointDBBenchKey(uint64(n+i), 16) })
		require.InEpsilon(t, info.ExpectedFPR, got, 0.10)
		require.Zero(t, counters.Corrupt())
	}
}
