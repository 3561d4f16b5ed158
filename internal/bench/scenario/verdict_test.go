// Copyright 2026 The pebblerf Authors. All rights reserved.

package scenario

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/internal/readctx"
	"github.com/pebblerf/pebble/objstore"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// synthetic results: run i of bench on engine with ops operations in secs
// seconds and the given tickers.
func synthetic(bench, engine string, ops int64, secs, cpuSecs float64, tickers ...statistics.Ticker) *result.Result {
	return &result.Result{Benchmark: bench, Engine: engine, Ops: ops, Seconds: secs, ThreadSeconds: secs, ThreadCPUSeconds: cpuSecs, Tickers: tickers}
}

func TestSeekVerdict(t *testing.T) {
	bb := func(n int64) statistics.Ticker {
		return statistics.Ticker{Name: benchmarks.SeekBlockBytesTicker, Count: n}
	}
	read := func(upSecs, rfSecs []float64, upBytes, rfBytes int64) []*PhaseResult {
		p := &PhaseResult{}
		for i := range upSecs {
			p.Results = append(p.Results,
				synthetic("seekrandom", "pebble", 1000, upSecs[i], upSecs[i], bb(upBytes)),
				synthetic("seekrandom", "pebblerf", 1000, rfSecs[i], rfSecs[i], bb(rfBytes)))
		}
		return []*PhaseResult{{}, p}
	}
	verdictOf := func(rs []*PhaseResult) Verdict { return seekVerdict("range-filters", "on bounded ranges", nil, rs) }

	// Three pairs at 4x, 8x and 2x: the median, 4x, carries the verdict;
	// the block bytes are summed.
	v := verdictOf(read([]float64{4, 8, 2}, []float64{1, 1, 1}, 1000, 10))
	require.Equal(t, "4.00x ops/sec, 0.01x block bytes", v.Headline)
	require.True(t, strings.HasPrefix(v.Outcome, "win: seeks 4.00x faster (median of 3 paired runs, range 2.00x-8.00x, every run faster), reading 99% fewer"), v.Outcome)
	require.True(t, strings.HasPrefix(v.Line, "range-filters: pebblerf 4.00x ops/sec"), v.Line)
	require.Contains(t, v.Line, "upstream Pebble")

	v = verdictOf(read([]float64{1.02}, []float64{1}, 1000, 1000))
	require.Equal(t, "no win: seeks 1.02x (one run: too few runs for a speed verdict)", v.Outcome)

	// A median past the threshold with one run the other way is not
	// claimed: the next invocation could read the other way. The runs'
	// range is stated.
	v = verdictOf(read([]float64{1.5, 1.5, 0.9}, []float64{1, 1, 1}, 1000, 1000))
	require.Equal(t, "1.50x ops/sec, 1.00x block bytes", v.Headline)
	require.Equal(t, "no win: seeks level within noise at 1.50x (median of 3 paired runs, range 0.90x-1.50x: some runs faster, some slower)", v.Outcome)

	v = verdictOf(read([]float64{1, 1, 1}, []float64{1.5, 1.5, 1.5}, 1000, 1000))
	require.True(t, strings.HasPrefix(v.Outcome, "loss"), v.Outcome)

	v = verdictOf(read([]float64{1}, []float64{1}, 1000, 100))
	require.True(t, strings.HasPrefix(v.Outcome, "no speed win"), v.Outcome)

	// One engine: no ratio, no claim.
	p := &PhaseResult{Results: []*result.Result{synthetic("seekrandom", "pebblerf", 1000, 1, 1)}}
	v = verdictOf([]*PhaseResult{{}, p})
	require.Equal(t, "n/a", v.Headline)
	require.Contains(t, v.Line, "no comparison")

	// seekrandomwhilewriting is judged when there is no seekrandom.
	p = &PhaseResult{Results: []*result.Result{
		synthetic("seekrandomwhilewriting", "pebble", 1000, 3, 3),
		synthetic("seekrandomwhilewriting", "pebblerf", 1000, 1, 1),
	}}
	v = verdictOf([]*PhaseResult{{}, p})
	require.True(t, strings.HasPrefix(v.Headline, "3.00x ops/sec"), v.Headline)
}

