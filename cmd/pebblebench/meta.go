// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
)

// levelShape is one LSM level in the levelstats output.
type levelShape struct {
	Level       int   `json:"level"`
	Files       int64 `json:"files"`
	Bytes       int64 `json:"bytes"`
	Sublevels   int32 `json:"sublevels"`
	FilterBytes int64 `json:"filter_bytes"`
	// RangeFilterBytes and RangeFilterKeys are the range filters' size and
	// the distinct prefixes they hold (pebblerf's tables only).
	RangeFilterBytes int64 `json:"range_filter_bytes,omitempty"`
	RangeFilterKeys  int64 `json:"range_filter_keys,omitempty"`
	// PointFilter is the point filter pebblerf's plan gives the level now
	// (new tables get it; older ones keep theirs), "-" for upstream.
	PointFilter string `json:"point_filter,omitempty"`
	// RangeFilter is likewise the range filter's bits per key now, "none",
	// or "-" (upstream, or range filters off).
	RangeFilter string `json:"range_filter,omitempty"`
}

// lsmShape reads the shape of the LSM: files, bytes and sublevels from
// Metrics, the filter bytes from each table's properties (DB.SSTables, as
// whatif.ShapeOf sums them), which is the filter footprint the point-filter
// comparisons are about.
func lsmShape(e engine) ([]levelShape, error) {
	m := e.Metrics()
	tables, err := e.SSTables()
	if err != nil {
		return nil, err
	}
	rows := whatif.ShapeOf(tables)
	shape := make([]levelShape, len(m.Levels))
	for i := range m.Levels {
		row := rows[seekstats.RowForLevel(i)]
		shape[i] = levelShape{
			Level:            i,
			Files:            m.Levels[i].TablesCount,
			Bytes:            m.Levels[i].TablesSize,
			Sublevels:        m.Levels[i].Sublevels,
			FilterBytes:      int64(row.FilterBytes),
			RangeFilterBytes: int64(row.RangeFilterBytes),
			RangeFilterKeys:  int64(row.RangeFilterKeys),
		}
	}
	return shape, nil
}

// printLevelStats is the levelstats benchmark: db_bench's
// "Level Files Size(MB)" table with more columns: the L0 sublevel count
// (Pebble's measure of L0 read amplification), the point filter the plan
// gives each level now, the point filters' bytes (read through the block
// cache) and the range filters' (table properties, resident in the Go heap
// of open tables, outside the cache).
func printLevelStats(out io.Writer, e engine, c *config) (interface{}, error) {
	shape, err := lsmShape(e)
	if err != nil {
		return nil, err
	}
	header := "Level Files Size(MB) Sublevels Filter(KB) RangeFilter(KB) PointFilterNow  RangeFilterNow"
	fmt.Fprintln(out, header)
	fmt.Fprintln(out, strings.Repeat("-", len(header)))
	var total levelShape
	for i := range shape {
		l := &shape[i]
		l.PointFilter = c.levelFilterOf(e, l.Level)
		l.RangeFilter = c.levelRangeFilterOf(e, l.Level)
		fmt.Fprintf(out, "%5d %5d %8.1f %9d %10.1f %15.1f %-15s %s\n", l.Level, l.Files, float64(l.Bytes)/(1<<20), l.Sublevels,
			float64(l.FilterBytes)/(1<<10), float64(l.RangeFilterBytes)/(1<<10), l.PointFilter, l.RangeFilter)
		total.Files += l.Files
		total.Bytes += l.Bytes
		total.Sublevels += l.Sublevels
		total.FilterBytes += l.FilterBytes
		total.RangeFilterBytes += l.RangeFilterBytes
		total.RangeFilterKeys += l.RangeFilterKeys
	}
	fmt.Fprintf(out, "%5s %5d %8.1f %9d %10.1f %15.1f\n", "total", total.Files, float64(total.Bytes)/(1<<20), total.Sublevels,
		float64(total.FilterBytes)/(1<<10), float64(total.RangeFilterBytes)/(1<<10))
	m := e.Metrics()
	fmt.Fprintf(out, "Block cache: %.1f KB resident (point filter blocks are read through it)\n", float64(m.BlockCache.Size)/(1<<10))
	if total.RangeFilterBytes > 0 {
		fmt.Fprintf(out, "Range filters: %.2f bits/key over %d keys, in the Go heap of open tables\n",
			8*float64(total.RangeFilterBytes)/float64(max(total.RangeFilterKeys, 1)), total.RangeFilterKeys)
	}
	return map[string]interface{}{"levels": shape, "block_cache_bytes": m.BlockCache.Size}, nil
}

// printStats is the stats benchmark: Pebble's own metrics table, the
// counterpart of db_bench's rocksdb.stats.
func printStats(out io.Writer, e engine, _ *config) (interface{}, error) {
	s := e.Metrics().String()
	fmt.Fprint(out, s)
	if !strings.HasSuffix(s, "\n") {
		fmt.Fprintln(out)
	}
	return map[string]interface{}{"metrics": s}, nil
}
