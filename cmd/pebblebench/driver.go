// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// defaultProgressInterval is the interval of the progress lines without
// -report_interval_seconds, which sets both the interval and a CSV file
// of the rows (-report_file).
var defaultProgressInterval = 5 * time.Second

// driver runs the -benchmarks list on the engines of -engine.
type driver struct {
	cfg      *config.Config
	out      io.Writer // result lines: stdout, or stderr under -json
	jsonOut  io.Writer // stdout under -json, else nil
	engines  []*engineState
	stderr   io.Writer // progress lines and warnings
	stop     *atomic.Bool
	progress *progress.Reporter
	seq      int
	// results keeps every run's result in the order reported; scenarios
	// compute their verdicts from them.
	results []*result.Result
	// pairs are the paired runs of two engines (base, other), as their
	// ratio lines compare them.
	pairs [][2]*result.Result
	// written records the keys of a sparse fill (-writes), for the seek
	// targets; nil after a dense one. Both engines write the same keys.
	written *keyspace.Set
	// timeline is -report_html's funnel over time (sampleFunnels).
	timeline report.Timeline
	// metrics is -metrics_addr's server, nil without it.
	metrics *engine.MetricsServer
}

func newDriver(c *config.Config, root string, out, jsonOut, stderr io.Writer, stop *atomic.Bool) *driver {
	d := &driver{cfg: c, out: out, jsonOut: jsonOut, stderr: stderr, stop: stop, written: c.NewWrittenSet()}
	for _, name := range c.Engines() {
		d.engines = append(d.engines, &engineState{name: name, dir: engineDir(c, root, name), cfg: c})
	}
	return d
}

// serveMetrics hands m, -metrics_addr's server, the pebblerf engine's DB
// whenever it opens; finish stops it.
func (d *driver) serveMetrics(m *engine.MetricsServer) {
	d.metrics = m
	for _, e := range d.engines {
		if e.name == config.EnginePebbleRF {
			e.metrics = m
		}
	}
}

// engineDirs lists the engines' DB directories.
func (d *driver) engineDirs() []string {
	var dirs []string
	for _, e := range d.engines {
		dirs = append(dirs, e.dir)
	}
	return dirs
}

// checkExisting checks, before anything is printed, that under
// -use_existing_db every engine's DB holds keys and was filled with keys
// this run's flags read; it returns the recorded fill, if any.
func (d *driver) checkExisting() (*fillRecord, error) {
	if !d.cfg.UseExistingDB {
		return nil, nil
	}
	for _, e := range d.engines {
		if err := checkHoldsKeys(e); err != nil {
			return nil, err
		}
	}
	return checkFill(d.cfg, d.engineDirs())
}

// start removes the engines' directories unless -use_existing_db, as
// db_bench destroys its DB (checkDBLayout made sure they hold a DB or
// nothing), and starts the progress reporter.
func (d *driver) start() error {
	if !d.cfg.UseExistingDB {
		for _, e := range d.engines {
			if err := os.RemoveAll(e.dir); err != nil {
				return errors.Wrapf(err, "removing %s", e.dir)
			}
		}
	}
	if d.cfg.UseExistingDB && d.written != nil {
		if err := d.engines[0].readKeySet(d.written); err != nil {
			return err
		}
	}
	interval, csv := defaultProgressInterval, ""
	if d.cfg.ReportIntervalSeconds > 0 {
		interval, csv = time.Duration(d.cfg.ReportIntervalSeconds)*time.Second, d.cfg.ReportFile
	}
	p, err := progress.New(d.stderr, interval, csv)
	if err != nil {
		return errors.Wrap(err, "-report_file")
	}
	d.progress = p
	return nil
}

// run is an invocation's work after its header: the -json configuration
// record, start, the -benchmarks list, then -explain and -statistics. The
// caller calls finish, after reading what it needs from the open DBs.
func (d *driver) run(root string, fill *fillRecord) error {
	var err error
	if d.jsonOut != nil {
		err = result.WriteJSONLine(d.jsonOut, configRecord(d.cfg, root, fill))
	}
	if err == nil {
		err = d.start()
	}
	if err == nil {
		d.sampleFunnels()
	}
	if err == nil {
		err = d.runAll(mustParseBenchmarkList(d.cfg.Benchmarks))
	}
	if err == nil && d.cfg.Explain {
		err = d.printExplain()
	}
	if err == nil && d.cfg.Statistics {
		err = d.printStatistics()
	}
	if err == nil && d.cfg.ReportHTML != "" {
		err = d.writeHTMLReport()
	}
	return err
}

func (d *driver) finish() error {
	err := errors.CombineErrors(d.closeAll(), d.metrics.Close())
	if d.progress != nil {
		err = errors.CombineErrors(err, d.progress.Close())
	}
	return err
}

func (d *driver) label(name, engineName string) string {
	if len(d.engines) == 1 {
		return name
	}
	return name + "/" + engineName
}

func (d *driver) closeAll() error {
	var err error
	for _, e := range d.engines {
		err = errors.CombineErrors(err, e.close())
	}
	return err
}

