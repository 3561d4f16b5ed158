// Copyright 2026 The pebblerf Authors. All rights reserved.

package dbbench

import (
	"math"
	"strings"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/pointfilter"
)

// Compression maps db_bench's -compression_type names to what Pebble
// has. Pebble has no zlib, bzip2, lz4, lz4hc or xpress; those are rejected
// rather than quietly replaced, so a figure never claims a codec it did not
// use. minlz is Pebble's own and not in db_bench.
func Compression(name string) (*sstable.CompressionProfile, error) {
	switch strings.ToLower(name) {
	case "none":
		return sstable.NoCompression, nil
	case "snappy":
		return sstable.SnappyCompression, nil
	case "zstd":
		return sstable.ZstdCompression, nil
	case "minlz":
		return sstable.MinLZCompression, nil
	case "zlib", "bzip2", "lz4", "lz4hc", "xpress":
		return nil, errors.Newf("%q is a db_bench codec Pebble does not have; use none, snappy, zstd or minlz", name)
	default:
		return nil, errors.Newf("unknown codec %q; use none, snappy, zstd or minlz", name)
	}
}

// db_bench's -compaction_style values (RocksDB's CompactionStyle enum).
const (
	styleLevel     = 0
	styleUniversal = 1
	styleFIFO      = 2
	styleNone      = 3
)

// CompactionStyle maps db_bench's -compaction_style value to a profile:
// 0 (level) to Leveled, 1 (universal) to ManyRuns with DefaultRuns, 3 (none)
// to NoCompaction. 2 (FIFO) is rejected: FIFO drops the oldest tables
// wholesale, which Pebble cannot do without deleting their keys.
func CompactionStyle(dbBenchValue int) (compactionext.Profile, error) {
	switch dbBenchValue {
	case styleLevel:
		return compactionext.Leveled, nil
	case styleUniversal:
		return &compactionext.ManyRuns{Runs: compactionext.DefaultRuns}, nil
	case styleFIFO:
		return nil, errors.Newf(
			"-compaction_style=2 (FIFO) is not supported: Pebble cannot drop whole tables by age")
	case styleNone:
		return compactionext.NoCompaction, nil
	default:
		return nil, errors.Newf(
			"unknown -compaction_style=%d (0 level, 1 universal, 2 fifo, 3 none)", dbBenchValue)
	}
}

// FilterPlan maps db_bench's (and RocksDB's) filter options onto a
// plan:
//
//   - bloomBits is -bloom_bits. As in RocksDB, values below 0.5 (db_bench's
//     default is -1) mean no filters, [0.5, 1) means 1, and values above 100
//     mean 100.
//   - useRibbon is -use_ribbon_filter. Without it every level uses Bloom.
//   - bloomBeforeLevel is RocksDB's bloom_before_level, with which levels
//     below it use Bloom and the rest Ribbon, a flush counting as level −1.
//     Pebble builds flushed tables and intra-L0 compaction outputs with the
//     same L0 options and cannot tell them apart, so: −1 (Ribbon always) maps
//     to RibbonFromLevel 0; 0 (RocksDB's default: Bloom for flushes only)
//     maps to 1, Bloom in L0; N ≥ 1 maps to N; math.MaxInt32 or more (Bloom
//     always) maps to pointfilter.NoRibbon. Values below −1 are an error.
//   - useL6Filters is -use_l6_filters: write L6 filters (and read them, via
//     UseL6Filters). Without it L6 has none, as Pebble never reads them
//     unless asked.
func FilterPlan(bloomBits float64, useRibbon bool, bloomBeforeLevel int, useL6Filters bool) (pointfilter.Plan, error) {
	plan := pointfilter.Plan{L6Filters: useL6Filters, RibbonFromLevel: pointfilter.NoRibbon}
	switch {
	case math.IsNaN(bloomBits):
		return pointfilter.Plan{}, errors.Newf("-bloom_bits %v is not a number", bloomBits)
	case bloomBits < 0.5:
		plan.BitsPerKey = 0
	default:
		plan.BitsPerKey = min(max(bloomBits, 1), 100)
	}
	if !useRibbon {
		return plan, nil
	}
	switch {
	case bloomBeforeLevel < -1:
		return pointfilter.Plan{}, errors.Newf("-bloom_before_level %d is below -1", bloomBeforeLevel)
	case bloomBeforeLevel == -1:
		plan.RibbonFromLevel = 0
	case bloomBeforeLevel == 0:
		plan.RibbonFromLevel = 1
	case bloomBeforeLevel >= math.MaxInt32:
		plan.RibbonFromLevel = pointfilter.NoRibbon
	default:
		plan.RibbonFromLevel = bloomBeforeLevel
	}
	return plan, nil
}
