// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

import (
	"sync/atomic"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/stretchr/testify/require"
)

func TestWorkerStops(t *testing.T) {
	var stop atomic.Bool
	w := NewWorker(&config.Config{Num: 10, KeySize: 16, ValueSize: 10, CompressionRatio: 0.5}, 0, 1, ReadStream, 5, true, &stop)
	n := 0
	for w.next() {
		w.done(1, 0)
		n++
		if n == 3 {
			stop.Store(true)
		}
	}
	require.Equal(t, 3, n)
	require.True(t, w.Interrupted)

	stop.Store(false)
	w = NewWorker(&config.Config{Num: 10, KeySize: 16, ValueSize: 10, CompressionRatio: 0.5}, 0, 1, ReadStream, 5, true, &stop)
	for w.next() {
		w.done(2, 7)
	}
	require.Equal(t, int64(6), w.Ops, "a batch of 2 may overshoot the limit of 5 by one")
	require.Equal(t, int64(21), w.Bytes)
	require.False(t, w.Interrupted)
}
