// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/cockroachdb/errors"
)

// progressReporter prints a progress line on stderr every few seconds of a
// benchmark run, as Pebble's cmd/pebble does, so a long run shows it is
// alive and how fast it goes; a run shorter than the interval prints none.
// Result lines go to stdout, so progress never mixes with them.
//
// With -report_interval_seconds the lines come at that interval and each
// also appends a row to -report_file. The file keeps db_bench's first two
// columns, secs_elapsed (since the start of the benchmark run, rounded) and
// interval_qps (operations completed in the interval: a rate only when the
// interval is one second, as in db_bench), and adds two, benchmark and
// engine, because one file holds every run of the invocation where db_bench
// rewrites it per benchmark.
type progressReporter struct {
	interval time.Duration
	file     *os.File // nil without -report_interval_seconds
	stderr   io.Writer

	label   string
	workers []*worker
	// sampler, if set, is asked at begin (on the run's goroutine) for a
	// function the reporter's goroutine then calls on every tick with the
	// seconds since the run began (-report_html's funnel over time).
	sampler func(bench, engineName string) func(secs float64)
	quit    chan struct{}
	exited  chan struct{}
}

// defaultProgressInterval is the interval of the progress lines without
// -report_interval_seconds.
var defaultProgressInterval = 5 * time.Second

func newProgressReporter(c *config, stderr io.Writer) (*progressReporter, error) {
	p := &progressReporter{interval: defaultProgressInterval, stderr: stderr}
	if c.reportIntervalSeconds == 0 {
		return p, nil
	}
	p.interval = time.Duration(c.reportIntervalSeconds) * time.Second
	f, err := os.Create(c.reportFile)
	if err != nil {
		return nil, errors.Wrap(err, "-report_file")
	}
	p.file = f
	if _, err := fmt.Fprintln(f, "secs_elapsed,interval_qps,benchmark,engine"); err != nil {
		return nil, errors.CombineErrors(err, f.Close())
	}
	return p, nil
}

// begin starts reporting on the given workers.
func (p *progressReporter) begin(bench, engineName string, workers []*worker) {
	p.label = bench + "," + engineName
	p.workers = workers
	p.quit = make(chan struct{})
	p.exited = make(chan struct{})
	var onTick func(float64)
	if p.sampler != nil {
		onTick = p.sampler(bench, engineName)
	}
	go p.loop(bench+"/"+engineName, time.Now(), onTick)
}

// end stops reporting; the partial last interval is not written.
func (p *progressReporter) end() {
	close(p.quit)
	<-p.exited
}

func (p *progressReporter) loop(name string, start time.Time, onTick func(float64)) {
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
			for _, w := range p.workers {
				total += w.progress.Load()
				known = known && w.deadline.IsZero() && w.limit < math.MaxInt64/int64(len(p.workers))
				limit += w.limit
			}
			secs := now.Sub(start).Seconds()
			if onTick != nil {
				onTick(secs)
			}
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

func (p *progressReporter) close() error {
	if p.file == nil {
		return nil
	}
	return p.file.Close()
}
