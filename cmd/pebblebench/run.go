// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/internal/cputime"
)

// seekBlockBytesTicker is the bytes of the blocks (index, data and filter
// blocks, as Pebble's InternalIteratorStats.BlockBytes counts them) that the seek benchmarks' iterators loaded, from their
// IteratorStats: the cost range filters and the query builder are meant to
// cut. Both engines count it alike.
const seekBlockBytesTicker = "pebblebench.seek.block.bytes"

// run is one timed execution of a benchmark on one engine.
type run struct {
	cfg   *config.Config
	db    engine.DB
	bench *benchmark
	// seq numbers the runs of the invocation; both engines' runs of the same
	// repeat share it, so they draw the same keys.
	seq int
	// written is the sparse fill's key set, nil after a dense fill: fills
	// add to it, seeks draw targets from it.
	written *keyspace.Set
	// stop is set by SIGINT: workers finish their operation and return.
	stop     *atomic.Bool
	progress *progress.Reporter
}

// execute runs the benchmark's threads (and its background writer) and
// merges what they measured. Statistics are the engine's tickers' change
// across the run.
func (r *run) execute() (*result.Result, error) {
	x := r.begin(r.db.Name())
	var wg sync.WaitGroup
	for i := range x.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.work(i)
		}()
	}
	wg.Wait()
	return x.end()
}

// executeInterleaved runs one benchmark on two engines at once, taking
// turns of every operations (-interleave): each engine's single worker
// runs on a thread of its own and hands the turn to the other after every
// that many operations, so that whatever the machine does meanwhile (a
// neighbour's burst, a slower core) falls on both engines alike, where
// two whole runs one after the other each take the machine as it is for
// their own seconds. The time a worker waits for its turn is not its own:
// see turns.waited. Background work (flushes, compactions) runs on
// Pebble's goroutines during either engine's turn, as it does between
// runs: the thread CPU of result.CPUSeconds leaves it out on both sides.
//
// The benchmark must have one thread and no background writer
// (driver.interleaves).
func executeInterleaved(a, b *run, every int64) (*result.Result, *result.Result, error) {
	xa, xb := a.begin(""), b.begin("")
	if a.progress != nil {
		a.progress.Begin(a.bench.name, a.db.Name()+"+"+b.db.Name(), []*progress.Counter{xa.workers[0].progress, xb.workers[0].progress})
	}
	ta, tb := newTurns(every)
	xa.workers[0].turns, xb.workers[0].turns = ta, tb
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); xa.work(0) }()
	go func() { defer wg.Done(); xb.work(0) }()
	wg.Wait()
	if a.progress != nil {
		a.progress.End()
	}
	ra, errA := xa.end()
	rb, errB := xb.end()
	return ra, rb, errors.Join(errA, errB)
}

// execution is one run in progress: its workers, its background writer,
// and what was read of the DB when it started.
type execution struct {
	r       *run
	workers []*worker
	bg      *worker
	bgStop  atomic.Bool
	bgDone  sync.WaitGroup
	before  []statistics.Ticker
	watch   *lsm.Watcher
	// progress is whether this execution reports to r.progress itself.
	progress bool
	// errs holds each worker's error, the background writer's last.
	errs []error
}

