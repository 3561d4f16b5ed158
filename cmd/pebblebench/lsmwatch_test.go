// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLSMSummaryBand: the band starts at the first sample at 80% of the
// target, and counts the samples within 20% of it from there.
func TestLSMSummaryBand(t *testing.T) {
	s := &lsmSummary{Series: []int{2, 5, 10, 12, 15, 11, 9}}
	s.setBand(12)
	require.Equal(t, 2, s.BandFrom)
	require.Equal(t, 9, s.BandMin)
	require.Equal(t, 15, s.BandMax)
	require.InDelta(t, 57.0/5, s.BandMean, 1e-9)
	require.InDelta(t, 0.6, s.BandWithin, 1e-9, "10, 12 and 11 are within [9.6, 14.4]")
	require.Contains(t, s.String(), "60% of samples within 20%")

	never := &lsmSummary{Series: []int{1, 2, 3}}
	never.setBand(12)
	require.Equal(t, 0, never.BandMax, "never reached the target: no band")
	require.Contains(t, never.String(), "never reached 80% of it")

	s.setWriteAmp([]ticker{{Name: "rocksdb.wal.bytes", Count: 100}, {Name: "rocksdb.flush.write.bytes", Count: 90}, {Name: "rocksdb.compact.write.bytes", Count: 60}})
	require.InDelta(t, 1.5, s.WriteAmp, 1e-9)
}
