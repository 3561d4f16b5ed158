// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"github.com/pebblerf/pebble/internal/seekcount"
)

// Config chooses how the statistics are collected.
type Config struct {
	// ExactAttribution makes every Value (and every Get that needs it) ask
	// DB.ScanInternal which level the key came from, instead of inferring it.
	// The answers are then exact, and the Verify* tickers count how often the
	// fast rule would have agreed. A probe costs several times a Get: this
	// mode is for tests and audits, not for production.
	ExactAttribution bool
	// FiltersOnly counts filter checks, seeks and Gets but no data-block
	// loads: iterators get no block-property filter, so the DATA and
	// DATA_USEFUL_* tickers stay zero, and Pebble's block-property machinery
	// (the larger part of what the full statistics cost a program that
	// opens an iterator per seek; see "Cost" in the package documentation)
	// is not paid. Like RocksDB's stats_level, it trades detail for cost.
	FiltersOnly bool
}

// Statistics are a DB's per-level seek and filter tickers, as the DB counts
// them: a read-only view, which DB.Statistics().PerLevel() returns. All
// methods are safe for concurrent use, and a nil *Statistics (statistics
// switched off) answers zero for every ticker.
type Statistics seekcount.Store

func (s *Statistics) store() *seekcount.Store { return (*seekcount.Store)(s) }

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
	st := s.store()
	for i := 0; i < seekcount.NumCounters; i++ {
		st.Counters.Pop(i)
	}
	for r := 0; r < seekcount.Rows; r++ {
		st.Lens.Sum(r, true)
	}
	st.InnerCorruptBase.Store(st.InnerCorruptTotal())
}

func (s *Statistics) read(name string, pop bool) uint64 {
	st := s.store()
	load := st.Counters.Load
	if pop {
		load = st.Counters.Pop
	}
	for t := seekcount.Ticker(0); t < seekcount.NumTickers; t++ {
		if seekcount.TickerNames[t] != name {
			continue
		}
		if t == seekcount.InnerFilterCorrupt {
			total := st.InnerCorruptTotal()
			base := st.InnerCorruptBase.Load()
			if pop {
				st.InnerCorruptBase.Store(total)
			}
			return total - base
		}
		return load(seekcount.TickerIndex(t))
	}
	for k := seekcount.Kind(0); k < seekcount.NumKinds; k++ {
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

// loadRow reads counter k of row r with load; FILTERED is the prefix
// filters' counter plus the range filters'.
func loadRow(load func(int) uint64, r Row, k seekcount.Kind) uint64 {
	n := load(seekcount.RowIndex(int(r), k))
	if k == seekcount.Filtered {
		n += load(seekcount.RowIndex(int(r), seekcount.FilteredRange))
	}
	return n
}

// groupTickerName returns the name of a per-row ticker summed over the last
// level (last) or the other levels: RocksDB's name for its five seek
// tickers, pebblerf's for the others.
func groupTickerName(last bool, k seekcount.Kind) string {
	prefix := "rocksdb."
	if int(k) >= seekcount.SeekKinds {
		prefix = "pebblerf."
	}
	if last {
		return prefix + "last.level." + seekcount.KindSuffixes[k]
	}
	return prefix + "non.last.level." + seekcount.KindSuffixes[k]
}

// rowTickerName returns pebblerf's name of a per-row ticker, e.g.
// "pebblerf.l0.seek.data".
func rowTickerName(r Row, k seekcount.Kind) string {
	return "pebblerf." + r.key() + "." + seekcount.KindSuffixes[k]
}

// Snapshot returns the current counts; zero for a nil *Statistics.
func (s *Statistics) Snapshot() Snapshot {
	var sn Snapshot
	if s == nil {
		return sn
	}
	st := s.store()
	for r := Row(0); r < NumRows; r++ {
		for k := seekcount.Kind(0); k < seekcount.NumKinds; k++ {
			*sn.Rows[r].get(k) = loadRow(st.Counters.Load, r, k)
		}
		sn.RangeLens[r] = rangeLensOf(st.Lens.Sum(int(r), false))
	}
	for t := seekcount.Ticker(0); t < seekcount.NumTickers; t++ {
		if t == seekcount.InnerFilterCorrupt {
			sn.tickers[t] = st.InnerCorruptTotal() - st.InnerCorruptBase.Load()
			continue
		}
		sn.tickers[t] = st.Counters.Load(seekcount.TickerIndex(t))
	}
	return sn
}
