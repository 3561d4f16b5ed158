// Copyright 2026 The pebblerf Authors. All rights reserved.

package scenario

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/seekstats"
)

// Thresholds of the verdicts. A ratio within noise of 1 is no win: single
// runs on a shared machine move that much (docs/benchmarks.md, "How the
// figures are taken").
const (
	fasterAbove = 1.10 // ops/sec ratio above this is a speed win
	slowerBelow = 0.90 // below this pebblerf is slower
	fewerBelow  = 0.90 // a bytes ratio below this is a saving
)

// upstreamName names the baseline in verdict lines.
func upstreamName() string {
	v := engine.UpstreamVersion()
	if i := strings.LastIndexByte(v, ' '); i >= 0 && strings.HasPrefix(v[i+1:], "v") {
		return "upstream Pebble " + v[i+1:]
	}
	return "upstream Pebble"
}

// lastPhase is the reading phase, whose results carry the verdict.
func lastPhase(rs []*PhaseResult) *PhaseResult {
	if len(rs) == 0 {
		return &PhaseResult{}
	}
	return rs[len(rs)-1]
}

// byEngine returns the results of benchmark bench on engine, in run order.
func (p *PhaseResult) byEngine(bench, engine string) []*result.Result {
	var out []*result.Result
	for _, r := range p.Results {
		if r.Benchmark == bench && r.Engine == engine {
			out = append(out, r)
		}
	}
	return out
}

// speed is a speed ratio of pebblerf over upstream (above 1: pebblerf is
// faster): the median over the paired runs of a benchmark, and their
// range.
type Speed struct {
	median float64
	// lo and hi are the smallest and largest per-run ratios, of n runs.
	lo, hi float64
	n      int
}

// opsRatio is pebblerf's ops/sec over upstream's, each run paired with the
// other engine's run of the same repeat; a NaN median without a pair.
func (p *PhaseResult) opsRatio(bench string) Speed {
	return p.pairRatios(bench, func(up, rf *result.Result) float64 {
		if up.OpsPerSec() <= 0 {
			return math.NaN()
		}
		return rf.OpsPerSec() / up.OpsPerSec()
	})
}

// cpuSpeedup is upstream's thread CPU per operation over pebblerf's (above
// 1: pebblerf spends less), paired as opsRatio; a NaN median where thread
// CPU time cannot be read.
func (p *PhaseResult) cpuSpeedup(bench string) Speed {
	return p.perOpSpeedup(bench, (*result.Result).ThreadCPUMicrosPerOp)
}

// processCPUSpeedup is cpuSpeedup of the engines' process CPU per
// operation, their flushes and compactions included.
func (p *PhaseResult) processCPUSpeedup(bench string) Speed {
	return p.perOpSpeedup(bench, (*result.Result).ProcessCPUMicrosPerOp)
}

// perOpSpeedup is upstream's perOp over pebblerf's, paired as opsRatio.
func (p *PhaseResult) perOpSpeedup(bench string, perOp func(*result.Result) float64) Speed {
	return p.pairRatios(bench, func(up, rf *result.Result) float64 {
		if r := perOp(rf); r > 0 {
			return perOp(up) / r
		}
		return math.NaN()
	})
}

func (p *PhaseResult) pairRatios(bench string, ratio func(up, rf *result.Result) float64) Speed {
	up, rf := p.byEngine(bench, config.EnginePebble), p.byEngine(bench, config.EnginePebbleRF)
	var ratios []float64
	for i := 0; i < min(len(up), len(rf)); i++ {
		if r := ratio(up[i], rf[i]); !math.IsNaN(r) {
			ratios = append(ratios, r)
		}
	}
	if len(ratios) == 0 {
		return Speed{median: math.NaN(), lo: math.NaN(), hi: math.NaN()}
	}
	return Speed{median: result.MedianRatio(ratios), lo: slices.Min(ratios), hi: slices.Max(ratios), n: len(ratios)}
}

// minPairedRuns is how many paired runs a speed verdict needs: fewer say
// nothing that holds across runs on a shared machine.
const minPairedRuns = 3

