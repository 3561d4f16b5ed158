// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/internal/dbwide"
	"github.com/stretchr/testify/require"
)

// Every phase of every scenario, at full and at demo scale, is a command
// line that parses and validates; the first phase builds a fresh DB and
// the later ones read it.
func TestScenarioPhasesParse(t *testing.T) {
	require.NotEmpty(t, scenarios)
	for _, s := range scenarios {
		require.NotEmpty(t, s.models, s.name)
		require.NotEmpty(t, s.plugins, s.name)
		require.NotNil(t, s.verdict, s.name)
		require.GreaterOrEqual(t, len(s.phases), 2, s.name)
		for _, demo := range []bool{false, true} {
			for i := range s.phases {
				c, err := parseFlags(s.phaseArgs(i, demo, nil), io.Discard)
				require.NoError(t, err, "%s phase %d demo %t", s.name, i, demo)
				require.Equal(t, config.EngineBoth, c.Engine, s.name)
				// A phase builds a DB from empty, the first always, or
				// reads the one the phases before it built.
				builds := !c.UseExistingDB
				require.True(t, i > 0 || builds, "%s phase 0 builds", s.name)
				specs, err := dbbench.ParseBenchmarks(c.Benchmarks)
				require.NoError(t, err)
				for j, spec := range specs {
					b, _ := benchmarks.ByName(spec.Name)
					if builds && j == 0 {
						require.True(t, b.Fresh, "%s phase %d starts from an empty DB", s.name, i)
					}
					if !builds {
						require.False(t, b.Fresh, "%s phase %d reads the shape before it, yet runs %s", s.name, i, spec.Name)
					}
				}
			}
		}
	}
	for _, name := range demoScenarios {
		_, ok := scenarioByName(name)
		require.True(t, ok, name)
	}
}

// The flags given with -scenario override the scenario's own, its demo
// scale's too, in every phase.
func TestScenarioFlagsOverride(t *testing.T) {
	s, ok := scenarioByName("range-filters")
	require.True(t, ok)
	for _, demo := range []bool{false, true} {
		for i := range s.phases {
			c, err := parseFlags(s.phaseArgs(i, demo, []string{"-num=5000", "-writes=300", "-reads=77", "-range_filter_bits=8"}), io.Discard)
			require.NoError(t, err)
			require.EqualValues(t, 5000, c.Num)
			require.EqualValues(t, 300, c.Writes)
			require.EqualValues(t, 77, c.Reads)
			require.EqualValues(t, 8, c.RangeFilterBits)
		}
	}
	// Without overrides, the demo's scale replaces the full one.
	c, err := parseFlags(s.phaseArgs(1, true, nil), io.Discard)
	require.NoError(t, err)
	full, err := parseFlags(s.phaseArgs(1, false, nil), io.Discard)
	require.NoError(t, err)
	require.Less(t, c.Num, full.Num)
}

func TestScenarioArg(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		value string
		rest  []string
		ok    bool
	}{
		{[]string{"-num=5"}, "", []string{"-num=5"}, false},
		{[]string{"-scenario=range-filters", "-num=5"}, "range-filters", []string{"-num=5"}, true},
		{[]string{"-num", "5", "--scenario", "list"}, "list", []string{"-num", "5"}, true},
		{[]string{"-reads=3", "--", "-scenario=x"}, "", []string{"-reads=3", "--", "-scenario=x"}, false},
	} {
		value, rest, ok := scenarioArg(tc.args)
		require.Equal(t, tc.ok, ok, "%q", tc.args)
		require.Equal(t, tc.value, value, "%q", tc.args)
		require.Equal(t, tc.rest, rest, "%q", tc.args)
	}
}

