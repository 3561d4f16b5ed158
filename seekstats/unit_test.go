// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/internal/filtercount"
	"github.com/pebblerf/pebble/internal/handoff"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/stretchr/testify/require"
)

// installed returns statistics installed on default options, not attached
// to a DB: enough to drive the filter wrapper and trackers by hand.
func installed(t *testing.T, policy pebble.FilterPolicy) (*Statistics, *pebble.Options) {
	opts := &pebble.Options{}
	opts.Levels[0].FilterPolicy = policy
	s := New(Config{})
	s.Install(opts)
	return s, opts
}

func writeFilter(p pebble.FilterPolicy, keys ...string) []byte {
	w := p.NewWriter(pebble.TableFilter)
	for _, k := range keys {
		w.AddKey([]byte(k))
	}
	return w.Finish(nil)
}

func TestFilterTag(t *testing.T) {
	s, opts := installed(t, bloom.FilterPolicy(10))
	tagged := opts.Levels[0].FilterPolicy
	require.Equal(t, "pebblerf.tagged.rocksdb.BuiltinBloomFilter", tagged.Name())
	// Files written with the plain policy stay readable under its own name.
	require.IsType(t, untaggedPolicy{}, opts.Filters["rocksdb.BuiltinBloomFilter"])
	require.Same(t, tagged, opts.Filters[tagged.Name()])

	// A writer on a goroutine that saw TableCreated(42) tags its filter 42.
	s.handoff.Put(handoff.Table{Num: 42})
	filter := writeFilter(tagged, "apple", "banana")
	inner, num, ok := decodeFilterTag(filter)
	require.True(t, ok)
	require.EqualValues(t, 42, num)
	require.Equal(t, writeFilter(bloom.FilterPolicy(10), "apple", "banana"), inner)

	require.True(t, tagged.MayContain(pebble.TableFilter, filter, []byte("apple")))
	require.False(t, tagged.MayContain(pebble.TableFilter, filter, []byte("zebra")))
	// Table 42 is not in the file map: its checks are unattributed.
	require.EqualValues(t, 1, s.Get("pebblerf.unattributed.seek.filter.match"))
	require.EqualValues(t, 1, s.Get("pebblerf.unattributed.seek.filtered"))

	// Bytes without a tag fail open and are counted.
	for _, bad := range [][]byte{nil, []byte("short"), inner} {
		require.True(t, tagged.MayContain(pebble.TableFilter, bad, []byte("zebra")))
	}
	require.EqualValues(t, 3, s.Pop("pebblerf.filter.tag.corrupt"))
	require.Zero(t, s.Get("pebblerf.filter.tag.corrupt"))
}

func TestInnerFilterCorrupt(t *testing.T) {
	unbound, err := pointfilter.NewBloom(10)
	require.NoError(t, err)
	// The policy counts in the counters it is bound to, as the root package
	// binds every DB's policies to the DB's own.
	var counters filtercount.Point
	bound, _ := filtercount.BindPoint(unbound, &counters)
	s, opts := installed(t, bound)
	tagged := opts.Levels[0].FilterPolicy
	// A valid tag around bytes the inner policy cannot decode: the inner
	// policy fails open and counts it; the statistics surface its count.
	garbage := appendFilterTag([]byte("not a filter at all, not at all"), 7)
	require.True(t, tagged.MayContain(pebble.TableFilter, garbage, []byte("k")))
	require.EqualValues(t, 1, counters.Corrupt())
	require.EqualValues(t, 1, s.Get("pebblerf.filter.corrupt"))
	require.EqualValues(t, 1, s.Pop("pebblerf.filter.corrupt"))
	require.Zero(t, s.Get("pebblerf.filter.corrupt"))
	sn := s.Snapshot()
	require.Zero(t, sn.Ticker(InnerFilterCorrupt))
}

