// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/progress"
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
	cfg   *config
	db    engine
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
func (r *run) execute() (*result, error) {
	c, b := r.cfg, r.bench
	threads := c.threads
	if b.singleThread {
		threads = 1
	}
	stream := readStream
	if !b.reads {
		stream = writeStream
	}
	workers := make([]*worker, threads)
	for i := range workers {
		workers[i] = newWorker(c, i, r.seq, stream, b.limit(c), !b.ignoresDuration, r.stop)
		if b.reads && c.readRateLimit > 0 {
			// Each thread takes its share of the rate.
			workers[i].interval = time.Duration(float64(threads) / float64(c.readRateLimit) * float64(time.Second))
		}
	}

	// The background writer stops when the readers are done or on SIGINT.
	var bgStop atomic.Bool
	var bg *worker
	if b.background != nil {
		bg = newWorker(c, threads, r.seq, writeStream, math.MaxInt64, false, &bgStop)
		bg.hist = nil
	}

	before := r.db.Tickers()
	var watch *lsm.Watcher
	if c.lsmSampleMs > 0 {
		_, _, _ = r.db.Stalls().Take() // count this run's stalls only
		watch = lsm.Watch(r.db, time.Duration(c.lsmSampleMs)*time.Millisecond)
	}
	if r.progress != nil {
		counters := make([]*progress.Counter, len(workers))
		for i, w := range workers {
			counters[i] = w.progress
		}
		r.progress.Begin(b.name, r.db.Name(), counters)
	}
	errs := make([]error, threads+1)
	var bgDone sync.WaitGroup
	if bg != nil {
		bgDone.Add(1)
		go func() {
			defer bgDone.Done()
			bg.start = time.Now()
			errs[threads] = b.background(r, bg)
		}()
	}
	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Locked to one thread, the worker's thread CPU time is its
			// own: see result.cpuMicrosPerOp.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := cputime.Thread()
			w.start = time.Now()
			errs[i] = b.loop(r, w)
			w.finish = time.Now()
			if cputime.Supported {
				w.cpu = cputime.Thread() - cpu0
			} else {
				w.cpu = -1
			}
		}()
	}
	wg.Wait()
	bgStop.Store(true)
	bgDone.Wait()
	var lsm *lsm.Summary
	if watch != nil {
		lsm = watch.Stop(r.db.Stalls(), c.runsTarget())
	}
	if r.progress != nil {
		r.progress.End()
	}
	if err := errors.Join(errs...); err != nil {
		return nil, errors.Wrapf(err, "%s on %s", b.name, r.db.Name())
	}
	res := mergeWorkers(b, r.db.Name(), workers)
	res.Tickers = statistics.Subtract(r.db.Tickers(), before)
	if lsm != nil {
		lsm.SetWriteAmp(res.Tickers)
		res.LSM = lsm
	}
	if b.opKind == "seek" {
		var blockBytes int64
		for _, w := range workers {
			blockBytes += w.blockBytes
		}
		res.Tickers = append(res.Tickers, statistics.Ticker{Name: seekBlockBytesTicker, Count: blockBytes})
	}
	return res, nil
}

// mergeWorkers combines the threads' counters as db_bench's Stats::Merge
// does: the run lasts from the first start to the last finish, and the
// per-thread times add up for micros/op.
func mergeWorkers(b *benchmark, engineName string, workers []*worker) *result {
	res := &result{Benchmark: b.name, Engine: engineName, bench: b}
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
		res.ThreadSeconds += w.finish.Sub(w.start).Seconds()
		if w.cpu < 0 || res.CPUSeconds < 0 {
			res.CPUSeconds = -1
		} else {
			res.CPUSeconds += w.cpu.Seconds()
		}
		res.Interrupted = res.Interrupted || w.interrupted
		if w.hist != nil {
			if res.hist == nil {
				res.hist = hist.New()
			}
			res.hist.Merge(w.hist)
		}
	}
	res.Seconds = finish.Sub(start).Seconds()
	return res
}
