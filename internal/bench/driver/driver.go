// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package driver runs one pebblebench command line's -benchmarks on its
// engines and says what they measured.
//
// The driver decides, engines do: for every benchmark of the list it asks
// each engine to prepare a run and to time it, whole runs one engine after
// the other in an order that alternates repeat by repeat, or (-interleave)
// both at once in turns, and prints each result as it comes (db_bench's
// result line, the ratio line of a pair of runs, the AVG and MEDIAN lines
// of repeats, -json records), then -explain, -statistics and -report_html.
// It never touches a DB itself: an Engine is one engine behind a few plain
// calls, in this process or in one of its own (engines are the caller's,
// as they live across a scenario's phases), so that what a driver prints is
// the same wherever its engines run.
package driver

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/runner"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// Engine is one engine as the driver runs it: *runner.Engine in this
// process, or the same behind a pipe to a process of its own. Its methods
// are runner.Engine's, which documents them.
type Engine interface {
	Name() string
	Begin(c *config.Config, root string) (runner.Setup, error)
	Start() error
	Prepare(bench string) error
	Run(bench string, seq int, turns benchmarks.Turns, counter *progress.Counter) (*result.Result, error)
	Meta(bench string) (string, *benchmarks.MetaData, error)
	Explain() (string, error)
	LevelTable() (string, error)
	Shape() ([]lsm.Level, error)
	Report() (*report.Engine, []report.FunnelSample, error)
	End() error
}

// DefaultProgressInterval is the interval of the progress lines without
// -report_interval_seconds, which sets both the interval and a CSV file of
// the rows (-report_file).
var DefaultProgressInterval = 5 * time.Second

// Driver runs the -benchmarks list of one command line on its engines.
type Driver struct {
	cfg  *config.Config
	root string
	// out gets the result lines: stdout, or stderr under -json, when
	// jsonOut is stdout (else nil); stderr gets progress and warnings.
	out, jsonOut, stderr io.Writer
	engines              []Engine
	stop                 *atomic.Bool
	progress             *progress.Reporter
	seq                  int
	// results keeps every run's result in the order reported; scenarios
	// compute their verdicts from them.
	results []*result.Result
	// pairs are the paired runs of two engines (base, other), as their
	// ratio lines compare them.
	pairs [][2]*result.Result
	// tickers sums each engine's statistics over its runs, for the final
	// STATISTICS, as db_bench's are cumulative.
	tickers [][]statistics.Ticker
	// fill is the fill recorded with an existing DB, nil if none.
	fill *runner.FillRecord
	// metricsURL is where -metrics_addr answers, "" without it.
	metricsURL string
	// htmlReport is what Run wrote to -report_html, nil without it.
	htmlReport *report.Report
}

// New returns the driver of command line c on engines (in the order they
// alternate, config.Config.Engines'), with the DBs under root; stop is set
// on SIGINT.
func New(c *config.Config, root string, engines []Engine, out, jsonOut, stderr io.Writer, stop *atomic.Bool) *Driver {
	return &Driver{cfg: c, root: root, engines: engines, out: out, jsonOut: jsonOut, stderr: stderr, stop: stop,
		tickers: make([][]statistics.Ticker, len(engines))}
}

// Begin begins the command line on every engine, before anything is
// printed: a DB -use_existing_db cannot read, a fill recorded with other
// keys, an address -metrics_addr cannot listen on are usage errors here.
func (d *Driver) Begin() error {
	var dirs []string
	for _, e := range d.engines {
		s, err := e.Begin(d.cfg, d.root)
		if err != nil {
			return err
		}
		if s.MetricsURL != "" {
			d.metricsURL = s.MetricsURL
		}
		dirs = append(dirs, runner.EngineDir(d.cfg, d.root, e.Name()))
	}
	if !d.cfg.UseExistingDB {
		return nil
	}
	var err error
	d.fill, err = runner.CheckFill(d.cfg, dirs)
	return err
}

// Results are every run's result, in the order reported.
func (d *Driver) Results() []*result.Result { return d.results }

// Shapes are each engine's LSM now, by engine name, for a scenario's
// verdict; an engine whose DB is closed has none.
func (d *Driver) Shapes() (map[string][]lsm.Level, error) {
	shapes := map[string][]lsm.Level{}
	for _, e := range d.engines {
		s, err := e.Shape()
		if err != nil {
			return nil, err
		}
		if s != nil {
			shapes[e.Name()] = s
		}
	}
	return shapes, nil
}

