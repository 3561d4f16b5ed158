// Copyright 2026 The pebblerf Authors. All rights reserved.

package result

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/stretchr/testify/require"
)

// shows is what the result lines of the benchmarks the test data names
// show: the found count, and MB/s (seekrandom's only with -seek_nexts).
func shows(bench string, seekNexts int) (found, bytes bool) {
	switch bench {
	case "readrandom":
		return true, true
	case "seekrandom":
		return true, seekNexts > 0
	}
	return false, true
}

// throughputResult makes a one-second result with the given ops/sec and
// MB/s, and one thread.
func throughputResult(bench, engineName string, opsPerSec, mbPerSec float64) *Result {
	found, bytes := shows(bench, 0)
	return &Result{
		Benchmark: bench, Engine: engineName, ShowFound: found, ShowBytes: bytes,
		Ops: int64(opsPerSec), Found: int64(opsPerSec) / 2,
		Bytes: int64(mbPerSec * (1 << 20)), Seconds: 1, ThreadSeconds: 1, ThreadCPUSeconds: 0.5, ProcessCPUSeconds: 0.75,
	}
}

func TestReportDataDriven(t *testing.T) {
	datadriven.RunTest(t, "testdata/report", func(t *testing.T, td *datadriven.TestData) string {
		var seekNexts int
		td.MaybeScanArgs(t, "seek_nexts", &seekNexts)
		var bench string
		td.ScanArgs(t, "bench", &bench)
		switch td.Cmd {
		case "result":
			// CPU times unknown unless given: db_bench's line alone.
			r := &Result{Benchmark: bench, Engine: "pebble", ThreadCPUSeconds: -1, ProcessCPUSeconds: -1}
			td.MaybeScanArgs(t, "thread_cpu", &r.ThreadCPUSeconds)
			td.MaybeScanArgs(t, "process_cpu", &r.ProcessCPUSeconds)
			r.ShowFound, r.ShowBytes = shows(bench, seekNexts)
			td.MaybeScanArgs(t, "engine", &r.Engine)
			td.ScanArgs(t, "ops", &r.Ops)
			td.ScanArgs(t, "seconds", &r.Seconds)
			td.ScanArgs(t, "thread_seconds", &r.ThreadSeconds)
			td.ScanArgs(t, "bytes", &r.Bytes)
			td.MaybeScanArgs(t, "found", &r.Found)
			label := bench
			if td.HasArg("engine") {
				label = bench + "/" + r.Engine
			}
			return Line(label, r) + "\n"
		case "summary":
			var ops, mbs []float64
			td.ScanArgs(t, "ops", &ops)
			td.ScanArgs(t, "mb", &mbs)
			var runs []*Result
			for i := range ops {
				runs = append(runs, throughputResult(bench, "pebble", ops[i], mbs[i]))
			}
			lines := append([]string{RunningAverageLine(bench, runs)}, FinalSummaryLines(bench, runs)...)
			return strings.Join(lines, "\n") + "\n"
		case "ratio":
			var baseOps, otherOps []float64
			td.ScanArgs(t, "base", &baseOps)
			td.ScanArgs(t, "other", &otherOps)
			var base, other []*Result
			var out strings.Builder
			for i := range baseOps {
				base = append(base, throughputResult(bench, "pebble", baseOps[i], baseOps[i]/10))
				other = append(other, throughputResult(bench, "pebblerf", otherOps[i], otherOps[i]/10))
				// Same found count, so the found ratio is 1.
				other[i].Found = base[i].Found
				fmt.Fprintln(&out, RatioLine(base[i], other[i], false))
			}
			fmt.Fprintln(&out, MedianRatioLine(base, other))
			return out.String()
		}
		return "unknown command " + td.Cmd
	})
}

// TestTickerRatios: tickers zero in both engines are left out of ratio
// lines; a zero base gives n/a.
func TestTickerRatios(t *testing.T) {
	var b strings.Builder
	FormatFigures(&b, TickerRatios(
		[]statistics.Ticker{{Name: "a", Count: 2}, {Name: "b"}, {Name: "c"}},
		[]statistics.Ticker{{Name: "a", Count: 4}, {Name: "b"}, {Name: "c", Count: 3}, {Name: "d", Count: 1}}))
	require.Equal(t, " a 2.000x c n/a", b.String())
}
