// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package engine is one database as pebblebench's benchmarks see it,
// upstream Pebble's or pebblerf's.
//
// Both sit behind the DB interface through one generic adapter, so that
// every benchmark is written once and both engines pay the same call
// overhead; Open opens either with the options the flags' config derives.
// What only pebblerf has lives with its open DB here: its statistics and
// per-level table with the what-ifs under it (pebblerf.go), the query
// builder and its explain, the filters re-planned while the DB is open
// (replan.go), the filters each level gets now (levels.go), and the
// Prometheus endpoint of -metrics_addr (metrics.go).
package engine

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"runtime/pprof"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/internal/readctx"
)

// engine is what a benchmark sees of a database. Upstream Pebble and
// pebblerf both sit behind it, through the same generic adapter, so each
// benchmark is written once and both engines pay the same call overhead.
// The methods keep Pebble's names and signatures.
type DB interface {
	Name() string
	Set(key, value []byte, o *upstream.WriteOptions) error
	Get(key []byte) ([]byte, io.Closer, error)
	NewBatch() Batch
	NewIter(o *upstream.IterOptions) (Iterator, error)
	// NewQueryIter is the iterator of -use_query_builder: pebblerf's planned
	// range query, upstream's plain iterator.
	NewQueryIter(o *upstream.IterOptions) (Iterator, error)
	Flush() error
	Compact(start, end []byte) error
	Metrics() *upstream.Metrics
	SSTables() ([][]upstream.SSTableInfo, error)
	// Tickers returns the engine's statistics as RocksDB-style tickers; see
	// statistics.FromMetrics for which are exact.
	Tickers() []statistics.Ticker
	// LevelTable is pebblerf's per-level seek statistics table, "" for
	// upstream or with the statistics off.
	LevelTable() string
	// Stalls times the DB's write stalls (for -lsm_sample_ms).
	Stalls() *lsm.StallClock
	// ReadGets counts the remote GETs made by the engine's iterators (its
	// table opens and block reads), apart from flushes' and compactions'.
	// Gets and query-builder iterators are not in it: they take no context.
	ReadGets() readctx.Counts
	// Explain explains one query, nil for upstream (see explain.go).
	Explain(o *upstream.IterOptions, seek []byte, nexts int) (fmt.Stringer, error)
	Close() error
}

// iterator is the part of Pebble's *Iterator the benchmarks use.
type Iterator interface {
	First() bool
	SeekGE(key []byte) bool
	SeekPrefixGE(key []byte) bool
	SetBounds(lower, upper []byte)
	SetOptions(o *upstream.IterOptions)
	Next() bool
	Valid() bool
	Key() []byte
	Value() []byte
	Error() error
	Stats() upstream.IteratorStats
	Close() error
}

// batch is the part of Pebble's *Batch the benchmarks use.
type Batch interface {
	Set(key, value []byte, o *upstream.WriteOptions) error
	SingleDelete(key []byte, o *upstream.WriteOptions) error
	Commit(o *upstream.WriteOptions) error
	Close() error
}

// pebbleDB is the method set shared by upstream's *DB and pebblerf's *DB,
// with their own iterator and batch types as I and B.
type pebbleDB[I Iterator, B Batch] interface {
	Set(key, value []byte, o *upstream.WriteOptions) error
	Get(key []byte) ([]byte, io.Closer, error)
	NewBatch(opts ...upstream.BatchOption) B
	NewIterWithContext(ctx context.Context, o *upstream.IterOptions) (I, error)
	Flush() error
	Compact(ctx context.Context, start, end []byte, parallelize bool) error
	Metrics() *upstream.Metrics
	SSTables(opts ...upstream.SSTablesOption) ([][]upstream.SSTableInfo, error)
	Close() error
}

// adapter makes an engine of either DB type. Both instantiations have
// pointer type arguments and so share one generic shape: the code that runs
// is the same for both engines.
type adapter[D pebbleDB[I, B], I Iterator, B Batch] struct {
	name  string
	db    D
	extra func() []statistics.Ticker
	// The pebblerf-only parts; nil for upstream.
	newQuery   func(o *upstream.IterOptions) (Iterator, error)
	levelTable func() string
	explain    func(o *upstream.IterOptions, seek []byte, nexts int) (fmt.Stringer, error)
	// stop stops the shape profile's driver, which must end before Close.
	stop func()
	// stalls times the DB's write stalls.
	stalls *lsm.StallClock
	// reads counts the remote GETs the iterators made (readctx): every
	// iterator is made with readCtx, which carries it.
	reads   readctx.Counter
	readCtx context.Context
}