// Run is a command line's work after its header: the -json configuration
// record, the -benchmarks list, then -explain, -statistics and
// -report_html. The caller calls Finish, after reading what it needs from
// the engines.
func (d *Driver) Run() error {
	if d.jsonOut != nil {
		if err := result.WriteJSONLine(d.jsonOut, configRecord(d.cfg, d.root, d.fill)); err != nil {
			return err
		}
	}
	for _, e := range d.engines {
		if err := e.Start(); err != nil {
			return err
		}
	}
	interval, csv := DefaultProgressInterval, ""
	if d.cfg.ReportIntervalSeconds > 0 {
		interval, csv = time.Duration(d.cfg.ReportIntervalSeconds)*time.Second, d.cfg.ReportFile
	}
	p, err := progress.New(d.stderr, interval, csv)
	if err != nil {
		return errors.Wrap(err, "-report_file")
	}
	d.progress = p
	specs, err := dbbench.ParseBenchmarks(d.cfg.Benchmarks)
	if err != nil {
		return err // validated with the flags
	}
	for _, spec := range specs {
		if d.stop.Load() {
			break
		}
		if err := d.runSpec(spec); err != nil {
			return err
		}
	}
	if d.cfg.Explain {
		if err := d.printExplain(); err != nil {
			return err
		}
	}
	if d.cfg.Statistics {
		if err := d.printStatistics(); err != nil {
			return err
		}
	}
	if d.cfg.ReportHTML != "" {
		return d.writeHTMLReport()
	}
	return nil
}

// Finish ends the command line on every engine (their DBs closed) and
// closes the progress lines' file.
func (d *Driver) Finish() error {
	var err error
	for _, e := range d.engines {
		err = errors.CombineErrors(err, e.End())
	}
	if d.progress != nil {
		err = errors.CombineErrors(err, d.progress.Close())
		if d.cfg.ReportIntervalSeconds > 0 {
			fmt.Fprintf(d.out, "wrote the progress rows (CSV, every %d s) %s\n", d.cfg.ReportIntervalSeconds, d.cfg.ReportFile)
		}
	}
	return err
}

func (d *Driver) label(name, engineName string) string {
	if len(d.engines) == 1 {
		return name
	}
	return name + "/" + engineName
}

func (d *Driver) runSpec(spec dbbench.Spec) error {
	b, _ := benchmarks.ByName(spec.Name)
	if b.Meta != nil {
		return d.runMeta(b)
	}
	if b.Fresh && d.cfg.UseExistingDB {
		fmt.Fprintf(d.out, "%-12s : skipped (--use_existing_db is true)\n", b.Name)
		// Skipped runs keep their run numbers, so the benchmarks after them
		// draw the same keys as in the invocation that did the fill.
		d.seq += spec.Warmups + spec.Repeats
		return nil
	}
	if spec.Warmups > 0 {
		fmt.Fprintf(d.out, "Warming up benchmark by running %d times\n", spec.Warmups)
		for i := 0; i < spec.Warmups && !d.stop.Load(); i++ {
			d.seq++
			for _, e := range d.engines {
				if _, err := d.runOnce(e, b); err != nil {
					return err
				}
			}
		}
	}
	if spec.Repeats > 1 {
		fmt.Fprintf(d.out, "Running benchmark for %d times\n", spec.Repeats)
	}
	results := make([][]*result.Result, len(d.engines))
	for i := 0; i < spec.Repeats && !d.stop.Load(); i++ {
		d.seq++
		if d.interleaves(b) {
			// The first turn alternates as the order of whole runs does.
			first := i % 2
			res, err := d.runInterleaved(d.engines[first], d.engines[1-first], b)
			if err != nil {
				return err
			}
			res[0], res[1] = res[first], res[1-first]
			for ei := range d.engines {
				if err := d.record(results, ei, b, res[ei]); err != nil {
					return err
				}
			}
		} else {
			for k := range d.engines {
				// Every second repeat runs the engines in the other order,
				// so neither always runs just after the other (a warmer
				// cache or a colder core would otherwise favour one side of
				// every ratio).
				ei := k
				if i%2 == 1 {
					ei = len(d.engines) - 1 - k
				}
				if d.stop.Load() {
					break
				}
				res, err := d.runOnce(d.engines[ei], b)
				if err != nil {
					return err
				}
				if err := d.record(results, ei, b, res); err != nil {
					return err
				}
			}
		}
		if len(d.engines) == 2 && len(results[1]) == len(results[0]) {
			if err := d.reportRatio(results[0][i], results[1][i], i+1); err != nil {
				return err
			}
		}
	}
	if spec.Repeats > 1 {
		fmt.Fprintln(d.out)
		for ei, e := range d.engines {
			if len(results[ei]) > 1 {
				for _, line := range result.FinalSummaryLines(d.label(b.Name, e.Name()), results[ei]) {
					fmt.Fprintln(d.out, line)
				}
			}
		}
		if n := min(len(results[0]), len(results[len(results)-1])); len(d.engines) == 2 && n > 1 {
			fmt.Fprintln(d.out, result.MedianRatioLine(results[0][:n], results[1][:n]))
		}
	}
	return nil
}

