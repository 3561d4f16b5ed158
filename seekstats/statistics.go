// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/filtercount"
	"github.com/pebblerf/pebble/internal/handoff"
)

// Config chooses how the statistics are collected.
type Config struct {
	// ExactAttribution makes every Value (and every Get that needs it) ask
	// DB.ScanInternal which level the key came from, instead of inferring it.
	// The answers are then exact, and the Verify* tickers count how often the
	// fast rule would have agreed. A probe costs a few microseconds, several
	// times a Get: this mode is for tests and audits, not for production.
	ExactAttribution bool
	// FiltersOnly counts filter checks, seeks and Gets but no data-block
	// loads: iterators get no block-property filter, so the DATA and
	// DATA_USEFUL_* tickers stay zero, and Pebble's block-property machinery
	// (the larger part of what the full statistics cost a program that
	// opens an iterator per seek; see "Two tiers" in the package
	// documentation) is not paid; an iterator of a reader without range
	// filters then needs no tracker either, unless ExactAttribution
	// (SeeksOnly). Like RocksDB's stats_level, it
	// trades detail for cost.
	FiltersOnly bool
}

// Statistics are a DB's seek and filter tickers. Install it on a DB's
// Options before Open and Attach it to the opened DB; the root package's
// Open does both. All methods are safe for concurrent use, and a nil
// *Statistics (statistics switched off) answers zero for every ticker.
type Statistics struct {
	// The fields read by every filter check, block load and value read come
	// first, on one cache line, ahead of the counters.
	cfg   Config
	cmp   pebble.Compare
	split pebble.Split
	files *fileMap

	c       counters
	lens    rangeLens
	handoff *handoff.Handoff
	gets    getRegistry
	db      atomic.Pointer[pebble.DB]

	// policies are the tagged policies installed, for their inner policies'
	// corruption counts; innerCorruptBase is the sum at the last Pop or Reset.
	policies         []*taggedPolicy
	innerCorruptBase atomic.Uint64
}

// New returns statistics that count nothing until installed.
func New(cfg Config) *Statistics {
	return &Statistics{cfg: cfg, handoff: handoff.New()}
}

// Install changes opts, a private copy of the caller's options, so that the
// DB opened with it feeds s: every level's filter policy is wrapped in a
// tagging policy, every registered policy stays readable and counted, the
// tagging block-property collector is added, and an event listener keeps the
// file-to-level map current. Install must be called once, before Open.
func (s *Statistics) Install(opts *pebble.Options) {
	comparer := opts.Comparer
	if comparer == nil {
		comparer = pebble.DefaultComparer
	}
	s.cmp, s.split = comparer.Compare, comparer.Split
	s.files = newFileMap(s.cmp)

	tagged := make(map[pebble.FilterPolicy]*taggedPolicy)
	wrap := func(p pebble.FilterPolicy) *taggedPolicy {
		if t, ok := tagged[p]; ok {
			return t
		}
		t := newTaggedPolicy(s, p)
		tagged[p] = t
		s.policies = append(s.policies, t)
		return t
	}
	filters := make(map[string]pebble.FilterPolicy, 2*len(opts.Filters)+2)
	// Tables written before statistics were on, or by upstream Pebble, carry
	// the inner policy's name: reading them goes through a counting
	// pass-through. Tables written by pebblerf carry the tagged name.
	register := func(p pebble.FilterPolicy) {
		t := wrap(p)
		filters[t.Name()] = t
		filters[p.Name()] = untaggedPolicy{t}
	}
	for _, p := range opts.Filters {
		register(p)
	}
	for i := range opts.Levels {
		p := opts.Levels[i].FilterPolicy
		if p == nil || p == pebble.NoFilterPolicy {
			// nil inherits the level above's policy, which is wrapped.
			continue
		}
		register(p)
		opts.Levels[i].FilterPolicy = wrap(p)
	}
	opts.Filters = filters
	opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, s.newCollector)
	// The tag in every data block's property would otherwise change the
	// tables' index shape (indexshape.go).
	widenIndexBlocks(opts)
	opts.AddEventListener(s.handoff.Listener())
	opts.AddEventListener(pebble.EventListener{
		FlushEnd:      s.files.onFlushEnd,
		CompactionEnd: s.files.onCompactionEnd,
		TableIngested: s.files.onTableIngested,
		TableDeleted:  s.files.onTableDeleted,
	})
	s.files.beginSeed()
}

// Attach completes Install once db is open: it seeds the file-to-level map
// with the tables the DB already has.
func (s *Statistics) Attach(db *pebble.DB) error {
	s.db.Store(db)
	levels, err := db.SSTables()
	if err != nil {
		return errors.Wrap(err, "seekstats: listing tables")
	}
	s.files.seed(levels)
	return nil
}

// Exact reports whether s runs in exact-attribution mode.
func (s *Statistics) Exact() bool { return s != nil && s.cfg.ExactAttribution }

// Get returns the count of the ticker with the given name: a RocksDB name
// (e.g. "rocksdb.non.last.level.seek.filtered"), a per-row name (e.g.
// "pebblerf.l0.seek.data") or a pebblerf extra; 0 for an unknown name.
func (s *Statistics) Get(name string) uint64 {
	if s == nil {
		return 0
	}
	return s.read(name, false)
}

// Pop returns the count of the named ticker and resets it to zero, as
// RocksDB's tests do with PopTicker. Popping a group ticker (last or non-last
// level) resets the rows it sums, and popping a FILTERED ticker resets its
// range-filter share too.
func (s *Statistics) Pop(name string) uint64 {
	if s == nil {
		return 0
	}
	return s.read(name, true)
}

// Reset sets every ticker to zero.
func (s *Statistics) Reset() {
	if s == nil {
		return
	}
	for i := 0; i < numCounters; i++ {
		s.c.pop(i)
	}
	s.resetRangeLens()
	s.innerCorruptBase.Store(s.innerCorruptTotal())
}

func (s *Statistics) read(name string, pop bool) uint64 {
	load := s.c.load
	if pop {
		load = s.c.pop
	}
	for t := Ticker(0); t < numTickers; t++ {
		if tickerNames[t] != name {
			continue
		}
		if t == InnerFilterCorrupt {
			total := s.innerCorruptTotal()
			base := s.innerCorruptBase.Load()
			if pop {
				s.innerCorruptBase.Store(total)
			}
			return total - base
		}
		return load(tickerIndex(t))
	}
	for k := SeekKind(0); k < numRowKinds; k++ {
		for _, last := range []bool{true, false} {
			if groupTickerName(last, k) != name {
				continue
			}
			var n uint64
			for r := RowL0; r < NumRows; r++ {
				if r.isLast() == last {
					n += loadRow(load, r, k)
				}
			}
			return n
		}
		for r := Row(0); r < NumRows; r++ {
			if rowTickerName(r, k) == name {
				return loadRow(load, r, k)
			}
		}
	}
	return 0
}

// innerCorruptTotal sums the corruption counts of the counters the inner
// policies are bound to, each counters once: the policies of one DB share
// the DB's (filtercount.BindPoint).
func (s *Statistics) innerCorruptTotal() uint64 {
	var n uint64
	var seen []*filtercount.Point
	for _, p := range s.policies {
		if c := filtercount.PointOf(p.inner); c != nil && !slices.Contains(seen, c) {
			seen = append(seen, c)
			n += c.Corrupt()
		}
	}
	return n
}

// dbForProbe returns the attached DB, for exact-mode probes.
func (s *Statistics) dbForProbe() *pebble.DB { return s.db.Load() }

var probeCtx = context.Background()
