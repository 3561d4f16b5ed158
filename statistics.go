// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"github.com/pebblerf/pebble/seekstats"
)

// Statistics are a DB's tickers, in RocksDB's style, of two kinds:
//
//   - DB-wide tickers (names "pebblerf.dbwide.*"), always on: derived from
//     Pebble's own metrics and from the stats of the DB's iterators, summed
//     as each is closed. They change nothing on disk and cost nothing per
//     read, but say nothing per level or table.
//   - Per-level statistics, with Plugins.Statistics: RocksDB's seek and
//     filter tickers per LSM level and per table (package seekstats), which
//     tag the tables written and cost CPU on every seek.
//
// Get, Pop, Tickers and String cover both; PerLevel gives the per-level
// ones alone.
type Statistics struct {
	dbWide   *seekstats.DBWide
	perLevel *seekstats.Statistics // nil: Plugins.Statistics off
}

// PerLevel returns the per-level statistics, or nil if they are off
// (Plugins.Statistics). A nil *seekstats.Statistics is usable: it answers
// zero for every ticker.
func (s *Statistics) PerLevel() *seekstats.Statistics { return s.perLevel }

// Get returns the named ticker: a DB-wide one or one of the per-level
// statistics (0 when they are off, and for an unknown name).
func (s *Statistics) Get(name string) uint64 {
	if n, ok := s.dbWide.Get(name); ok {
		return n
	}
	return s.perLevel.Get(name)
}

// Pop returns the named ticker, as Get does, and resets it to zero.
func (s *Statistics) Pop(name string) uint64 {
	if n, ok := s.dbWide.Pop(name); ok {
		return n
	}
	return s.perLevel.Pop(name)
}

// Reset sets every ticker to zero.
func (s *Statistics) Reset() {
	s.dbWide.Reset()
	s.perLevel.Reset()
}

// Tickers returns every ticker by name: the DB-wide ones, then, if they are
// on, the per-level statistics' tickers.
func (s *Statistics) Tickers() []seekstats.Ticker {
	out := s.dbWide.All()
	if s.perLevel != nil {
		sn := s.perLevel.Snapshot()
		out = append(out, sn.Tickers()...)
	}
	return out
}

// String prints the non-zero DB-wide tickers and, if they are on, the
// per-level statistics as seekstats prints them.
func (s *Statistics) String() string {
	if s.perLevel == nil {
		return s.dbWide.String() + "per-level statistics: off (Plugins.Statistics)\n"
	}
	sn := s.perLevel.Snapshot()
	return s.dbWide.String() + sn.String()
}
