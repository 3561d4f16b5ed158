// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

import (
	"fmt"
	"io"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/lsm"
)

// MetaData is what a meta benchmark printed, as its -json record's data:
// levelstats' levels and block cache, or stats' metrics table.
type MetaData struct {
	Levels          []lsm.Level `json:"levels,omitempty"`
	BlockCacheBytes *int64      `json:"block_cache_bytes,omitempty"`
	Metrics         string      `json:"metrics,omitempty"`
}

// printLevelStats is the levelstats benchmark: db_bench's
// "Level Files Size(MB)" table with more columns: the L0 sublevel count
// (Pebble's measure of L0 read amplification), the point filter the plan
// gives each level now, the point filters' bytes (read through the block
// cache) and the range filters' (table properties, resident in the Go heap
// of open tables, outside the cache).
func printLevelStats(out io.Writer, e engine.DB, c *config.Config) (*MetaData, error) {
	shape, err := lsm.Shape(e)
	if err != nil {
		return nil, err
	}
	header := "Level Files Size(MB) Sublevels Filter(KB) RangeFilter(KB) PointFilterNow  RangeFilterNow"
	fmt.Fprintln(out, header)
	fmt.Fprintln(out, strings.Repeat("-", len(header)))
	var total lsm.Level
	for i := range shape {
		l := &shape[i]
		l.PointFilter = engine.LevelFilter(c, e, l.Level)
		l.RangeFilter = engine.LevelRangeFilter(c, e, l.Level)
		fmt.Fprintf(out, "%5d %5d %8.1f %9d %10.1f %15.1f %-15s %s\n", l.Level, l.Files, float64(l.Bytes)/(1<<20), l.Sublevels,
			float64(l.FilterBytes)/(1<<10), float64(l.RangeFilterBytes)/(1<<10), l.PointFilter, l.RangeFilter)
		total.Files += l.Files
		total.Bytes += l.Bytes
		total.Sublevels += l.Sublevels
		total.FilterBytes += l.FilterBytes
		total.RangeFilterBytes += l.RangeFilterBytes
		total.RangeFilterKeys += l.RangeFilterKeys
		total.RangeFilterTables += l.RangeFilterTables
		total.RangeFilterExact += l.RangeFilterExact
	}
	fmt.Fprintf(out, "%5s %5d %8.1f %9d %10.1f %15.1f\n", "total", total.Files, float64(total.Bytes)/(1<<20), total.Sublevels,
		float64(total.FilterBytes)/(1<<10), float64(total.RangeFilterBytes)/(1<<10))
	m := e.Metrics()
	fmt.Fprintf(out, "Block cache: %.1f KB resident (point filter blocks are read through it)\n", float64(m.BlockCache.Size)/(1<<10))
	if total.RangeFilterBytes > 0 {
		fmt.Fprintf(out, "Range filters: %.2f bits/key over %d keys, in the Go heap of open tables%s\n",
			8*float64(total.RangeFilterBytes)/float64(max(total.RangeFilterKeys, 1)), total.RangeFilterKeys, exactNote(total))
	}
	return &MetaData{Levels: shape, BlockCacheBytes: &m.BlockCache.Size}, nil
}

// exactNote explains range filters' bits per key below the budget asked:
// a table whose keys fit in fewer bits than the budget stores them
// exactly (no false positives), so the budget is a ceiling.
func exactNote(l lsm.Level) string {
	if l.RangeFilterExact == 0 {
		return ""
	}
	return fmt.Sprintf("; %d of %d tables' keys fit in fewer bits than asked and are stored exactly (the bits asked are a ceiling)",
		l.RangeFilterExact, l.RangeFilterTables)
}

// printStats is the stats benchmark: Pebble's own metrics table, the
// counterpart of db_bench's rocksdb.stats.
func printStats(out io.Writer, e engine.DB, _ *config.Config) (*MetaData, error) {
	s := e.Metrics().String()
	fmt.Fprint(out, s)
	if !strings.HasSuffix(s, "\n") {
		fmt.Fprintln(out)
	}
	return &MetaData{Metrics: s}, nil
}
