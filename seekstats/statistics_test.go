// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"strings"
	"testing"

	"github.com/pebblerf/pebble/internal/attribution"
	"github.com/stretchr/testify/require"
)

func TestNamesAndGroups(t *testing.T) {
	var st attribution.Store
	s := (*Statistics)(&st)
	// Two shards: reading a counter sums them.
	sh, other := st.Counters.PickShard(), st.Counters.PickShard()
	sh.AddRow(int(RowL0), attribution.Filtered)
	sh.AddRow(int(RowL5), attribution.Filtered)
	sh.AddRow(int(RowUnattributed), attribution.Filtered)
	sh.AddRow(int(RowL6), attribution.Filtered)
	sh.AddRow(int(RowMemtables), attribution.DataUsefulNoFilter)
	other.AddRow(int(RowL6), attribution.Filtered)
	sh.AddTicker(attribution.BloomFilterPrefixChecked, 5)

	require.EqualValues(t, 3, s.Get("rocksdb.non.last.level.seek.filtered"))
	require.EqualValues(t, 2, s.Get("rocksdb.last.level.seek.filtered"))
	require.EqualValues(t, 1, s.Get("pebblerf.memtable.seek.data.useful.no.filter"))
	require.Zero(t, s.Get("rocksdb.non.last.level.seek.data.useful.no.filter"), "memtables are in no group")
	require.EqualValues(t, 5, s.Get("rocksdb.bloom.filter.prefix.checked"))
	require.Zero(t, s.Get("no.such.ticker"))

	// A range filter's rule-out is a FILTERED seek too, with its own share.
	sh.AddRow(int(RowL5), attribution.FilteredRange)
	require.EqualValues(t, 2, s.Get("pebblerf.l5.seek.filtered"))
	require.EqualValues(t, 1, s.Get("pebblerf.l5.seek.filtered.range"))
	require.EqualValues(t, 4, s.Get("rocksdb.non.last.level.seek.filtered"))
	require.EqualValues(t, 1, s.Get("pebblerf.non.last.level.seek.filtered.range"))
	require.EqualValues(t, 2, s.Pop("pebblerf.l5.seek.filtered"))
	require.Zero(t, s.Get("pebblerf.l5.seek.filtered.range"), "popping FILTERED pops its range share")
	sh.AddRow(int(RowL5), attribution.Filtered)

	dump := s.Snapshot().dump()
	require.Contains(t, dump, "rocksdb.last.level.seek.filtered COUNT : 2\n")
	require.Contains(t, dump, "rocksdb.non.last.level.seek.filtered COUNT : 3\n")
	require.Contains(t, dump, "pebblerf.l5.seek.filtered COUNT : 1\n")
	require.Contains(t, dump, "pebblerf.l4.seek.filtered COUNT : 0\n")
	for _, line := range strings.Split(strings.TrimSpace(dump), "\n") {
		require.Regexp(t, `^[a-z0-9.]+ COUNT : \d+$`, line)
	}
	// String prints the non-zero tickers only, under a heading that says
	// since when they count, and the per-level table.
	out := s.Snapshot().String()
	require.Contains(t, out, "since open")
	require.Contains(t, out, "pebblerf.l5.seek.filtered COUNT : 1\n")
	require.NotContains(t, out, "COUNT : 0\n")
	require.Regexp(t, `(?m)^L5 +1 +0 `, out)
	require.NotRegexp(t, `(?m)^L4 `, out, "rows that counted nothing are left out")

	// Popping a group resets its rows and nothing else.
	require.EqualValues(t, 2, s.Pop("rocksdb.last.level.seek.filtered"))
	require.Zero(t, s.Get("pebblerf.l6.seek.filtered"))
	require.EqualValues(t, 3, s.Get("rocksdb.non.last.level.seek.filtered"))
	s.Reset()
	sn := s.Snapshot()
	for _, tc := range sn.Tickers() {
		require.Zero(t, tc.Count, tc.Name)
	}
}