// direction judges a speed ratio by what holds across its paired runs: +1
// when the median is above fasterAbove and every run was faster, -1 when
// the median is below slowerBelow and every run was slower, 0 otherwise
// (level within noise, or too few runs). A verdict that needs every run
// to agree does not flip when one run of the next invocation is disturbed.
func (s Speed) direction() int {
	switch {
	case s.n < minPairedRuns:
		return 0
	case s.median > fasterAbove && s.lo > 1:
		return 1
	case s.median < slowerBelow && s.hi < 1:
		return -1
	}
	return 0
}

// word says what a speed ratio means, in the verdict's words, always with
// the median and the range of the paired runs, so that a reader sees what
// the judgement rests on.
func (s Speed) word() string {
	runs := fmt.Sprintf("median of %d paired runs, range %s-%s", s.n, fmtRatio(s.lo), fmtRatio(s.hi))
	switch {
	case s.n == 0:
		return "not compared"
	case s.n == 1:
		runs = "one run"
	}
	switch s.direction() {
	case 1:
		return fmt.Sprintf("%s faster (%s, every run faster)", fmtRatio(s.median), runs)
	case -1:
		return fmt.Sprintf("%s as fast (%s, every run slower)", fmtRatio(s.median), runs)
	}
	if s.n < minPairedRuns {
		return fmt.Sprintf("%s (%s: too few runs for a speed verdict)", fmtRatio(s.median), runs)
	}
	// Why a median away from 1.0 is still no verdict: the runs disagree,
	// or they agree on a difference smaller than a shared machine's noise.
	why := "some runs faster, some slower"
	if s.lo >= 1 || s.hi <= 1 {
		why = fmt.Sprintf("within the %.0f%% a shared machine moves", 100*(fasterAbove-1))
	}
	return fmt.Sprintf("level within noise at %s (%s: %s)", fmtRatio(s.median), runs, why)
}

// tickerRatio is pebblerf's sum of ticker name over the runs of bench,
// over upstream's; NaN when upstream's is 0.
func (p *PhaseResult) tickerRatio(bench, name string) float64 {
	return ratioOf(p.tickerSum(bench, config.EnginePebbleRF, name), p.tickerSum(bench, config.EnginePebble, name))
}

func (p *PhaseResult) tickerSum(bench, engine, name string) int64 {
	var sum int64
	for _, r := range p.byEngine(bench, engine) {
		for _, t := range r.Tickers {
			if t.Name == name {
				sum += t.Count
			}
		}
	}
	return sum
}

// filterBytes is an engine's point-filter bytes over every level.
func (p *PhaseResult) filterBytes(engine string) int64 {
	var sum int64
	for _, l := range p.Shapes[engine] {
		sum += l.FilterBytes
	}
	return sum
}

func ratioOf(num, den int64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return float64(num) / float64(den)
}

// fmtRatio prints a ratio as "7.1x" (two decimals below 10), or "n/a".
func fmtRatio(r float64) string {
	switch {
	case math.IsNaN(r) || math.IsInf(r, 0):
		return "n/a"
	case r >= 10:
		return fmt.Sprintf("%.1fx", r)
	default:
		return fmt.Sprintf("%.2fx", r)
	}
}

// noComparison is the verdict when one engine ran (-engine=pebble or
// pebblerf): there is no ratio to state.
func noComparison(name string) Verdict {
	return Verdict{Headline: "n/a", Outcome: "no comparison (one engine ran)",
		Line: name + ": no comparison: only one engine ran (use -engine=both)"}
}

