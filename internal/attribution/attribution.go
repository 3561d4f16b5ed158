// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"context"
	"sync/atomic"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/handoff"
	"github.com/pebblerf/pebble/internal/rangebounds"
)

// Stats count one DB's per-level seek and filter statistics into a
// Store, which View reads. Install them on the DB's Options
// before Open and Attach them to the opened DB; the root package's Open
// does both. All methods are safe for concurrent use.
type Stats struct {
	// The fields read by every filter check, block load and value read come
	// first, on one cache line, ahead of the counters.
	cfg   Config
	cmp   pebble.Compare
	split pebble.Split
	files *fileMap

	store   Store
	handoff *handoff.Handoff
	gets    getRegistry
	db      atomic.Pointer[pebble.DB]

	// rangeFilters reads the range filters in the tables' properties, for
	// the range-length recording (rangelen.go).
	rangeFilters rangebounds.Reader
}

// Config chooses how the statistics are collected; seekstats.Config, which
// is this type, says what each choice costs.
type Config struct {
	// ExactAttribution asks DB.ScanInternal for the level of every key a
	// Value (or a Get that needs it) reads, instead of inferring it.
	ExactAttribution bool
	// FiltersOnly counts filter checks, seeks and Gets but no data-block
	// loads.
	FiltersOnly bool
}

// Sources are what the statistics read of the plug-ins they count, from
// the packages that own them (the root package, which assembles the
// plug-ins, hands them over).
type Sources struct {
	// PointCorrupt returns how many point-filter queries of the DB met a
	// filter that did not decode (pointfilter.Counts.Corrupt); nil: none
	// are counted.
	PointCorrupt func() uint64
	// RangeFilters reads the range filters in tables' properties
	// (rangefilter.Properties).
	RangeFilters rangebounds.Reader
}

// New returns statistics that count nothing until installed.
func New(cfg Config, src Sources) *Stats {
	s := &Stats{cfg: cfg, handoff: handoff.New(), rangeFilters: src.RangeFilters}
	s.store.InnerCorrupt = src.PointCorrupt
	return s
}

// Store returns where s counts, of which seekstats.Statistics is the
// read-only view.
func (s *Stats) Store() *Store { return &s.store }

// c returns the counters.
func (s *Stats) c() *Counters { return &s.store.Counters }

// Install changes opts, a private copy of the caller's options, so that the
// DB opened with it feeds s: every level's filter policy is wrapped in a
// tagging policy, every registered policy stays readable and counted, the
// tagging block-property collector is added, and an event listener keeps the
// file-to-level map current. Install must be called once, before Open.
func (s *Stats) Install(opts *pebble.Options) {
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
func (s *Stats) Attach(db *pebble.DB) error {
	s.db.Store(db)
	levels, err := db.SSTables()
	if err != nil {
		return errors.Wrap(err, "seekstats: listing tables")
	}
	s.files.seed(levels)
	return nil
}

// dbForProbe returns the attached DB, for exact-mode probes.
func (s *Stats) dbForProbe() *pebble.DB { return s.db.Load() }

var probeCtx = context.Background()