// record adds res, a run of b on engine ei, to results[ei] and reports it,
// with the running average once there are two.
func (d *Driver) record(results [][]*result.Result, ei int, b *benchmarks.Benchmark, res *result.Result) error {
	results[ei] = append(results[ei], res)
	statistics.Add(&d.tickers[ei], res.Tickers)
	if err := d.report(res, len(results[ei])); err != nil {
		return err
	}
	if len(results[ei]) > 1 {
		fmt.Fprintln(d.out, result.RunningAverageLine(d.label(b.Name, d.engines[ei].Name()), results[ei]))
	}
	return nil
}

// runOnce prepares e's DB and times one run of b on it, alone.
func (d *Driver) runOnce(e Engine, b *benchmarks.Benchmark) (*result.Result, error) {
	if err := e.Prepare(b.Name); err != nil {
		return nil, err
	}
	counter := progress.NewCounter(0)
	d.progress.Begin(b.Name, e.Name(), []*progress.Counter{counter})
	defer d.progress.End()
	return e.Run(b.Name, d.seq, nil, counter)
}

// interleaves reports whether b's runs on the two engines take turns
// (-interleave) rather than run one after the other: a benchmark with one
// thread and no background writer, whose turns are not the writer's.
func (d *Driver) interleaves(b *benchmarks.Benchmark) bool {
	return d.cfg.Interleave > 0 && len(d.engines) == 2 && b.Background == nil && (b.SingleThread || d.cfg.Threads == 1)
}

// runInterleaved prepares both engines' DBs, then times one run of b on
// both at once, taking turns of -interleave operations; first takes the
// first turn. Neither starts before both are prepared, so that neither
// run meets the other's preparation.
func (d *Driver) runInterleaved(first, second Engine, b *benchmarks.Benchmark) ([2]*result.Result, error) {
	es := [2]Engine{first, second}
	var errs [2]error
	each(func(i int) { errs[i] = es[i].Prepare(b.Name) })
	if err := errors.Join(errs[0], errs[1]); err != nil {
		return [2]*result.Result{}, err
	}
	turns := runner.NewTurns(d.cfg.Interleave)
	counters := [2]*progress.Counter{progress.NewCounter(0), progress.NewCounter(0)}
	d.progress.Begin(b.Name, first.Name()+"+"+second.Name(), counters[:])
	defer d.progress.End()
	var res [2]*result.Result
	each(func(i int) { res[i], errs[i] = es[i].Run(b.Name, d.seq, turns[i], counters[i]) })
	return res, errors.Join(errs[0], errs[1])
}

// each calls f(0) and f(1) at once and waits for both.
func each(f func(i int)) {
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}

// report prints a run's result line and histogram, and its JSON object.
func (d *Driver) report(res *result.Result, runNumber int) error {
	d.results = append(d.results, res)
	label := d.label(res.Benchmark, res.Engine)
	fmt.Fprintln(d.out, result.Line(label, res))
	if res.Interrupted {
		fmt.Fprintf(d.out, "%-12s : interrupted; the line above covers the operations done until then\n", label)
	}
	if f := d.cfg.EmptyRangeFraction; f > 0 && res.OpKind == "seek" && res.Ops >= 100 {
		// A sparse key set (-writes) can leave too few empty ranges of
		// -seek_upper_bound_len; the targets then fall back to ranges that
		// hold keys, and the line above measured fewer empty ranges.
		if got := float64(res.EmptyRanges) / float64(res.Ops); got < 0.9*f {
			fmt.Fprintf(d.out, "%-12s : only %.1f%% of the ranges were empty, not -empty_range_fraction=%g: the written keys leave too few gaps of -seek_upper_bound_len=%d\n",
				label, 100*got, f, d.cfg.SeekUpperBoundLen)
		}
	}
	if res.LSM != nil {
		fmt.Fprintf(d.out, "%-12s : %s\n", label, res.LSM)
	}
	if res.Remote != nil {
		fmt.Fprintln(d.out, result.RemoteLine(label, res))
	}
	if res.Hist != nil && d.cfg.Histogram {
		res.Hist.Print(d.out, res.OpKind)
	}
	if d.jsonOut != nil {
		return result.WriteJSON(d.jsonOut, runNumber, res, d.cfg.Statistics)
	}
	return nil
}

// ratioRecord is a pair of runs' -json record: their figures as the ratio
// line gives them, the other engine's over the base's, under the engine
// "pebblerf/pebble"; a ratio over a zero base is null (JSON has no NaN).
type ratioRecord struct {
	Record    string              `json:"record"`
	Benchmark string              `json:"benchmark"`
	Engine    string              `json:"engine"`
	Run       int                 `json:"run"`
	Ratios    map[string]*float64 `json:"ratios"`
}