// A bad scenario name, a refused flag or a bad override is a usage error
// reported before anything runs.
func TestScenarioUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-scenario=nope"}, `unknown scenario "nope"`},
		{[]string{"-scenario="}, "no scenario named"},
		{[]string{"-scenario=list,range-filters"}, "list cannot be combined"},
		{[]string{"-scenario=range-filters", "-benchmarks=fillseq"}, "invalid -benchmarks"},
		{[]string{"-scenario=range-filters", "-use_existing_db"}, "invalid -use_existing_db"},
		{[]string{"-scenario=absent-keys", "-missing_fraction=2"}, "invalid -missing_fraction"},
		{[]string{"-scenario=demo", "-no_such_flag"}, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		status := realMain(tc.args, &stdout, &stderr)
		require.Equal(t, exitUsage, status, "%q: %s", tc.args, stderr.String())
		require.Contains(t, stderr.String(), tc.msg, "%q", tc.args)
		require.Empty(t, stdout.String(), "%q", tc.args)
	}
}

func TestScenarioList(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, realMain([]string{"-scenario=list"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	for _, s := range scenarios {
		require.Contains(t, out, "\n"+s.name+"\n")
		require.Contains(t, out, s.models)
		require.Contains(t, out, s.plugins)
		for i := range s.phases {
			require.Contains(t, out, "pebblebench "+strings.Join(s.phaseArgs(i, false, nil), " "))
		}
	}
	require.Contains(t, out, "\ndemo\n")
}

// synthetic results: run i of bench on engine with ops operations in secs
// seconds and the given tickers.
func synthetic(bench, engine string, ops int64, secs, cpuSecs float64, tickers ...statistics.Ticker) *result.Result {
	return &result.Result{Benchmark: bench, Engine: engine, Ops: ops, Seconds: secs, ThreadSeconds: secs, CPUSeconds: cpuSecs, Tickers: tickers}
}

func TestSeekVerdict(t *testing.T) {
	bb := func(n int64) statistics.Ticker {
		return statistics.Ticker{Name: benchmarks.SeekBlockBytesTicker, Count: n}
	}
	read := func(upSecs, rfSecs []float64, upBytes, rfBytes int64) []*phaseResult {
		p := &phaseResult{}
		for i := range upSecs {
			p.results = append(p.results,
				synthetic("seekrandom", config.EnginePebble, 1000, upSecs[i], upSecs[i], bb(upBytes)),
				synthetic("seekrandom", config.EnginePebbleRF, 1000, rfSecs[i], rfSecs[i], bb(rfBytes)))
		}
		return []*phaseResult{{}, p}
	}
	verdictOf := seekVerdict("range-filters", "on bounded ranges")

	// Three pairs at 4x, 8x and 2x: the median, 4x, carries the verdict;
	// the block bytes are summed.
	v := verdictOf(read([]float64{4, 8, 2}, []float64{1, 1, 1}, 1000, 10))
	require.Equal(t, "4.00x ops/sec, 0.01x block bytes", v.headline)
	require.True(t, strings.HasPrefix(v.outcome, "win: seeks 4.00x faster (median of 3 paired runs, range 2.00x-8.00x, every run faster), reading 99% fewer"), v.outcome)
	require.True(t, strings.HasPrefix(v.line, "range-filters: pebblerf 4.00x ops/sec"), v.line)
	require.Contains(t, v.line, "upstream Pebble")

	v = verdictOf(read([]float64{1.02}, []float64{1}, 1000, 1000))
	require.Equal(t, "no win: seeks 1.02x (one run: too few runs for a speed verdict)", v.outcome)

	// A median past the threshold with one run the other way is not
	// claimed: the next invocation could read the other way. The runs'
	// range is stated.
	v = verdictOf(read([]float64{1.5, 1.5, 0.9}, []float64{1, 1, 1}, 1000, 1000))
	require.Equal(t, "1.50x ops/sec, 1.00x block bytes", v.headline)
	require.Equal(t, "no win: seeks level within noise at 1.50x (median of 3 paired runs, range 0.90x-1.50x)", v.outcome)

	v = verdictOf(read([]float64{1, 1, 1}, []float64{1.5, 1.5, 1.5}, 1000, 1000))
	require.True(t, strings.HasPrefix(v.outcome, "loss"), v.outcome)

	v = verdictOf(read([]float64{1}, []float64{1}, 1000, 100))
	require.True(t, strings.HasPrefix(v.outcome, "no speed win"), v.outcome)

	// One engine: no ratio, no claim.
	p := &phaseResult{results: []*result.Result{synthetic("seekrandom", config.EnginePebbleRF, 1000, 1, 1)}}
	v = verdictOf([]*phaseResult{{}, p})
	require.Equal(t, "n/a", v.headline)
	require.Contains(t, v.line, "no comparison")

	// seekrandomwhilewriting is judged when there is no seekrandom.
	p = &phaseResult{results: []*result.Result{
		synthetic("seekrandomwhilewriting", config.EnginePebble, 1000, 3, 3),
		synthetic("seekrandomwhilewriting", config.EnginePebbleRF, 1000, 1, 1),
	}}
	v = verdictOf([]*phaseResult{{}, p})
	require.True(t, strings.HasPrefix(v.headline, "3.00x ops/sec"), v.headline)
}

func TestAbsentKeysVerdict(t *testing.T) {
	useful := func(n int64) statistics.Ticker {
		return statistics.Ticker{Name: dbwide.FilterUseful, Count: n}
	}
	phases := func(upFilter, rfFilter int64, upSecs, rfSecs, upCPU, rfCPU float64, rfUseful int64) []*phaseResult {
		build := &phaseResult{shapes: map[string][]lsm.Level{
			config.EnginePebble:   {{Level: 0, FilterBytes: upFilter / 2}, {Level: 6, FilterBytes: upFilter - upFilter/2}},
			config.EnginePebbleRF: {{Level: 6, FilterBytes: rfFilter}},
		}}
		// Three paired runs alike: enough for a speed verdict.
		read := &phaseResult{}
		for range minPairedRuns {
			read.results = append(read.results,
				synthetic("readrandom", config.EnginePebble, 1000, upSecs, upCPU, useful(500)),
				synthetic("readrandom", config.EnginePebbleRF, 1000, rfSecs, rfCPU, useful(rfUseful)))
		}
		return []*phaseResult{build, read}
	}
	v := absentKeysVerdict(phases(1000, 700, 1, 1, 1, 1, 500))
	require.Equal(t, "0.70x filter bytes, 1.00x filtered, 1.00x ops/sec, 1.00x CPU speed", v.headline)
	require.Equal(t, "space win: filters 30% smaller, as many absent keys ruled out; reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x)", v.outcome)

	// Wall time slowed by load, thread CPU level: still level.
	v = absentKeysVerdict(phases(1000, 700, 1, 1.3, 1, 1, 500))
	require.Equal(t, "space win: filters 30% smaller, as many absent keys ruled out; reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x)", v.outcome)
	require.Contains(t, v.line, "0.77x ops/sec")

	v = absentKeysVerdict(phases(1000, 700, 1, 1.5, 1, 1.5, 500))
	require.Equal(t, "space win: filters 30% smaller, as many absent keys ruled out; reads 0.67x as fast (median of 3 paired runs, range 0.67x-0.67x, every run slower)", v.outcome)

	// Smaller filters that rule out fewer lookups are no win.
	v = absentKeysVerdict(phases(1000, 700, 1, 1, 1, 1, 400))
	require.Equal(t, "no win: filters 0.70x the bytes, reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x)", v.outcome)

	v = absentKeysVerdict(phases(1000, 1000, 1, 1, 1, 1, 500))
	require.Equal(t, "no win: filters 1.00x the bytes, reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x)", v.outcome)

	v = absentKeysVerdict(phases(1000, 1000, 2, 1, 2, 1, 500))
	require.Equal(t, "win: reads 2.00x faster (median of 3 paired runs, range 2.00x-2.00x, every run faster)", v.outcome)
}

func TestRocksDBSeedVerdict(t *testing.T) {
	tk := func(name string, n int64) statistics.Ticker {
		return statistics.Ticker{Name: "rocksdb.non.last.level.seek." + name, Count: n}
	}
	read := &phaseResult{results: []*result.Result{
		synthetic("seekrandom", config.EnginePebble, 1000, 1, 1),
		synthetic("seekrandom", config.EnginePebbleRF, 1000, 1, 1,
			// 90 filtered, 10 passed of which 5 found their key (3 of them
			// with a value read): 5 false positives out of 95 negatives.
			tk("filtered", 90), tk("filter.match", 10), tk("data", 10), tk("data.useful.filter.match", 3),
			statistics.Ticker{Name: "pebblerf.non.last.level.seek.data.needed.filter.match", Count: 5}),
	}}
	v := rocksDBSeedVerdict([]*phaseResult{{}, read})
	require.Equal(t, "1.00x ops/sec, 1.00x CPU speed, seek FPR 5.26%", v.headline)
	require.True(t, strings.HasPrefix(v.outcome, "no speed win"), v.outcome)

	read.results[1].Tickers = nil
	v = rocksDBSeedVerdict([]*phaseResult{{}, read})
	require.Contains(t, v.headline, "statistics off")
}

func TestSpeedDirection(t *testing.T) {
	for _, tc := range []struct {
		s    speed
		dir  int
		word string
	}{
		{speed{2, 1.5, 3, 3}, 1, "2.00x faster (median of 3 paired runs, range 1.50x-3.00x, every run faster)"},
		// One run slower than upstream: not a win that holds across runs.
		{speed{2, 0.95, 3, 3}, 0, "level within noise at 2.00x (median of 3 paired runs, range 0.95x-3.00x)"},
		{speed{2, 2, 2, 1}, 0, "2.00x (one run: too few runs for a speed verdict)"},
		{speed{1.05, 1.05, 1.05, 2}, 0, "1.05x (median of 2 paired runs, range 1.05x-1.05x: too few runs for a speed verdict)"},
		{speed{1.05, 0.8, 1.3, 3}, 0, "level within noise at 1.05x (median of 3 paired runs, range 0.80x-1.30x)"},
		{speed{0.7, 0.6, 0.8, 3}, -1, "0.70x as fast (median of 3 paired runs, range 0.60x-0.80x, every run slower)"},
		{speed{0.7, 0.7, 0.7, 1}, 0, "0.70x (one run: too few runs for a speed verdict)"},
		{speed{0.7, 0.6, 1.2, 3}, 0, "level within noise at 0.70x (median of 3 paired runs, range 0.60x-1.20x)"},
		{speed{math.NaN(), math.NaN(), math.NaN(), 0}, 0, "not compared"},
	} {
		require.Equal(t, tc.dir, tc.s.direction(), "%+v", tc.s)
		require.Equal(t, tc.word, tc.s.word(), "%+v", tc.s)
	}
}

func TestVerdictTable(t *testing.T) {
	var b bytes.Buffer
	printVerdictTable(&b, []verdict{
		{scenario: "range-filters", headline: "7.00x ops/sec", outcome: "win"},
		{scenario: "absent-keys", headline: "0.70x filter bytes", outcome: "no win"},
	})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 4)
	require.True(t, strings.HasPrefix(lines[0], "scenario"))
	require.Regexp(t, `^range-filters +7\.00x ops/sec +win$`, lines[2])
	require.Regexp(t, `^absent-keys +0\.70x filter bytes +no win$`, lines[3])
	require.True(t, math.IsNaN(ratioOf(1, 0)))
}

// A scenario runs end to end at a tiny scale in the directory -db names,
// and ends with its verdict line.
func TestScenarioEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two small DBs")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	status := realMain([]string{"-scenario=range-filters", "-db=" + dir,
		"-num=40000", "-writes=2000", "-reads=300", "-cache_size=1048576"}, &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	out := stdout.String()
	require.Contains(t, out, "=== scenario range-filters, phase 2/2 (read)")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(last, "range-filters: pebblerf "), last)
	require.Contains(t, last, "block bytes")
	// Under -json, stdout holds only JSON records, the verdict last.
	var jsonOut bytes.Buffer
	status = realMain([]string{"-scenario=range-filters", "-db=" + t.TempDir(), "-json",
		"-num=40000", "-writes=2000", "-reads=300", "-cache_size=1048576"}, &jsonOut, io.Discard)
	require.Equal(t, exitOK, status)
	records := strings.Split(strings.TrimSpace(jsonOut.String()), "\n")
	var verdictRecord map[string]string
	for _, r := range records {
		require.True(t, strings.HasPrefix(r, "{"), r)
	}
	require.NoError(t, json.Unmarshal([]byte(records[len(records)-1]), &verdictRecord))
	require.Equal(t, "verdict", verdictRecord["record"])
	require.Equal(t, "range-filters", verdictRecord["scenario"])
	require.True(t, strings.HasPrefix(verdictRecord["verdict"], "range-filters: pebblerf "), verdictRecord["verdict"])

	// Both engines' DBs were left in -db for a later look.
	for _, e := range []string{config.EnginePebble, config.EnginePebbleRF} {
		_, err := os.Stat(filepath.Join(dir, e))
		require.NoError(t, err)
	}
}

