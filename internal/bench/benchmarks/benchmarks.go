// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package benchmarks is what each name of -benchmarks does: db_bench's
// benchmarks (fillseq, fillrandom, readrandom, seekrandom, ...), YCSB's core
// workloads (ycsb.go) and CockroachDB-style reads of MVCC keys (mvcc.go),
// one table of them with what each writes, reads and reports.
//
// A benchmark is a loop one thread runs over a Worker, its own random
// source, key buffer and counters:
//
//	for w.next() {
//		... one operation on r.DB ...
//		w.done(1, bytes)
//	}
//
// A Worker's keys are a function of -seed, the run's number and the thread
// alone, so two engines given the same run draw the same keys; who runs
// the threads, times them and takes the turns of -interleave is the
// caller's (the engine's runner), and what a DB is, package engine's.
package benchmarks

import (
	"io"
	"sort"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
)

// Run is what a benchmark's loop works on: the flags, the engine's open DB,
// the run's number and the sparse fill's key set.
type Run struct {
	Config *config.Config
	DB     engine.DB
	// Seq numbers the runs of the invocation; both engines' runs of the
	// same repeat share it, so they draw the same keys.
	Seq int
	// Written is the sparse fill's key set, nil after a dense fill: fills
	// add to it, seeks draw targets from it.
	Written *keyspace.Set
}

// Benchmark is one name of -benchmarks, as a row of the table: what it
// does, what its runs start from and report, and its loop.
type Benchmark struct {
	Name string
	// Help says what it does, for -help.
	Help string
	// Fresh benchmarks start from an empty DB (db_bench's fresh_db) and are
	// skipped under -use_existing_db.
	Fresh bool
	// Writes marks benchmarks that leave data in the memtable; Reads marks
	// those that read. A benchmark that reads after one that wrote starts on
	// a flushed, closed and reopened DB.
	Writes, Reads bool
	// MVCC benchmarks write or read CockroachDB's keys (-key_format=mvcc).
	MVCC bool
	// SingleThread benchmarks ignore -threads (fillseq: several threads
	// writing the same sequence measure nothing).
	SingleThread bool
	// IgnoresDuration benchmarks always do -num operations (fillseq).
	IgnoresDuration bool
	// ShowFound adds "(F of R found)" to the result line.
	ShowFound bool
	// ShowBytes adds MB/s; seekrandom shows it only with -seek_nexts.
	ShowBytes func(c *config.Config) bool
	// OpKind names the histogram: "Microseconds per <OpKind>".
	OpKind string
	// Limit is a thread's operation count.
	Limit func(c *config.Config) int64
	// Loop is one thread's work.
	Loop func(r *Run, w *Worker) error
	// Background, if set, runs in one extra thread until the others finish;
	// its operations are not counted (db_bench's *whilewriting writer).
	Background func(r *Run, w *Worker) error
	// Meta benchmarks print about the DB instead of timing operations, and
	// return what they printed as a -json record's data.
	Meta func(out io.Writer, e engine.DB, c *config.Config) (*MetaData, error)
}

func always(*config.Config) bool      { return true }
func writeOps(c *config.Config) int64 { return c.Writes }
func readOps(c *config.Config) int64  { return c.Reads }
func oneOp(*config.Config) int64      { return 1 }
func seekBytes(c *config.Config) bool { return c.SeekNexts > 0 }
func never(*config.Config) bool       { return false }

