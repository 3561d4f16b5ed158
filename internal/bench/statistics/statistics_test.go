// Copyright 2026 The pebblerf Authors. All rights reserved.

package statistics

import (
	"bytes"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

func TestTickerArithmetic(t *testing.T) {
	before := []Ticker{{"a", 5}, {"b", 1}}
	after := []Ticker{{"a", 8}, {"b", 1}, {"c", 4}}
	delta := Subtract(after, before)
	require.Equal(t, []Ticker{{"a", 3}, {"b", 0}, {"c", 4}}, delta)

	var sum []Ticker
	Add(&sum, delta)
	Add(&sum, []Ticker{{"c", 1}, {"d", 2}})
	require.Equal(t, []Ticker{{"a", 3}, {"b", 0}, {"c", 5}, {"d", 2}}, sum)

	// The Metrics-derived tickers win; others are appended.
	require.Equal(t, []Ticker{{"a", 3}, {"b", 0}, {"c", 5}, {"d", 2}, {"e", 7}},
		Merge(sum, []Ticker{{"a", 9}, {"e", 7}}))
}

// TestFromMetrics: the tickers copy and sum the Metrics they name, and
// Print lists the non-zero ones and counts the rest.
func TestFromMetrics(t *testing.T) {
	var m upstream.Metrics
	m.BlockCache.Hits, m.BlockCache.Misses = 7, 3
	m.Filter.Hits = 11
	m.Levels[0].TableBytesFlushed = 100
	m.Levels[5].TableBytesFlushed = 1
	m.Levels[6].TableBytesCompacted = 40
	m.Flush.Count = 2
	got := Map(FromMetrics(&m))
	require.Equal(t, map[string]int64{
		"rocksdb.block.cache.hit": 7, "rocksdb.block.cache.miss": 3,
		"rocksdb.bloom.filter.useful": 11, "rocksdb.bloom.filter.full.positive": 0,
		"rocksdb.flush.write.bytes": 101, "rocksdb.compact.read.bytes": 0, "rocksdb.compact.write.bytes": 40,
		"rocksdb.wal.bytes": 0, "pebble.flush.count": 2, "pebble.compact.count": 0,
	}, got)

	var b bytes.Buffer
	Print(&b, "STATISTICS:", FromMetrics(&m))
	require.Equal(t, "STATISTICS:\n"+
		"rocksdb.block.cache.hit COUNT : 7\n"+
		"rocksdb.block.cache.miss COUNT : 3\n"+
		"rocksdb.bloom.filter.useful COUNT : 11\n"+
		"rocksdb.flush.write.bytes COUNT : 101\n"+
		"rocksdb.compact.write.bytes COUNT : 40\n"+
		"pebble.flush.count COUNT : 2\n"+
		"(4 tickers are zero; -json lists them all)\n", b.String())
}
