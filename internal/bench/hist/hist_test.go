// Copyright 2026 The pebblerf Authors. All rights reserved.

package hist

import (
	"bytes"
	"encoding/gob"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBucketIndex(t *testing.T) {
	for _, tc := range []struct {
		micros float64
		limit  float64
	}{
		{0, 1}, {1, 1}, {1.001, 2}, {9.5, 10}, {10, 10}, {10.5, 12}, {21, 25}, {95, 100}, {101, 120}, {5e9, 1e9},
	} {
		require.Equal(t, tc.limit, bucketLimits[bucketIndex(tc.micros)], "%g", tc.micros)
	}
	for i := 1; i < len(bucketLimits); i++ {
		require.Less(t, bucketLimits[i-1], bucketLimits[i])
	}
}

// TestPrintHistogram records known latencies and checks the summary lines
// and that the bucket lines account for every operation.
func TestPrintHistogram(t *testing.T) {
	h := New()
	// 50 ops at 1.5µs, 49 at 30µs, 1 at 2ms.
	for i := 0; i < 50; i++ {
		h.Record(1500)
	}
	for i := 0; i < 49; i++ {
		h.Record(30000)
	}
	h.Record(2000000)
	var buf bytes.Buffer
	h.Print(&buf, "read")
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Equal(t, "Microseconds per read:", lines[0])
	require.Regexp(t, `^Count: 100 Average: 35\.\d{4}  StdDev: \d+\.\d\d$`, lines[1])
	// HdrHistogram keeps three significant digits, so the 2ms maximum may
	// read as up to 2.002ms.
	require.Regexp(t, `^Min: 2  Median: 1\.5000  Max: 200[0-2]$`, lines[2])
	require.Regexp(t, `^Percentiles: P50: 1\.50 P75: 30\.0\d P99: 30\.0\d P99\.9: 200\d\.\d\d P99\.99: 200\d\.\d\d$`, lines[3])
	require.Equal(t, strings.Repeat("-", 54), lines[4])
	require.Equal(t, []string{
		"(       1,       2 ]       50  50.000%  50.000% ##########",
		"(      25,      30 ]       49  49.000%  99.000% ##########",
		"(    1800,    2000 ]        1   1.000% 100.000% ",
	}, lines[5:])

	var total int64
	re := regexp.MustCompile(`\]\s+(\d+)`)
	for _, l := range lines[5:] {
		n, err := strconv.ParseInt(re.FindStringSubmatch(l)[1], 10, 64)
		require.NoError(t, err)
		total += n
	}
	require.Equal(t, h.Count(), total)
}

// TestSummaryAndMerge: merging two threads' histograms counts every
// operation once, and the summary reports the merged figures in
// microseconds; an empty or missing histogram has no summary.
func TestSummaryAndMerge(t *testing.T) {
	a, b := New(), New()
	for i := 0; i < 3; i++ {
		a.Record(1000)
	}
	b.Record(9000)
	a.Merge(b)
	s := a.Summary()
	require.Equal(t, int64(4), s.Count)
	require.Equal(t, 1.0, s.Min)
	require.Equal(t, 1.0, s.P50)
	require.InDelta(t, 9.0, s.Max, 0.01)
	require.InDelta(t, 3.0, s.Mean, 0.01)
	require.Nil(t, New().Summary())
	var none *Histogram
	require.Nil(t, none.Summary())
}

// TestGobRoundTrip: a histogram that crosses a process boundary keeps every
// count, so its summary and its merge with another are the same.
func TestGobRoundTrip(t *testing.T) {
	h := New()
	for i := int64(1); i <= 1000; i++ {
		h.Record(i * 1000)
	}
	var b bytes.Buffer
	require.NoError(t, gob.NewEncoder(&b).Encode(h))
	var got *Histogram
	require.NoError(t, gob.NewDecoder(&b).Decode(&got))
	require.Equal(t, h.Summary(), got.Summary())
	got.Merge(h)
	require.Equal(t, 2*h.Count(), got.Count())
}