func TestBlockPropertyTags(t *testing.T) {
	s, _ := installed(t, nil)
	s.handoff.Put(handoff.Table{Num: 9})
	c := s.newCollector().(*tagCollector)
	require.EqualValues(t, 9, c.num)
	// The collector took the number: the next table on this goroutine, if
	// nobody hands one over, is unknown (0) rather than wrong.
	require.EqualValues(t, 0, s.newCollector().(*tagCollector).num)

	// Pebble passes a buffer holding the property's short ID: append to it.
	data, err := c.FinishDataBlock([]byte{3})
	require.NoError(t, err)
	require.Equal(t, byte(3), data[0])
	num, ok := decodeDataProp(data[1:])
	require.True(t, ok)
	require.EqualValues(t, 9, num)
	table, err := c.FinishTable([]byte{3})
	require.NoError(t, err)
	num, ok = decodeTableProp(table[1:])
	require.True(t, ok)
	require.EqualValues(t, 9, num)

	tr, _ := s.NewIter(nil)
	tr.BeginSeek(false)
	f := &tr.filter
	for _, prop := range [][]byte{nil, table[1:], data[1:], data[1:]} {
		ok, err := f.Intersects(prop)
		require.NoError(t, err)
		require.True(t, ok)
	}
	// One table load (not in the map), counted once for the seek.
	require.EqualValues(t, 1, s.Get("pebblerf.unattributed.seek.data"))
	// A property that does not decode: read anyway, and counted.
	ok, err = f.Intersects([]byte{propKindData, 0xff})
	require.NoError(t, err)
	require.True(t, ok)
	require.EqualValues(t, 1, s.Get("pebblerf.block.tag.corrupt"))
	require.EqualValues(t, 2, s.Get("pebblerf.unattributed.seek.data"))
}

