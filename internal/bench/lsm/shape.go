// Copyright 2026 The pebblerf Authors. All rights reserved.

package lsm

import (
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/rangefilter"
)

// Level is one LSM level at a moment, as levelstats prints it.
type Level struct {
	Level       int   `json:"level"`
	Files       int64 `json:"files"`
	Bytes       int64 `json:"bytes"`
	Sublevels   int32 `json:"sublevels"`
	FilterBytes int64 `json:"filter_bytes"`
	// RangeFilterBytes and RangeFilterKeys are the range filters' size and
	// the distinct prefixes they hold (pebblerf's tables only).
	RangeFilterBytes int64 `json:"range_filter_bytes,omitempty"`
	RangeFilterKeys  int64 `json:"range_filter_keys,omitempty"`
	// RangeFilterTables counts the tables with a range filter, and
	// RangeFilterExact those whose filter holds the keys exactly: keys
	// that fit in fewer bits than the budget are stored as they are, so
	// such a filter takes less than the bits per key asked and answers
	// without false positives.
	RangeFilterTables int64 `json:"range_filter_tables,omitempty"`
	RangeFilterExact  int64 `json:"range_filter_exact,omitempty"`
	// PointFilter is the point filter pebblerf's plan gives the level now
	// (new tables get it; older ones keep theirs), "-" for upstream. Shape
	// leaves it empty: the caller knows the plan.
	PointFilter string `json:"point_filter,omitempty"`
	// RangeFilter is likewise the range filter's bits per key now, "none",
	// or "-" (upstream, or range filters off).
	RangeFilter string `json:"range_filter,omitempty"`
}

// Runs is the level's sorted runs: L0's sublevels, else one if the level
// holds a table.
func (l Level) Runs() int64 {
	if l.Level == 0 || l.Files == 0 {
		return int64(l.Sublevels)
	}
	return 1
}

// DB is what Shape reads of a database; SSTables must return the tables'
// properties (upstream.WithProperties).
type DB interface {
	Metrics() *upstream.Metrics
	SSTables() ([][]upstream.SSTableInfo, error)
}

// Shape reads the shape of the LSM: files, bytes and sublevels from
// Metrics, the filter bytes from each table's properties (DB.SSTables), which
// is the filter footprint the point-filter comparisons are about.
func Shape(db DB) ([]Level, error) {
	m := db.Metrics()
	tables, err := db.SSTables()
	if err != nil {
		return nil, err
	}
	shape := make([]Level, len(m.Levels))
	for i := range m.Levels {
		shape[i] = Level{
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
							shape[i].RangeFilterTables++
							if !info.Hashed && !info.Universal {
								shape[i].RangeFilterExact++
							}
						}
					}
				}
			}
		}
	}
	return shape, nil
}
