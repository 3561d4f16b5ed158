// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// result is what one run of a benchmark on one engine measured.
type result struct {
	Benchmark string
	Engine    string
	Ops       int64
	Found     int64
	// EmptyRanges counts the seeks whose range was drawn to be empty.
	EmptyRanges   int64
	Bytes         int64
	Seconds       float64 // wall time, first thread start to last finish
	ThreadSeconds float64 // sum of the threads' times
	CPUSeconds    float64 // sum of the threads' CPU times; -1 if unknown
	Interrupted   bool
	Tickers       []statistics.Ticker
	// LSM is the shape over the run, with -lsm_sample_ms.
	LSM *lsm.Summary
	// Remote is the run's requests to the engine's store, with -remote.
	Remote *remoteRun

	bench *benchmark
	hist  *hist.Histogram
}

func (r *result) opsPerSec() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Seconds
}

// microsPerOp is db_bench's micros/op: per-thread latency, the threads'
// summed time over all operations.
func (r *result) microsPerOp() float64 {
	if r.Ops == 0 {
		return 0
	}
	return r.ThreadSeconds * 1e6 / float64(r.Ops)
}

// cpuMicrosPerOp is the CPU time the benchmark threads spent per operation,
// or NaN where per-thread CPU time cannot be read (Linux only). Unlike the
// wall-clock figures it hardly moves when other processes compete for the
// cores, which makes it the steadier figure for comparing engines on a
// shared machine. It leaves out work on other threads: flushes, compactions
// and most of the garbage collector's work.
func (r *result) cpuMicrosPerOp() float64 {
	if r.Ops == 0 || r.CPUSeconds < 0 {
		return math.NaN()
	}
	return r.CPUSeconds * 1e6 / float64(r.Ops)
}

func (r *result) mbPerSec() float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.Bytes) / (1 << 20) / r.Seconds
}

// hasBytes reports whether the result line shows MB/s.
func (r *result) hasBytes(c *config.Config) bool {
	return r.Bytes > 0 && r.bench.showBytes(c)
}

// resultLine formats db_bench's result line,
//
//	name : X micros/op Y ops/sec Z seconds N operations; M MB/s (F of R found)
//
// label is the benchmark name, or name/engine under -engine=both. Unlike
// db_bench, which reports one thread's found count, F and R are summed over
// the threads.
func resultLine(c *config.Config, label string, r *result) string {
	var extra []string
	if r.hasBytes(c) {
		extra = append(extra, fmt.Sprintf("%6.1f MB/s", r.mbPerSec()))
	}
	if r.bench.showFound {
		extra = append(extra, fmt.Sprintf("(%d of %d found)", r.Found, r.Ops))
	}
	tail := strings.Join(extra, " ")
	if tail != "" {
		tail = " " + tail
	}
	return fmt.Sprintf("%-12s : %11.3f micros/op %d ops/sec %.3f seconds %d operations;%s",
		label, r.microsPerOp(), int64(r.opsPerSec()), r.Seconds, r.Ops, tail)
}

// jsonResult is the -json object of one run on one engine.
type jsonResult struct {
	Record      string           `json:"record"`
	Benchmark   string           `json:"benchmark"`
	Engine      string           `json:"engine"`
	Run         int              `json:"run"`
	Ops         int64            `json:"ops"`
	Seconds     float64          `json:"seconds"`
	OpsPerSec   float64          `json:"ops_per_sec"`
	MicrosPerOp float64          `json:"micros_per_op"`
	MBPerSec    float64          `json:"mb_per_sec"`
	CPUMicros   *float64         `json:"cpu_micros_per_op,omitempty"`
	Found       *int64           `json:"found,omitempty"`
	Reads       *int64           `json:"reads,omitempty"`
	Interrupted bool             `json:"interrupted,omitempty"`
	Histogram   *hist.Summary    `json:"histogram_micros,omitempty"`
	Statistics  map[string]int64 `json:"statistics,omitempty"`
	LSM         *lsm.Summary     `json:"lsm,omitempty"`
	Remote      *remoteJSON      `json:"remote,omitempty"`
}

func writeJSONResult(w io.Writer, c *config.Config, runNumber int, r *result) error {
	j := jsonResult{
		Record: "result", Benchmark: r.Benchmark, Engine: r.Engine, Run: runNumber,
		Ops: r.Ops, Seconds: r.Seconds, OpsPerSec: r.opsPerSec(),
		MicrosPerOp: r.microsPerOp(), MBPerSec: r.mbPerSec(), Interrupted: r.Interrupted,
	}
	if cpu := r.cpuMicrosPerOp(); !math.IsNaN(cpu) {
		j.CPUMicros = &cpu
	}
	if r.bench.showFound {
		j.Found, j.Reads = &r.Found, &r.Ops
	}
	j.Histogram = r.hist.Summary()
	if c.Statistics {
		j.Statistics = statistics.Map(r.Tickers)
	}
	j.LSM = r.LSM
	j.Remote = r.Remote.json(r.Ops)
	return writeJSONLine(w, j)
}

func writeJSONLine(w io.Writer, v interface{}) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// jsonConfig is the first -json record: every flag's value by its name
// (the seed as drawn when -seed was 0), the engines' DB directories, the
// versions, and the fill recorded with an existing DB. With it a line of
// results can be traced to the command that made it.
type jsonConfig struct {
	Record        string         `json:"record"`
	Seed          int64          `json:"seed"`
	Engines       []string       `json:"engines"`
	DB            string         `json:"db"`
	Fill          *fillRecord    `json:"fill,omitempty"`
	PebbleVersion string         `json:"pebble_version"`
	GoVersion     string         `json:"go_version"`
	GOMAXPROCS    int            `json:"gomaxprocs"`
	NumCPU        int            `json:"num_cpu"`
	Flags         map[string]any `json:"flags"`
}

func configRecord(c *config.Config, root string, fill *fillRecord) jsonConfig {
	return jsonConfig{
		Record: "config", Seed: c.Seed, Engines: c.Engines(), DB: root, Fill: fill,
		PebbleVersion: pebbleVersion(), GoVersion: runtime.Version(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), Flags: c.FlagValues,
	}
}
