// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"io"
	"sort"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
)

// benchmark describes one name of -benchmarks.
type benchmark struct {
	name string
	// fresh benchmarks start from an empty DB (db_bench's fresh_db) and are
	// skipped under -use_existing_db.
	fresh bool
	// writes marks benchmarks that leave data in the memtable; reads marks
	// those that read. A benchmark that reads after one that wrote starts on
	// a flushed, closed and reopened DB (see engineState.prepare).
	writes, reads bool
	// singleThread benchmarks ignore -threads (fillseq: several threads
	// writing the same sequence measure nothing).
	singleThread bool
	// ignoresDuration benchmarks always do -num operations (fillseq).
	ignoresDuration bool
	// showFound adds "(F of R found)" to the result line.
	showFound bool
	// showBytes adds MB/s; seekrandom shows it only with -seek_nexts.
	showBytes func(c *config.Config) bool
	// opKind names the histogram: "Microseconds per <opKind>".
	opKind string
	// limit is a thread's operation count.
	limit func(c *config.Config) int64
	// loop is one thread's work.
	loop func(r *run, w *worker) error
	// background, if set, runs in one extra thread until the others finish;
	// its operations are not counted (db_bench's *whilewriting writer).
	background func(r *run, w *worker) error
	// meta benchmarks print about the DB instead of timing operations.
	meta func(out io.Writer, e engine.DB, c *config.Config) (interface{}, error)
}

func always(*config.Config) bool      { return true }
func writeOps(c *config.Config) int64 { return c.Writes }
func readOps(c *config.Config) int64  { return c.Reads }
func oneOp(*config.Config) int64      { return 1 }
func seekBytes(c *config.Config) bool { return c.SeekNexts > 0 }
func never(*config.Config) bool       { return false }

var benchmarks = map[string]*benchmark{
	"fillseq": {fresh: true, writes: true, singleThread: true, ignoresDuration: true,
		showBytes: always, opKind: "write", limit: fillSeqOps, loop: fillSeq},
	"fillrandom": {fresh: true, writes: true, showBytes: always, opKind: "write",
		limit: writeOps, loop: fillRandom},
	"overwrite": {writes: true, showBytes: always, opKind: "write",
		limit: writeOps, loop: fillRandom},
	"readrandom": {reads: true, showFound: true, showBytes: always, opKind: "read",
		limit: readOps, loop: readRandom},
	"readseq": {reads: true, showFound: true, showBytes: always, opKind: "read",
		limit: readOps, loop: readSeq},
	"seekrandom": {reads: true, showFound: true, showBytes: seekBytes, opKind: "seek",
		limit: readOps, loop: seekRandom},
	"readwhilewriting": {reads: true, writes: true, showFound: true, showBytes: always, opKind: "read",
		limit: readOps, loop: readRandom, background: fillRandom},
	"seekrandomwhilewriting": {reads: true, writes: true, showFound: true, showBytes: seekBytes, opKind: "seek",
		limit: readOps, loop: seekRandom, background: fillRandom},
	"flush": {singleThread: true, ignoresDuration: true, showBytes: never, opKind: "flush",
		limit: oneOp, loop: flushLoop},
	"compact": {singleThread: true, ignoresDuration: true, showBytes: never, opKind: "compact",
		limit: oneOp, loop: compactLoop},
	"stats":      {meta: printStats},
	"levelstats": {meta: printLevelStats},
}

func init() {
	for name, b := range benchmarks {
		b.name = name
	}
}

func benchmarkByName(name string) (*benchmark, bool) {
	b, ok := benchmarks[name]
	return b, ok
}

func benchmarkNames() []string {
	names := make([]string, 0, len(benchmarks))
	for name := range benchmarks {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
