// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pebblerf/pebble/rangefilter"
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
}

// lsmShape reads the shape of the LSM: files, bytes and sublevels from
// Metrics, the filter bytes from each table's properties (DB.SSTables), which
// is the filter footprint the point-filter comparisons are about.
func lsmShape(e engine) ([]levelShape, error) {
	m := e.Metrics()
	tables, err := e.SSTables()
	if err != nil {
		return nil, err
	}
	shape := make([]levelShape, len(m.Levels))
	for i := range m.Levels {
		shape[i] = levelShape{
			Level:     i,
			Files:     m.Levels[i].TablesCount,
			Bytes:     m.Levels[i].TablesSize,
			Sublevels: m.Levels[i].Sublevels,
		}
		if i < len(tables) {
			for _, t := range tables[i] {
				if t.Properties != nil {
					shape[i].FilterBytes += int64(t.Properties.FilterSize)
					if f, ok, err := rangefilter.FromUserProperties(t.Properties.UserProperties); ok && err == nil {
						shape[i].RangeFilterBytes += int64(len(f))
						if info, err := rangefilter.Describe(f); err == nil {
							shape[i].RangeFilterKeys += int64(info.Keys)
						}
					}
				}
			}
		}
	}
	return shape, nil
}

// printLevelStats is the levelstats benchmark: db_bench's
// "Level Files Size(MB)" table with two more columns, the L0 sublevel count
// (Pebble's measure of L0 read amplification) and the filter bytes.
func printLevelStats(out io.Writer, e engine, _ *config) (interface{}, error) {
	shape, err := lsmShape(e)
	if err != nil {
		return nil, err
	}
	header := "Level Files Size(MB) Sublevels Filter(KB)"
	fmt.Fprintln(out, header)
	fmt.Fprintln(out, strings.Repeat("-", len(header)))
	var total levelShape
	for _, l := range shape {
		fmt.Fprintf(out, "%5d %5d %8.1f %9d %10.1f\n", l.Level, l.Files, float64(l.Bytes)/(1<<20), l.Sublevels, float64(l.FilterBytes)/(1<<10))
		total.Files += l.Files
		total.Bytes += l.Bytes
		total.Sublevels += l.Sublevels
		total.FilterBytes += l.FilterBytes
		total.RangeFilterBytes += l.RangeFilterBytes
		total.RangeFilterKeys += l.RangeFilterKeys
	}
	fmt.Fprintf(out, "%5s %5d %8.1f %9d %10.1f\n", "total", total.Files, float64(total.Bytes)/(1<<20), total.Sublevels, float64(total.FilterBytes)/(1<<10))
	if total.RangeFilterBytes > 0 {
		// Range filters are table properties: each open table holds its
		// filter in the Go heap, outside the block cache.
		fmt.Fprintf(out, "Range filters: %.1f KB, %.2f bits/key over %d keys, in the Go heap of open tables (point filters above: block cache)\n",
			float64(total.RangeFilterBytes)/(1<<10), 8*float64(total.RangeFilterBytes)/float64(max(total.RangeFilterKeys, 1)), total.RangeFilterKeys)
	}
	return map[string]interface{}{"levels": shape}, nil
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