func TestNamesAndGroups(t *testing.T) {
	s := New(Config{})
	sh := &s.c.shards[3]
	sh.addRow(RowL0, SeekFiltered)
	sh.addRow(RowL5, SeekFiltered)
	sh.addRow(RowUnattributed, SeekFiltered)
	sh.addRow(RowL6, SeekFiltered)
	sh.addRow(RowMemtables, SeekDataUsefulNoFilter)
	s.c.shards[7].addRow(RowL6, SeekFiltered)
	sh.addTicker(BloomFilterPrefixChecked, 5)

	require.EqualValues(t, 3, s.Get("rocksdb.non.last.level.seek.filtered"))
	require.EqualValues(t, 2, s.Get("rocksdb.last.level.seek.filtered"))
	require.EqualValues(t, 1, s.Get("pebblerf.memtable.seek.data.useful.no.filter"))
	require.Zero(t, s.Get("rocksdb.non.last.level.seek.data.useful.no.filter"), "memtables are in no group")
	require.EqualValues(t, 5, s.Get("rocksdb.bloom.filter.prefix.checked"))
	require.Zero(t, s.Get("no.such.ticker"))

	// A range filter's rule-out is a FILTERED seek too, with its own share.
	sh.addRow(RowL5, kindFilteredRange)
	require.EqualValues(t, 2, s.Get("pebblerf.l5.seek.filtered"))
	require.EqualValues(t, 1, s.Get("pebblerf.l5.seek.filtered.range"))
	require.EqualValues(t, 4, s.Get("rocksdb.non.last.level.seek.filtered"))
	require.EqualValues(t, 1, s.Get("pebblerf.non.last.level.seek.filtered.range"))
	require.EqualValues(t, 2, s.Pop("pebblerf.l5.seek.filtered"))
	require.Zero(t, s.Get("pebblerf.l5.seek.filtered.range"), "popping FILTERED pops its range share")
	sh.addRow(RowL5, SeekFiltered)

	dump := s.Dump()
	require.Contains(t, dump, "rocksdb.last.level.seek.filtered COUNT : 2\n")
	require.Contains(t, dump, "rocksdb.non.last.level.seek.filtered COUNT : 3\n")
	require.Contains(t, dump, "pebblerf.l5.seek.filtered COUNT : 1\n")
	require.Contains(t, dump, "pebblerf.l4.seek.filtered COUNT : 0\n")
	for _, line := range strings.Split(strings.TrimSpace(dump), "\n") {
		require.Regexp(t, `^[a-z0-9.]+ COUNT : \d+$`, line)
	}
	// String prints the non-zero tickers only, under a heading that says
	// since when they count, and the per-level table.
	out := s.String()
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
	require.False(t, s.Exact())
	require.Contains(t, s.Dump(), "rocksdb.last.level.seek.data COUNT : 0\n")
	require.NotContains(t, s.String(), "COUNT")
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
	c := LevelCounts{Filtered: 70, FilterMatch: 30, Data: 40, UsefulFilterMatch: 10, UsefulNoFilter: 6}
	rate(20.0 / 90)(c.SeekFalsePositiveRate())
	require.Empty(t, c.SeekFalsePositiveAbsence())
	// Range filters' rule-outs say nothing of the prefix filter's rate.
	withRange := c
	withRange.Filtered, withRange.FilteredRange = 85, 15
	rate(20.0 / 90)(withRange.SeekFalsePositiveRate())
	_, ok := LevelCounts{}.SeekFalsePositiveRate()
	require.False(t, ok)
	// Without a value read at the level the rate is not defined, and the
	// reason says so.
	noValues := LevelCounts{Filtered: 70, FilterMatch: 30, Data: 30}
	_, ok = noValues.SeekFalsePositiveRate()
	require.False(t, ok)
	require.Equal(t, noValueRead, noValues.SeekFalsePositiveAbsence())

	// The range-filter opportunity counts bounded seeks only.
	_, ok = c.RangeFilterOpportunity()
	require.False(t, ok, "unbounded seeks are no range filter's opportunity")
	c.DataBounded, c.UsefulBounded = 25, 5
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
	sn.tickers[BloomFilterPrefixChecked] = 100
	sn.tickers[BloomFilterPrefixUseful] = 60
	sn.tickers[BloomFilterPrefixTruePositive] = 30
	rate(10.0 / 70)(sn.PointPrefixFalsePositiveRate())

	sn.tickers[BloomFilterFullPositive] = 50
	sn.tickers[BloomFilterFullTruePositive] = 45
	sn.tickers[BloomFilterUseful] = 95
	rate(5.0 / 100)(sn.PointWholeKeyFalsePositiveRate())
}

// TestInitIterHeld checks the tracker an iterator keeps in its own memory:
// its filter goes first into the holder's options, ahead of the caller's,
// it counts like a pooled one, and Release leaves it with its holder, even
// across reuse.
func TestInitIterHeld(t *testing.T) {
	s, _ := installed(t, nil)
	var holder struct{ tr IterTracker }
	var caller nopFilter
	for round := 1; round <= 2; round++ {
		o := &pebble.IterOptions{UpperBound: []byte("z"), PointKeyFilters: []pebble.BlockPropertyFilter{caller}}
		up := s.InitIter(&holder.tr, o)
		require.Same(t, o, up)
		require.Len(t, up.PointKeyFilters, 3) // the tracker's, the range-length observer, the caller's
		require.Same(t, &holder.tr.filter, up.PointKeyFilters[0])
		require.Equal(t, caller, up.PointKeyFilters[2])
		holder.tr.BeginSeek(false)
		holder.tr.EndSeek(true)
		require.EqualValues(t, round, s.Get("rocksdb.number.db.seek"))
		holder.tr.Release()
		// A released held tracker is not in the pool: NewIter hands out
		// another (a pooled one, or a new one if the pool dropped it).
		pooled, _ := s.NewIter(nil)
		require.NotSame(t, &holder.tr, pooled)
		pooled.Release()
	}
}

type nopFilter struct{}

func (nopFilter) Name() string                                           { return "nop" }
func (nopFilter) Intersects([]byte) (bool, error)                        { return true, nil }
func (nopFilter) SyntheticSuffixIntersects([]byte, []byte) (bool, error) { return true, nil }