// seekVerdict judges a seek scenario by the ops/sec of the first of benches
// that ran (seekrandom or seekrandomwhilewriting if none is named) and the
// block bytes its seeks loaded.
func seekVerdict(name, what string, benches []string, rs []*PhaseResult) Verdict {
	if len(benches) == 0 {
		benches = []string{"seekrandom", "seekrandomwhilewriting"}
	}
	p := lastPhase(rs)
	bench := benches[0]
	for _, b := range benches {
		if len(p.byEngine(b, config.EnginePebbleRF)) > 0 {
			bench = b
			break
		}
	}
	ops, bytes := p.opsRatio(bench), p.tickerRatio(bench, benchmarks.SeekBlockBytesTicker)
	if math.IsNaN(ops.median) {
		return noComparison(name)
	}
	v := Verdict{Headline: fmt.Sprintf("%s ops/sec, %s block bytes", fmtRatio(ops.median), fmtRatio(bytes))}
	fewer := fmt.Sprintf("%.0f%% fewer block bytes", 100*(1-bytes))
	switch dir := ops.direction(); {
	case dir > 0 && bytes < fewerBelow:
		v.Outcome = fmt.Sprintf("win: seeks %s, reading %s", ops.word(), fewer)
	case dir > 0:
		v.Outcome = fmt.Sprintf("win: seeks %s", ops.word())
	case dir < 0:
		v.Outcome = fmt.Sprintf("loss: seeks %s", ops.word())
	case bytes < fewerBelow:
		v.Outcome = fmt.Sprintf("no speed win: seeks %s, %s", ops.word(), fewer)
	default:
		v.Outcome = fmt.Sprintf("no win: seeks %s", ops.word())
	}
	v.Line = fmt.Sprintf("%s: pebblerf %s ops/sec (higher is better), %s block bytes (lower is better) %s (%s, same data, same run): %s",
		name, fmtRatio(ops.median), fmtRatio(bytes), what, upstreamName(), v.Outcome)
	return v
}

// absentKeysVerdict judges the point filters: their bytes (the space Ribbon
// saves) against how many absent-key lookups they ruled out, and the reads'
// speed. Speed is judged by thread CPU per read, which load from other
// processes moves less than wall time; ops/sec is stated beside it.
func absentKeysVerdict(rs []*PhaseResult) Verdict {
	const name = "absent-keys"
	build, read := rs[0], lastPhase(rs)
	ops, cpu := read.opsRatio("readrandom"), read.cpuSpeedup("readrandom")
	if math.IsNaN(ops.median) {
		return noComparison(name)
	}
	filter := ratioOf(build.filterBytes(config.EnginePebbleRF), build.filterBytes(config.EnginePebble))
	useful := read.tickerRatio("readrandom", seekstats.DBWideFilterUseful)
	reads := cpu
	if math.IsNaN(reads.median) {
		reads = ops // no thread CPU time on this platform
	}
	v := Verdict{Headline: fmt.Sprintf("%s filter bytes, %s filtered, %s ops/sec, %s CPU speed",
		fmtRatio(filter), fmtRatio(useful), fmtRatio(ops.median), fmtRatio(cpu.median))}
	// The claim is the space; the reads' speed is stated as measured.
	switch {
	case filter < fewerBelow && useful >= 0.98:
		v.Outcome = fmt.Sprintf("space win: filters %.0f%% smaller, as many absent keys ruled out; reads %s", 100*(1-filter), reads.word())
	case reads.direction() > 0:
		v.Outcome = fmt.Sprintf("win: reads %s", reads.word())
	default:
		v.Outcome = fmt.Sprintf("no win: filters %s the bytes, reads %s", fmtRatio(filter), reads.word())
	}
	v.Line = fmt.Sprintf("%s: pebblerf %s point-filter bytes (lower is better), %s absent-key lookups ruled out by filters, "+
		"%s ops/sec and %s CPU speed per read (higher is better) on Gets, half of keys never written and half of random keys of "+
		"the key space, which fillrandom's random draws cover about 63%% of, so about a third are found (%s, same data, same run): %s",
		name, fmtRatio(filter), fmtRatio(useful), fmtRatio(ops.median), fmtRatio(cpu.median), upstreamName(), v.Outcome)
	return v
}

