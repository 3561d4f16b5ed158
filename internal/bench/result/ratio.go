// Copyright 2026 The pebblerf Authors. All rights reserved.

package result

import (
	"fmt"
	"math"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// ratio returns b/a, or NaN when a is 0.
func Ratio(a, b float64) float64 {
	if a == 0 {
		return math.NaN()
	}
	return b / a
}

func FormatRatio(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.3fx", x)
}

// figure is one compared figure: its name and the ratio, NaN when the base
// is zero, and which way is better ("higher", "lower", or "" when neither:
// the found ratio is 1 on identical data, and tickers count work of many
// kinds).
type Figure struct {
	Name   string
	Value  float64
	Better string
}

// figureKeys are the -json names of the figures, snake_case like every
// other key; tickers keep their RocksDB names.
var figureKeys = map[string]string{
	"micros/op": "micros_per_op", "ops/sec": "ops_per_sec", FigThreadCPU: "thread_cpu_micros_per_op",
	FigProcessCPU: "process_cpu_micros_per_op", "MB/s": "mb_per_sec",
}

func (f Figure) Key() string {
	if k, ok := figureKeys[f.Name]; ok {
		return k
	}
	return f.Name
}

// ratioFigures are the figures compared between engines, other over base.
// withTickers adds the ratios of the tickers both engines have
// (-statistics).
func Figures(base, other *Result, withTickers bool) []Figure {
	figs := []Figure{
		{"micros/op", Ratio(base.MicrosPerOp(), other.MicrosPerOp()), "lower"},
		{"ops/sec", Ratio(base.OpsPerSec(), other.OpsPerSec()), "higher"},
		{FigThreadCPU, Ratio(base.ThreadCPUMicrosPerOp(), other.ThreadCPUMicrosPerOp()), "lower"},
		{FigProcessCPU, Ratio(base.ProcessCPUMicrosPerOp(), other.ProcessCPUMicrosPerOp()), "lower"},
	}
	if base.HasBytes() || other.HasBytes() {
		figs = append(figs, Figure{"MB/s", Ratio(base.MBPerSec(), other.MBPerSec()), "higher"})
	}
	if base.ShowFound {
		figs = append(figs, Figure{"found", Ratio(float64(base.Found), float64(other.Found)), ""})
	}
	figs = append(figs, remoteFigures(base, other)...)
	if withTickers {
		figs = append(figs, TickerRatios(base.Tickers, other.Tickers)...)
	}
	return figs
}

// tickerRatios compares the tickers both engines have, other over base,
// leaving out those that are zero for both.
func TickerRatios(base, other []statistics.Ticker) []Figure {
	baseCounts := statistics.Map(base)
	var figs []Figure
	for _, t := range other {
		if b, ok := baseCounts[t.Name]; ok && (b != 0 || t.Count != 0) {
			figs = append(figs, Figure{t.Name, Ratio(float64(b), float64(t.Count)), ""})
		}
	}
	return figs
}

// formatFigures writes figures as " name ratio" pairs, each followed by
// which way is better where one is.
func FormatFigures(b *strings.Builder, figs []Figure) {
	for _, f := range figs {
		fmt.Fprintf(b, " %s %s", f.Name, FormatRatio(f.Value))
		if f.Better != "" {
			fmt.Fprintf(b, " (%s is better)", f.Better)
		}
	}
}

// ratioLine compares one run of two engines:
//
//	ratio pebblerf/pebble readrandom : micros/op <r>x (lower is better) ops/sec <r>x (higher is better) ...
func RatioLine(base, other *Result, withTickers bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ratio %s/%s %s :", other.Engine, base.Engine, base.Benchmark)
	FormatFigures(&b, Figures(base, other, withTickers))
	return b.String()
}

// medianRatioLine summarises repeated runs of two engines by the median of
// the paired per-run ratios, which cancels drift that affects both engines
// of a pair alike.
func MedianRatioLine(base, other []*Result) string {
	var micros, ops, cpu, proc []float64
	for i := range base {
		micros = append(micros, Ratio(base[i].MicrosPerOp(), other[i].MicrosPerOp()))
		ops = append(ops, Ratio(base[i].OpsPerSec(), other[i].OpsPerSec()))
		cpu = append(cpu, Ratio(base[i].ThreadCPUMicrosPerOp(), other[i].ThreadCPUMicrosPerOp()))
		proc = append(proc, Ratio(base[i].ProcessCPUMicrosPerOp(), other[i].ProcessCPUMicrosPerOp()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ratio %s/%s %s [MEDIAN %d runs] :", other[0].Engine, base[0].Engine, base[0].Benchmark, len(base))
	FormatFigures(&b, []Figure{
		{"micros/op", MedianRatio(micros), "lower"},
		{"ops/sec", MedianRatio(ops), "higher"},
		{FigThreadCPU, MedianRatio(cpu), "lower"},
		{FigProcessCPU, MedianRatio(proc), "lower"},
	})
	return b.String()
}

// medianRatio is the median of ratios. With an even count it takes the
// geometric mean of the middle two, not their average: ratios multiply, so
// the median of the inverted ratios is then exactly the inverse of the
// median, and a MEDIAN line's micros/op and ops/sec always agree. (An
// average of 13.0 and 0.5 reads 6.75 while the inverse pair averages 1.04.)
func MedianRatio(rs []float64) float64 {
	lo, hi := middle(rs)
	if lo == hi {
		return lo
	}
	return math.Sqrt(lo * hi)
}
