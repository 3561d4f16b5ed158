// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// z95 is the two-sided 95% normal quantile db_bench uses for its ± values.
const z95 = 1.959964

// meanAndCI95 returns the mean of xs and the half-width of its 95%
// confidence interval, z95·s/√n with s the Bessel-corrected standard
// deviation (0 for a single value).
func meanAndCI95(xs []float64) (mean, ci float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, z95 * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

// median returns the middle value of xs, or the mean of the two middle
// values for an even count.
func median(xs []float64) float64 {
	lo, hi := middle(xs)
	return (lo + hi) / 2
}

// middle returns the middle value of xs twice, or with an even count its
// middle two, in order; zeros for none.
func middle(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid], s[mid]
	}
	return s[mid-1], s[mid]
}

// throughputs returns the runs' ops/sec and MB/s, and whether every run
// showed MB/s (db_bench prints the MB/sec parts only then).
func throughputs(c *config.Config, runs []*result) (ops, mbs []float64, allBytes bool) {
	allBytes = true
	for _, r := range runs {
		ops = append(ops, r.opsPerSec())
		mbs = append(mbs, r.mbPerSec())
		allBytes = allBytes && r.hasBytes(c)
	}
	return ops, mbs, allBytes
}

// runningAverageLine is the line db_bench prints after every run from the
// second on: "name [AVG n runs] : ops (± ci) ops/sec; MB (± ci) MB/sec".
func runningAverageLine(c *config.Config, label string, runs []*result) string {
	ops, mbs, allBytes := throughputs(c, runs)
	mean, ci := meanAndCI95(ops)
	line := fmt.Sprintf("%s [AVG %d runs] : %d (\u00b1 %d) ops/sec", label, len(runs), int64(mean), int64(ci))
	if allBytes {
		mbMean, mbCI := meanAndCI95(mbs)
		line += fmt.Sprintf("; %6.1f (\u00b1 %.1f) MB/sec", mbMean, mbCI)
	}
	return line
}

// finalSummaryLines are db_bench's ReportFinal lines for more than one run:
// "[AVG    n runs]" with ms/op (1000 / mean ops/sec) and "[MEDIAN n runs]".
func finalSummaryLines(c *config.Config, label string, runs []*result) []string {
	ops, mbs, allBytes := throughputs(c, runs)
	mean, ci := meanAndCI95(ops)
	msPerOp := 0.0
	if mean > 0 {
		msPerOp = 1000 / mean
	}
	avg := fmt.Sprintf("%s [AVG    %d runs] : %d (\u00b1 %d) ops/sec; %.3f ms/op", label, len(runs), int64(mean), int64(ci), msPerOp)
	med := fmt.Sprintf("%s [MEDIAN %d runs] : %d ops/sec", label, len(runs), int64(median(ops)))
	if allBytes {
		mbMean, mbCI := meanAndCI95(mbs)
		avg += fmt.Sprintf("; %6.1f (\u00b1 %.1f) MB/sec", mbMean, mbCI)
		med += fmt.Sprintf("; %6.1f MB/sec", median(mbs))
	}
	return []string{avg, med}
}

// ratio returns b/a, or NaN when a is 0.
func ratio(a, b float64) float64 {
	if a == 0 {
		return math.NaN()
	}
	return b / a
}

func formatRatio(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.3fx", x)
}

// figure is one compared figure: its name and the ratio, NaN when the base
// is zero, and which way is better ("higher", "lower", or "" when neither:
// the found ratio is 1 on identical data, and tickers count work of many
// kinds).
type figure struct {
	name   string
	ratio  float64
	better string
}

// figureKeys are the -json names of the figures, snake_case like every
// other key; tickers keep their RocksDB names.
var figureKeys = map[string]string{
	"micros/op": "micros_per_op", "ops/sec": "ops_per_sec", "cpu-micros/op": "cpu_micros_per_op", "MB/s": "mb_per_sec",
}

