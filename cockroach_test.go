// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// The tests in this file check that the plug-ins compose with the reads a
// CockroachDB-style storage layer makes over MVCC keys: its own
// PointKeyFilters (the MVCC time-interval filter) and SkipPoint must act on
// every iterator pebblerf hands out, before and after the range filter is
// rebuilt for new bounds. Results alone cannot show that a caller's block
// filter acted, since SkipPoint hides the same keys; the block bytes read
// can.

const crdbKeys = 600

func crdbKey(i int, wall uint64) []byte {
	return cockroachkvs.EncodeMVCCKey(nil, fmt.Appendf(nil, "/Table/1/%06d", i), wall, 0)
}

// crdbDB writes versions at wall times 1 to 5 of every key, one flushed
// table per wall time, so that a time interval holds whole tables.
func crdbDB(t *testing.T) *DB {
	opts := testOptions()
	opts.Comparer = &cockroachkvs.Comparer
	opts.KeySchema = cockroachkvs.KeySchema.Name
	opts.KeySchemas = sstable.MakeKeySchemas(&cockroachkvs.KeySchema)
	opts.BlockPropertyCollectors = cockroachkvs.BlockPropertyCollectors
	for i := range opts.Levels {
		opts.Levels[i].BlockSize = 1 << 10
	}
	db := openTestDB(t, opts, Plugins{
		Statistics:  true,
		Filters:     pointfilter.MustNewPlanner(pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: 1}),
		RangeFilter: &rangefilter.Config{},
	})
	for wall := uint64(1); wall <= 5; wall++ {
		for i := 0; i < crdbKeys; i++ {
			require.NoError(t, db.Set(crdbKey(i, wall), fmt.Appendf(nil, "v%d", wall), nil))
		}
		require.NoError(t, db.Flush())
	}
	return db
}

// crdbIter is what the tests need of both of pebblerf's iterators.
type crdbIter interface {
	First() bool
	Next() bool
	SetBounds(lower, upper []byte)
	Key() []byte
	Stats() IteratorStats
	Close() error
}

// drain returns the wall times of the keys from First on, and the block
// bytes the iterator has read so far.
func drain(t *testing.T, it crdbIter) (walls []uint64, blockBytes uint64) {
	for valid := it.First(); valid; valid = it.Next() {
		k := it.Key()
		wall, _, err := cockroachkvs.DecodeMVCCTimestampSuffix(k[cockroachkvs.Split(k):])
		require.NoError(t, err)
		walls = append(walls, wall)
	}
	return walls, it.Stats().InternalStats.BlockBytes
}

func TestCockroachTimeBoundComposes(t *testing.T) {
	db := crdbDB(t)
	lower, upper := crdbKey(100, 0), crdbKey(400, 0)
	wider := crdbKey(500, 0)
	opens := map[string]func(o *IterOptions) (crdbIter, error){
		"NewIter": func(o *IterOptions) (crdbIter, error) { return db.NewIter(o) },
	}
	for name, plan := range map[string]querybuilder.Plan{"auto": querybuilder.PlanAuto, "plain": querybuilder.PlanPlain, "stepped": querybuilder.PlanStepped} {
		opens["NewRangeQuery/"+name] = func(o *IterOptions) (crdbIter, error) {
			return db.NewRangeQuery(o, &RangeQueryOptions{Plan: plan})
		}
	}
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			// Unfiltered: every version, and the block bytes of all five
			// tables.
			it, err := open(&IterOptions{LowerBound: lower, UpperBound: upper})
			require.NoError(t, err)
			all, allBytes := drain(t, it)
			require.Len(t, all, 300*5)
			require.NoError(t, it.Close())

			// The time-interval filter for wall time 3 alone: one table's
			// versions, read from that table alone.
			it, err = open(&IterOptions{
				LowerBound: lower, UpperBound: upper,
				PointKeyFilters: []BlockPropertyFilter{cockroachkvs.NewMVCCTimeIntervalFilter(3, 3)},
			})
			require.NoError(t, err)
			walls, bytes := drain(t, it)
			require.Len(t, walls, 300)
			for _, w := range walls {
				require.Equal(t, uint64(3), w)
			}
			require.Less(t, 3*bytes, allBytes, "the caller's time-interval filter skipped no table")

			// Wider bounds rebuild the range filter; the caller's filter
			// must survive the rebuild.
			it.SetBounds(lower, wider)
			walls, bytes2 := drain(t, it)
			require.Len(t, walls, 400)
			require.Less(t, 3*(bytes2-bytes), allBytes, "the caller's filter was lost when bounds widened")
			require.NoError(t, it.Close())

			// SkipPoint is kept too, across the rebuild.
			it, err = open(&IterOptions{
				LowerBound: lower, UpperBound: upper,
				SkipPoint: func(k []byte) bool {
					wall, _, _ := cockroachkvs.DecodeMVCCTimestampSuffix(k[cockroachkvs.Split(k):])
					return wall != 5
				},
			})
			require.NoError(t, err)
			walls, _ = drain(t, it)
			require.Len(t, walls, 300)
			it.SetBounds(lower, wider)
			walls, _ = drain(t, it)
			require.Len(t, walls, 400)
			for _, w := range walls {
				require.Equal(t, uint64(5), w)
			}
			require.NoError(t, it.Close())
		})
	}
}

// TestCockroachPrefixStatistics checks that point filters and the per-level
// statistics work on MVCC prefixes (the roach key without its timestamp):
// point gets of absent roach keys are answered by the filters.
func TestCockroachPrefixStatistics(t *testing.T) {
	db := crdbDB(t)
	db.Statistics().Reset()
	it, err := db.NewIter(nil)
	require.NoError(t, err)
	for i := 0; i < 100; i++ {
		// Present: the newest version at or below wall time 4.
		require.True(t, it.SeekPrefixGE(crdbKey(i, 4)))
		require.Equal(t, "v4", string(it.Value()))
		// An absent roach key inside every table's key range.
		absent := cockroachkvs.EncodeMVCCKey(nil, fmt.Appendf(nil, "/Table/1/%06d-", i), 4, 0)
		require.False(t, it.SeekPrefixGE(absent))
	}
	require.NoError(t, it.Close())
	sn := db.Statistics().PerLevel().Snapshot()
	l0 := sn.Rows[seekstats.RowL0]
	// 100 absent keys in five tables: nearly all answered by the filter.
	require.GreaterOrEqual(t, l0.Filtered, uint64(450), "\n%s", sn.LevelTable())
	// Every present key's seek matched a filter in some table of L0.
	require.GreaterOrEqual(t, l0.FilterMatch, uint64(100), "\n%s", sn.LevelTable())
}
