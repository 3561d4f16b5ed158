// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
)

var rangeCostFlag = flag.Bool("rangefilter.cost", false, "print the range-filter query cost table (thread-CPU, B=16, L=32)")

// TestRangeFilterQueryCost prints, per key kind, the thread-CPU ns per
// query at B=16 and L=32: random empty queries, the same query repeated
// (hot: all in cache, so the instruction cost), and a binary search over the
// same keys measured in the same run. It measures, it does not assert: run
// it with -rangefilter.cost (and -rangefilter.keys).
func TestRangeFilterQueryCost(t *testing.T) {
	if !*rangeCostFlag {
		t.Skip("run with -rangefilter.cost")
	}
	n := *rangeReportKeys
	const perCell, passes = 10_000, 21
	var out strings.Builder
	fmt.Fprintf(&out, "n=%d, B=16, L=32, thread-CPU ns/query: median (min) of %d passes of %d queries\n\n", n, passes, perCell)
	fmt.Fprintf(&out, "| kind | segments | exact | random | next | succ | hot | binary search |\n|---|---|---|---|---|---|---|---|\n")
	// The minimum is the pass least disturbed by other work on a shared
	// machine, the closest to the instruction cost; the median is typical.
	median := func(f func() float64) string {
		var xs []float64
		for range passes {
			xs = append(xs, f())
		}
		slices.Sort(xs)
		return fmt.Sprintf("%.0f (%.0f)", xs[passes/2], xs[0])
	}
	for ki, kind := range rangeWorkloadKinds() {
		w := newRangeWorkload(kind, n, uint64(ki+1))
		f, _ := w.build(t, 16)
		info, err := Describe(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "| %s | %d | %v |", kind.name, info.Segments, !info.Hashed)
		var random [][2][]byte
		for qk := range rangeQueryKinds {
			qs := w.queries(qk, 32, perCell)
			if qk == rangeQueryRandom {
				random = qs
			}
			fmt.Fprintf(&out, " %s |", median(func() float64 { _, _, c := rangeFPR(f, qs); return c }))
		}
		hot := make([][2][]byte, perCell)
		for i := range hot {
			hot[i] = random[0]
		}
		fmt.Fprintf(&out, " %s |", median(func() float64 { _, _, c := rangeFPR(f, hot); return c }))
		fmt.Fprintf(&out, " %s |\n", median(func() float64 { return w.oracleCPU(random) }))
	}
	t.Logf("\n%s", out.String())
}
