// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package hist records the latencies of a benchmark's operations and prints
// them as RocksDB's db_bench does ("Microseconds per read:", the summary
// lines, then one line per bucket with a bar of '#'), so that a db_bench
// user reads pebblebench's histograms as their own.
//
// A Histogram keeps nanoseconds with three significant digits (an
// HdrHistogram), so one per benchmark thread costs a few kilobytes and
// recording is a few array operations; the threads' histograms are merged
// at the end of a run. Summary gives the same figures for a JSON record.
package hist

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"io"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are recorded in nanoseconds with three significant digits, from
// 1ns to 100s (slower operations are clamped to 100s), and printed in
// microseconds in db_bench's layout.
const (
	minNanos   = 1
	maxNanos   = 100e9
	sigFigures = 3
)

// Histogram is a latency histogram. It is not safe for concurrent use: each
// thread records into its own and the run merges them.
type Histogram struct {
	h *hdrhistogram.Histogram
}

// New returns an empty histogram.
func New() *Histogram {
	return &Histogram{h: hdrhistogram.New(minNanos, maxNanos, sigFigures)}
}

// Record adds one operation that took nanos nanoseconds.
func (h *Histogram) Record(nanos int64) {
	// RecordValue fails only for values out of range; clamp instead.
	_ = h.h.RecordValue(min(max(nanos, minNanos), maxNanos))
}

// Merge adds every operation of o to h.
func (h *Histogram) Merge(o *Histogram) { h.h.Merge(o.h) }

// Count is the number of operations recorded.
func (h *Histogram) Count() int64 { return h.h.TotalCount() }

// bucketLimits are the upper bounds, in microseconds, of the
// printed buckets: 1 to 10 in steps of 1, then in every decade the steps
// 1.0 1.2 1.4 1.6 1.8 2 2.5 3 3.5 4 4.5 5 6 7 8 9 times the decade, up to
// 1e9 µs. Like db_bench's buckets they are fine where latencies cluster and
// coarse in the tail; they are this program's own choice.
var bucketLimits = func() []float64 {
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
	lo, hi := 0, len(bucketLimits)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if bucketLimits[mid] < micros {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Print writes h in db_bench's layout:
//
//	Microseconds per read:
//	Count: N Average: A  StdDev: S
//	Min: m  Median: M  Max: x
//	Percentiles: P50: .. P75: .. P99: .. P99.9: .. P99.99: ..
//	------------------------------------------------------
//	[       0,       1 ]        3  30.000%  30.000% ######
//	(       1,       2 ]        7  70.000% 100.000% ##############
//
// opKind names the operation ("read" above). Each bucket line has one '#'
// per 5% of the operations.
func (h *Histogram) Print(w io.Writer, opKind string) {
	const nsPerMicro = 1e3
	count := h.h.TotalCount()
	micros := func(q float64) float64 { return float64(h.h.ValueAtQuantile(q)) / nsPerMicro }
	fmt.Fprintf(w, "Microseconds per %s:\n", opKind)
	fmt.Fprintf(w, "Count: %d Average: %.4f  StdDev: %.2f\n", count, h.h.Mean()/nsPerMicro, h.h.StdDev()/nsPerMicro)
	if count == 0 {
		return
	}
	fmt.Fprintf(w, "Min: %d  Median: %.4f  Max: %d\n",
		int64(float64(h.h.Min())/nsPerMicro+0.5), micros(50), int64(float64(h.h.Max())/nsPerMicro+0.5))
	fmt.Fprintf(w, "Percentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f P99.99: %.2f\n",
		micros(50), micros(75), micros(99), micros(99.9), micros(99.99))
	fmt.Fprintln(w, strings.Repeat("-", 54))

	buckets := make([]int64, len(bucketLimits))
	for _, bar := range h.h.Distribution() {
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
			lo = bucketLimits[i-1]
		}
		pct := 100 * float64(n) / float64(count)
		fmt.Fprintf(w, "%c %7.0f, %7.0f ] %8d %7.3f%% %7.3f%% %s\n",
			open, lo, bucketLimits[i], n, pct, 100*float64(cumulative)/float64(count),
			strings.Repeat("#", int(pct/5+0.5)))
	}
}

// Summary is a histogram's figures in microseconds, as a JSON record
// carries them.
type Summary struct {
	Count  int64   `json:"count"`
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	P50    float64 `json:"p50"`
	P75    float64 `json:"p75"`
	P99    float64 `json:"p99"`
	P999   float64 `json:"p99_9"`
	P9999  float64 `json:"p99_99"`
	Max    float64 `json:"max"`
	StdDev float64 `json:"stddev"`
}

// Summary returns h's figures, nil if h is nil or recorded nothing.
func (h *Histogram) Summary() *Summary {
	if h == nil || h.h.TotalCount() == 0 {
		return nil
	}
	us := func(ns float64) float64 { return ns / 1e3 }
	q := func(p float64) float64 { return us(float64(h.h.ValueAtQuantile(p))) }
	return &Summary{
		Count: h.h.TotalCount(), Mean: us(h.h.Mean()), Min: us(float64(h.h.Min())),
		P50: q(50), P75: q(75), P99: q(99), P999: q(99.9), P9999: q(99.99),
		Max: us(float64(h.h.Max())), StdDev: us(h.h.StdDev()),
	}
}

// GobEncode encodes the histogram, every count kept, so that a run measured
// in an engine's own process is merged and printed in its parent as if it
// had been measured there.
func (h *Histogram) GobEncode() ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(h.h.Export())
	return b.Bytes(), err
}

// GobDecode decodes what GobEncode encoded.
func (h *Histogram) GobDecode(data []byte) error {
	var s hdrhistogram.Snapshot
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil {
		return err
	}
	h.h = hdrhistogram.Import(&s)
	return nil
}
