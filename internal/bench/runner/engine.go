// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package runner runs benchmarks on one engine.
//
// An Engine keeps one engine's DB across the benchmarks of an invocation
// (and across a scenario's phases): it empties it for a fill, flushes and
// reopens it for reads after writes, lets its flushes and compactions
// settle before every run, times each run on the benchmark's threads, and
// records what the run did to the DB (its requests to an object store, the
// fill it leaves behind). Every method is one step pebblebench's driver
// takes, and takes and returns plain values, so that the same Engine serves
// a driver in its own process (one engine, as db_bench) and one in a parent
// process (-engine=both, each engine in a process of its own).
package runner

import (
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/objstore"
)

// Engine is one engine's DB across the benchmarks of an invocation. Under
// -engine=both there are two, in <db>/pebble and <db>/pebblerf; one engine
// alone uses -db itself (fill.go).
type Engine struct {
	name string
	// stores are the object stores of the DBs this process opened
	// (remote.go); they outlive a phase, as a store in memory must for the
	// next phase to read what the last one wrote.
	stores *Stores
	// stop is set by SIGINT: the run finishes its operation and returns,
	// and a settle stops waiting.
	stop *atomic.Bool

	// cfg and dir are the current phase's (Begin).
	cfg *config.Config
	dir string
	db  engine.DB
	// cache is the open DB's block cache, its own: the engines never share
	// or evict each other's blocks.
	cache *upstream.Cache
	// store is the open DB's object store under -remote, nil without it.
	store *objstore.Meter
	// dirty is set when the open DB has taken writes since it was opened.
	dirty bool
	// stopReplanning stops the re-planning of the open DB's filters.
	stopReplanning func()
	// health watches the open DB for a store that keeps failing.
	health *health
	// metrics is -metrics_addr's server (pebblerf only), nil without it.
	metrics *engine.MetricsServer
	// written records the keys of a sparse fill (-writes), for the seek
	// targets; nil after a dense one. Both engines write the same keys, so
	// each keeps its own copy.
	written *keyspace.Set
	// timeline is -report_html's seek funnel over time, sampled by
	// sampleFunnels (report.go).
	timeline report.Timeline
}

// New returns the engine named name (config.EnginePebble or
// config.EnginePebbleRF), with the stores of its process; stop is set on
// SIGINT.
func New(name string, stores *Stores, stop *atomic.Bool) *Engine {
	return &Engine{name: name, stores: stores, stop: stop}
}

// Name is the engine's name.
func (e *Engine) Name() string { return e.name }

// Setup is what an engine says about itself when a phase begins.
type Setup struct {
	// MetricsURL is where -metrics_addr's server answers, "" without it.
	MetricsURL string
}

// Begin begins a phase: the benchmarks of one command line, c, with the
// DBs under root. It checks, before anything is printed, that under
// -use_existing_db the DB holds keys (a usage error otherwise), and starts
// -metrics_addr's server on pebblerf (an address that cannot be listened
// on is a usage error).
func (e *Engine) Begin(c *config.Config, root string) (Setup, error) {
	e.cfg, e.dir = c, EngineDir(c, root, e.name)
	e.written = c.NewWrittenSet()
	e.timeline = report.Timeline{}
	if c.UseExistingDB {
		if err := e.checkHoldsKeys(); err != nil {
			return Setup{}, err
		}
	}
	var s Setup
	if e.name == config.EnginePebbleRF && c.MetricsAddr != "" {
		m, err := engine.StartMetrics(c)
		if err != nil {
			return Setup{}, err
		}
		e.metrics, s.MetricsURL = m, m.URL()
	}
	return s, nil
}

// Start starts the phase's benchmarks: the DB is removed unless
// -use_existing_db, as db_bench destroys its DB (the caller made sure the
// directory holds a DB or nothing), or the sparse fill's key set is read
// from it.
func (e *Engine) Start() error {
	c := e.cfg
	if !c.UseExistingDB {
		return errors.Wrapf(os.RemoveAll(e.dir), "removing %s", e.dir)
	}
	if e.written != nil {
		return e.readKeySet()
	}
	return nil
}

// End ends a phase: the DB is closed and -metrics_addr's server stopped.
func (e *Engine) End() error {
	err := e.close()
	if e.metrics != nil {
		err = errors.CombineErrors(err, e.metrics.Close())
		e.metrics = nil
	}
	return err
}

func (e *Engine) open() error {
	e.cache = upstream.NewCache(e.cfg.CacheSize)
	opts, plugins, err := e.cfg.Options(e.name, e.cache)
	if err == nil {
		err = e.configureRemote(opts)
	}
	if err == nil {
		e.health = newHealth(e.name)
		e.health.attach(opts)
		engine.Labels(e.name, func() { e.db, err = engine.Open(e.name, e.dir, opts, plugins, e.cfg) })
	}
	if err != nil {
		e.cache.Unref()
		e.cache = nil
		return errors.Wrapf(err, "opening %s in %s", e.name, e.dir)
	}
	e.dirty = false
	e.stopReplanning = engine.StartReplanning(e.cfg, e.db)
	if db, ok := engine.PebbleRF(e.db); ok {
		e.metrics.Follow(db, e.store)
	}
	return nil
}

func (e *Engine) close() error {
	if e.db == nil {
		return nil
	}
	e.stopReplanning()
	e.metrics.Follow(nil, nil)
	if e.health.failure() != nil {
		// Its flushes and compactions wait on the store for as long as
		// it is open, and closing it waits for them: it is left as it
		// is, the run that met the failure having said so.
		e.db, e.cache = nil, nil
		return nil
	}
	err := e.db.Close()
	e.cache.Unref()
	e.db, e.cache = nil, nil
	return errors.Wrapf(err, "closing %s", e.name)
}

