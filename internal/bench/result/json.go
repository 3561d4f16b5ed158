// Copyright 2026 The pebblerf Authors. All rights reserved.

package result

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// jsonResult is the -json object of one run on one engine.
type jsonResult struct {
	Record      string  `json:"record"`
	Benchmark   string  `json:"benchmark"`
	Engine      string  `json:"engine"`
	Run         int     `json:"run"`
	Ops         int64   `json:"ops"`
	Seconds     float64 `json:"seconds"`
	OpsPerSec   float64 `json:"ops_per_sec"`
	MicrosPerOp float64 `json:"micros_per_op"`
	MBPerSec    float64 `json:"mb_per_sec"`
	// ThreadCPU and ProcessCPU are FigThreadCPU and FigProcessCPU, left
	// out where they cannot be read.
	ThreadCPU   *float64         `json:"thread_cpu_micros_per_op,omitempty"`
	ProcessCPU  *float64         `json:"process_cpu_micros_per_op,omitempty"`
	Found       *int64           `json:"found,omitempty"`
	Reads       *int64           `json:"reads,omitempty"`
	Interrupted bool             `json:"interrupted,omitempty"`
	Histogram   *hist.Summary    `json:"histogram_micros,omitempty"`
	Statistics  map[string]int64 `json:"statistics,omitempty"`
	LSM         *lsm.Summary     `json:"lsm,omitempty"`
	Remote      *remoteJSON      `json:"remote,omitempty"`
}

func WriteJSON(w io.Writer, runNumber int, r *Result, withTickers bool) error {
	j := jsonResult{
		Record: "result", Benchmark: r.Benchmark, Engine: r.Engine, Run: runNumber,
		Ops: r.Ops, Seconds: r.Seconds, OpsPerSec: r.OpsPerSec(),
		MicrosPerOp: r.MicrosPerOp(), MBPerSec: r.MBPerSec(), Interrupted: r.Interrupted,
	}
	if cpu := r.ThreadCPUMicrosPerOp(); !math.IsNaN(cpu) {
		j.ThreadCPU = &cpu
	}
	if cpu := r.ProcessCPUMicrosPerOp(); !math.IsNaN(cpu) {
		j.ProcessCPU = &cpu
	}
	if r.ShowFound {
		j.Found, j.Reads = &r.Found, &r.Ops
	}
	j.Histogram = r.Hist.Summary()
	if withTickers {
		j.Statistics = statistics.Map(r.Tickers)
	}
	j.LSM = r.LSM
	j.Remote = r.Remote.JSON(r.Ops)
	return WriteJSONLine(w, j)
}

func WriteJSONLine(w io.Writer, v interface{}) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
