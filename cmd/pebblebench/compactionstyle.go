// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/compactionext"
)

// db_bench's -compaction_style values (RocksDB's CompactionStyle enum).
const (
	dbBenchLevel     = 0
	dbBenchUniversal = 1
	dbBenchFIFO      = 2
	dbBenchNone      = 3
)

// parseCompactionStyle maps db_bench's -compaction_style value to a profile:
// 0 (level) to Leveled, 1 (universal) to ManyRuns with DefaultRuns, 3 (none)
// to NoCompaction. 2 (FIFO) is rejected: FIFO drops the oldest tables
// wholesale, which Pebble cannot do without deleting their keys.
func parseCompactionStyle(dbBenchValue int) (compactionext.Profile, error) {
	switch dbBenchValue {
	case dbBenchLevel:
		return compactionext.Leveled{}, nil
	case dbBenchUniversal:
		return &compactionext.ManyRuns{Runs: compactionext.DefaultRuns}, nil
	case dbBenchFIFO:
		return nil, errors.Newf(
			"-compaction_style=2 (FIFO) is not supported: Pebble cannot drop whole tables by age")
	case dbBenchNone:
		return compactionext.NoCompaction{}, nil
	default:
		return nil, errors.Newf(
			"unknown -compaction_style=%d (0 level, 1 universal, 2 fifo, 3 none)", dbBenchValue)
	}
}
