// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
)

// The matrix: the workloads users run, on both engines over the same data,
// pebblerf with pebble.Recommended(), on the shapes a DB with Pebble's
// compactions has, ending in one table of ratios. It answers the question a
// user asks before switching (will my ordinary workload get slower?), as
// the other scenarios answer where pebblerf wins.
//
// Every workload runs matrixRuns paired runs, and a cell is the median of
// the paired ratios with their range. A paired run is interleaved
// (-interleave): both engines run it at once, taking turns of
// matrixTurn operations, so that what the machine does meanwhile falls on
// both; whole runs one after the other each met the machine as it was for
// their own second, and moved cells by a tenth either way with the same
// code on both sides. A phase's name is its shape and its step
// ("leveled/read"), so the table can say which shape a row ran on; the
// shape is also measured: each engine's L0 sublevels when the phase starts
// (as the phase before left them). Pebble's compactions run on their own
// clock, so two engines given the same writes can be caught at different
// depths (0 and 17 sublevels were seen), which would measure the shape,
// not the engine: each fill is therefore followed by a manual compaction,
// and the burst builds its L0 under a trigger it never reaches.

// matrixRuns is the paired runs of every matrix workload.
const matrixRuns = 5

// matrixTurn is the operations of one engine's turn: a few milliseconds
// of Gets, long enough that handing over (a wake-up of the other thread)
// costs little, short enough that a burst of the machine's spans turns of
// both engines.
const matrixTurn = 1000

// matrixFloor is the ratio below which a cell is a loss: "never slower"
// with the noise of a shared machine allowed for.
const matrixFloor = 0.95

func init() {
	x := fmt.Sprintf("[X%d]", matrixRuns)
	bounded := []string{"-seek_upper_bound_len=8", "-empty_range_fraction=0.5"}
	// The burst shape: an overwrite burst on a compacted DB with an L0
	// trigger high enough (Pebble compacts L0 once its sublevels reach half
	// of it) that the burst's flushes stay in L0 as sublevels, as under
	// writes that outpace compactions; the depth depends on the writes
	// alone, so both engines read the same one.
	burst := []string{"-level0_file_num_compaction_trigger=40", "-write_buffer_size=2097152"}
	with := func(a []string, b ...string) []string { return append(append([]string(nil), a...), b...) }
	scenarios = append(scenarios, &scenario{
		name:  "matrix",
		short: "the workloads users run (YCSB A-F, db_bench's), pebble.Recommended() against upstream, one table",
		models: "YCSB's core workloads A-F (Zipfian, 1 KiB values) and db_bench's fillrandom, readrandom, seekrandom with and " +
			"without bounds (half of the bounded ranges empty), readseq and overwrite, with Pebble's compactions on and data " +
			"several times the block cache, on a leveled DB (compacted after its fill, so both engines read the same shape) and " +
			"on the same DB after an overwrite burst left L0 many sublevels deep; " + fmt.Sprint(matrixRuns) +
			" paired runs of each, interleaved",
		plugins: "pebble.Recommended() on pebblerf (-pebblerf_recommended: range filters with their gate, Gets that consult " +
			"L6 filters when it pays); Bloom(10) on every level of both, as a user's options name it",
		common: []string{"-engine=both", "-seed=11", "-pebblerf_recommended", "-bloom_bits=10", "-num=200000", "-key_stride=16",
			"-reads=100000", "-ycsb_record_count=200000", "-cache_size=2097152", "-write_buffer_size=4194304",
			"-pebblerf_statistics=false", "-interleave=" + fmt.Sprint(matrixTurn)},
		phases: []phase{
			{"leveled/fill", []string{"-benchmarks=fillrandom" + x + ",compact,levelstats"}},
			// A read run lasts a few seconds: interleaved, the pairs of
			// shorter runs still spread by several percent either way.
			{"leveled/read", []string{"-use_existing_db", "-benchmarks=readrandom" + x + ",seekrandom" + x, "-reads=300000"}},
			// A Next costs a fraction of a Get: many times the entries, so
			// that a run lasts as long as the others.
			{"leveled/scan", []string{"-use_existing_db", "-benchmarks=readseq" + x, "-reads=5000000"}},
			{"leveled/bounded", with([]string{"-use_existing_db", "-benchmarks=seekrandom" + x}, bounded...)},
			{"leveled/overwrite", []string{"-use_existing_db", "-benchmarks=overwrite" + x}},
			// Reads drain L0 (Pebble's read-triggered compactions), so each
			// read phase gets a burst of its own.
			{"l0-burst/build", with([]string{"-benchmarks=fillrandom,compact,overwrite,levelstats"}, burst...)},
			// Upstream's bounded seeks read every sublevel: fewer of them.
			{"l0-burst/bounded", with([]string{"-use_existing_db", "-benchmarks=seekrandom" + x, "-reads=30000"}, with(burst, bounded...)...)},
			{"l0-burst/rebuild", with([]string{"-benchmarks=fillrandom,compact,overwrite"}, burst...)},
			{"l0-burst/read", with([]string{"-use_existing_db", "-benchmarks=readrandom" + x + ",seekrandom" + x}, burst...)},
			{"ycsb/load", []string{"-benchmarks=ycsb_load" + x + ",compact,levelstats"}},
			{"ycsb/read", []string{"-use_existing_db", "-benchmarks=ycsb_c" + x + ",ycsb_b" + x + ",ycsb_d" + x, "-reads=300000"}},
			// A short scan costs a dozen Gets.
			{"ycsb/scan", []string{"-use_existing_db", "-benchmarks=ycsb_e" + x, "-reads=50000"}},
			// Half of A's and F's operations write, and a run's ratio moves
			// with the few flushes and compactions in it: four times the
			// operations, so that each run has dozens.
			{"ycsb/update", []string{"-use_existing_db", "-benchmarks=ycsb_a" + x + ",ycsb_f" + x, "-reads=200000"}},
		},
		demo:    []string{"-num=50000", "-ycsb_record_count=10000", "-reads=5000", "-cache_size=1048576"},
		verdict: matrixVerdict,
	})
}

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
	ops, cpu            speed
}