// reportRatio prints the ratio line of one pair of runs and its -json
// record.
func (d *Driver) reportRatio(base, other *result.Result, runNumber int) error {
	d.pairs = append(d.pairs, [2]*result.Result{base, other})
	fmt.Fprintln(d.out, result.RatioLine(base, other, d.cfg.Statistics))
	if d.jsonOut == nil {
		return nil
	}
	ratios := map[string]*float64{}
	for _, f := range result.Figures(base, other, d.cfg.Statistics) {
		ratios[f.Key()] = nil
		if !math.IsNaN(f.Value) {
			ratios[f.Key()] = &f.Value
		}
	}
	return result.WriteJSONLine(d.jsonOut, ratioRecord{Record: "ratio", Benchmark: base.Benchmark,
		Engine: other.Engine + "/" + base.Engine, Run: runNumber, Ratios: ratios})
}

// metaRecord is a meta benchmark's -json record on one engine.
type metaRecord struct {
	Record    string               `json:"record"`
	Benchmark string               `json:"benchmark"`
	Engine    string               `json:"engine"`
	Data      *benchmarks.MetaData `json:"data"`
}

// runMeta runs a meta benchmark (stats, levelstats) on each engine, each
// described once its flushes and compactions are done, as a run finds it.
func (d *Driver) runMeta(b *benchmarks.Benchmark) error {
	for _, e := range d.engines {
		text, data, err := e.Meta(b.Name)
		if err != nil {
			return err
		}
		if len(d.engines) > 1 {
			fmt.Fprintf(d.out, "%s (%s):\n", b.Name, e.Name())
		}
		fmt.Fprint(d.out, text)
		if d.jsonOut != nil {
			if err := result.WriteJSONLine(d.jsonOut, metaRecord{Record: "meta", Benchmark: b.Name, Engine: e.Name(), Data: data}); err != nil {
				return err
			}
		}
	}
	return nil
}

// explainRecord is -explain's -json record.
type explainRecord struct {
	Record    string `json:"record"`
	Benchmark string `json:"benchmark"`
	Engine    string `json:"engine"`
	Explain   string `json:"explain"`
}

// printExplain is -explain: the explain of one sample query on each engine
// that plans queries (pebblerf).
func (d *Driver) printExplain() error {
	for _, e := range d.engines {
		x, err := e.Explain()
		if err != nil {
			return err
		}
		if x == "" {
			continue // upstream has no planner
		}
		fmt.Fprintf(d.out, "EXPLAIN (%s):\n%s\n", e.Name(), x)
		if d.jsonOut != nil {
			if err := result.WriteJSONLine(d.jsonOut, explainRecord{Record: "explain", Benchmark: "explain", Engine: e.Name(), Explain: x}); err != nil {
				return err
			}
		}
	}
	return nil
}

// statisticsRecord is an engine's -json record of -statistics.
type statisticsRecord struct {
	Record     string           `json:"record"`
	Benchmark  string           `json:"benchmark"`
	Engine     string           `json:"engine"`
	Statistics map[string]int64 `json:"statistics"`
	LevelTable string           `json:"level_table,omitempty"`
}

// printStatistics prints each engine's STATISTICS, summed over the runs of
// the invocation as db_bench's are cumulative, pebblerf's per-level seek
// table (seekstats' LevelTable, counted since the DB was last opened, so
// over the runs since the last reopen), and under -engine=both a ratio line
// for the tickers both engines have. Under -json each engine's tickers and
// level table are also one JSON object.
func (d *Driver) printStatistics() error {
	for ei, e := range d.engines {
		title := "STATISTICS:"
		if len(d.engines) > 1 {
			title = fmt.Sprintf("STATISTICS (%s):", e.Name())
		}
		statistics.Print(d.out, title, d.tickers[ei])
		table, err := e.LevelTable()
		if err != nil {
			return err
		}
		if table != "" {
			fmt.Fprintf(d.out, "Seek statistics per level (%s, since the last open):\n%s", e.Name(), table)
		}
		if d.jsonOut != nil {
			if err := result.WriteJSONLine(d.jsonOut, statisticsRecord{Record: "statistics", Benchmark: "statistics", Engine: e.Name(),
				Statistics: statistics.Map(d.tickers[ei]), LevelTable: table}); err != nil {
				return err
			}
		}
	}
	if len(d.engines) == 2 {
		var b strings.Builder
		fmt.Fprintf(&b, "ratio %s/%s STATISTICS :", d.engines[1].Name(), d.engines[0].Name())
		result.FormatFigures(&b, result.TickerRatios(d.tickers[0], d.tickers[1]))
		fmt.Fprintln(d.out, b.String())
	}
	return nil
}
