// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package result is what one timed run of a benchmark on one engine
// measured, and how pebblebench states it.
//
// A Result holds a run's counts and times (and with -remote, the requests
// its engine's object store saw); everything printed is derived from
// Results alone, never from the engine or the flags that made them, so a
// run measured in another process is printed as one measured here. The
// statements are db_bench's where it has one: the result line (Line), the
// running AVG and the final AVG and MEDIAN lines of repeats
// (summary.go); pebblebench adds the ratio line of two engines' paired runs
// and its median over repeats (ratio.go), the -json records (json.go) and
// the remote figures (remote.go).
package result

import (
	"fmt"
	"math"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// result is what one run of a benchmark on one engine measured.
type Result struct {
	Benchmark string
	Engine    string
	Ops       int64
	Found     int64
	// EmptyRanges counts the seeks whose range was drawn to be empty.
	EmptyRanges   int64
	Bytes         int64
	Seconds       float64 // wall time, first thread start to last finish
	ThreadSeconds float64 // sum of the threads' times
	// ThreadCPUSeconds is the CPU time of the benchmark's threads, summed,
	// while they ran (not while they waited for their turn); -1 if unknown.
	ThreadCPUSeconds float64
	// ProcessCPUSeconds is the CPU time of the engine's whole process
	// (getrusage: every thread, user and system) from the run's start until
	// the flushes and compactions it caused were done: the threads' CPU,
	// the engine's background work and the garbage collector's. Under
	// -engine=both each engine has a process of its own; one engine alone
	// runs in pebblebench's process. -1 if unknown.
	ProcessCPUSeconds float64
	Interrupted       bool
	Tickers           []statistics.Ticker
	// LSM is the shape over the run, with -lsm_sample_ms.
	LSM *lsm.Summary
	// Remote is the run's requests to the engine's store, with -remote.
	Remote *Remote

	// OpKind names what one operation is ("read", "seek", "write", ...),
	// for the histogram's title; ShowFound and ShowBytes say whether the
	// result line shows "(F of R found)" and MB/s.
	OpKind               string
	ShowFound, ShowBytes bool
	// Hist is the operations' latencies, nil when they were not recorded.
	Hist *hist.Histogram
}

// OpsPerSec is the operations over the run's wall time.
func (r *Result) OpsPerSec() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Seconds
}

// MicrosPerOp is db_bench's micros/op: per-thread latency, the threads'
// summed time over all operations.
func (r *Result) MicrosPerOp() float64 {
	if r.Ops == 0 {
		return 0
	}
	return r.ThreadSeconds * 1e6 / float64(r.Ops)
}

// ThreadCPUMicrosPerOp is the CPU time the benchmark threads spent per
// operation, or NaN where per-thread CPU time cannot be read (Linux only).
// Unlike the wall-clock figures it hardly moves when other processes
// compete for the cores, which makes it the steadier figure for comparing
// engines on a shared machine. It leaves out work on other threads:
// flushes, compactions and most of the garbage collector's work.
func (r *Result) ThreadCPUMicrosPerOp() float64 { return r.perOp(r.ThreadCPUSeconds) }

// ProcessCPUMicrosPerOp is the engine's process CPU time per operation
// (ProcessCPUSeconds), or NaN where it cannot be read: what a write costs
// with the flushes and compactions it causes, where the threads' CPU
// leaves them out.
func (r *Result) ProcessCPUMicrosPerOp() float64 { return r.perOp(r.ProcessCPUSeconds) }

// perOp is seconds, -1 for unknown, in microseconds per operation.
func (r *Result) perOp(seconds float64) float64 {
	if r.Ops == 0 || seconds < 0 {
		return math.NaN()
	}
	return seconds * 1e6 / float64(r.Ops)
}

// MBPerSec is the MiB moved over the run's wall time.
func (r *Result) MBPerSec() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.Bytes) / (1 << 20) / r.Seconds
}

// hasBytes reports whether the result line shows MB/s.
func (r *Result) HasBytes() bool {
	return r.Bytes > 0 && r.ShowBytes
}

// resultLine formats db_bench's result line,
//
//	name : X micros/op Y ops/sec Z seconds N operations; M MB/s (F of R found)
//
// label is the benchmark name, or name/engine under -engine=both. Unlike
// db_bench, which reports one thread's found count, F and R are summed over
// the threads.
func Line(label string, r *Result) string {
	var extra []string
	if r.HasBytes() {
		extra = append(extra, fmt.Sprintf("%6.1f MB/s", r.MBPerSec()))
	}
	if r.ShowFound {
		extra = append(extra, fmt.Sprintf("(%d of %d found)", r.Found, r.Ops))
	}
	tail := strings.Join(extra, " ")
	if tail != "" {
		tail = " " + tail
	}
	line := fmt.Sprintf("%-12s : %11.3f micros/op %d ops/sec %.3f seconds %d operations;%s",
		label, r.MicrosPerOp(), int64(r.OpsPerSec()), r.Seconds, r.Ops, tail)
	// The CPU figures follow db_bench's line, named as the ratio lines
	// name them.
	if cpu := r.ThreadCPUMicrosPerOp(); !math.IsNaN(cpu) {
		if tail != "" {
			line += ";"
		}
		line += fmt.Sprintf(" %s %.3f", FigThreadCPU, cpu)
	}
	if cpu := r.ProcessCPUMicrosPerOp(); !math.IsNaN(cpu) {
		line += fmt.Sprintf(" %s %.3f", FigProcessCPU, cpu)
	}
	return line
}

// The names of the CPU figures, as the result lines, the ratio lines and
// -json (with underscores) give them.
const (
	// FigThreadCPU is the benchmark threads' CPU per operation.
	FigThreadCPU = "thread-cpu-micros/op"
	// FigProcessCPU is the engine process's CPU per operation, its flushes
	// and compactions included.
	FigProcessCPU = "process-cpu-micros/op"
)

// percentile is a run's operation latency at quantile q (50, 99) in
// microseconds, NaN without a histogram.
func (r *Result) Percentile(q float64) float64 {
	if r.Hist == nil || r.Hist.Count() == 0 {
		return math.NaN()
	}
	s := r.Hist.Summary()
	if q == 50 {
		return s.P50
	}
	return s.P99
}

// fmtMicros prints a latency in µs, ms or s.
func FormatMicros(us float64) string {
	switch {
	case us != us:
		return "n/a"
	case us >= 1e6:
		return fmt.Sprintf("%.2fs", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.2fms", us/1e3)
	}
	return fmt.Sprintf("%.1fus", us)
}