// begin makes the run's workers, starts its background writer and its
// LSM watcher, and reports progress under the label progressName ("" for
// none: executeInterleaved reports both engines under one).
func (r *run) begin(progressName string) *execution {
	c, b := r.cfg, r.bench
	threads := c.Threads
	if b.singleThread {
		threads = 1
	}
	stream := readStream
	if !b.reads {
		stream = writeStream
	}
	x := &execution{r: r, workers: make([]*worker, threads), errs: make([]error, threads+1)}
	for i := range x.workers {
		x.workers[i] = newWorker(c, i, r.seq, stream, b.limit(c), !b.ignoresDuration, r.stop)
		if b.reads && c.ReadRateLimit > 0 {
			// Each thread takes its share of the rate.
			x.workers[i].interval = time.Duration(float64(threads) / float64(c.ReadRateLimit) * float64(time.Second))
		}
	}
	if b.background != nil {
		// The background writer stops when the readers are done or on
		// SIGINT.
		x.bg = newWorker(c, threads, r.seq, writeStream, math.MaxInt64, false, &x.bgStop)
		x.bg.hist = nil
	}
	x.before = r.db.Tickers()
	if c.LSMSampleMs > 0 {
		_, _, _ = r.db.Stalls().Take() // count this run's stalls only
		x.watch = lsm.Watch(r.db, time.Duration(c.LSMSampleMs)*time.Millisecond)
	}
	if r.progress != nil && progressName != "" {
		counters := make([]*progress.Counter, len(x.workers))
		for i, w := range x.workers {
			counters[i] = w.progress
		}
		r.progress.Begin(b.name, progressName, counters)
		x.progress = true
	}
	if x.bg != nil {
		x.bgDone.Add(1)
		go func() {
			defer x.bgDone.Done()
			x.bg.start = time.Now()
			engine.Labels(r.db.Name(), func() { x.errs[threads] = b.background(r, x.bg) })
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
	w.turns.wait()
	defer w.turns.finish()
	cpu0 := cputime.Thread()
	w.start = time.Now()
	engine.Labels(x.r.db.Name(), func() { x.errs[i] = x.r.bench.loop(x.r, w) })
	w.finish = time.Now()
	if cputime.Supported {
		w.cpu = cputime.Thread() - cpu0
	} else {
		w.cpu = -1
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
		lsm = x.watch.Stop(r.db.Stalls(), r.cfg.RunsTarget())
	}
	if x.progress {
		r.progress.End()
	}
	if err := errors.Join(x.errs...); err != nil {
		return nil, errors.Wrapf(err, "%s on %s", r.bench.name, r.db.Name())
	}
	res := mergeWorkers(r.cfg, r.bench, r.db.Name(), x.workers)
	res.Tickers = statistics.Subtract(r.db.Tickers(), x.before)
	if lsm != nil {
		lsm.SetWriteAmp(res.Tickers)
		res.LSM = lsm
	}
	if r.bench.opKind == "seek" {
		var blockBytes int64
		for _, w := range x.workers {
			blockBytes += w.blockBytes
		}
		res.Tickers = append(res.Tickers, statistics.Ticker{Name: seekBlockBytesTicker, Count: blockBytes})
	}
	return res, nil
}

// mergeWorkers combines the threads' counters as db_bench's Stats::Merge
// does: the run lasts from the first start to the last finish, and the
// per-thread times add up for micros/op.
func mergeWorkers(c *config.Config, b *benchmark, engineName string, workers []*worker) *result.Result {
	res := &result.Result{Benchmark: b.name, Engine: engineName, OpKind: b.opKind, ShowFound: b.showFound, ShowBytes: b.showBytes(c)}
	var start, finish time.Time
	for _, w := range workers {
		if start.IsZero() || w.start.Before(start) {
			start = w.start
		}
		if w.finish.After(finish) {
			finish = w.finish
		}
		res.Ops += w.ops
		res.Found += w.found
		res.EmptyRanges += w.emptyRanges
		res.Bytes += w.bytes
		res.ThreadSeconds += (w.finish.Sub(w.start) - w.turns.waitedFor()).Seconds()
		if w.cpu < 0 || res.CPUSeconds < 0 {
			res.CPUSeconds = -1
		} else {
			res.CPUSeconds += w.cpu.Seconds()
		}
		res.Interrupted = res.Interrupted || w.interrupted
		if w.hist != nil {
			if res.Hist == nil {
				res.Hist = hist.New()
			}
			res.Hist.Merge(w.hist)
		}
	}
	// An interleaved run has one worker, so its waits are the run's.
	res.Seconds = finish.Sub(start).Seconds()
	if len(workers) == 1 {
		res.Seconds -= workers[0].turns.waitedFor().Seconds()
	}
	return res
}