// table is every benchmark, in the order -help lists them: db_bench's,
// then YCSB's core workloads, then the CockroachDB-style reads of
// -key_format=mvcc (mvcc.go).
var table = []*Benchmark{
	{Name: "compact", Help: "compact the whole key range",
		SingleThread: true, IgnoresDuration: true, ShowBytes: never, OpKind: "compact", Limit: oneOp, Loop: compactLoop},
	{Name: "fillrandom", Help: "write -writes random keys into a new DB",
		Fresh: true, Writes: true, ShowBytes: always, OpKind: "write", Limit: writeOps, Loop: fillRandom},
	{Name: "fillseq", Help: "write -num keys in key order into a new DB",
		Fresh: true, Writes: true, SingleThread: true, IgnoresDuration: true, ShowBytes: always, OpKind: "write", Limit: fillSeqOps, Loop: fillSeq},
	{Name: "flush", Help: "flush the memtable",
		SingleThread: true, IgnoresDuration: true, ShowBytes: never, OpKind: "flush", Limit: oneOp, Loop: flushLoop},
	{Name: "levelstats", Help: "print files, bytes, sublevels, filter bytes and the current point and range filters per level",
		Meta: printLevelStats},
	{Name: "overwrite", Help: "write -writes random keys into the existing DB",
		Writes: true, ShowBytes: always, OpKind: "write", Limit: writeOps, Loop: fillRandom},
	{Name: "readrandom", Help: "point reads of random keys (Get)",
		Reads: true, ShowFound: true, ShowBytes: always, OpKind: "read", Limit: readOps, Loop: readRandom},
	{Name: "readseq", Help: "-reads entries in key order through one iterator per thread, from the first key (again at the end)",
		Reads: true, ShowFound: true, ShowBytes: always, OpKind: "read", Limit: readOps, Loop: readSeq},
	{Name: "readwhilewriting", Help: "readrandom while one more thread writes",
		Reads: true, Writes: true, ShowFound: true, ShowBytes: always, OpKind: "read", Limit: readOps, Loop: readRandom, Background: fillRandom},
	{Name: "seekrandom", Help: "seeks to random targets, then -seek_nexts Next calls",
		Reads: true, ShowFound: true, ShowBytes: seekBytes, OpKind: "seek", Limit: readOps, Loop: seekRandom},
	{Name: "seekrandomwhilewriting", Help: "seekrandom while one more thread writes",
		Reads: true, Writes: true, ShowFound: true, ShowBytes: seekBytes, OpKind: "seek", Limit: readOps, Loop: seekRandom, Background: fillRandom},
	{Name: "stats", Help: "print Pebble's metrics", Meta: printStats},

	{Name: "ycsb_load", Help: "write -ycsb_record_count YCSB records (keys \"user\" and a hashed number) into a new DB, split over -threads",
		Fresh: true, Writes: true, ShowBytes: always, OpKind: "write", Limit: ycsbLoadOps, Loop: ycsbLoad},
	ycsbBenchmark("A"), ycsbBenchmark("B"), ycsbBenchmark("C"), ycsbBenchmark("D"), ycsbBenchmark("E"), ycsbBenchmark("F"),

	{Name: "fillmvcc", Help: "-key_format=mvcc: write -versions_per_key flushed rounds of versions of -num keys, and lock keys",
		MVCC: true, Fresh: true, Writes: true, SingleThread: true, IgnoresDuration: true, ShowBytes: always, OpKind: "write", Limit: fillMVCCOps, Loop: fillMVCC},
	{Name: "mvccget", Help: "-key_format=mvcc: newest version at or below a read timestamp (SeekPrefixGE)",
		MVCC: true, Reads: true, ShowFound: true, ShowBytes: always, OpKind: "read", Limit: readOps, Loop: mvccGet},
	{Name: "mvccscan", Help: "-key_format=mvcc: the visible versions of -mvcc_scan_keys keys",
		MVCC: true, Reads: true, ShowFound: true, ShowBytes: always, OpKind: "seek", Limit: readOps, Loop: mvccScan},
	{Name: "locktablescan", Help: "-key_format=mvcc: lock-table span checks over -mvcc_scan_keys keys, almost all empty",
		MVCC: true, Reads: true, ShowFound: true, ShowBytes: never, OpKind: "seek", Limit: readOps, Loop: lockTableScan},
	{Name: "lockedscan", Help: "-key_format=mvcc: mvccscan with a lock-table check of each span before it",
		MVCC: true, Reads: true, ShowFound: true, ShowBytes: always, OpKind: "seek", Limit: readOps, Loop: lockedScan},
	{Name: "locktablescanwhilewriting", Help: "-key_format=mvcc: locktablescan while one more thread writes intents and resolves them",
		MVCC: true, Reads: true, Writes: true, ShowFound: true, ShowBytes: never, OpKind: "seek", Limit: readOps, Loop: lockTableScan, Background: writeIntents},
	{Name: "mvcctimebound", Help: "-key_format=mvcc: scans of one round's versions with a time-interval filter",
		MVCC: true, Reads: true, ShowFound: true, ShowBytes: always, OpKind: "seek", Limit: readOps, Loop: mvccTimeBound},
}

// ByName returns the benchmark of that name.
func ByName(name string) (*Benchmark, bool) {
	for _, b := range table {
		if b.Name == name {
			return b, true
		}
	}
	return nil, false
}

// Names lists the benchmarks' names, sorted.
func Names() []string {
	names := make([]string, 0, len(table))
	for _, b := range table {
		names = append(names, b.Name)
	}
	sort.Strings(names)
	return names
}

// seekBlockBytesTicker is the bytes of the blocks (index, data and filter
// blocks, as Pebble's InternalIteratorStats.BlockBytes counts them) that the seek benchmarks' iterators loaded, from their
// IteratorStats: the cost range filters and the query builder are meant to
// cut. Both engines count it alike.
const SeekBlockBytesTicker = "pebblebench.seek.block.bytes"