func TestAbsentKeysVerdict(t *testing.T) {
	useful := func(n int64) statistics.Ticker {
		return statistics.Ticker{Name: seekstats.DBWideFilterUseful, Count: n}
	}
	phases := func(upFilter, rfFilter int64, upSecs, rfSecs, upCPU, rfCPU float64, rfUseful int64) []*PhaseResult {
		build := &PhaseResult{Shapes: map[string][]lsm.Level{
			"pebble":   {{Level: 0, FilterBytes: upFilter / 2}, {Level: 6, FilterBytes: upFilter - upFilter/2}},
			"pebblerf": {{Level: 6, FilterBytes: rfFilter}},
		}}
		// Three paired runs alike: enough for a speed verdict.
		read := &PhaseResult{}
		for range minPairedRuns {
			read.Results = append(read.Results,
				synthetic("readrandom", "pebble", 1000, upSecs, upCPU, useful(500)),
				synthetic("readrandom", "pebblerf", 1000, rfSecs, rfCPU, useful(rfUseful)))
		}
		return []*PhaseResult{build, read}
	}
	v := absentKeysVerdict(phases(1000, 700, 1, 1, 1, 1, 500))
	require.Equal(t, "0.70x filter bytes, 1.00x filtered, 1.00x ops/sec, 1.00x CPU speed", v.Headline)
	require.Equal(t, "space win: filters 30% smaller, as many absent keys ruled out; reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x: within the 10% a shared machine moves)", v.Outcome)

	// Wall time slowed by load, thread CPU level: still level.
	v = absentKeysVerdict(phases(1000, 700, 1, 1.3, 1, 1, 500))
	require.Equal(t, "space win: filters 30% smaller, as many absent keys ruled out; reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x: within the 10% a shared machine moves)", v.Outcome)
	require.Contains(t, v.Line, "0.77x ops/sec")

	v = absentKeysVerdict(phases(1000, 700, 1, 1.5, 1, 1.5, 500))
	require.Equal(t, "space win: filters 30% smaller, as many absent keys ruled out; reads 0.67x as fast (median of 3 paired runs, range 0.67x-0.67x, every run slower)", v.Outcome)

	// Smaller filters that rule out fewer lookups are no win.
	v = absentKeysVerdict(phases(1000, 700, 1, 1, 1, 1, 400))
	require.Equal(t, "no win: filters 0.70x the bytes, reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x: within the 10% a shared machine moves)", v.Outcome)

	v = absentKeysVerdict(phases(1000, 1000, 1, 1, 1, 1, 500))
	require.Equal(t, "no win: filters 1.00x the bytes, reads level within noise at 1.00x (median of 3 paired runs, range 1.00x-1.00x: within the 10% a shared machine moves)", v.Outcome)

	v = absentKeysVerdict(phases(1000, 1000, 2, 1, 2, 1, 500))
	require.Equal(t, "win: reads 2.00x faster (median of 3 paired runs, range 2.00x-2.00x, every run faster)", v.Outcome)
}

func TestRocksDBSeedVerdict(t *testing.T) {
	tk := func(name string, n int64) statistics.Ticker {
		return statistics.Ticker{Name: "rocksdb.non.last.level.seek." + name, Count: n}
	}
	read := &PhaseResult{Results: []*result.Result{
		synthetic("seekrandom", "pebble", 1000, 1, 1),
		synthetic("seekrandom", "pebblerf", 1000, 1, 1,
			// 90 filtered, 10 passed of which 5 found their key (3 of them
			// with a value read): 5 false positives out of 95 negatives.
			tk("filtered", 90), tk("filter.match", 10), tk("data", 10), tk("data.useful.filter.match", 3),
			statistics.Ticker{Name: "pebblerf.non.last.level.seek.data.needed.filter.match", Count: 5}),
	}}
	v := rocksDBSeedVerdict([]*PhaseResult{{}, read})
	require.Equal(t, "1.00x ops/sec, 1.00x CPU speed, seek FPR 5.26%", v.Headline)
	require.True(t, strings.HasPrefix(v.Outcome, "no speed win"), v.Outcome)

	read.Results[1].Tickers = nil
	v = rocksDBSeedVerdict([]*PhaseResult{{}, read})
	require.Contains(t, v.Headline, "statistics off")
}

func TestSpeedDirection(t *testing.T) {
	for _, tc := range []struct {
		s    Speed
		dir  int
		word string
	}{
		{Speed{2, 1.5, 3, 3}, 1, "2.00x faster (median of 3 paired runs, range 1.50x-3.00x, every run faster)"},
		// One run slower than upstream: not a win that holds across runs.
		{Speed{2, 0.95, 3, 3}, 0, "level within noise at 2.00x (median of 3 paired runs, range 0.95x-3.00x: some runs faster, some slower)"},
		{Speed{2, 2, 2, 1}, 0, "2.00x (one run: too few runs for a speed verdict)"},
		{Speed{1.05, 1.05, 1.05, 2}, 0, "1.05x (median of 2 paired runs, range 1.05x-1.05x: too few runs for a speed verdict)"},
		{Speed{1.05, 0.8, 1.3, 3}, 0, "level within noise at 1.05x (median of 3 paired runs, range 0.80x-1.30x: some runs faster, some slower)"},
		{Speed{0.7, 0.6, 0.8, 3}, -1, "0.70x as fast (median of 3 paired runs, range 0.60x-0.80x, every run slower)"},
		{Speed{0.7, 0.7, 0.7, 1}, 0, "0.70x (one run: too few runs for a speed verdict)"},
		{Speed{0.7, 0.6, 1.2, 3}, 0, "level within noise at 0.70x (median of 3 paired runs, range 0.60x-1.20x: some runs faster, some slower)"},
		// Every run faster, by less than the noise.
		{Speed{1.05, 1.02, 1.08, 3}, 0, "level within noise at 1.05x (median of 3 paired runs, range 1.02x-1.08x: within the 10% a shared machine moves)"},
		{Speed{math.NaN(), math.NaN(), math.NaN(), 0}, 0, "not compared"},
	} {
		require.Equal(t, tc.dir, tc.s.direction(), "%+v", tc.s)
		require.Equal(t, tc.word, tc.s.word(), "%+v", tc.s)
	}
}

