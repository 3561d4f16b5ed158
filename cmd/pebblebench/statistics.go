// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"io"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
)

// ticker is one counter in db_bench's STATISTICS format,
// "<name> COUNT : <count>": the library's, so both engines' tickers and
// pebblerf's DB.Statistics are one type.
type ticker = seekstats.Ticker

// metricsTickers derives RocksDB-named tickers from Pebble's Metrics. Every
// one is exact, a plain copy or sum of Pebble counters, but Pebble counts
// some things differently from RocksDB, as noted:
//
//   - rocksdb.block.cache.hit / .miss: BlockCache.Hits / Misses, every block
//     kind (data, index, filter), as RocksDB's totals are.
//   - rocksdb.bloom.filter.useful: Filter.Hits, lookups a table filter
//     answered "absent" for, so the table's data blocks were not read. Pebble
//     consults filters only from Get and SeekPrefixGE, and on L6 only with
//     IterOptions.UseL6Filters. With -prefix_size the filters hold
//     prefixes, so these count what RocksDB calls prefix checks.
//   - rocksdb.bloom.filter.full.positive: Filter.Misses, filter checks that
//     did not rule the key out. Unlike RocksDB's, this cannot be split into
//     true and false positives from Metrics.
//   - rocksdb.flush.write.bytes, rocksdb.compact.read.bytes,
//     rocksdb.compact.write.bytes: sums over levels of TableBytesFlushed,
//     TableBytesRead and TableBytesCompacted.
//   - rocksdb.wal.bytes: WAL.BytesWritten (physical bytes, 0 with
//     -disable_wal).
//   - pebble.flush.count, pebble.compact.count: Pebble's counts, which have
//     no RocksDB ticker of the same meaning.
//
// Metrics are counted from when a DB is opened, so callers take differences
// across a benchmark (see subtractTickers).
func metricsTickers(m *upstream.Metrics) []ticker {
	var flushed, compactRead, compacted uint64
	for i := range m.Levels {
		flushed += m.Levels[i].TableBytesFlushed
		compactRead += m.Levels[i].TableBytesRead
		compacted += m.Levels[i].TableBytesCompacted
	}
	return []ticker{
		{Name: "rocksdb.block.cache.hit", Count: m.BlockCache.Hits},
		{Name: "rocksdb.block.cache.miss", Count: m.BlockCache.Misses},
		{Name: "rocksdb.bloom.filter.useful", Count: m.Filter.Hits},
		{Name: "rocksdb.bloom.filter.full.positive", Count: m.Filter.Misses},
		{Name: "rocksdb.flush.write.bytes", Count: int64(flushed)},
		{Name: "rocksdb.compact.read.bytes", Count: int64(compactRead)},
		{Name: "rocksdb.compact.write.bytes", Count: int64(compacted)},
		{Name: "rocksdb.wal.bytes", Count: int64(m.WAL.BytesWritten)},
		{Name: "pebble.flush.count", Count: m.Flush.Count},
		{Name: "pebble.compact.count", Count: m.Compact.Count},
	}
}

// seekBlockBytesTicker is the bytes of the blocks (index, data and filter
// blocks, as Pebble's InternalIteratorStats.BlockBytes counts them) that the seek benchmarks' iterators loaded, from their
// IteratorStats: the cost range filters and the query builder are meant to
// cut. Both engines count it alike.
const seekBlockBytesTicker = "pebblebench.seek.block.bytes"

// advisorCompactionsTicker counts the compactions pebblerf's compaction
// advisor made (-compaction_advisor).
const advisorCompactionsTicker = "pebblerf.advisor.compactions"

// mergeTickers returns base followed by the tickers of more whose names
// base does not have. The Metrics-derived tickers come first and win, so
// both engines' common tickers are counted the same way and their ratios
// compare like with like; an engine's own statistics (pebblerf's
// DB.Statistics) add the tickers Metrics cannot give, such as the per-level
// seek tickers, printed for that engine only.
func mergeTickers(base, more []ticker) []ticker {
	have := make(map[string]bool, len(base))
	for _, t := range base {
		have[t.Name] = true
	}
	out := append([]ticker(nil), base...)
	for _, t := range more {
		if !have[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// subtractTickers returns after-before for each ticker of after, treating a
// ticker missing from before as 0.
func subtractTickers(after, before []ticker) []ticker {
	prev := make(map[string]int64, len(before))
	for _, t := range before {
		prev[t.Name] = t.Count
	}
	out := make([]ticker, len(after))
	for i, t := range after {
		out[i] = ticker{Name: t.Name, Count: t.Count - prev[t.Name]}
	}
	return out
}

// addTickers adds delta into *sum, keeping the first-seen order.
func addTickers(sum *[]ticker, delta []ticker) {
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

// printStatistics writes the tickers that are not zero in db_bench's
// STATISTICS layout, and how many were zero (the -json record has them
// all). title is "STATISTICS:" for one engine and "STATISTICS (<engine>):"
// for each engine of -engine=both.
func printStatistics(w io.Writer, title string, tickers []ticker) {
	fmt.Fprintln(w, title)
	if zero := seekstats.WriteTickers(w, tickers, false); zero > 0 {
		fmt.Fprintf(w, "(%d tickers are zero; -json lists them all)\n", zero)
	}
}
