// Copyright 2026 The pebblerf Authors. All rights reserved.

package lsm

import (
	"testing"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"

	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/stretchr/testify/require"
)

// TestLSMSummaryBand: the band starts at the first sample at 80% of the
// target, and counts the samples within 20% of it from there.
func TestLSMSummaryBand(t *testing.T) {
	s := &Summary{Series: []int{2, 5, 10, 12, 15, 11, 9}}
	s.setBand(12)
	require.Equal(t, 2, s.BandFrom)
	require.Equal(t, 9, s.BandMin)
	require.Equal(t, 15, s.BandMax)
	require.InDelta(t, 57.0/5, s.BandMean, 1e-9)
	require.InDelta(t, 0.6, s.BandWithin, 1e-9, "10, 12 and 11 are within [9.6, 14.4]")
	require.Contains(t, s.String(), "60% of samples within 20%")

	never := &Summary{Series: []int{1, 2, 3}}
	never.setBand(12)
	require.Equal(t, 0, never.BandMax, "never reached the target: no band")
	require.Contains(t, never.String(), "never reached 80% of it")

	s.SetWriteAmp([]statistics.Ticker{{Name: "rocksdb.wal.bytes", Count: 100}, {Name: "rocksdb.flush.write.bytes", Count: 90}, {Name: "rocksdb.compact.write.bytes", Count: 60}})
	require.InDelta(t, 1.5, s.WriteAmp, 1e-9)
}

// TestStallClock: the clock counts the stalls Pebble reports through the
// options' listener, keeps the listener the options had, and starts afresh
// after each Take.
func TestStallClock(t *testing.T) {
	var before int
	o := &upstream.Options{EventListener: &upstream.EventListener{
		WriteStallBegin: func(upstream.WriteStallBeginInfo) { before++ },
	}}
	var c StallClock
	c.Attach(o)
	for _, reason := range []string{"memtable count limit reached", "L0 file count limit exceeded"} {
		o.EventListener.WriteStallBegin(upstream.WriteStallBeginInfo{Reason: reason})
		o.EventListener.WriteStallEnd()
	}
	require.Equal(t, 2, before, "the options' own listener still hears every stall")
	count, longest, why := c.Take()
	require.Equal(t, 2, count)
	require.GreaterOrEqual(t, longest, time.Duration(0))
	require.Contains(t, []string{"memtable count limit reached", "L0 file count limit exceeded"}, why)
	count, longest, why = c.Take()
	require.Zero(t, count)
	require.Zero(t, longest)
	require.Empty(t, why)
}