// runAll runs every benchmark of the list, stopping early on SIGINT.
func (d *driver) runAll(specs []dbbench.Spec) error {
	for _, spec := range specs {
		if d.stop.Load() {
			break
		}
		if err := d.runSpec(spec); err != nil {
			return err
		}
	}
	return nil
}

func (d *driver) runSpec(spec dbbench.Spec) error {
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
				for _, line := range result.FinalSummaryLines(d.label(b.Name, e.name), results[ei]) {
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
func (d *driver) record(results [][]*result.Result, ei int, b *benchmarks.Benchmark, res *result.Result) error {
	results[ei] = append(results[ei], res)
	if err := d.report(res, len(results[ei])); err != nil {
		return err
	}
	if len(results[ei]) > 1 {
		fmt.Fprintln(d.out, result.RunningAverageLine(d.label(b.Name, d.engines[ei].name), results[ei]))
	}
	return nil
}

// settleAll waits until every open engine's flushes and compactions are
// done, so that neither is caught in the middle of the other's work.
func (d *driver) settleAll() {
	for _, e := range d.engines {
		if e.db != nil {
			e.settle(d.stop)
		}
	}
}

// runOnce prepares e's DB and times one run of b on it.
func (d *driver) runOnce(e *engineState, b *benchmarks.Benchmark) (*result.Result, error) {
	if err := d.prepareRun(b, e); err != nil {
		return nil, err
	}
	r := d.newRun(e, b)
	remoteBefore := e.remoteSnapshot()
	res, err := r.execute()
	if err != nil {
		return nil, err
	}
	return res, d.finishRun(e, b, res, remoteBefore)
}

// prepareRun prepares the DBs of es for a run of b, and the machine: with
// two engines, both settled and the file systems synced, so that neither
// run meets the other's leftover work.
func (d *driver) prepareRun(b *benchmarks.Benchmark, es ...*engineState) error {
	for _, e := range es {
		if err := e.prepare(b); err != nil {
			return err
		}
	}
	if len(d.engines) > 1 {
		d.settleAll()
		syncFilesystems()
	}
	// Each run starts on a collected heap, so garbage left by the previous
	// run (perhaps the other engine's) is not charged to this one.
	runtime.GC()
	return nil
}

// interleaves reports whether b's runs on the two engines take turns
// (-interleave) rather than run one after the other: a benchmark with one
// thread and no background writer, whose turns are not the writer's.
func (d *driver) interleaves(b *benchmarks.Benchmark) bool {
	return d.cfg.Interleave > 0 && len(d.engines) == 2 && b.Background == nil && (b.SingleThread || d.cfg.Threads == 1)
}

// runInterleaved prepares both engines' DBs and times one run of b on
// both at once, taking turns (executeInterleaved); first takes the first
// turn.
func (d *driver) runInterleaved(first, second *engineState, b *benchmarks.Benchmark) ([2]*result.Result, error) {
	if err := d.prepareRun(b, first, second); err != nil {
		return [2]*result.Result{}, err
	}
	r1, r2 := d.newRun(first, b), d.newRun(second, b)
	before1, before2 := first.remoteSnapshot(), second.remoteSnapshot()
	res1, res2, err := executeInterleaved(r1, r2, d.cfg.Interleave)
	if err != nil {
		return [2]*result.Result{}, err
	}
	if err := d.finishRun(first, b, res1, before1); err != nil {
		return [2]*result.Result{}, err
	}
	return [2]*result.Result{res1, res2}, d.finishRun(second, b, res2, before2)
}

func (d *driver) newRun(e *engineState, b *benchmarks.Benchmark) *run {
	return &run{Run: benchmarks.Run{Config: d.cfg, DB: e.db, Seq: d.seq, Written: d.written}, bench: b, stop: d.stop, progress: d.progress}
}

// finishRun records what a run of b on e did to e: its remote requests,
// its writes, its fill record and its statistics.
func (d *driver) finishRun(e *engineState, b *benchmarks.Benchmark, res *result.Result, remoteBefore result.Remote) error {
	e.finishRemote(res, remoteBefore)
	if b.Writes {
		e.dirty = true
	}
	if b.Fresh {
		// Recorded for -use_existing_db runs; the DB is left whatever
		// happens to the record.
		if err := writeFillRecord(e.dir, newFillRecord(d.cfg, b.Name, e.name)); err != nil {
			return err
		}
	}
	statistics.Add(&e.tickers, res.Tickers)
	return nil
}

// report prints a run's result line and histogram, and its JSON object.
func (d *driver) report(res *result.Result, runNumber int) error {
	d.results = append(d.results, res)
	fmt.Fprintln(d.out, result.Line(d.label(res.Benchmark, res.Engine), res))
	if res.Interrupted {
		fmt.Fprintf(d.out, "%-12s : interrupted; the line above covers the operations done until then\n", d.label(res.Benchmark, res.Engine))
	}
	if f := d.cfg.EmptyRangeFraction; f > 0 && res.OpKind == "seek" && res.Ops >= 100 {
		// A sparse key set (-writes) can leave too few empty ranges of
		// -seek_upper_bound_len; the targets then fall back to ranges that
		// hold keys, and the line above measured fewer empty ranges.
		if got := float64(res.EmptyRanges) / float64(res.Ops); got < 0.9*f {
			fmt.Fprintf(d.out, "%-12s : only %.1f%% of the ranges were empty, not -empty_range_fraction=%g: the written keys leave too few gaps of -seek_upper_bound_len=%d\n",
				d.label(res.Benchmark, res.Engine), 100*got, f, d.cfg.SeekUpperBoundLen)
		}
	}
	if res.LSM != nil {
		fmt.Fprintf(d.out, "%-12s : %s\n", d.label(res.Benchmark, res.Engine), res.LSM)
	}
	if res.Remote != nil {
		fmt.Fprintln(d.out, result.RemoteLine(d.label(res.Benchmark, res.Engine), res))
	}
	if res.Hist != nil && d.cfg.Histogram {
		res.Hist.Print(d.out, res.OpKind)
	}
	if d.jsonOut != nil {
		return result.WriteJSON(d.jsonOut, runNumber, res, d.cfg.Statistics)
	}
	return nil
}

// reportRatio prints the ratio line of one pair of runs and, under -json,
// the same figures as an object whose engine is "pebblerf/pebble".
func (d *driver) reportRatio(base, other *result.Result, runNumber int) error {
	d.pairs = append(d.pairs, [2]*result.Result{base, other})
	fmt.Fprintln(d.out, result.RatioLine(base, other, d.cfg.Statistics))
	if d.jsonOut == nil {
		return nil
	}
	// JSON has no NaN: a ratio over a zero base is null.
	ratios := map[string]*float64{}
	for _, f := range result.Figures(base, other, d.cfg.Statistics) {
		if !math.IsNaN(f.Value) {
			ratios[f.Key()] = &f.Value
		} else {
			ratios[f.Key()] = nil
		}
	}
	return result.WriteJSONLine(d.jsonOut, map[string]interface{}{
		"record": "ratio", "benchmark": base.Benchmark, "engine": other.Engine + "/" + base.Engine, "run": runNumber, "ratios": ratios,
	})
}

// runMeta runs a meta benchmark (stats, levelstats) on each engine.
func (d *driver) runMeta(b *benchmarks.Benchmark) error {
	for _, e := range d.engines {
		if e.db == nil {
			if err := e.open(); err != nil {
				return err
			}
		}
	}
	// The engines ran one after the other, so the one that wrote last
	// would be described in the middle of its compactions, while the
	// other's had time to finish: both are described once theirs are done,
	// as a run starts.
	if len(d.engines) > 1 {
		d.settleAll()
	}
	for _, e := range d.engines {
		if len(d.engines) > 1 {
			fmt.Fprintf(d.out, "%s (%s):\n", b.Name, e.name)
		}
		data, err := b.Meta(d.out, e.db, d.cfg)
		if err != nil {
			return errors.Wrapf(err, "%s on %s", b.Name, e.name)
		}
		if d.jsonOut != nil {
			if err := result.WriteJSONLine(d.jsonOut, map[string]interface{}{"record": "meta", "benchmark": b.Name, "engine": e.name, "data": data}); err != nil {
				return err
			}
		}
	}
	return nil
}

// printStatistics prints each engine's STATISTICS, summed over the runs of
// the invocation as db_bench's are cumulative, pebblerf's per-level seek
// table (seekstats' LevelTable, counted since the DB was last opened, so
// over the runs since the last reopen), and under -engine=both a ratio line
// for the tickers both engines have. Under -json each engine's tickers and
// level table are also one JSON object.
func (d *driver) printStatistics() error {
	for _, e := range d.engines {
		title := "STATISTICS:"
		if len(d.engines) > 1 {
			title = fmt.Sprintf("STATISTICS (%s):", e.name)
		}
		statistics.Print(d.out, title, e.tickers)
		var table string
		if e.db != nil {
			table = e.db.LevelTable()
		}
		if table != "" {
			fmt.Fprintf(d.out, "Seek statistics per level (%s, since the last open):\n%s", e.name, table)
		}
		if d.jsonOut != nil {
			obj := map[string]interface{}{"record": "statistics", "benchmark": "statistics", "engine": e.name, "statistics": statistics.Map(e.tickers)}
			if table != "" {
				obj["level_table"] = table
			}
			if err := result.WriteJSONLine(d.jsonOut, obj); err != nil {
				return err
			}
		}
	}
	if len(d.engines) == 2 {
		var b strings.Builder
		fmt.Fprintf(&b, "ratio %s/%s STATISTICS :", d.engines[1].name, d.engines[0].name)
		result.FormatFigures(&b, result.TickerRatios(d.engines[0].tickers, d.engines[1].tickers))
		fmt.Fprintln(d.out, b.String())
	}
	return nil
}
