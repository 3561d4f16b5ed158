// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/stretchr/testify/require"
)

func TestWorkerStops(t *testing.T) {
	var stop atomic.Bool
	w := newWorker(&config.Config{Num: 10, KeySize: 16, ValueSize: 10, CompressionRatio: 0.5}, 0, 1, readStream, 5, true, &stop)
	n := 0
	for w.next() {
		w.done(1, 0)
		n++
		if n == 3 {
			stop.Store(true)
		}
	}
	require.Equal(t, 3, n)
	require.True(t, w.interrupted)

	stop.Store(false)
	w = newWorker(&config.Config{Num: 10, KeySize: 16, ValueSize: 10, CompressionRatio: 0.5}, 0, 1, readStream, 5, true, &stop)
	for w.next() {
		w.done(2, 7)
	}
	require.Equal(t, int64(6), w.ops, "a batch of 2 may overshoot the limit of 5 by one")
	require.Equal(t, int64(21), w.bytes)
	require.False(t, w.interrupted)
}

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
	require.Less(t, r["ops"].(float64), float64(durationCheckEvery), "the deadline, not the check interval, ended it: %s", text)
	require.Positive(t, r["ops"].(float64), text)
}
