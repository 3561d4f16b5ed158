// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/stretchr/testify/require"
)

// throughputResult makes a one-second result with the given ops/sec and
// MB/s, and one thread.
func throughputResult(bench, engineName string, opsPerSec, mbPerSec float64) *result {
	b, _ := benchmarkByName(bench)
	return &result{
		Benchmark: bench, Engine: engineName, bench: b,
		Ops: int64(opsPerSec), Found: int64(opsPerSec) / 2,
		Bytes: int64(mbPerSec * (1 << 20)), Seconds: 1, ThreadSeconds: 1, CPUSeconds: 0.5,
	}
}

func TestReportDataDriven(t *testing.T) {
	datadriven.RunTest(t, "testdata/report", func(t *testing.T, td *datadriven.TestData) string {
		c := &config.Config{}
		td.MaybeScanArgs(t, "seek_nexts", &c.SeekNexts)
		var bench string
		td.ScanArgs(t, "bench", &bench)
		b, ok := benchmarkByName(bench)
		require.True(t, ok)
		switch td.Cmd {
		case "result":
			r := &result{Benchmark: bench, Engine: config.EnginePebble, bench: b}
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
			return resultLine(c, label, r) + "\n"
		case "summary":
			var ops, mbs []float64
			td.ScanArgs(t, "ops", &ops)
			td.ScanArgs(t, "mb", &mbs)
			var runs []*result
			for i := range ops {
				runs = append(runs, throughputResult(bench, config.EnginePebble, ops[i], mbs[i]))
			}
			lines := append([]string{runningAverageLine(c, bench, runs)}, finalSummaryLines(c, bench, runs)...)
			return strings.Join(lines, "\n") + "\n"
		case "ratio":
			var baseOps, otherOps []float64
			td.ScanArgs(t, "base", &baseOps)
			td.ScanArgs(t, "other", &otherOps)
			var base, other []*result
			var out strings.Builder
			for i := range baseOps {
				base = append(base, throughputResult(bench, config.EnginePebble, baseOps[i], baseOps[i]/10))
				other = append(other, throughputResult(bench, config.EnginePebbleRF, otherOps[i], otherOps[i]/10))
				// Same found count, so the found ratio is 1.
				other[i].Found = base[i].Found
				fmt.Fprintln(&out, ratioLine(c, base[i], other[i]))
			}
			fmt.Fprintln(&out, medianRatioLine(base, other))
			return out.String()
		}
		return "unknown command " + td.Cmd
	})
}

// TestTickerRatios: tickers zero in both engines are left out of ratio
// lines; a zero base gives n/a.
func TestTickerRatios(t *testing.T) {
	var b strings.Builder
	formatFigures(&b, tickerRatios(
		[]statistics.Ticker{{Name: "a", Count: 2}, {Name: "b"}, {Name: "c"}},
		[]statistics.Ticker{{Name: "a", Count: 4}, {Name: "b"}, {Name: "c", Count: 3}, {Name: "d", Count: 1}}))
	require.Equal(t, " a 2.000x c n/a", b.String())
}