// The README's table of scenarios names every scenario -scenario=list
// prints, and no other, in the same order.
func TestReadmeScenarioTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	section := string(readme)
	start := strings.Index(section, "\n## Scenarios\n")
	require.NotEqual(t, -1, start, "README.md has no Scenarios section")
	section = section[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	var inReadme []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			inReadme = append(inReadme, name)
		}
	}
	var listed []string
	for _, s := range scenarios {
		listed = append(listed, s.name)
	}
	listed = append(listed, "demo")
	require.Equal(t, listed, inReadme)
}

// The matrix's verdicts: a median below the floor is a loss, told apart by
// whether every paired run was slower; a win needs every run faster.
func TestMatrixCellVerdict(t *testing.T) {
	sp := func(median, lo, hi float64) speed { return speed{median: median, lo: lo, hi: hi, n: 5} }
	for _, tc := range []struct {
		ops, cpu speed
		want     string
	}{
		{sp(1.00, 0.90, 1.10), sp(1.00, 0.90, 1.10), "not slower"},
		{sp(0.96, 0.90, 1.02), sp(0.99, 0.95, 1.02), "not slower"},
		{sp(0.93, 0.85, 1.05), sp(0.99, 0.95, 1.02), "below 0.95x, runs both sides of 1"},
		{sp(0.99, 0.95, 1.02), sp(0.90, 0.85, 0.97), "below 0.95x, every run slower"},
		{sp(1.40, 1.20, 1.60), sp(1.40, 1.20, 1.60), "faster"},
		{sp(1.40, 0.90, 1.60), sp(1.40, 1.20, 1.60), "not slower"},
	} {
		require.Equal(t, tc.want, matrixCell{ops: tc.ops, cpu: tc.cpu}.verdict(), "%+v", tc)
	}
}

