// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestProgressReporter drives the reporter with a short interval and waits
// for its first rows (no timing assertion: only the rows' content is
// checked).
func TestProgressReporter(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report.csv")
	p, err := newProgressReporter(&config{reportFile: file, reportIntervalSeconds: 1}, &bytes.Buffer{})
	require.NoError(t, err)
	var stderr syncBuffer
	p.stderr = &stderr
	p.interval = time.Millisecond

	w1, w2 := &worker{}, &worker{}
	w1.progress.Store(64)
	w2.progress.Store(128)
	p.begin("readrandom", "pebblerf", []*worker{w1, w2})
	for !strings.Contains(stderr.String(), "\n") {
		time.Sleep(time.Millisecond)
	}
	w1.progress.Store(128)
	for strings.Count(stderr.String(), "\n") < 2 {
		time.Sleep(time.Millisecond)
	}
	p.end()
	require.NoError(t, p.close())

	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	require.True(t, sc.Scan())
	require.Equal(t, "secs_elapsed,interval_qps,benchmark,engine", sc.Text())
	var counts []string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		require.Len(t, fields, 4)
		require.Equal(t, []string{"readrandom", "pebblerf"}, fields[2:])
		counts = append(counts, fields[1])
	}
	// The first row counts all 192 operations; the second, at most the 64
	// that w1 added (it may come before the update).
	require.Equal(t, "192", counts[0])
	require.Contains(t, []string{"0", "64"}, counts[1])
	require.Contains(t, stderr.String(), "... readrandom/pebblerf: ")
}

// syncBuffer is a bytes.Buffer safe for the reporter goroutine and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

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
