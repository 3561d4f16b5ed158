// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/internal/cputime"
)

// Run times one run of benchmark name, the invocation's run number seq,
// on the DB Prepare readied, and records what it did to the DB: its
// requests to the object store, its writes, its fill. It returns once the
// flushes and compactions the run started are done. Its threads' work
// is counted in counter as it goes (done and limit summed over the threads,
// every progressTick) for the progress lines.
//
// With turns (-interleave) the benchmark's single thread takes turns with
// the other engine's: it runs turn's operations, hands the turn over and
// waits for it back, so that whatever the machine does meanwhile (a
// neighbour's burst, a slower core) falls on both engines alike, where two
// whole runs one after the other each take the machine as it is for their
// own seconds. The time it waits for its turn is not its own, and is left
// out of its seconds (result.Result.Seconds); its thread CPU is not spent
// while it waits. Background work (flushes, compactions) runs on Pebble's
// goroutines during either engine's turn, as it does between runs.
func (e *Engine) Run(name string, seq int, turns benchmarks.Turns, counter *progress.Counter) (*result.Result, error) {
	b, ok := benchmarks.ByName(name)
	if !ok || b.Loop == nil {
		return nil, errors.AssertionFailedf("no timed benchmark %q", name)
	}
	if turns != nil && (b.Background != nil || (!b.SingleThread && e.cfg.Threads != 1)) {
		return nil, errors.AssertionFailedf("%s cannot take turns: its threads are not one", name)
	}
	r := &run{Run: benchmarks.Run{Config: e.cfg, DB: e.db, Seq: seq, Written: e.written}, bench: b, stop: e.stop}
	remoteBefore := e.remoteSnapshot()
	cpu0, cpuOK := processCPU()
	x := r.begin()
	if turns != nil {
		x.workers[0].Turns = turns
	}
	stopProgress := x.publish(counter)
	stopSampling := e.sampleFunnels(name)
	var wg sync.WaitGroup
	for i := range x.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.work(i)
		}()
	}
	// A write waiting for room in the memtables waits for good on a store
	// that is down: the run ends with the store's error instead.
	if err := e.health.wait(func() error { wg.Wait(); return nil }); err != nil {
		return nil, errors.Wrapf(err, "%s on %s", name, e.name)
	}
	stopSampling()
	stopProgress()
	res, err := x.end()
	if err != nil {
		return nil, err
	}
	e.finishRemote(res, remoteBefore)
	// The flushes and compactions the run left are finished before it
	// returns (untimed), so that neither they nor their garbage run during
	// the next run, the other engine's or this one's.
	e.settle()
	if err := e.health.failure(); err != nil {
		return nil, errors.Wrapf(err, "%s on %s", name, e.name)
	}
	// The process CPU is read once the run's own flushes and compactions
	// are done, so that it counts the background work the run caused.
	res.ProcessCPUSeconds = -1
	if cpu1, ok := processCPU(); ok && cpuOK {
		res.ProcessCPUSeconds = (cpu1 - cpu0).Seconds()
	}
	if b.Writes {
		e.dirty = true
	}
	if b.Fresh {
		// Recorded for -use_existing_db runs; the DB is left whatever
		// happens to the record.
		if err := writeFillRecord(e.dir, newFillRecord(e.cfg, b.Name, e.name)); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// run is one timed execution of a benchmark on one engine.
type run struct {
	// Run is what the benchmark's loops read.
	benchmarks.Run
	bench *benchmarks.Benchmark
	// stop is set by SIGINT: workers finish their operation and return.
	stop *atomic.Bool
}

// progressTick is how often a run sums its threads' counts for the
// progress lines: often enough that a line printed every few seconds is
// current, rarely enough to cost nothing.
const progressTick = 100 * time.Millisecond

// publish sums the workers' counts into counter every progressTick until
// the returned function is called, which publishes the last counts; a nil
// counter publishes nothing.
func (x *execution) publish(counter *progress.Counter) (stop func()) {
	if counter == nil {
		return func() {}
	}
	sum := func() {
		var done, limit int64
		for _, w := range x.workers {
			done += w.Progress.Done()
			limit += w.Progress.Limit()
		}
		counter.Set(done, limit)
	}
	sum() // the limits, before any operation
	stopSums := progress.Every(progressTick, sum)
	return func() {
		stopSums()
		sum()
	}
}

// execution is one run in progress: its workers, its background writer,
// and what was read of the DB when it started.
type execution struct {
	r       *run
	workers []*benchmarks.Worker
	bg      *benchmarks.Worker
	bgStop  atomic.Bool
	bgDone  sync.WaitGroup
	before  []statistics.Ticker
	watch   *lsm.Watcher
	// errs holds each worker's error, the background writer's last.
	errs []error
}

// begin makes the run's workers, and starts its background writer and its
// LSM watcher.
func (r *run) begin() *execution {
	c, b := r.Config, r.bench
	threads := c.Threads
	if b.SingleThread {
		threads = 1
	}
	stream := benchmarks.ReadStream
	if !b.Reads {
		stream = benchmarks.WriteStream
	}
	x := &execution{r: r, workers: make([]*benchmarks.Worker, threads), errs: make([]error, threads+1)}
	for i := range x.workers {
		x.workers[i] = benchmarks.NewWorker(c, i, r.Seq, stream, b.Limit(c), !b.IgnoresDuration, r.stop)
		if b.Reads && c.ReadRateLimit > 0 {
			// Each thread takes its share of the rate.
			x.workers[i].Interval = time.Duration(float64(threads) / float64(c.ReadRateLimit) * float64(time.Second))
		}
	}
	if b.Background != nil {
		// The background writer stops when the readers are done or on
		// SIGINT.
		x.bg = benchmarks.NewWorker(c, threads, r.Seq, benchmarks.WriteStream, math.MaxInt64, false, &x.bgStop)
		x.bg.Hist = nil
	}
	x.before = r.DB.Tickers()
	if c.LSMSampleMs > 0 {
		_, _, _ = r.DB.Stalls().Take() // count this run's stalls only
		x.watch = lsm.Watch(r.DB, time.Duration(c.LSMSampleMs)*time.Millisecond)
	}
	if x.bg != nil {
		x.bgDone.Add(1)
		go func() {
			defer x.bgDone.Done()
			x.bg.Start = time.Now()
			engine.Labels(r.DB.Name(), func() { x.errs[threads] = b.Background(&r.Run, x.bg) })
		}()
	}
	return x
}

// work runs worker i's loop on the calling goroutine.
func (x *execution) work(i int) {
	w := x.workers[i]
	// Locked to one thread, the worker's thread CPU time is its own: see
	// result.cpuMicrosPerOp.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if w.Turns != nil {
		w.Turns.Wait()
		defer w.Turns.Finish()
	}
	cpu0 := cputime.Thread()
	w.Start = time.Now()
	engine.Labels(x.r.DB.Name(), func() { x.errs[i] = x.r.bench.Loop(&x.r.Run, w) })
	w.Finish = time.Now()
	if cputime.Supported {
		w.CPU = cputime.Thread() - cpu0
	} else {
		w.CPU = -1
	}
}

