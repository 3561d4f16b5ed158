// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/driver"
	"github.com/pebblerf/pebble/internal/bench/engineproc"
	"github.com/pebblerf/pebble/internal/bench/runner"
)

// startEngines starts the engines of c (-engine), in the order they
// alternate; stop is set on SIGINT. One engine runs in this process, as
// db_bench's does; under -engine=both each runs in a process of its own
// (package engineproc), so that each one's process CPU is its own,
// flushes and compactions included, writing its CPU profile to profile
// with its name before the extension ("" for none). The engines live
// across the command lines of a scenario's phases, until the returned
// function ends them.
func startEngines(c *config.Config, stderr io.Writer, stop *atomic.Bool, profile string) ([]driver.Engine, func() error, error) {
	if c.Engine != config.EngineBoth {
		return []driver.Engine{runner.New(c.Engine, runner.NewStores(), stop)}, func() error { return nil }, nil
	}
	var procs []*engineproc.Process
	closeAll := func() error {
		var err error
		for _, p := range procs {
			err = errors.CombineErrors(err, p.Close())
		}
		return err
	}
	var engines []driver.Engine
	for _, name := range c.Engines() {
		p, err := engineproc.Start(name, stderr, stop, profile)
		if err != nil {
			return nil, nil, errors.CombineErrors(err, closeAll())
		}
		procs = append(procs, p)
		engines = append(engines, p)
	}
	return engines, closeAll, nil
}

// shareable returns w for this process and its engines' processes to write
// to at once: an *os.File as it is (each write is one system call, and a
// child writes to it directly), any other writer behind a lock, as the
// copying of a child's output into it runs beside this process's writes.
func shareable(w io.Writer) io.Writer {
	if _, ok := w.(*os.File); ok {
		return w
	}
	return &lockedWriter{w: w}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
