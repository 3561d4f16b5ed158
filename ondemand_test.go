// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// tablesWithFilters counts, per level, the tables of db with a range filter
// and those without.
func tablesWithFilters(t *testing.T, db *DB) (with, without [7]int) {
	t.Helper()
	levels, err := db.SSTables(WithProperties())
	require.NoError(t, err)
	for level, tables := range levels {
		for _, tbl := range tables {
			_, ok, err := rangefilter.FromUserProperties(tbl.Properties.UserProperties)
			require.NoError(t, err)
			if ok {
				with[level]++
			} else {
				without[level]++
			}
		}
	}
	return with, without
}

// loadEvenKeys writes key0000, key0002, ... key3998 in four flushes and
// compacts them into the bottom level: a DB loaded while nothing reads it.
func loadEvenKeys(t *testing.T, db *DB) {
	for f := 0; f < 4; f++ {
		for i := f * 1000; i < (f+1)*1000; i += 2 {
			require.NoError(t, db.Set(fmt.Appendf(nil, "key%04d", i), []byte("v"), nil))
		}
		require.NoError(t, db.Flush())
	}
	require.NoError(t, db.Compact(context.Background(), []byte("key"), []byte("kez"), false))
}

// emptySeek reads the empty span [key%04d1, key%04d2) of an odd key and
// returns the block bytes it loaded.
func emptySeek(t *testing.T, db *DB, i int) uint64 {
	it, err := db.NewIter(&IterOptions{LowerBound: fmt.Appendf(nil, "key%04d", 2*i+1), UpperBound: fmt.Appendf(nil, "key%04d", 2*i+2)})
	require.NoError(t, err)
	keys, bytes := scanBytes(t, it)
	require.Empty(t, keys)
	require.NoError(t, it.Close())
	return bytes
}

// TestRecommendedBuildsWhereReadsCome: with Recommended(), a DB loaded
// while nothing reads it writes no range filter; once bounded reads come,
// the backfill derives the filters of the tables they consult, and reads
// over empty spans stop loading blocks; flushes from then on get filters in
// the key regions bounded reads came to. Every read returns what the keys
// hold.
func TestRecommendedBuildsWhereReadsCome(t *testing.T) {
	db := openTestDB(t, nil, Recommended())
	loadEvenKeys(t, db)
	with, without := tablesWithFilters(t, db)
	require.Zero(t, with, "no bounded read came: no table has a filter")
	require.Positive(t, without[6])

	require.Positive(t, emptySeek(t, db, 7), "without filters an empty span loads blocks")
	require.Eventually(t, func() bool {
		// The reads go on, noting the tables they meet.
		return emptySeek(t, db, 11) == 0
	}, time.Minute, 5*time.Millisecond, "the backfill must derive the filter of the table read")
	st := db.RangeFilterPolicy().Backfilled()
	require.EqualValues(t, without[6], st.Tables, "every table read, once")
	require.EqualValues(t, without[6], st.Held)
	require.Positive(t, st.Bytes)
	require.Positive(t, st.HeldBytes)
	for i := range 100 {
		require.Zero(t, emptySeek(t, db, i), "span %d: the derived filter rules the table out", i)
	}
	with, _ = tablesWithFilters(t, db)
	require.Zero(t, with, "a derived filter is not written into its table")

	// A flush now gets a filter: bounded reads came to the region.
	flushTable(t, db, "v", "key5000", "key5002")
	with, _ = tablesWithFilters(t, db)
	require.Equal(t, 1, with[0])
	// A key region no bounded read came to gets none.
	flushTable(t, db, "v", "zed1", "zed2")
	with, without = tablesWithFilters(t, db)
	require.Equal(t, 1, with[0])
	require.Equal(t, 1, without[0])

	// Compacted away, a table's derived filter goes with it.
	flushTable(t, db, "v", "key0001")
	require.NoError(t, db.Compact(context.Background(), []byte("a"), []byte("zz"), false))
	require.Eventually(t, func() bool {
		return db.RangeFilterPolicy().Backfilled().Held == 0
	}, time.Minute, 5*time.Millisecond, "a deleted table's derived filter is dropped")
}

// TestRangeFilterPlanAllBuildsEverywhere: the plans without OnDemand (the
// default of Plugins.RangeFilter) still build a filter in every table.
func TestRangeFilterPlanAllBuildsEverywhere(t *testing.T) {
	db := openTestDB(t, nil, Plugins{RangeFilter: &rangefilter.Config{}})
	loadEvenKeys(t, db)
	with, without := tablesWithFilters(t, db)
	require.Positive(t, with[6])
	require.Zero(t, without)
	require.Zero(t, emptySeek(t, db, 7))
}