func TestNilStatistics(t *testing.T) {
	var s *Statistics
	require.Zero(t, s.Get("rocksdb.last.level.seek.data"))
	require.Zero(t, s.Pop("rocksdb.last.level.seek.data"))
	s.Reset()
	require.Contains(t, s.Snapshot().dump(), "rocksdb.last.level.seek.data COUNT : 0\n")
	require.NotContains(t, s.Snapshot().String(), "COUNT")
}

func TestDerivedFigures(t *testing.T) {
	// 100 seeks checked a filter: 70 ruled out, 30 passed, of which 10
	// produced a value. FP = 20 of 90 negatives.
	rate := func(want float64) func(float64, bool) {
		return func(got float64, ok bool) {
			t.Helper()
			require.True(t, ok)
			require.InDelta(t, want, got, 1e-12)
		}
	}
	c := LevelCounts{Filtered: 70, FilterMatch: 30, Data: 40, NeededFilterMatch: 10, Needed: 16}
	rate(20.0 / 90)(c.SeekFalsePositiveRate())
	require.Empty(t, c.SeekFalsePositiveAbsence())
	// Range filters' rule-outs say nothing of the prefix filter's rate.
	withRange := c
	withRange.Filtered, withRange.FilteredRange = 85, 15
	rate(20.0 / 90)(withRange.SeekFalsePositiveRate())
	_, ok := LevelCounts{}.SeekFalsePositiveRate()
	require.False(t, ok)
	// The rate counts matches whose table held the key the seek found, not
	// values read: a key-only workload gets the same rate, and a value read
	// without a needed load does not make a match true.
	keysOnly := c
	keysOnly.UsefulFilterMatch, keysOnly.UsefulNoFilter = 0, 0
	rate(20.0 / 90)(keysOnly.SeekFalsePositiveRate())
	valuesOnly := LevelCounts{Filtered: 70, FilterMatch: 30, Data: 40, UsefulFilterMatch: 10}
	rate(30.0 / 100)(valuesOnly.SeekFalsePositiveRate())
	// Without a data-block load counted at the level (FiltersOnly) the rate
	// is not defined, and the reason says so.
	noLoads := LevelCounts{Filtered: 70, FilterMatch: 30}
	_, ok = noLoads.SeekFalsePositiveRate()
	require.False(t, ok)
	require.Equal(t, noLoadCounted, noLoads.SeekFalsePositiveAbsence())

	// The range-filter opportunity counts bounded seeks only, and the loads
	// that found no key, value read or not.
	_, ok = c.RangeFilterOpportunity()
	require.False(t, ok, "unbounded seeks are no range filter's opportunity")
	c.DataBounded, c.NeededBounded, c.UsefulBounded = 25, 5, 1
	rate(20.0 / 25)(c.RangeFilterOpportunity())
	_, ok = LevelCounts{}.RangeFilterOpportunity()
	require.False(t, ok)

	// Point lookups per level: 8 passed, 6 of them found the key, 12 ruled
	// out: FP = 2 of 14 negatives.
	g := LevelCounts{GetUseful: 12, GetPositive: 8, GetTruePositive: 6}
	rate(2.0 / 14)(g.GetFalsePositiveRate())
	_, ok = LevelCounts{}.GetFalsePositiveRate()
	require.False(t, ok)

	var sn Snapshot
	sn.tickers[attribution.BloomFilterPrefixChecked] = 100
	sn.tickers[attribution.BloomFilterPrefixUseful] = 60
	sn.tickers[attribution.BloomFilterPrefixTruePositive] = 30
	rate(10.0 / 70)(sn.PointPrefixFalsePositiveRate())

	sn.tickers[attribution.BloomFilterFullPositive] = 50
	sn.tickers[attribution.BloomFilterFullTruePositive] = 45
	sn.tickers[attribution.BloomFilterUseful] = 95
	rate(5.0 / 100)(sn.PointWholeKeyFalsePositiveRate())
}