func TestVerdictTable(t *testing.T) {
	var b bytes.Buffer
	PrintVerdictTable(&b, []Verdict{
		{Scenario: "range-filters", Headline: "7.00x ops/sec", Outcome: "win"},
		{Scenario: "absent-keys", Headline: "0.70x filter bytes", Outcome: "no win"},
	})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 4)
	require.True(t, strings.HasPrefix(lines[0], "scenario"))
	require.Regexp(t, `^range-filters +7\.00x ops/sec +win$`, lines[2])
	require.Regexp(t, `^absent-keys +0\.70x filter bytes +no win$`, lines[3])
	require.True(t, math.IsNaN(ratioOf(1, 0)))
}

// The matrix's verdicts: a median below the floor is a loss, told apart by
// whether every paired run was slower; a win needs every run faster.
func TestMatrixCellVerdict(t *testing.T) {
	sp := func(median, lo, hi float64) Speed { return Speed{median: median, lo: lo, hi: hi, n: 5} }
	for _, tc := range []struct {
		ops, cpu Speed
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

// TestRemoteVerdict checks the verdict's figures and its outcomes on
// synthetic runs.
func TestRemoteVerdict(t *testing.T) {
	run := func(engine string, gets, other int64, latency time.Duration) *result.Result {
		r := synthetic("readrandom", engine, 1000, 1, 1)
		r.Remote = &result.Remote{Snapshot: objstore.Snapshot{Data: objstore.Counts{Requests: gets, Bytes: gets << 10},
			Stat: objstore.Counts{Requests: other}, Prices: objstore.DefaultPrices}}
		r.Hist = hist.New()
		for i := 0; i < 100; i++ {
			r.Hist.Record(latency.Nanoseconds())
		}
		return r
	}
	verdictOf := func(rs []*PhaseResult) Verdict {
		return remoteVerdict("remote-absent-keys", "on Gets", []RemoteRead{{1, "readrandom", "gets", false}}, rs)
	}
	phase := func(rs ...*result.Result) []*PhaseResult {
		return []*PhaseResult{{}, {Results: rs, Config: &config.Config{Remote: "sim://?latency=20ms&jitter=5ms&seed=1"}}}
	}

	v := verdictOf(phase(run("pebble", 1000, 0, 20*time.Millisecond), run("pebblerf", 40, 0, 100*time.Microsecond)))
	// The headline names the store, whose latency makes the p50s.
	require.Equal(t, "0.04x remote GETs, 0.04x bytes, 0.005x p50, 0.04x cost/Mop (simulated store, 20ms+0-5ms per request)", v.Headline)
	require.Equal(t, "win: 96% fewer remote GETs, p50 200.0x lower, cost 0.04x", v.Outcome)
	require.Contains(t, v.Line, "gets: remote GETs 40 vs 1000 (0.04x), bytes 40.0KB vs 1000.0KB (0.04x), p50 100.0us vs 20.00ms (0.005x)")
	require.Contains(t, v.Line, "USD/Mop 0.016 vs 0.400 (0.04x)")

	// Fewer GETs but more HEADs in all: more requests is a loss.
	v = verdictOf(phase(run("pebble", 1000, 0, time.Millisecond), run("pebblerf", 500, 700, time.Millisecond)))
	require.Equal(t, "loss: more remote requests or bytes than upstream: gets 1.20x the requests", v.Outcome)

	// Fewer GETs that move more bytes: a loss too.
	bigger := run("pebblerf", 500, 0, time.Millisecond)
	bigger.Remote.Data.Bytes = 2000 << 10
	v = verdictOf(phase(run("pebble", 1000, 0, time.Millisecond), bigger))
	require.Equal(t, "0.50x remote GETs, 2.00x bytes, 1.00x p50, 0.50x cost/Mop (simulated store, 20ms+0-5ms per request)", v.Headline)
	require.Equal(t, "loss: more remote requests or bytes than upstream: gets 2.00x the bytes", v.Outcome)

	v = verdictOf(phase(run("pebble", 1000, 0, time.Millisecond), run("pebblerf", 980, 0, time.Millisecond)))
	require.Equal(t, "no win: 0.98x the remote GETs, p50 1.00x", v.Outcome)

	// A timed read beside a writer is judged by its own GETs: here pebblerf
	// ran twice the operations with half the own GETs, while the writer's
	// GETs were the same.
	timed := func(engine string, ops, own int64) *result.Result {
		r := run(engine, 600+own, 0, time.Millisecond)
		r.Ops = ops
		r.Remote.Reads = readctx.Counts{Requests: own, Bytes: own << 10}
		return r
	}
	ownVerdict := func(rs []*PhaseResult) Verdict {
		return remoteVerdict("remote-locktable", "on checks", []RemoteRead{{1, "readrandom", "checks", true}}, rs)
	}
	v = ownVerdict(phase(timed("pebble", 1000, 400), timed("pebblerf", 2000, 200)))
	require.Equal(t, "0.50x GETs of the reads themselves, 0.50x bytes, 1.00x p50, 0.40x cost/Mop (simulated store, 20ms+0-5ms per request)", v.Headline)
	require.Contains(t, v.Line, "remote GETs 800 vs 1000 (0.80x)")
	require.Contains(t, v.Line, "operations 2000 vs 1000 (2.00x), the reads' own GETs 200 vs 400 (0.50x) and bytes 200.0KB vs 400.0KB (0.50x)")
	require.Equal(t, "GET win: 50% fewer GETs of the reads themselves, p50 1.00x", v.Outcome)
	v = ownVerdict(phase(timed("pebble", 1000, 400), timed("pebblerf", 2000, 390)))
	require.Equal(t, "no win: 0.97x the GETs of the reads themselves, p50 1.00x", v.Outcome)
	// Fewer GETs of its own, but a run whose compactions moved more bytes
	// and uploaded more: the verdict says why its cost went the other way.
	busy := timed("pebblerf", 1000, 100)
	busy.Remote.Data.Bytes = 4000 << 10
	busy.Remote.Write = objstore.Counts{Requests: 90}
	quiet := timed("pebble", 1000, 400)
	quiet.Remote.Write = objstore.Counts{Requests: 60}
	v = ownVerdict(phase(quiet, busy))
	require.Equal(t, "GET win: 75% fewer GETs of the reads themselves, p50 1.00x (the run's requests in all, "+
		"its flushes' and compactions' included, cost 1.04x and moved 4.00x the bytes: the engines' background "+
		"work differs over a timed run, here 90 uploads against 60)", v.Outcome)

	for url, want := range map[string]string{
		"sim://?latency=2ms":               "simulated store, 2ms per request",
		"sim+file:///tmp/x":                "simulated store, no latency",
		"s3://b?endpoint=127.0.0.1:8333":   "S3 store at 127.0.0.1:8333",
		"mem://":                           "mem store",
		"sim://?latency_file=/tmp/lat.txt": "simulated store, latencies from lat.txt",
	} {
		require.Equal(t, want, describeStore(url))
	}

	// Without -remote there is nothing to judge.
	noRemote := func(engine string) *result.Result { return synthetic("readrandom", engine, 1000, 1, 1) }
	v = verdictOf(phase(noRemote("pebble"), noRemote("pebblerf")))
	require.Equal(t, "no remote figures (run with -remote)", v.Outcome)
	v = verdictOf(phase(run("pebblerf", 1, 0, time.Millisecond)))
	require.Contains(t, v.Line, "no comparison")
}

// TestTableJudges: every scenario has a name of its own, models and plug-ins
// to list, at least two phases, and a verdict chosen by a name that judges.
func TestTableJudges(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		require.False(t, seen[s.Name], s.Name)
		seen[s.Name] = true
		require.NotEmpty(t, s.Models, s.Name)
		require.NotEmpty(t, s.Plugins, s.Name)
		require.GreaterOrEqual(t, len(s.Phases), 2, s.Name)
		require.Contains(t, judges, s.Verdict.By, s.Name)
		for _, r := range s.Verdict.Reads {
			require.Less(t, r.phase, len(s.Phases), s.Name)
		}
		// One engine ran: every verdict says there is nothing to compare.
		v := s.Judge([]*PhaseResult{{}, {}})
		require.Equal(t, s.Name, v.Scenario)
		require.Contains(t, v.Line, s.Name+": ")
	}
	for _, name := range DemoScenarios {
		_, ok := ByName(name)
		require.True(t, ok, name)
	}
}