// below reports whether the cell's median is under the floor, in ops/sec
// or in CPU per operation.
func (c matrixCell) below() bool {
	return belowFloor(c.ops) || belowFloor(c.cpu)
}

func belowFloor(s speed) bool { return !math.IsNaN(s.median) && s.median < matrixFloor }

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
func matrixCells(rs []*phaseResult) []matrixCell {
	var cells []matrixCell
	for i, p := range rs {
		shape, step, _ := strings.Cut(p.name, "/")
		l0 := "-"
		if i > 0 && !slices.Contains(matrixBuildSteps, step) {
			l0 = l0Depths(rs[i-1])
		}
		var seen []string
		for _, r := range p.results {
			if r.Engine != config.EnginePebble || slices.Contains(seen, r.Benchmark) || slices.Contains(matrixSetup, r.Benchmark) {
				continue
			}
			seen = append(seen, r.Benchmark)
			workload := r.Benchmark
			if step == "bounded" {
				workload += ", bounded"
			}
			c := matrixCell{workload: workload, shape: shape, l0: l0, ops: p.opsRatio(r.Benchmark), cpu: p.cpuSpeedup(r.Benchmark)}
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
func l0Depths(p *phaseResult) string {
	depth := func(engine string) string {
		for _, l := range p.shapes[engine] {
			if l.Level == 0 {
				return fmt.Sprint(l.Sublevels)
			}
		}
		return "?"
	}
	return depth(config.EnginePebble) + "|" + depth(config.EnginePebbleRF)
}

func matrixVerdict(rs []*phaseResult) verdict {
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
	v := verdict{headline: fmt.Sprintf("%d cells, %d below %.2fx", len(cells), len(below), matrixFloor)}
	switch {
	case len(below) == 0:
		v.outcome = "never slower"
		fmt.Fprintf(&b, "matrix: never slower: every one of %d cells at least %.2fx upstream in ops/sec and CPU per operation", len(cells), matrixFloor)
	default:
		v.outcome = "loss: " + strings.Join(below, "; ")
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
	v.line = b.String()
	return v
}

// printMatrix writes the table: per cell the medians of the paired ratios
// (pebblerf over upstream; for CPU, upstream's CPU per operation over
// pebblerf's, so above 1 is better in both) with their range.
func printMatrix(b *strings.Builder, cells []matrixCell) {
	cell := func(s speed) string {
		if s.n == 0 || math.IsNaN(s.median) {
			return "n/a"
		}
		return fmt.Sprintf("%s (%s-%s)", fmtRatio(s.median), fmtRatio(s.lo), fmtRatio(s.hi))
	}
	rows := [][]string{{"workload", "shape (L0 sublevels up|rf at start)", "ops/sec", "CPU/op (up/rf)", "verdict"}}
	for _, c := range cells {
		rows = append(rows, []string{c.workload, fmt.Sprintf("%s (L0 %s)", c.shape, c.l0), cell(c.ops), cell(c.cpu), c.verdict()})
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
