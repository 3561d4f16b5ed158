// Copyright 2026 The pebblerf Authors. All rights reserved.

package statistics

import (
	"bytes"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

func TestTickerArithmetic(t *testing.T) {
	before := []Ticker{{Name: "a", Count: 5}, {Name: "b", Count: 1}}
	after := []Ticker{{Name: "a", Count: 8}, {Name: "b", Count: 1}, {Name: "c", Count: 4}}
	delta := Subtract(after, before)
	require.Equal(t, []Ticker{{Name: "a", Count: 3}, {Name: "b", Count: 0}, {Name: "c", Count: 4}}, delta)

	var sum []Ticker
	Add(&sum, delta)
	Add(&sum, []Ticker{{Name: "c", Count: 1}, {Name: "d", Count: 2}})
	require.Equal(t, []Ticker{{Name: "a", Count: 3}, {Name: "b", Count: 0}, {Name: "c", Count: 5}, {Name: "d", Count: 2}}, sum)

	// The Metrics-derived tickers win; others are appended.
	require.Equal(t, []Ticker{{Name: "a", Count: 3}, {Name: "b", Count: 0}, {Name: "c", Count: 5}, {Name: "d", Count: 2}, {Name: "e", Count: 7}},
		Merge(sum, []Ticker{{Name: "a", Count: 9}, {Name: "e", Count: 7}}))
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
		"pebblerf.dbwide.block.cache.hit": 7, "pebblerf.dbwide.block.cache.miss": 3,
		"pebblerf.dbwide.filter.useful": 11, "pebblerf.dbwide.filter.positive": 0,
		"rocksdb.flush.write.bytes": 101, "rocksdb.compact.read.bytes": 0, "rocksdb.compact.write.bytes": 40,
		"rocksdb.wal.bytes": 0, "pebble.flush.count": 2, "pebble.compact.count": 0,
	}, got)

	var b bytes.Buffer
	Print(&b, "STATISTICS:", FromMetrics(&m))
	require.Equal(t, "STATISTICS:\n"+
		"pebblerf.dbwide.filter.useful COUNT : 11\n"+
		"pebblerf.dbwide.block.cache.hit COUNT : 7\n"+
		"pebblerf.dbwide.block.cache.miss COUNT : 3\n"+
		"rocksdb.flush.write.bytes COUNT : 101\n"+
		"rocksdb.compact.write.bytes COUNT : 40\n"+
		"pebble.flush.count COUNT : 2\n"+
		"(4 tickers are zero; -json lists them all)\n"+
		"(pebblebench -help defines every ticker, under \"Tickers\")\n", b.String())
}
