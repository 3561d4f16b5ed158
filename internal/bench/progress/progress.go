// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package progress prints a progress line every few seconds of a
// benchmark run, as Pebble's cmd/pebble does, so a long run shows it is
// alive and how fast it goes; a run shorter than the interval prints none.
// Result lines go to stdout and progress to stderr, so they never mix.
//
// Each benchmark thread publishes its operation count in a Counter, which
// costs it an atomic store now and then; a Reporter's goroutine reads the
// counters on every tick. With a CSV file each tick also appends a row, in
// RocksDB db_bench's -report_file format: its first two columns,
// secs_elapsed (since the start of the benchmark run, rounded) and
// interval_qps (operations completed in the interval: a rate only when the
// interval is one second, as in db_bench), and two more, benchmark and
// engine, because one file holds every run of an invocation where db_bench
// rewrites it per benchmark.
package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
)

// Counter is one thread's count of operations done, as far as it has
// published it.
type Counter struct {
	done atomic.Int64
	// limit is the thread's operations in all, 0 if unknown (a timed run).
	limit atomic.Int64
}

// NewCounter returns a counter of a thread that will do limit operations;
// 0 (or math.MaxInt64, a thread that runs until stopped) means unknown.
func NewCounter(limit int64) *Counter {
	c := &Counter{}
	c.Set(0, limit)
	return c
}

// Store publishes the operations done so far.
func (c *Counter) Store(done int64) { c.done.Store(done) }

// Set publishes the operations done so far and the limit, for a counter
// that sums others (several threads', or another process's); a limit of 0
// or math.MaxInt64 is unknown.
func (c *Counter) Set(done, limit int64) {
	if limit == math.MaxInt64 {
		limit = 0
	}
	c.limit.Store(limit)
	c.done.Store(done)
}

// Done is the operations done as far as published.
func (c *Counter) Done() int64 { return c.done.Load() }

// Limit is the operations in all, 0 if unknown.
func (c *Counter) Limit() int64 { return c.limit.Load() }

// Reporter prints the progress of one run at a time.
type Reporter struct {
	interval time.Duration
	file     *os.File // nil without a CSV file
	stderr   io.Writer

	label    string
	counters []*Counter
	quit     chan struct{}
	exited   chan struct{}
}

// New returns a reporter that prints to stderr every interval and, if
// csvPath is not empty, appends a row to the CSV file it creates there.
func New(stderr io.Writer, interval time.Duration, csvPath string) (*Reporter, error) {
	p := &Reporter{interval: interval, stderr: stderr}
	if csvPath == "" {
		return p, nil
	}
	f, err := os.Create(csvPath)
	if err != nil {
		return nil, err
	}
	p.file = f
	if _, err := fmt.Fprintln(f, "secs_elapsed,interval_qps,benchmark,engine"); err != nil {
		return nil, errors.CombineErrors(err, f.Close())
	}
	return p, nil
}

// Begin starts reporting on the given threads' counters.
func (p *Reporter) Begin(bench, engineName string, counters []*Counter) {
	p.label = bench + "," + engineName
	p.counters = counters
	p.quit = make(chan struct{})
	p.exited = make(chan struct{})
	go p.loop(bench+"/"+engineName, time.Now())
}

// End stops reporting; the partial last interval is not written.
func (p *Reporter) End() {
	close(p.quit)
	<-p.exited
}

func (p *Reporter) loop(name string, start time.Time) {
	defer close(p.exited)
	tick := time.NewTicker(p.interval)
	defer tick.Stop()
	var last int64
	for {
		select {
		case <-p.quit:
			return
		case now := <-tick.C:
			var total, limit int64
			known := true // false under -duration, or with no count
			for _, c := range p.counters {
				l := c.Limit()
				total += c.Done()
				known = known && l > 0 && l < math.MaxInt64/int64(len(p.counters))
				limit += l
			}
			secs := now.Sub(start).Seconds()
			if p.file != nil {
				// Each row is written straight to the file, which is as
				// good as db_bench's flush after every row.
				fmt.Fprintf(p.file, "%d,%d,%s\n", int64(math.Round(secs)), total-last, p.label)
			}
			done := ""
			if known && limit > 0 {
				done = fmt.Sprintf(" (%.0f%% of %d)", 100*float64(total)/float64(limit), limit)
			}
			fmt.Fprintf(p.stderr, "... %s: %.0f s, %d ops%s, %.1f ops/sec in the last %v\n",
				name, secs, total, done, float64(total-last)/p.interval.Seconds(), p.interval)
			last = total
		}
	}
}

// Close closes the CSV file, if any.
func (p *Reporter) Close() error {
	if p.file == nil {
		return nil
	}
	return p.file.Close()
}

// Every calls f every interval, on a goroutine of its own, until the
// returned function is called; that function returns once f has returned
// for the last time, so that f's work is done when it does.
func Every(interval time.Duration, f func()) (stop func()) {
	quit, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				f()
			}
		}
	}()
	return func() {
		close(quit)
		<-exited
	}
}