// The matrix end to end, at a tiny scale: one row per workload and shape,
// the YCSB workloads and db_bench's, and a verdict computed from them.
func TestMatrixEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four small DBs per engine")
	}
	var stdout, stderr bytes.Buffer
	status := realMain([]string{"-scenario=matrix", "-num=4000", "-ycsb_record_count=1000", "-reads=300",
		"-writes=-1", "-cache_size=1048576"}, &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	out := stdout.String()
	table := out[strings.Index(out, "\nworkload "):]
	for _, row := range []string{"fillrandom ", "readrandom ", "seekrandom ", "readseq ", "seekrandom, bounded ",
		"overwrite ", "ycsb_load ", "ycsb_a ", "ycsb_b ", "ycsb_c ", "ycsb_d ", "ycsb_e ", "ycsb_f "} {
		require.Contains(t, table, "\n"+row, row)
	}
	require.Contains(t, table, "l0-burst (L0 ")
	require.NotContains(t, table, "\ncompact ", "a build's compaction is not a workload")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.True(t, strings.HasPrefix(lines[len(lines)-1], "matrix: "), lines[len(lines)-1])
	// A loss points at the control run; a clean matrix does not.
	const control = "the same command with -pebblerf_recommended=false"
	if strings.Contains(out, "matrix: loss: ") {
		require.Contains(t, lines[len(lines)-1], control)
	} else {
		require.NotContains(t, out, control)
	}
}
