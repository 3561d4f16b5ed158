// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWorkerStops(t *testing.T) {
	var stop atomic.Bool
	w := newWorker(&config{num: 10, keySize: 16, valueSize: 10, compressionRatio: 0.5}, 0, 1, readStream, 5, true, &stop)
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
	w = newWorker(&config{num: 10, keySize: 16, valueSize: 10, compressionRatio: 0.5}, 0, 1, readStream, 5, true, &stop)
	for w.next() {
		w.done(2, 7)
	}
	require.Equal(t, int64(6), w.ops, "a batch of 2 may overshoot the limit of 5 by one")
	require.Equal(t, int64(21), w.bytes)
	require.False(t, w.interrupted)
}
