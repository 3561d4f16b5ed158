// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are recorded in nanoseconds with three significant digits, from
// 1ns to 100s (slower operations are clamped to 100s), and printed in
// microseconds in db_bench's layout.
const (
	histMinNanos   = 1
	histMaxNanos   = 100e9
	histSigFigures = 3
)

func newHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(histMinNanos, histMaxNanos, histSigFigures)
}

func recordNanos(h *hdrhistogram.Histogram, nanos int64) {
	// RecordValue fails only for values out of range; clamp instead.
	_ = h.RecordValue(min(max(nanos, histMinNanos), histMaxNanos))
}

// histogramBucketLimits are the upper bounds, in microseconds, of the
// printed buckets: 1 to 10 in steps of 1, then in every decade the steps
// 1.0 1.2 1.4 1.6 1.8 2 2.5 3 3.5 4 4.5 5 6 7 8 9 times the decade, up to
// 1e9 µs. Like db_bench's buckets they are fine where latencies cluster and
// coarse in the tail; they are this program's own choice.
var histogramBucketLimits = func() []float64 {
	var limits []float64
	for i := 1; i <= 9; i++ {
		limits = append(limits, float64(i))
	}
	steps := []float64{1.0, 1.2, 1.4, 1.6, 1.8, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9}
	for decade := 10.0; decade <= 1e8; decade *= 10 {
		for _, s := range steps {
			limits = append(limits, s*decade)
		}
	}
	return append(limits, 1e9)
}()

// bucketIndex returns the index of the bucket (limits[i-1], limits[i]] that
// holds micros; the first bucket is [0, limits[0]].
func bucketIndex(micros float64) int {
	lo, hi := 0, len(histogramBucketLimits)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if histogramBucketLimits[mid] < micros {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// printHistogram writes h (nanoseconds) in db_bench's layout:
//
//	Microseconds per read:
//	Count: N Average: A  StdDev: S
//	Min: m  Median: M  Max: x
//	Percentiles: P50: .. P75: .. P99: .. P99.9: .. P99.99: ..
//	------------------------------------------------------
//	[       0,       1 ]        3  30.000%  30.000% ######
//	(       1,       2 ]        7  70.000% 100.000% ##############
//
// Each bucket line has one '#' per 5% of the operations.
func printHistogram(w io.Writer, opKind string, h *hdrhistogram.Histogram) {
	const nsPerMicro = 1e3
	count := h.TotalCount()
	micros := func(q float64) float64 { return float64(h.ValueAtQuantile(q)) / nsPerMicro }
	fmt.Fprintf(w, "Microseconds per %s:\n", opKind)
	fmt.Fprintf(w, "Count: %d Average: %.4f  StdDev: %.2f\n", count, h.Mean()/nsPerMicro, h.StdDev()/nsPerMicro)
	if count == 0 {
		return
	}
	fmt.Fprintf(w, "Min: %d  Median: %.4f  Max: %d\n",
		int64(float64(h.Min())/nsPerMicro+0.5), micros(50), int64(float64(h.Max())/nsPerMicro+0.5))
	fmt.Fprintf(w, "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f P99.99: %.2f\n",
		micros(50), micros(75), micros(99), micros(99.9), micros(99.99))
	fmt.Fprintln(w, strings.Repeat("-", 54))

	buckets := make([]int64, len(histogramBucketLimits))
	for _, bar := range h.Distribution() {
		if bar.Count > 0 {
			buckets[bucketIndex(float64(bar.From)/nsPerMicro)] += bar.Count
		}
	}
	var cumulative int64
	for i, n := range buckets {
		if n == 0 {
			continue
		}
		cumulative += n
		open, lo := '(', 0.0
		if i == 0 {
			open = '['
		} else {
			lo = histogramBucketLimits[i-1]
		}
		pct := 100 * float64(n) / float64(count)
		fmt.Fprintf(w, "%c %7.0f, %7.0f ] %8d %7.3f%% %7.3f%% %s\n",
			open, lo, histogramBucketLimits[i], n, pct, 100*float64(cumulative)/float64(count),
			strings.Repeat("#", int(pct/5+0.5)))
	}
}
