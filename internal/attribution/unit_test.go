// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/internal/handoff"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// installed returns statistics installed on default options, not attached
// to a DB: enough to drive the filter wrapper and trackers by hand.
func installed(t *testing.T, policy pebble.FilterPolicy) (*Stats, *pebble.Options) {
	return installedWith(t, policy, nil)
}

// installedWith is installed with the function the statistics read their
// point filters' corruption count from.
func installedWith(t *testing.T, policy pebble.FilterPolicy, pointCorrupt func() uint64) (*Stats, *pebble.Options) {
	opts := &pebble.Options{}
	opts.Levels[0].FilterPolicy = policy
	s := New(Config{}, Sources{PointCorrupt: pointCorrupt, RangeFilters: rangefilter.Properties{}})
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
	inner, num, ok := DecodeTag(filter)
	require.True(t, ok)
	require.EqualValues(t, 42, num)
	require.Equal(t, writeFilter(bloom.FilterPolicy(10), "apple", "banana"), inner)

	require.True(t, tagged.MayContain(pebble.TableFilter, filter, []byte("apple")))
	require.False(t, tagged.MayContain(pebble.TableFilter, filter, []byte("zebra")))
	// Table 42 is not in the file map: its checks are unattributed.
	require.EqualValues(t, 1, s.Store().Read("pebblerf.unattributed.seek.filter.match", false))
	require.EqualValues(t, 1, s.Store().Read("pebblerf.unattributed.seek.filtered", false))

	// Bytes without a tag fail open and are counted.
	for _, bad := range [][]byte{nil, []byte("short"), inner} {
		require.True(t, tagged.MayContain(pebble.TableFilter, bad, []byte("zebra")))
	}
	require.EqualValues(t, 3, s.Store().Read("pebblerf.filter.tag.corrupt", true))
	require.Zero(t, s.Store().Read("pebblerf.filter.tag.corrupt", false))
}

func TestInnerFilterCorrupt(t *testing.T) {
	unbound, err := pointfilter.NewBloom(10)
	require.NoError(t, err)
	// The policy counts in the counts it was made with, as the root package
	// counts every DB's policies into the DB's own, which the statistics
	// read.
	var counters pointfilter.Counts
	bound, _ := pointfilter.Counted(unbound, &counters)
	s, opts := installedWith(t, bound, counters.Corrupt)
	tagged := opts.Levels[0].FilterPolicy
	// A valid tag around bytes the inner policy cannot decode: the inner
	// policy fails open and counts it; the statistics surface its count.
	garbage := AppendTag([]byte("not a filter at all, not at all"), 7)
	require.True(t, tagged.MayContain(pebble.TableFilter, garbage, []byte("k")))
	require.EqualValues(t, 1, counters.Corrupt())
	require.EqualValues(t, 1, s.Store().Read("pebblerf.filter.corrupt", false))
	require.EqualValues(t, 1, s.Store().Read("pebblerf.filter.corrupt", true))
	require.Zero(t, s.Store().Read("pebblerf.filter.corrupt", false))
	require.Zero(t, s.Store().Read("pebblerf.filter.corrupt", false))
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
	require.EqualValues(t, 1, s.Store().Read("pebblerf.unattributed.seek.data", false))
	// A property that does not decode: read anyway, and counted.
	ok, err = f.Intersects([]byte{propKindData, 0xff})
	require.NoError(t, err)
	require.True(t, ok)
	require.EqualValues(t, 1, s.Store().Read("pebblerf.block.tag.corrupt", false))
	require.EqualValues(t, 2, s.Store().Read("pebblerf.unattributed.seek.data", false))
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
		holder.tr.EndSeek(true, []byte("a"))
		require.EqualValues(t, round, s.Store().Read("rocksdb.number.db.seek", false))
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
