// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

import (
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/values"
)

// durationCheckEvery is how many operations pass between clock reads when
// -duration is set and no latency histogram reads the clock, as db_bench's
// ops_between_duration_checks: reading the clock every operation would cost
// more than a memtable Get.
const DurationCheckEvery = 1000

// progressEvery is how many operations pass between updates of the counter
// the progress reporter reads, so the reporter costs the workers nothing
// measurable.
const progressEvery = 64

// worker is one benchmark thread: its own random source, key buffer, value
// generator, operation limit and counters. A benchmark's loop is
//
//	for w.next() {
//		... one operation ...
//		w.done(1, bytes)
//	}
type Worker struct {
	ID     int
	rng    *rand.Rand
	keys   keyspace.Gen
	key    []byte
	values *values.Gen

	limit    int64
	deadline time.Time
	stop     *atomic.Bool
	Hist     *hist.Histogram
	Progress *progress.Counter

	// interval paces the operations (-benchmark_read_rate_limit), 0 = as
	// fast as they go.
	Interval time.Duration
	opStart  time.Time
	Ops      int64
	Found    int64
	Bytes    int64
	// blockBytes is the data-block bytes the worker's iterators read.
	BlockBytes int64
	// emptyRanges counts the seeks whose range was drawn to be empty.
	EmptyRanges int64
	Interrupted bool
	Start       time.Time
	Finish      time.Time
	// cpu is the CPU time of the worker's thread over the run, -1 if
	// unknown.
	CPU time.Duration
	// Turns hands the thread to the other engine's worker every so many
	// operations under -interleave; nil otherwise.
	Turns Turns
}

// Turns is a worker's side of two workers that take turns on the machine
// (-interleave), so that at any moment only one of them runs.
type Turns interface {
	// Wait blocks until the worker holds the turn; called once, before the
	// worker's clock starts.
	Wait()
	// Done counts ops operations of the turn and, once the turn's are done,
	// hands the turn over and waits for it back.
	Done(ops int64)
	// Finish marks the worker done and hands over its last turn.
	Finish()
	// Waited is the time the worker waited for its turns after it started:
	// the other engine's, left out of the worker's times.
	Waited() time.Duration
}

// Waited is the time w waited for its turns, 0 without turns.
func (w *Worker) Waited() time.Duration {
	if w.Turns == nil {
		return 0
	}
	return w.Turns.Waited()
}

// workerSeed makes the seed of one thread of one benchmark run: the same
// (-seed, run, thread, stream) gives the same keys, which is how both
// engines of -engine=both get identical data and identical lookups, while
// successive runs (and repeats) draw different keys as db_bench's do.
//
// Writers and readers draw from different streams. Run numbers restart with
// every invocation, so without them a read run over an existing DB, with the
// seed of its fill, would look up exactly the keys the fill wrote in the
// same order (every key found, where a uniform draw finds about 63% after
// fillrandom).
func workerSeed(seed int64, run, thread int, stream KeyStream) (uint64, uint64) {
	return uint64(seed), uint64(stream)<<62 | uint64(run)<<20 | uint64(thread)
}

// keyStream separates the random keys of writers from those of readers.
type KeyStream uint8

const (
	WriteStream KeyStream = iota
	ReadStream
)

func NewWorker(c *config.Config, id, run int, stream KeyStream, limit int64, useDuration bool, stop *atomic.Bool) *Worker {
	s1, s2 := workerSeed(c.Seed, run, id, stream)
	w := &Worker{
		ID:     id,
		rng:    rand.New(rand.NewPCG(s1, s2)),
		keys:   c.KeyGen(),
		key:    make([]byte, c.KeySize),
		values: values.New(301+uint64(id), c.CompressionRatio, c.ValueSize),
		limit:  limit,
		stop:   stop,
	}
	if useDuration && c.Duration > 0 {
		w.limit = math.MaxInt64
		w.deadline = time.Now().Add(time.Duration(c.Duration) * time.Second)
	}
	if c.RecordLatencies() {
		w.Hist = hist.New()
	}
	w.Progress = progress.NewCounter(w.limit)
	return w
}

// next reports whether the worker should do another operation, and starts
// the operation's clock when latencies are recorded.
func (w *Worker) next() bool {
	if w.Ops >= w.limit {
		return false
	}
	if w.stop.Load() {
		w.Interrupted = true
		return false
	}
	if w.Interval > 0 {
		// -benchmark_read_rate_limit: operation n starts no sooner than
		// n intervals after the first; the wait is not the operation's.
		if d := time.Until(w.Start.Add(time.Duration(w.Ops) * w.Interval)); d > 0 {
			time.Sleep(d)
		}
	}
	if w.Hist != nil || w.Interval > 0 {
		// The clock is read every operation anyway (for the histogram, or
		// the rate), so the deadline is checked every operation too: with
		// slow or paced operations, durationCheckEvery of them could
		// outlast it by minutes.
		w.opStart = time.Now()
		return w.deadline.IsZero() || w.opStart.Before(w.deadline)
	}
	if !w.deadline.IsZero() && w.Ops%DurationCheckEvery == 0 && !time.Now().Before(w.deadline) {
		return false
	}
	return true
}

// done ends an operation that counted ops operations (a write batch counts
// its keys) and moved bytes bytes.
func (w *Worker) done(ops, bytes int64) {
	if w.Hist != nil {
		w.Hist.Record(int64(time.Since(w.opStart)))
	}
	before := w.Ops
	w.Ops += ops
	w.Bytes += bytes
	if w.Ops/progressEvery != before/progressEvery {
		w.Progress.Store(w.Ops)
	}
	if w.Turns != nil {
		w.Turns.Done(ops)
	}
}

// closeIter adds the block bytes it read to the worker's and closes it.
func (w *Worker) closeIter(it engine.Iterator) error {
	w.BlockBytes += int64(it.Stats().InternalStats.BlockBytes)
	return it.Close()
}
