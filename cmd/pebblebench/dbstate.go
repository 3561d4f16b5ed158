// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"os"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/objstore"
)

// engineState is one engine's DB across the benchmarks of an invocation.
// Under -engine=both there are two, in <db>/pebble and <db>/pebblerf; one
// engine alone uses -db itself (layout.go).
type engineState struct {
	name  string
	dir   string
	cfg   *config.Config
	db    engine.DB
	cache *upstream.Cache
	// store is the open DB's object store under -remote (remote.go), nil
	// without it.
	store *objstore.Meter
	// dirty is set when the open DB has taken writes since it was opened.
	dirty bool
	// tickers sums the statistics of every run, for the final STATISTICS.
	tickers []statistics.Ticker
	// stopReplanning stops the re-planning of the open DB's filters
	// (replan.go).
	stopReplanning func()
	// metrics is -metrics_addr's server, for the pebblerf engine only.
	metrics *engine.MetricsServer
}

func (s *engineState) open() error {
	s.cache = upstream.NewCache(s.cfg.CacheSize)
	opts, plugins, err := s.cfg.Options(s.name, s.cache)
	if err == nil {
		err = s.configureRemote(opts)
	}
	if err == nil {
		engine.Labels(s.name, func() { s.db, err = engine.Open(s.name, s.dir, opts, plugins, s.cfg) })
	}
	if err != nil {
		s.cache.Unref()
		s.cache = nil
		return errors.Wrapf(err, "opening %s in %s", s.name, s.dir)
	}
	s.dirty = false
	s.stopReplanning = engine.StartReplanning(s.cfg, s.db)
	if db, ok := engine.PebbleRF(s.db); ok {
		s.metrics.Follow(db)
	}
	return nil
}

func (s *engineState) close() error {
	if s.db == nil {
		return nil
	}
	s.stopReplanning()
	s.metrics.Follow(nil)
	err := s.db.Close()
	s.cache.Unref()
	s.db, s.cache = nil, nil
	return errors.Wrapf(err, "closing %s", s.name)
}

// prepare readies the DB for benchmark b.
//
// Fill benchmarks start from an empty DB, as db_bench's fresh_db ones do.
//
// A benchmark that reads after writes starts on a DB that was flushed,
// closed and reopened. Pebble reserves the memtables' memory inside the
// block cache, so after a fill a full 64 MiB memtable would leave an 8 MiB
// cache empty and the reads would measure a cache-less DB; reopening starts
// a new, small memtable and an empty cache, like a db_bench read run in a
// second invocation with -use_existing_db. It is done for both engines
// alike and is not timed.
func (s *engineState) prepare(b *benchmarks.Benchmark) error {
	switch {
	case b.Fresh:
		if err := s.close(); err != nil {
			return err
		}
		if err := os.RemoveAll(s.dir); err != nil {
			return errors.Wrapf(err, "removing %s", s.dir)
		}
		return s.open()
	case s.db == nil:
		return s.open()
	case b.Reads && s.dirty:
		if err := s.db.Flush(); err != nil {
			return errors.Wrapf(err, "flushing %s", s.name)
		}
		if err := s.close(); err != nil {
			return err
		}
		return s.open()
	}
	return nil
}

// settle waits, untimed, until the engine has no flush or compaction
// running, seen twice in a row settlePoll apart. Under -engine=both the
// engines share the machine, so one engine's compactions left over from a
// fill would otherwise run during the other engine's measurement and bias
// the ratio against whichever runs second.
func (s *engineState) settle(stop *atomic.Bool) {
	for idle := 0; idle < 2 && !stop.Load(); {
		m := s.db.Metrics()
		if m.Compact.NumInProgress == 0 && m.Flush.NumInProgress == 0 {
			idle++
		} else {
			idle = 0
		}
		time.Sleep(settlePoll)
	}
}

const settlePoll = 20 * time.Millisecond

// readKeySet fills written, the key set of a sparse fill (-writes), from an
// existing DB, untimed: a full scan, then the DB is closed again so the
// benchmarks start on a cold cache as they would have.
func (s *engineState) readKeySet(written *keyspace.Set) error {
	if err := s.open(); err != nil {
		return err
	}
	g := s.cfg.KeyGen()
	it, err := s.db.NewIter(nil)
	if err == nil {
		for valid := it.SeekGE(nil); valid; valid = it.Next() {
			if k := it.Key(); len(k) == s.cfg.KeySize {
				if i := g.Index(k); i < uint64(s.cfg.Num) {
					written.Add(i)
				}
			}
		}
		err = errors.CombineErrors(it.Error(), it.Close())
	}
	return errors.CombineErrors(errors.Wrapf(err, "reading the key set of %s", s.dir), s.close())
}
