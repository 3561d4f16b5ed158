// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInterleavedRuns runs both engines' benchmarks in turns: each engine
// does all of its operations on the same keys as in whole runs, with the
// same found counts, and its times leave out the other engine's turns.
func TestInterleavedRuns(t *testing.T) {
	args := []string{"-engine=both", "-benchmarks=fillrandom,readrandom[X2],seekrandom,readseq", "-num=3000", "-seed=5"}
	whole, _ := jsonRuns(t, append(args, "-db="+t.TempDir())...)
	turned, text := jsonRuns(t, append(args, "-db="+t.TempDir(), "-interleave=100")...)
	for _, key := range []string{"fillrandom/pebble", "readrandom/pebble", "readrandom/pebblerf", "seekrandom/pebblerf", "readseq/pebble"} {
		require.Len(t, turned[key], len(whole[key]), key)
		for i := range whole[key] {
			for _, f := range []string{"ops", "found"} {
				require.Equal(t, whole[key][i][f], turned[key][i][f], "%s run %d: %s", key, i, f)
			}
		}
	}
	require.Len(t, turned["readrandom/pebblerf/pebble"], 2)
	require.Contains(t, text, "ratio pebblerf/pebble readrandom [MEDIAN 2 runs]")
}
