// Copyright 2026 The pebblerf Authors. All rights reserved.

package progress

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestProgressReporter drives the reporter with a short interval and waits
// for its first rows (no timing assertion: only the rows' content is
// checked).
func TestProgressReporter(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report.csv")
	var stderr syncBuffer
	p, err := New(&stderr, time.Millisecond, file)
	require.NoError(t, err)

	w1, w2 := NewCounter(0), NewCounter(0)
	w1.Store(64)
	w2.Store(128)
	p.Begin("readrandom", "pebblerf", []*Counter{w1, w2})
	for !strings.Contains(stderr.String(), "\n") {
		time.Sleep(time.Millisecond)
	}
	w1.Store(128)
	for strings.Count(stderr.String(), "\n") < 2 {
		time.Sleep(time.Millisecond)
	}
	p.End()
	require.NoError(t, p.Close())

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

// TestPercentDone: with every thread's count known the line says how far
// the run is; a thread that runs until stopped makes it unknown.
func TestPercentDone(t *testing.T) {
	for _, tc := range []struct {
		limits []int64
		want   string
	}{
		{[]int64{100, 100}, " ops (50% of 200), "},
		{[]int64{100, math.MaxInt64}, " ops, "},
	} {
		var stderr syncBuffer
		p, err := New(&stderr, time.Millisecond, "")
		require.NoError(t, err)
		var counters []*Counter
		for _, l := range tc.limits {
			c := NewCounter(l)
			c.Store(50)
			counters = append(counters, c)
		}
		p.Begin("fillseq", "pebble", counters)
		for !strings.Contains(stderr.String(), "\n") {
			time.Sleep(time.Millisecond)
		}
		p.End()
		require.NoError(t, p.Close())
		require.Contains(t, strings.SplitN(stderr.String(), "\n", 2)[0], "... fillseq/pebble: ")
		require.Contains(t, strings.SplitN(stderr.String(), "\n", 2)[0], " 100"+tc.want, "%v", tc.limits)
	}
}
