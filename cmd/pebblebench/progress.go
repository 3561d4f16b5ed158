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

// progressReporter is -report_interval_seconds: every interval it appends a
// row to the report file and prints a progress line on stderr.
//
// The file keeps db_bench's first two columns, secs_elapsed (since the start
// of the benchmark run, rounded) and interval_qps (operations completed in
// the interval: a rate only when the interval is one second, as in
// db_bench), and adds two, benchmark and engine, because one file holds
// every run of the invocation where db_bench rewrites it per benchmark.
type progressReporter struct {
	interval time.Duration
	file     *os.File
	stderr   io.Writer

	label   string
	workers []*worker
	quit    chan struct{}
	exited  chan struct{}
}

func newProgressReporter(c *config, stderr io.Writer) (*progressReporter, error) {
	f, err := os.Create(c.reportFile)
	if err != nil {
		return nil, errors.Wrap(err, "-report_file")
	}
	if _, err := fmt.Fprintln(f, "secs_elapsed,interval_qps,benchmark,engine"); err != nil {
		return nil, err
	}
	return &progressReporter{
		interval: time.Duration(c.reportIntervalSeconds) * time.Second,
		file:     f,
		stderr:   stderr,
	}, nil
}

// begin starts reporting on the given workers.
func (p *progressReporter) begin(bench, engineName string, workers []*worker) {
	p.label = bench + "," + engineName
	p.workers = workers
	p.quit = make(chan struct{})
	p.exited = make(chan struct{})
	go p.loop(bench+"/"+engineName, time.Now())
}

// end stops reporting; the partial last interval is not written.
func (p *progressReporter) end() {
	close(p.quit)
	<-p.exited
}

func (p *progressReporter) loop(name string, start time.Time) {
	defer close(p.exited)
	tick := time.NewTicker(p.interval)
	defer tick.Stop()
	var last int64
	for {
		select {
		case <-p.quit:
			return
		case now := <-tick.C:
			var total int64
			for _, w := range p.workers {
				total += w.progress.Load()
			}
			secs := now.Sub(start).Seconds()
			// Each row is written straight to the file, which is as good as
			// db_bench's flush after every row.
			fmt.Fprintf(p.file, "%d,%d,%s\n", int64(math.Round(secs)), total-last, p.label)
			fmt.Fprintf(p.stderr, "... %s: %.0f s, %d ops, %.1f ops/sec in the last %v\n",
				name, secs, total, float64(total-last)/p.interval.Seconds(), p.interval)
			last = total
		}
	}
}

func (p *progressReporter) close() error { return p.file.Close() }