// rocksDBSeedVerdict reports the seek speed and the prefix filters' seek
// false-positive rate, which only pebblerf's per-level statistics can
// tell.
func rocksDBSeedVerdict(rs []*PhaseResult) Verdict {
	const name = "rocksdb-seed"
	p := lastPhase(rs)
	ops, cpu := p.opsRatio("seekrandom"), p.cpuSpeedup("seekrandom")
	if math.IsNaN(ops.median) {
		return noComparison(name)
	}
	var all seekstats.LevelCounts
	for _, group := range []string{"rocksdb.non.last.level.seek.", "rocksdb.last.level.seek."} {
		get := func(suffix string) uint64 {
			return uint64(p.tickerSum("seekrandom", config.EnginePebbleRF, group+suffix))
		}
		all.Filtered += get("filtered")
		all.FilterMatch += get("filter.match")
		all.Data += get("data")
		all.UsefulNoFilter += get("data.useful.no.filter")
		all.UsefulFilterMatch += get("data.useful.filter.match")
		// The seek FPR takes the matches whose table held the key found,
		// under pebblerf's name for the groups (RocksDB has no such ticker).
		all.NeededFilterMatch += uint64(p.tickerSum("seekrandom", config.EnginePebbleRF,
			"pebblerf."+strings.TrimPrefix(group, "rocksdb.")+"data.needed.filter.match"))
	}
	fpr := "n/a (pebblerf's statistics off)"
	if f, ok := all.SeekFalsePositiveRate(); ok {
		fpr = fmt.Sprintf("%.2f%%", 100*f)
	}
	v := Verdict{Headline: fmt.Sprintf("%s ops/sec, %s CPU speed, seek FPR %s", fmtRatio(ops.median), fmtRatio(cpu.median), fpr)}
	switch ops.direction() {
	case 1:
		v.Outcome = fmt.Sprintf("win: seeks %s, with per-level seek statistics upstream lacks", ops.word())
	case -1:
		v.Outcome = fmt.Sprintf("loss: seeks %s with per-level seek statistics on", ops.word())
	default:
		v.Outcome = fmt.Sprintf("no speed win: seeks %s; gains per-level seek statistics upstream lacks", ops.word())
	}
	v.Line = fmt.Sprintf("%s: pebblerf %s ops/sec and %s CPU speed per seek (higher is better) on prefix seeks with one Next, prefix-filter seek false-positive rate %s from its per-level statistics (%s, same data, same run): %s",
		name, fmtRatio(ops.median), fmtRatio(cpu.median), fpr, upstreamName(), v.Outcome)
	return v
}

// cockroachMVCCVerdict judges the reads of cockroach-mvcc: the point
// filters' bytes against the absent keys they ruled out on mvccget, and the
// speed of each read, where MVCC scans and time-bound scans must not be
// slower than upstream's.
func cockroachMVCCVerdict(rs []*PhaseResult) Verdict {
	const name = "cockroach-mvcc"
	build, read := rs[0], lastPhase(rs)
	reads := []string{"mvccget", "mvccscan", "mvcctimebound"}
	ops := make(map[string]Speed, len(reads))
	for _, b := range reads {
		ops[b] = read.opsRatio(b)
		if math.IsNaN(ops[b].median) {
			return noComparison(name)
		}
	}
	filter := ratioOf(build.filterBytes(config.EnginePebbleRF), build.filterBytes(config.EnginePebble))
	useful := read.tickerRatio("mvccget", seekstats.DBWideFilterUseful)
	var speeds, words, slower, faster []string
	for _, b := range reads {
		speeds = append(speeds, fmt.Sprintf("%s %s", b, fmtRatio(ops[b].median)))
		words = append(words, b+" "+ops[b].word())
		switch ops[b].direction() {
		case -1:
			slower = append(slower, b)
		case 1:
			faster = append(faster, b)
		}
	}
	v := Verdict{Headline: fmt.Sprintf("%s filter bytes, %s filtered; ops/sec %s",
		fmtRatio(filter), fmtRatio(useful), strings.Join(speeds, ", "))}
	each := strings.Join(words, "; ")
	switch {
	case len(slower) > 0:
		v.Outcome = fmt.Sprintf("loss: %s slower; %s", strings.Join(slower, ", "), each)
	case filter < fewerBelow && useful >= 0.98:
		v.Outcome = fmt.Sprintf("space win: point filters %.0f%% smaller, as many absent keys ruled out; %s",
			100*(1-filter), each)
	case len(faster) > 0:
		v.Outcome = fmt.Sprintf("win: %s faster; %s", strings.Join(faster, ", "), each)
	default:
		v.Outcome = fmt.Sprintf("no win: filters %s the bytes; %s", fmtRatio(filter), each)
	}
	v.Line = fmt.Sprintf("%s: pebblerf %s point-filter bytes (lower is better), %s absent-key gets ruled out by filters, "+
		"ops/sec (higher is better) %s, on CockroachDB-style reads (%s, same options, same data, same run): %s",
		name, fmtRatio(filter), fmtRatio(useful), strings.Join(speeds, ", "), upstreamName(), v.Outcome)
	return v
}
