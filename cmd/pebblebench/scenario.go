// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

// Scenarios: named workloads that show, in one command each, where pebblerf
// differs from upstream Pebble.
//
// A scenario is data: a few phases, each a list of ordinary command-line
// flags, run one after the other on the same DB directory (the first builds
// the LSM shape, the later ones reopen it with -use_existing_db and read),
// and a verdict function that turns what the phases measured into one line.
// Each phase's flags go through parseFlags and the driver exactly as a
// command line does, so a scenario is never more than a command line a user
// could type, and flags given after -scenario override the scenario's own
// (they are appended to every phase's flags, and the flag package keeps the
// last value). The verdict is computed from the measured figures, never
// written in: a scenario that shows no win says so.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/result"
)

// scenario is one named workload.
type scenario struct {
	name string
	// short is the one line -help gives it.
	short string
	// models says what workload the scenario stands for; plugins which of
	// pebblerf's plug-ins it turns on. Both are printed by -scenario=list.
	models, plugins string
	// common flags go to every phase: the data and the LSM shape, which
	// every phase must agree on.
	common []string
	phases []phase
	// demo flags shrink the scenario to a few seconds for make demo; they
	// go to every phase after the phase's own flags.
	demo []string
	// verdict reads the phases' results.
	verdict func(rs []*phaseResult) verdict
}

// phase is one pebblebench invocation within a scenario.
type phase struct {
	name string
	args []string
}

// phaseResult is what one phase measured.
type phaseResult struct {
	// name is the phase's (phase.name).
	name    string
	cfg     *config.Config
	results []*result.Result
	// shapes is each engine's LSM at the end of the phase.
	shapes map[string][]lsm.Level
}

// verdict is a scenario's conclusion. headline is the ratios that carry
// it, outcome "win", "no win" or "loss" with the reason, and line the
// sentence printed at the end of the scenario.
type verdict struct {
	scenario, headline, outcome, line string
}

// buildRuns is the benchmark list that makes n overlapping sorted runs of
// random keys: a fill, then n-1 overwrites, each flushed.
func buildRuns(n int) string {
	b := "fillrandom,flush"
	for i := 1; i < n; i++ {
		b += ",overwrite,flush"
	}
	return b
}

