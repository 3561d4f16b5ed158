// Copyright 2026 The pebblerf Authors. All rights reserved.

package scenario

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
)

// matrixFloor is the ratio below which a cell is a loss: "never slower"
// with the noise of a shared machine allowed for.
const matrixFloor = 0.95

// matrixBuildSteps are the steps that start from an empty DB, so that no
// shape precedes them.
var matrixBuildSteps = []string{"fill", "build", "rebuild", "load"}

// matrixSetup are the benchmarks that shape a DB for the workloads after
// them and are not workloads themselves: one run each, not a cell.
var matrixSetup = []string{"compact", "flush"}

// matrixCell is one row of the matrix table: a workload on a shape, whose
// L0 sublevels at the phase's start were l0 ("upstream|pebblerf", "-" for
// a build from empty).
type matrixCell struct {
	workload, shape, l0 string
	// cpu is the engines' process CPU per operation, their flushes and
	// compactions included, which the floor applies to; threadCPU is the
	// benchmark threads' alone, shown beside it.
	ops, cpu, threadCPU Speed
}

// below reports whether the cell's median is under the floor, in ops/sec
// or in the process CPU per operation.
func (c matrixCell) below() bool {
	return belowFloor(c.ops) || belowFloor(c.cpu)
}

func belowFloor(s Speed) bool { return !math.IsNaN(s.median) && s.median < matrixFloor }

// faster reports whether the cell wins: not below the floor, and faster
// in every paired run (speed.direction).
func (c matrixCell) faster() bool { return !c.below() && c.ops.direction() == 1 }

// verdict says whether the cell holds the floor, and when it wins. A
// median below the floor is a loss either way; the verdict also says
// whether every paired run was slower, or the runs fell on both sides of
// 1, which on a shared machine is noise as much as cost.
func (c matrixCell) verdict() string {
	switch {
	case c.below():
		if (belowFloor(c.ops) && c.ops.hi < 1) || (belowFloor(c.cpu) && c.cpu.hi < 1) {
			return fmt.Sprintf("below %.2fx, every run slower", matrixFloor)
		}
		return fmt.Sprintf("below %.2fx, runs both sides of 1", matrixFloor)
	case c.faster():
		return "faster"
	}
	return "not slower"
}

// matrixCells reads the table out of the phases: one row per timed
// benchmark of each phase, in run order.
func matrixCells(rs []*PhaseResult) []matrixCell {
	var cells []matrixCell
	for i, p := range rs {
		shape, step, _ := strings.Cut(p.Name, "/")
		l0 := "-"
		if i > 0 && !slices.Contains(matrixBuildSteps, step) {
			l0 = l0Depths(rs[i-1])
		}
		var seen []string
		for _, r := range p.Results {
			if r.Engine != config.EnginePebble || slices.Contains(seen, r.Benchmark) || slices.Contains(matrixSetup, r.Benchmark) {
				continue
			}
			seen = append(seen, r.Benchmark)
			workload := r.Benchmark
			if step == "bounded" {
				workload += ", bounded"
			}
			c := matrixCell{workload: workload, shape: shape, l0: l0, ops: p.opsRatio(r.Benchmark),
				cpu: p.processCPUSpeedup(r.Benchmark), threadCPU: p.cpuSpeedup(r.Benchmark)}
			if c.ops.n < minPairedRuns {
				continue // a build's single fill: setup, not a cell
			}
			cells = append(cells, c)
		}
	}
	return cells
}

// l0Depths is each engine's L0 sublevels at the end of a phase,
// "upstream|pebblerf".
func l0Depths(p *PhaseResult) string {
	depth := func(engine string) string {
		for _, l := range p.Shapes[engine] {
			if l.Level == 0 {
				return fmt.Sprint(l.Sublevels)
			}
		}
		return "?"
	}
	return depth(config.EnginePebble) + "|" + depth(config.EnginePebbleRF)
}

func matrixVerdict(rs []*PhaseResult) Verdict {
	cells := matrixCells(rs)
	if len(cells) == 0 {
		return noComparison("matrix")
	}
	var b strings.Builder
	printMatrix(&b, cells)
	var below, faster []string
	for _, c := range cells {
		switch {
		case c.below():
			below = append(below, c.workload+" on "+c.shape)
		case c.faster():
			faster = append(faster, c.workload+" on "+c.shape)
		}
	}
	v := Verdict{Headline: fmt.Sprintf("%d cells, %d below %.2fx", len(cells), len(below), matrixFloor)}
	switch {
	case len(below) == 0:
		v.Outcome = "never slower"
		fmt.Fprintf(&b, "matrix: never slower: every one of %d cells at least %.2fx upstream in ops/sec and process CPU per operation", len(cells), matrixFloor)
	default:
		v.Outcome = "loss: " + strings.Join(below, "; ")
		fmt.Fprintf(&b, "matrix: loss: %d of %d cells below %.2fx (%s)", len(below), len(cells), matrixFloor, strings.Join(below, "; "))
	}
	if len(faster) > 0 {
		fmt.Fprintf(&b, "; faster on %s", strings.Join(faster, ", "))
	}
	if len(below) > 0 {
		// Upstream against itself crosses the floor too on a noisy
		// machine; the control tells a loss from the machine's spread.
		b.WriteString("\nmatrix: this machine's own spread: the same command with -pebblerf_recommended=false (pebblerf without plug-ins runs upstream's code)")
	}
	v.Line = b.String()
	return v
}

// printMatrix writes the table: per cell the medians of the paired ratios
// (pebblerf over upstream; for CPU, upstream's CPU per operation over
// pebblerf's, so above 1 is better in all) with their range. CPU/op is the
// engine processes', flushes and compactions included; thread CPU/op the
// benchmark threads' alone.
func printMatrix(b *strings.Builder, cells []matrixCell) {
	cell := func(s Speed) string {
		if s.n == 0 || math.IsNaN(s.median) {
			return "n/a"
		}
		return fmt.Sprintf("%s (%s-%s)", fmtRatio(s.median), fmtRatio(s.lo), fmtRatio(s.hi))
	}
	rows := [][]string{{"workload", "shape (L0 sublevels up|rf at start)", "ops/sec", "CPU/op (up/rf)", "thread CPU/op (up/rf)", "verdict"}}
	for _, c := range cells {
		rows = append(rows, []string{c.workload, fmt.Sprintf("%s (L0 %s)", c.shape, c.l0), cell(c.ops), cell(c.cpu), cell(c.threadCPU), c.verdict()})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, f := range r {
			widths[i] = max(widths[i], len(f))
		}
	}
	for ri, r := range rows {
		for i, f := range r {
			if i == len(r)-1 {
				fmt.Fprintf(b, "%s\n", f)
			} else {
				fmt.Fprintf(b, "%-*s  ", widths[i], f)
			}
		}
		if ri == 0 {
			for i, w := range widths {
				sep := "  "
				if i == len(widths)-1 {
					sep = "\n"
				}
				b.WriteString(strings.Repeat("-", w) + sep)
			}
		}
	}
}
