// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"path/filepath"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/stretchr/testify/require"
)

// TestReadRateLimit: -benchmark_read_rate_limit paces a reading benchmark
// over all its threads, so a run cannot be shorter than its pace allows,
// and with -duration a paced run ends at its deadline although
// durationCheckEvery operations would take far longer.
func TestReadRateLimit(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	jsonRuns(t, "-engine=pebble", "-db="+db, "-num=2000", "-benchmarks=fillrandom")
	// 100 reads a second over 2 threads: each thread's 20th read starts
	// 19 intervals of 20 ms after its first.
	runs, text := jsonRuns(t, "-engine=pebble", "-db="+db, "-num=2000", "-use_existing_db", "-benchmarks=readrandom",
		"-reads=20", "-threads=2", "-benchmark_read_rate_limit=100")
	r := runs["readrandom/pebble"][0]
	require.EqualValues(t, 40, r["ops"], text)
	require.GreaterOrEqual(t, r["seconds"].(float64), 0.38, text)

	runs, text = jsonRuns(t, "-engine=pebble", "-db="+db, "-num=2000", "-use_existing_db", "-benchmarks=readrandom",
		"-reads=1000000", "-duration=1", "-benchmark_read_rate_limit=50")
	r = runs["readrandom/pebble"][0]
	require.Less(t, r["ops"].(float64), float64(benchmarks.DurationCheckEvery), "the deadline, not the check interval, ended it: %s", text)
	require.Positive(t, r["ops"].(float64), text)
}