// scenarios lists the scenarios in the order -scenario=list prints them.
var scenarios = []*scenario{
	{
		name:  "range-filters",
		short: "range filters on bounded seeks over 8 overlapping runs, 90% of the ranges empty",
		models: "many overlapping sorted runs (8 flushes of random keys over a sparse key space, no compactions) " +
			"read by short bounded seeks (8 key positions), 90% of them over ranges that hold no key",
		plugins: "range filters (16 bits/key) on pebblerf; its statistics off, so the ratio measures the filters alone",
		common: []string{"-engine=both", "-seed=7", "-num=8000000", "-writes=100000", "-compaction_style=3",
			"-range_filter_bits=16", "-pebblerf_statistics=false"},
		phases: []phase{
			{"build", []string{"-benchmarks=" + buildRuns(8) + ",levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandom[X3]", "-reads=20000",
				"-seek_upper_bound_len=8", "-empty_range_fraction=0.9"}},
		},
		demo:    []string{"-num=2000000", "-writes=25000", "-reads=10000"},
		verdict: seekVerdict("range-filters", "on bounded ranges, 90% empty"),
	},
	{
		name:  "staggered-runs",
		short: "the query builder on short seeks over about 40 staggered runs",
		models: "time-ordered writes (fillseq, each new key followed by an overwrite of one of the last few thousand) " +
			"flushed into about 40 staggered L0 sorted runs with no compactions, read by short seeks (1 Next) on a reused iterator",
		plugins: "query builder (auto plan: stepped bounds defer the runs that start later) on pebblerf, with the explain of one sample query; its statistics off",
		common: []string{"-engine=both", "-seed=1", "-num=800000", "-fillseq_overwrite_window=5000", "-compaction_style=3",
			"-write_buffer_size=6291456", "-cache_size=67108864", "-pebblerf_statistics=false"},
		phases: []phase{
			{"build", []string{"-benchmarks=fillseq,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandom[X3-W1]", "-reads=30000", "-seek_nexts=1",
				"-use_tailing_iterator", "-use_query_builder", "-explain"}},
		},
		demo:    []string{"-num=300000", "-fillseq_overwrite_window=2000", "-write_buffer_size=4194304"},
		verdict: seekVerdict("staggered-runs", "on short seeks over staggered runs"),
	},
	{
		name:  "absent-keys",
		short: "Ribbon filters' space on Gets, half of them absent",
		models: "point reads (Get) of which half look for absent keys, over a DB compacted into L6: " +
			"the case table filters are for",
		plugins: "pebblerf's point filters, Bloom on L0 and Ribbon from L1 down (the same false-positive rate in less space), " +
			"against upstream's Bloom of the same bits; L6 filters on both engines; pebblerf's statistics off",
		common: []string{"-engine=both", "-seed=3", "-num=1000000", "-bloom_bits=10", "-use_ribbon_filter",
			"-use_l6_filters", "-write_buffer_size=4194304", "-pebblerf_statistics=false"},
		phases: []phase{
			{"build", []string{"-benchmarks=fillrandom,compact,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=readrandom[X3]", "-reads=300000", "-missing_fraction=0.5"}},
		},
		demo:    []string{"-num=200000", "-reads=100000"},
		verdict: absentKeysVerdict,
	},
	{
		name:  "rocksdb-seed",
		short: "RocksDB's seek-statistics test plan, with the per-level table",
		models: "the test plan of RocksDB's seek and prefix-filter statistics change at this machine's scale: " +
			"fillrandom with no compaction (FIFO there), then prefix seeks with one Next over 8-byte prefixes and 8-bit filters",
		plugins: "per-level seek statistics (-pebblerf_statistics), printed per level with -statistics; pebblerf's Bloom filter on prefixes",
		common: []string{"-engine=both", "-seed=43", "-num=1000000", "-bloom_bits=8", "-compaction_style=3",
			"-prefix_size=8", "-write_buffer_size=30000000", "-pebblerf_statistics"},
		phases: []phase{
			{"build", []string{"-benchmarks=fillrandom,flush,levelstats", "-disable_wal"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandom", "-seek_nexts=1", "-reads=200000", "-statistics"}},
		},
		demo:    []string{"-num=200000", "-reads=50000"},
		verdict: rocksDBSeedVerdict,
	},
	{
		name:  "speedb-seed",
		short: "Speedb's query-builder test plan: seeks while writing, with an explain",
		models: "the test plan of Speedb's range-query builder at this machine's scale: fillseq on the many-sorted-runs shape " +
			"(universal compaction there), then seeks while a writer adds random keys, targets drawn from 10x the filled range",
		plugins: "query builder (auto plan) on pebblerf, with the explain of one sample query; the many-runs shape on both engines",
		common: []string{"-engine=both", "-seed=4", "-num=200000", "-compaction_style=1", "-write_buffer_size=4194304",
			"-cache_size=33554432", "-value_size=200"},
		phases: []phase{
			{"build", []string{"-benchmarks=fillseq"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandomwhilewriting", "-duration=20", "-threads=2",
				"-seek_target_range_multiplier=10", "-benchmark_write_rate_limit=4000000", "-use_query_builder", "-explain"}},
		},
		demo:    []string{"-duration=5"},
		verdict: seekVerdict("speedb-seed", "on seeks while writing, targets from 10x the range"),
	},
	{
		name:  "cockroach-locktable",
		short: "range filters on CockroachDB's lock-table checks over 10 L0 sublevels",
		models: "a CockroachDB-style store after a write burst: MVCC keys with CockroachDB's Pebble options, 10 rounds of versions " +
			"with a few lock-table keys each, every round a flushed L0 sublevel (no compactions), a cache smaller than the data; " +
			"read by the lock-table span checks that precede KV reads, almost all of them empty",
		plugins: "range filters (16 bits/key) on pebblerf; its statistics off, so the ratio measures the filters alone",
		common:  cockroachCommon("-range_filter_bits=16", "-pebblerf_statistics=false"),
		phases: []phase{
			{"build", []string{"-benchmarks=fillmvcc,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=locktablescan[X3]", "-reads=20000"}},
		},
		demo:    []string{"-num=50000", "-reads=5000"},
		verdict: seekVerdict("cockroach-locktable", "on lock-table span checks, almost all empty", "locktablescan"),
	},
	{
		name:  "cockroach-mvcc",
		short: "CockroachDB's point gets (half absent), MVCC scans and time-bound scans with every plug-in",
		models: "the same store with its 2 oldest rounds compacted into L6 below 8 L0 sublevels, read by point gets " +
			"(SeekPrefixGE at a read timestamp, half the keys absent), short MVCC scans and time-bound scans of one round",
		plugins: "pebblerf's point filters (Bloom on L0, Ribbon below, Bloom(10)'s false-positive rate), range filters (16 bits/key) " +
			"and statistics, against upstream's Bloom(10) on every level; L6 filters on both",
		common: cockroachCommon("-range_filter_bits=16", "-use_ribbon_filter", "-bloom_before_level=0", "-mvcc_compact_rounds=2"),
		phases: []phase{
			{"build", []string{"-benchmarks=fillmvcc,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=mvccget[X3],mvccscan[X3],mvcctimebound[X3]", "-reads=20000",
				"-missing_fraction=0.5", "-statistics"}},
		},
		demo:    []string{"-num=50000", "-reads=5000"},
		verdict: cockroachMVCCVerdict,
	},
}

func init() {
	scenarioHelp = func() []string {
		var lines []string
		for _, s := range scenarios {
			lines = append(lines, fmt.Sprintf("%-16s %s", s.name, s.short))
		}
		return append(lines,
			fmt.Sprintf("%-16s %s at a small scale, then one table (make demo)", "demo", strings.Join(demoScenarios, ", ")),
			fmt.Sprintf("%-16s what each models, its plug-ins and its phases' command lines", "list"))
	}
}

// demoScenarios are the scenarios make demo runs, at their demo scale; the
// last keeps its tables on a simulated object store.
var demoScenarios = []string{"range-filters", "staggered-runs", "absent-keys", "remote-range-filters"}

func scenarioByName(name string) (*scenario, bool) {
	for _, s := range scenarios {
		if s.name == name {
			return s, true
		}
	}
	return nil, false
}

func scenarioNames() []string {
	names := make([]string, 0, len(scenarios)+2)
	for _, s := range scenarios {
		names = append(names, s.name)
	}
	return append(names, "demo", "list")
}

// phaseArgs is the command line of phase i: the scenario's common flags,
// the phase's, the demo's if demo, then the user's, which win.
func (s *scenario) phaseArgs(i int, demo bool, user []string) []string {
	args := append(append([]string(nil), s.common...), s.phases[i].args...)
	if demo {
		args = append(args, s.demo...)
	}
	return append(args, user...)
}

// scenarioFlagsRefused are flags that would take a scenario apart: its
// phases are defined by their benchmarks and by which DB they start from.
var scenarioFlagsRefused = []string{"benchmarks", "use_existing_db"}

// scenarioArg finds -scenario in args: its value, the other arguments in
// their order, and whether it was there. It scans rather than parses, so
// that the user's other flags are checked later, together with each
// phase's. It stops at "--", as the flag package does; an argument that is
// not a flag is passed on (it may be the value of "-name value"), and
// parseFlags refuses it if it is not.
func scenarioArg(args []string) (value string, rest []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return value, append(rest, args[i:]...), ok
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "scenario" {
			rest = append(rest, a)
			continue
		}
		ok = true
		if hasVal {
			value = val
		} else if i+1 < len(args) {
			i++
			value = args[i]
		}
	}
	return value, rest, ok
}

// runScenarios is -scenario=NAME[,NAME...]: it runs each scenario and
// prints its verdict, and after more than one a table of all of them.
// "demo" stands for make demo's scenarios and puts every scenario named
// with it at its demo scale; "list" prints the scenarios.
func runScenarios(value string, user []string, stdout, stderr io.Writer) int {
	if value == "list" {
		printScenarioList(stdout)
		return exitOK
	}
	names, demo, err := parseScenarioNames(value)
	if err == nil {
		err = checkScenarioOverrides(user)
	}
	if err != nil {
		return reportError(stderr, err)
	}
	// Every phase's flags are checked before anything runs, so a bad
	// override fails at once, not after minutes of building.
	out := stdout // human-readable output; stderr under -json
	for _, name := range names {
		s, _ := scenarioByName(name)
		for i := range s.phases {
			c, err := parseFlags(s.phaseArgs(i, demo, user), stdout)
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			if err == nil && i == 0 {
				err = checkDBLayout(c)
			}
			if err != nil {
				return reportError(stderr, errors.Wrapf(err, "-scenario=%s", name))
			}
			if c.JSON {
				out = stderr
			}
		}
	}

	stop, release := catchInterrupts(stderr)
	defer release()
	var verdicts []verdict
	for _, name := range names {
		if stop.Load() {
			break
		}
		s, _ := scenarioByName(name)
		v, err := runScenario(s, demo, user, stdout, stderr, stop)
		if err != nil {
			return reportError(stderr, errors.Wrapf(err, "-scenario=%s", name))
		}
		if stop.Load() {
			fmt.Fprintf(out, "%s: interrupted, no verdict\n", name)
			break
		}
		fmt.Fprintln(out, v.line)
		verdicts = append(verdicts, v)
	}
	if len(verdicts) > 1 {
		fmt.Fprintln(out)
		printVerdictTable(out, verdicts)
	}
	if stop.Load() {
		return exitInterrupted
	}
	return exitOK
}

// parseScenarioNames splits -scenario's value into known scenario names.
func parseScenarioNames(value string) (names []string, demo bool, err error) {
	for _, n := range strings.Split(value, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
		case n == "demo":
			demo = true
			names = append(names, demoScenarios...)
		case n == "list":
			return nil, false, config.BadFlag("scenario", "list cannot be combined with scenarios")
		default:
			if _, ok := scenarioByName(n); !ok {
				return nil, false, config.BadFlag("scenario", "unknown scenario %q (known: %s)", n, strings.Join(scenarioNames(), ", "))
			}
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, false, config.BadFlag("scenario", "no scenario named (known: %s)", strings.Join(scenarioNames(), ", "))
	}
	return names, demo, nil
}

// checkScenarioOverrides refuses the flags a scenario defines itself.
func checkScenarioOverrides(user []string) error {
	for _, a := range user {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		for _, refused := range scenarioFlagsRefused {
			if strings.HasPrefix(a, "-") && name == refused {
				return config.BadFlag(refused, "a scenario sets it per phase; run the phases' command lines (-scenario=list) to change it")
			}
		}
	}
	return nil
}

// runScenario runs s's phases in one directory, -db's if given, else a
// temporary one removed afterwards.
func runScenario(s *scenario, demo bool, user []string, stdout, stderr io.Writer, stop *atomic.Bool) (verdict, error) {
	var results []*phaseResult
	var root string
	var seed int64
	for i, p := range s.phases {
		args := s.phaseArgs(i, demo, user)
		if i == 0 {
			first, err := parseFlags(args, io.Discard)
			if err != nil {
				return verdict{}, err // checked by runScenarios
			}
			root = first.DB
			if !first.DBGiven {
				if root, err = os.MkdirTemp("", "pebblebench-"+s.name+"-"); err != nil {
					return verdict{}, errors.Wrap(err, "making the scenario's directory")
				}
				defer os.RemoveAll(root)
			}
			seed = first.Seed // drawn by parseFlags for -seed=0
		}
		// Every phase works in the first one's directory, with its seed
		// (reads draw from other streams than writes, so they do not
		// replay the fill's keys), as if both flags ended its command line.
		full := append(args, "-db="+root, fmt.Sprintf("-seed=%d", seed))
		c, err := parseFlags(full, io.Discard)
		if err != nil {
			return verdict{}, err // checked by runScenarios
		}
		if c.ReportHTML != "" {
			// Each phase of each scenario writes its own report.
			if c, err = parseFlags(append(full, "-report_html="+phaseReportPath(c.ReportHTML, s.name, p.name)), io.Discard); err != nil {
				return verdict{}, err
			}
		}

		out, jsonOut := stdout, io.Writer(nil)
		if c.JSON {
			out, jsonOut = stderr, stdout
		}
		fmt.Fprintf(out, "=== scenario %s, phase %d/%d (%s): pebblebench %s -seed=%d -db=%s\n",
			s.name, i+1, len(s.phases), p.name, strings.Join(args, " "), c.Seed, root)
		r, err := runPhase(c, root, out, jsonOut, stderr, stop, i == 0)
		if err != nil {
			return verdict{}, errors.Wrapf(err, "phase %s", p.name)
		}
		r.name = p.name
		results = append(results, r)
		if stop.Load() {
			return verdict{}, nil
		}
	}
	v := s.verdict(results)
	v.scenario = s.name
	if len(results) > 0 && results[0].cfg.JSON {
		if err := result.WriteJSONLine(stdout, map[string]string{
			"record": "verdict", "scenario": v.scenario, "headline": v.headline, "outcome": v.outcome, "verdict": v.line,
		}); err != nil {
			return v, err
		}
	}
	return v, nil
}

// phaseReportPath is where one phase of a scenario writes -report_html
// path: the scenario's and the phase's names before its extension, so that
// no phase overwrites another's report (report.html becomes
// report-range-filters-read.html).
func phaseReportPath(path, scenario, phase string) string {
	ext := filepath.Ext(path)
	// The matrix's phase names hold a slash ("leveled/read").
	return strings.TrimSuffix(path, ext) + "-" + scenario + "-" + strings.ReplaceAll(phase, "/", "-") + ext
}

// runPhase runs one phase's benchmarks as realMain runs a command line's
// (the header only for the first phase), and keeps what they measured and
// the LSM they left.
func runPhase(c *config.Config, root string, out, jsonOut, stderr io.Writer, stop *atomic.Bool, header bool) (*phaseResult, error) {
	d := newDriver(c, root, out, jsonOut, stderr, stop)
	fill, err := d.checkExisting()
	if err != nil {
		return nil, err
	}
	metrics, err := engine.StartMetrics(c)
	if err != nil {
		return nil, err
	}
	d.serveMetrics(metrics)
	if header {
		printHeader(out, c, root, fill, metrics)
	}
	err = d.run(root, fill)
	r := &phaseResult{cfg: c, results: d.results, shapes: map[string][]lsm.Level{}}
	for _, e := range d.engines {
		if err != nil || e.db == nil {
			continue
		}
		r.shapes[e.name], err = lsm.Shape(e.db)
	}
	return r, errors.CombineErrors(err, d.finish())
}

// catchInterrupts makes the first SIGINT set the returned flag (benchmarks
// then finish early and report what they measured) and a second one exit
// at once; release stops catching. realMain and runScenarios both use it.
func catchInterrupts(stderr io.Writer) (stop *atomic.Bool, release func()) {
	stop = new(atomic.Bool)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	go func() {
		for range sigs {
			if stop.Swap(true) {
				fmt.Fprintln(stderr, "pebblebench: interrupted twice, exiting now")
				os.Exit(exitInterrupted)
			}
			fmt.Fprintln(stderr, "pebblebench: interrupted; finishing the current benchmark (interrupt again to exit now)")
		}
	}()
	return stop, func() { signal.Stop(sigs) }
}

// printScenarioList is -scenario=list.
func printScenarioList(w io.Writer) {
	fmt.Fprintln(w, "Scenarios (pebblebench -scenario=NAME; flags given with it override the scenario's).")
	fmt.Fprintln(w, "Each runs its phases in one directory, -db's or a temporary one; every phase has the first one's -seed.")
	for _, s := range scenarios {
		fmt.Fprintf(w, "\n%s\n  models:   %s\n  plug-ins: %s\n", s.name, s.models, s.plugins)
		for i, p := range s.phases {
			fmt.Fprintf(w, "  %-8s  pebblebench %s\n", p.name+":", strings.Join(s.phaseArgs(i, false, nil), " "))
		}
	}
	fmt.Fprintf(w, "\ndemo\n  models:   %s at a small scale (make demo), then one table of their verdicts\n",
		strings.Join(demoScenarios, ", "))
}

// printVerdictTable prints one row per scenario: its headline ratios and
// its outcome.
func printVerdictTable(w io.Writer, vs []verdict) {
	nameW, headW := len("scenario"), len("headline (pebblerf/upstream)")
	for _, v := range vs {
		nameW, headW = max(nameW, len(v.scenario)), max(headW, len(v.headline))
	}
	fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, "scenario", headW, "headline (pebblerf/upstream)", "verdict")
	fmt.Fprintf(w, "%s  %s  %s\n", strings.Repeat("-", nameW), strings.Repeat("-", headW), strings.Repeat("-", 7))
	for _, v := range vs {
		fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, v.scenario, headW, v.headline, v.outcome)
	}
}