// Prepare readies the DB for a run of benchmark name, and the machine: the
// DB's flushes and compactions settled, the file systems synced, the heap
// collected, so that the run meets none of the work that came before it,
// its own engine's or the other's. It is not timed.
//
// Fill benchmarks start from an empty DB, as db_bench's fresh_db ones do.
//
// A benchmark that reads after writes starts on a DB that was flushed,
// closed and reopened. Pebble reserves the memtables' memory inside the
// block cache, so after a fill a full 64 MiB memtable would leave an 8 MiB
// cache empty and the reads would measure a cache-less DB; reopening starts
// a new, small memtable and an empty cache, like a db_bench read run in a
// second invocation with -use_existing_db. It is done for both engines
// alike.
func (e *Engine) Prepare(name string) error {
	b, ok := benchmarks.ByName(name)
	if !ok {
		return errors.AssertionFailedf("no benchmark %q", name)
	}
	var err error
	switch {
	case b.Fresh:
		if err = e.close(); err == nil {
			err = errors.Wrapf(os.RemoveAll(e.dir), "removing %s", e.dir)
		}
		if err == nil {
			err = e.open()
		}
	case e.db == nil:
		err = e.open()
	case b.Reads && e.dirty:
		if err = errors.Wrapf(e.health.wait(e.db.Flush), "flushing %s", e.name); err == nil {
			err = e.close()
		}
		if err == nil {
			err = e.open()
		}
	}
	if err != nil {
		return err
	}
	e.settle()
	if err := e.health.failure(); err != nil {
		return err
	}
	syncFilesystems()
	// Each run starts on a collected heap, so garbage left by the previous
	// run is not charged to this one.
	runtime.GC()
	return nil
}

// settle waits, untimed, until the engine has no flush or compaction
// running, seen twice settlePoll apart. Under -engine=both the engines
// share the machine, so one engine's compactions left over from a fill
// would otherwise run during the other engine's measurement and bias the
// ratio against whichever runs second.
func (e *Engine) settle() {
	for idle := 0; !e.stop.Load() && e.health.failure() == nil; time.Sleep(settlePoll) {
		m := e.db.Metrics()
		if m.Compact.NumInProgress != 0 || m.Flush.NumInProgress != 0 {
			idle = 0
		} else if idle++; idle == 2 {
			return
		}
	}
}

const settlePoll = 20 * time.Millisecond

// openSettled opens the DB if it is closed, and waits until its flushes
// and compactions are done: a DB is described as a run would find it.
func (e *Engine) openSettled() error {
	if e.db == nil {
		if err := e.open(); err != nil {
			return err
		}
	}
	e.settle()
	return e.health.failure()
}

// Meta runs the meta benchmark name (stats, levelstats) and returns what
// it printed, and its -json data.
func (e *Engine) Meta(name string) (string, *benchmarks.MetaData, error) {
	b, ok := benchmarks.ByName(name)
	if !ok || b.Meta == nil {
		return "", nil, errors.AssertionFailedf("no meta benchmark %q", name)
	}
	if err := e.openSettled(); err != nil {
		return "", nil, err
	}
	var out strings.Builder
	data, err := b.Meta(&out, e.db, e.cfg)
	return out.String(), data, errors.Wrapf(err, "%s on %s", name, e.name)
}

// LevelTable is pebblerf's per-level seek statistics table with the
// what-ifs under it, counted since the DB was last opened; "" for upstream,
// with the statistics off, or with the DB closed.
func (e *Engine) LevelTable() (string, error) {
	if e.db == nil {
		return "", nil
	}
	return e.db.LevelTable(), nil
}

// Shape is the DB's LSM per level now, nil with the DB closed.
func (e *Engine) Shape() ([]lsm.Level, error) {
	if e.db == nil {
		return nil, nil
	}
	return lsm.Shape(e.db)
}

// readKeySet fills e.written, the key set of a sparse fill (-writes), from
// an existing DB, untimed: a full scan, then the DB is closed again so the
// benchmarks start on a cold cache as they would have.
func (e *Engine) readKeySet() error {
	if err := e.open(); err != nil {
		return err
	}
	g := e.cfg.KeyGen()
	it, err := e.db.NewIter(nil)
	if err == nil {
		for valid := it.SeekGE(nil); valid; valid = it.Next() {
			if k := it.Key(); len(k) == e.cfg.KeySize {
				if i := g.Index(k); i < uint64(e.cfg.Num) {
					e.written.Add(i)
				}
			}
		}
		err = errors.CombineErrors(it.Error(), it.Close())
	}
	return errors.CombineErrors(errors.Wrapf(err, "reading the key set of %s", e.dir), e.close())
}

// checkHoldsKeys opens the engine's DB and checks it has at least one key:
// reads of an empty DB would measure nothing.
func (e *Engine) checkHoldsKeys() error {
	if err := e.open(); err != nil {
		return err
	}
	it, err := e.db.NewIter(nil)
	empty := false
	if err == nil {
		// First, not SeekGE(nil): an empty key is not a valid MVCC key.
		empty = !it.First()
		err = errors.CombineErrors(it.Error(), it.Close())
	}
	if err = errors.CombineErrors(err, e.close()); err != nil {
		return err
	}
	if empty {
		return config.BadFlag("use_existing_db", "the %s DB in %s holds no keys; fill it first, without -use_existing_db", e.name, e.dir)
	}
	return nil
}