// newAdapter makes the adapter of an open DB.
func newAdapter[D pebbleDB[I, B], I Iterator, B Batch](name string, db D, stalls *lsm.StallClock) *adapter[D, I, B] {
	a := &adapter[D, I, B]{name: name, db: db, stalls: stalls}
	a.readCtx = readctx.With(context.Background(), &a.reads)
	return a
}

func (a *adapter[D, I, B]) ReadGets() readctx.Counts { return a.reads.Load() }

func (a *adapter[D, I, B]) Stalls() *lsm.StallClock { return a.stalls }

func (a *adapter[D, I, B]) Name() string { return a.name }

func (a *adapter[D, I, B]) Set(key, value []byte, o *upstream.WriteOptions) error {
	return a.db.Set(key, value, o)
}

func (a *adapter[D, I, B]) Get(key []byte) ([]byte, io.Closer, error) { return a.db.Get(key) }

func (a *adapter[D, I, B]) NewBatch() Batch { return a.db.NewBatch() }

func (a *adapter[D, I, B]) NewIter(o *upstream.IterOptions) (Iterator, error) {
	it, err := a.db.NewIterWithContext(a.readCtx, o)
	if err != nil {
		// Returning it would wrap a nil pointer in a non-nil interface.
		return nil, err
	}
	return it, nil
}

func (a *adapter[D, I, B]) NewQueryIter(o *upstream.IterOptions) (Iterator, error) {
	if a.newQuery == nil {
		return a.NewIter(o)
	}
	return a.newQuery(o)
}

func (a *adapter[D, I, B]) LevelTable() string {
	if a.levelTable == nil {
		return ""
	}
	return a.levelTable()
}

func (a *adapter[D, I, B]) Explain(o *upstream.IterOptions, seek []byte, nexts int) (fmt.Stringer, error) {
	if a.explain == nil {
		return nil, nil
	}
	return a.explain(o, seek, nexts)
}

func (a *adapter[D, I, B]) Flush() error { return a.db.Flush() }

func (a *adapter[D, I, B]) Compact(start, end []byte) error {
	return a.db.Compact(context.Background(), start, end, true /* parallelize */)
}

func (a *adapter[D, I, B]) Metrics() *upstream.Metrics { return a.db.Metrics() }

func (a *adapter[D, I, B]) SSTables() ([][]upstream.SSTableInfo, error) {
	return a.db.SSTables(upstream.WithProperties())
}

func (a *adapter[D, I, B]) Tickers() []statistics.Ticker {
	t := statistics.FromMetrics(a.db.Metrics())
	if a.extra != nil {
		t = statistics.Merge(t, a.extra())
	}
	return t
}

func (a *adapter[D, I, B]) Close() error {
	if a.stop != nil {
		a.stop()
		a.stop = nil
	}
	return a.db.Close()
}

// openEngine opens the named engine's DB in dir with opts and, for
// pebblerf, plugins (config.options makes both). Each engine gets its own
// copy of the options (pebblerf's Open does not mutate them, but
// upstream's EnsureDefaults does).
func Open(name, dir string, opts *upstream.Options, plugins pebblerf.Plugins, c *config.Config) (DB, error) {
	opts = opts.Clone()
	if name == config.EnginePebbleRF {
		return openPebbleRF(dir, opts, plugins, c)
	}
	// Upstream gets the -compaction_style shape the way pebblerf's Open
	// installs it: the profile's options, then its driver.
	shape, _ := c.Shape() // validated
	if shape != nil {
		if err := shape.Apply(opts); err != nil {
			return nil, err
		}
	}
	stalls := &lsm.StallClock{}
	stalls.Attach(opts)
	db, err := upstream.Open(dir, opts)
	if err != nil {
		return nil, err
	}
	a := newAdapter[*upstream.DB, *upstream.Iterator, *upstream.Batch](name, db, stalls)
	if shape != nil {
		if a.stop, err = shape.Start(db); err != nil {
			return nil, errors.CombineErrors(err, db.Close())
		}
	}
	return a, nil
}

// engineLabels runs f, which works on the engine named name, with the
// profile label engine=name. Goroutines inherit their creator's labels, so
// the flushes and compactions a DB starts while opening or while a
// benchmark writes to it carry its name too: Pebble starts each on a
// goroutine of its own, from the goroutine whose write or whose finished
// flush or compaction called for it.
func Labels(name string, f func()) {
	pprof.Do(context.Background(), pprof.Labels("engine", name), func(context.Context) { f() })
}

// UpstreamVersion is the upstream Pebble module version this binary was built
// with.
func UpstreamVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "github.com/cockroachdb/pebble/v2" {
				return "github.com/cockroachdb/pebble/v2 " + m.Version
			}
		}
	}
	return "github.com/cockroachdb/pebble/v2 (version unknown)"
}