func (f figure) key() string {
	if k, ok := figureKeys[f.name]; ok {
		return k
	}
	return f.name
}

// ratioFigures are the figures compared between engines, other over base.
func ratioFigures(c *config.Config, base, other *result) []figure {
	figs := []figure{
		{"micros/op", ratio(base.microsPerOp(), other.microsPerOp()), "lower"},
		{"ops/sec", ratio(base.opsPerSec(), other.opsPerSec()), "higher"},
		{"cpu-micros/op", ratio(base.cpuMicrosPerOp(), other.cpuMicrosPerOp()), "lower"},
	}
	if base.hasBytes(c) || other.hasBytes(c) {
		figs = append(figs, figure{"MB/s", ratio(base.mbPerSec(), other.mbPerSec()), "higher"})
	}
	if base.bench.showFound {
		figs = append(figs, figure{"found", ratio(float64(base.Found), float64(other.Found)), ""})
	}
	figs = append(figs, remoteFigures(base, other)...)
	if c.Statistics {
		figs = append(figs, tickerRatios(base.Tickers, other.Tickers)...)
	}
	return figs
}

// tickerRatios compares the tickers both engines have, other over base,
// leaving out those that are zero for both.
func tickerRatios(base, other []statistics.Ticker) []figure {
	baseCounts := statistics.Map(base)
	var figs []figure
	for _, t := range other {
		if b, ok := baseCounts[t.Name]; ok && (b != 0 || t.Count != 0) {
			figs = append(figs, figure{t.Name, ratio(float64(b), float64(t.Count)), ""})
		}
	}
	return figs
}

// formatFigures writes figures as " name ratio" pairs, each followed by
// which way is better where one is.
func formatFigures(b *strings.Builder, figs []figure) {
	for _, f := range figs {
		fmt.Fprintf(b, " %s %s", f.name, formatRatio(f.ratio))
		if f.better != "" {
			fmt.Fprintf(b, " (%s is better)", f.better)
		}
	}
}

// ratioLine compares one run of two engines:
//
//	ratio pebblerf/pebble readrandom : micros/op <r>x (lower is better) ops/sec <r>x (higher is better) ...
func ratioLine(c *config.Config, base, other *result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ratio %s/%s %s :", other.Engine, base.Engine, base.Benchmark)
	formatFigures(&b, ratioFigures(c, base, other))
	return b.String()
}

// medianRatioLine summarises repeated runs of two engines by the median of
// the paired per-run ratios, which cancels drift that affects both engines
// of a pair alike.
func medianRatioLine(base, other []*result) string {
	var micros, ops, cpu []float64
	for i := range base {
		micros = append(micros, ratio(base[i].microsPerOp(), other[i].microsPerOp()))
		ops = append(ops, ratio(base[i].opsPerSec(), other[i].opsPerSec()))
		cpu = append(cpu, ratio(base[i].cpuMicrosPerOp(), other[i].cpuMicrosPerOp()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ratio %s/%s %s [MEDIAN %d runs] :", other[0].Engine, base[0].Engine, base[0].Benchmark, len(base))
	formatFigures(&b, []figure{
		{"micros/op", medianRatio(micros), "lower"},
		{"ops/sec", medianRatio(ops), "higher"},
		{"cpu-micros/op", medianRatio(cpu), "lower"},
	})
	return b.String()
}

// medianRatio is the median of ratios. With an even count it takes the
// geometric mean of the middle two, not their average: ratios multiply, so
// the median of the inverted ratios is then exactly the inverse of the
// median, and a MEDIAN line's micros/op and ops/sec always agree. (An
// average of 13.0 and 0.5 reads 6.75 while the inverse pair averages 1.04.)
func medianRatio(rs []float64) float64 {
	lo, hi := middle(rs)
	if lo == hi {
		return lo
	}
	return math.Sqrt(lo * hi)
}
