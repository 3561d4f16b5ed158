// Copyright 2026 The pebblerf Authors. All rights reserved.

package result

import (
	"fmt"
	"math"
	"sort"
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
func throughputs(runs []*Result) (ops, mbs []float64, allBytes bool) {
	allBytes = true
	for _, r := range runs {
		ops = append(ops, r.OpsPerSec())
		mbs = append(mbs, r.MBPerSec())
		allBytes = allBytes && r.HasBytes()
	}
	return ops, mbs, allBytes
}

// runningAverageLine is the line db_bench prints after every run from the
// second on: "name [AVG n runs] : ops (± ci) ops/sec; MB (± ci) MB/sec".
func RunningAverageLine(label string, runs []*Result) string {
	ops, mbs, allBytes := throughputs(runs)
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
func FinalSummaryLines(label string, runs []*Result) []string {
	ops, mbs, allBytes := throughputs(runs)
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
