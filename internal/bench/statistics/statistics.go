// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package statistics is db_bench's STATISTICS for Pebble: counters named as
// RocksDB's tickers, derived from a DB's Metrics, kept as lists that a
// benchmark takes differences of and sums, and printed as
// "<name> COUNT : <count>" lines.
//
// A list keeps its first-seen order, so what is printed, and the -json
// record made from Map, list the counters the same way run after run.
// FromMetrics gives the counters every Pebble DB has; an engine adds its own
// with Merge, which keeps the Metrics-derived ones where the names meet, so
// two engines' common counters are always counted alike.
package statistics

import (
	"fmt"
	"io"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
)

// Ticker is one counter in db_bench's STATISTICS format,
// "<name> COUNT : <count>": pebblerf's, so that an engine's own statistics
// need no conversion.
type Ticker = seekstats.Ticker

// FromMetrics derives the tickers every Pebble DB has from its Metrics:
// the DB-wide tickers pebblerf's DB.Statistics reports under the same names
// (seekstats.MetricsTickers: filter checks that ruled a table out and that did
// not, block cache hits and misses), and the few more MetricsHelp defines,
// exact copies or sums of Pebble counters.
//
// None carries a name of pebblerf's per-level statistics (RocksDB's
// rocksdb.bloom.filter.useful counts Gets' filter checks only, Pebble's
// Filter.Hits prefix seeks' too), so no count prints under two meanings.
// Metrics are counted from when a DB is opened, so callers take differences
// across a benchmark (see Subtract).
func FromMetrics(m *upstream.Metrics) []Ticker {
	var flushed, compactRead, compacted uint64
	for i := range m.Levels {
		flushed += m.Levels[i].TableBytesFlushed
		compactRead += m.Levels[i].TableBytesRead
		compacted += m.Levels[i].TableBytesCompacted
	}
	counts := [len(MetricsHelp)]int64{int64(flushed), int64(compactRead), int64(compacted),
		int64(m.WAL.BytesWritten), m.Flush.Count, m.Compact.Count}
	out := seekstats.MetricsTickers(m)
	for i, h := range MetricsHelp {
		out = append(out, Ticker{Name: h.Name, Count: counts[i]})
	}
	return out
}

// MetricsHelp defines the tickers FromMetrics adds to the DB-wide ones, in
// the order it adds them; pebblebench -help prints them.
var MetricsHelp = [...]struct{ Name, Help string }{
	{"rocksdb.flush.write.bytes", "bytes of the tables flushes wrote (Pebble's TableBytesFlushed, summed over levels)"},
	{"rocksdb.compact.read.bytes", "bytes of the tables compactions read (TableBytesRead, summed over levels)"},
	{"rocksdb.compact.write.bytes", "bytes of the tables compactions wrote (TableBytesCompacted, summed over levels)"},
	{"rocksdb.wal.bytes", "physical bytes written to the WAL (WAL.BytesWritten; 0 with -disable_wal)"},
	{"pebble.flush.count", "flushes (Pebble's Flush.Count; RocksDB has no ticker of this meaning)"},
	{"pebble.compact.count", "compactions (Pebble's Compact.Count; RocksDB has no ticker of this meaning)"},
}

// Merge returns base followed by the tickers of more whose names
// base does not have. The Metrics-derived tickers come first and win, so
// both engines' common tickers are counted the same way and their ratios
// compare like with like; an engine's own statistics (pebblerf's
// DB.Statistics) add the tickers Metrics cannot give, such as the per-level
// seek tickers, printed for that engine only.
func Merge(base, more []Ticker) []Ticker {
	have := make(map[string]bool, len(base))
	for _, t := range base {
		have[t.Name] = true
	}
	out := append([]Ticker(nil), base...)
	for _, t := range more {
		if !have[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// Subtract returns after-before for each ticker of after, treating a
// ticker missing from before as 0.
func Subtract(after, before []Ticker) []Ticker {
	prev := make(map[string]int64, len(before))
	for _, t := range before {
		prev[t.Name] = t.Count
	}
	out := make([]Ticker, len(after))
	for i, t := range after {
		out[i] = Ticker{Name: t.Name, Count: t.Count - prev[t.Name]}
	}
	return out
}

// Add adds delta into *sum, keeping the first-seen order.
func Add(sum *[]Ticker, delta []Ticker) {
	idx := make(map[string]int, len(*sum))
	for i, t := range *sum {
		idx[t.Name] = i
	}
	for _, t := range delta {
		if i, ok := idx[t.Name]; ok {
			(*sum)[i].Count += t.Count
		} else {
			idx[t.Name] = len(*sum)
			*sum = append(*sum, t)
		}
	}
}

// Map returns the tickers' counts by name.
func Map(ts []Ticker) map[string]int64 {
	m := make(map[string]int64, len(ts))
	for _, t := range ts {
		m[t.Name] = t.Count
	}
	return m
}

// Print writes the tickers that are not zero in db_bench's
// STATISTICS layout, and how many were zero (the -json record has them
// all). title is "STATISTICS:" for one engine and "STATISTICS (<engine>):"
// for each engine of -engine=both.
func Print(w io.Writer, title string, tickers []Ticker) {
	fmt.Fprintln(w, title)
	if zero := seekstats.WriteTickers(w, tickers, false); zero > 0 {
		fmt.Fprintf(w, "(%d tickers are zero; -json lists them all)\n", zero)
	}
	fmt.Fprintln(w, "(pebblebench -help defines every ticker, under \"Tickers\")")
}
