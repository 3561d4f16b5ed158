// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"github.com/pebblerf/pebble/internal/attribution"
)

// Config chooses how the statistics are collected. It has two fields:
//
//   - ExactAttribution makes every Value (and every Get that needs it) ask
//     DB.ScanInternal which level the key came from, instead of inferring
//     it. The answers are then exact, and the Verify* tickers count how
//     often the fast rule would have agreed. A probe costs several times a
//     Get: this mode is for tests and audits, not for production.
//   - FiltersOnly counts filter checks, seeks and Gets but no data-block
//     loads: iterators get no block-property filter, so the DATA and
//     DATA_USEFUL_* tickers stay zero, and Pebble's block-property
//     machinery (the larger part of what the full statistics cost a program
//     that opens an iterator per seek; see "Cost" in the package
//     documentation) is not paid. Like RocksDB's stats_level, it trades
//     detail for cost.
type Config = attribution.Config

// Statistics are a DB's per-level seek and filter tickers, as the DB counts
// them: a read-only view, which DB.Statistics().PerLevel() returns. All
// methods are safe for concurrent use, and a nil *Statistics (statistics
// switched off) answers zero for every ticker.
type Statistics attribution.Store

func (s *Statistics) store() *attribution.Store { return (*attribution.Store)(s) }

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
	if s != nil {
		s.store().Reset()
	}
}

func (s *Statistics) read(name string, pop bool) uint64 { return s.store().Read(name, pop) }

// loadRow reads counter k of row r with load; FILTERED is the prefix
// filters' counter plus the range filters'.
func loadRow(load func(int) uint64, r Row, k attribution.Kind) uint64 {
	return attribution.LoadRow(load, int(r), k)
}

// Snapshot returns the current counts; zero for a nil *Statistics.
func (s *Statistics) Snapshot() Snapshot {
	var sn Snapshot
	if s == nil {
		return sn
	}
	st := s.store()
	for r := Row(0); r < NumRows; r++ {
		for k := attribution.Kind(0); k < attribution.NumKinds; k++ {
			*sn.Rows[r].get(k) = loadRow(st.Counters.Load, r, k)
		}
		sn.RangeLens[r] = rangeLensOf(st.Lens.Sum(int(r), false))
	}
	for t := attribution.Ticker(0); t < attribution.NumTickers; t++ {
		if t == attribution.InnerFilterCorrupt {
			sn.tickers[t] = st.InnerCorruptTotal() - st.InnerCorruptBase.Load()
			continue
		}
		sn.tickers[t] = st.Counters.Load(attribution.TickerIndex(t))
	}
	return sn
}