// end stops the background writer and the watcher once the workers are
// done, and merges what the workers measured.
func (x *execution) end() (*result.Result, error) {
	r := x.r
	x.bgStop.Store(true)
	x.bgDone.Wait()
	var lsm *lsm.Summary
	if x.watch != nil {
		lsm = x.watch.Stop(r.DB.Stalls(), r.Config.RunsTarget())
	}
	if err := errors.Join(x.errs...); err != nil {
		return nil, errors.Wrapf(err, "%s on %s", r.bench.Name, r.DB.Name())
	}
	res := mergeWorkers(r.Config, r.bench, r.DB.Name(), x.workers)
	res.Tickers = statistics.Subtract(r.DB.Tickers(), x.before)
	if lsm != nil {
		lsm.SetWriteAmp(res.Tickers)
		res.LSM = lsm
	}
	if r.bench.OpKind == "seek" {
		var blockBytes int64
		for _, w := range x.workers {
			blockBytes += w.BlockBytes
		}
		res.Tickers = append(res.Tickers, statistics.Ticker{Name: benchmarks.SeekBlockBytesTicker, Count: blockBytes})
	}
	return res, nil
}

// mergeWorkers combines the threads' counters as db_bench's Stats::Merge
// does: the run lasts from the first start to the last finish, and the
// per-thread times add up for micros/op.
func mergeWorkers(c *config.Config, b *benchmarks.Benchmark, engineName string, workers []*benchmarks.Worker) *result.Result {
	res := &result.Result{Benchmark: b.Name, Engine: engineName, OpKind: b.OpKind, ShowFound: b.ShowFound, ShowBytes: b.ShowBytes(c)}
	var start, finish time.Time
	for _, w := range workers {
		if start.IsZero() || w.Start.Before(start) {
			start = w.Start
		}
		if w.Finish.After(finish) {
			finish = w.Finish
		}
		res.Ops += w.Ops
		res.Found += w.Found
		res.EmptyRanges += w.EmptyRanges
		res.Bytes += w.Bytes
		res.ThreadSeconds += (w.Finish.Sub(w.Start) - w.Waited()).Seconds()
		if w.CPU < 0 || res.ThreadCPUSeconds < 0 {
			res.ThreadCPUSeconds = -1
		} else {
			res.ThreadCPUSeconds += w.CPU.Seconds()
		}
		res.Interrupted = res.Interrupted || w.Interrupted
		if w.Hist != nil {
			if res.Hist == nil {
				res.Hist = hist.New()
			}
			res.Hist.Merge(w.Hist)
		}
	}
	// An interleaved run has one worker, so its waits are the run's.
	res.Seconds = finish.Sub(start).Seconds()
	if len(workers) == 1 {
		res.Seconds -= workers[0].Waited().Seconds()
	}
	return res
}
