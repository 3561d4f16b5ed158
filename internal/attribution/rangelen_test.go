// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// a0a5a9Property is the range-filter property of a table holding a0, a5
// and a9, as Pebble hands it to a filter at the table level.
func a0a5a9Property(t *testing.T) []byte {
	b, err := rangefilter.NewBuilder(rangefilter.Config{})
	require.NoError(t, err)
	for _, k := range []string{"a0", "a5", "a9"} {
		require.NoError(t, b.Add([]byte(k)))
	}
	return tableprops.Append(nil, map[string]string{"rangefilter.v1": string(b.Finish(nil))})
}

// TestRangeLenObserverSamples checks that a bounded iterator's observer
// counts every table check, takes the coverage of every one up to
// lenSampleAll, then of one in lenSampleEvery, and that unbounded iterators
// get no observer.
func TestRangeLenObserverSamples(t *testing.T) {
	s, _ := installed(t, nil)
	prop := a0a5a9Property(t)

	tr, o := s.NewIter(&pebble.IterOptions{LowerBound: []byte("a1"), UpperBound: []byte("a4")})
	defer tr.Release()
	require.Len(t, o.PointKeyFilters, 2, "the tracker's filter, then the observer")
	require.Equal(t, rangefilter.Name, o.PointKeyFilters[1].Name())
	const n = lenSampleAll + 10*lenSampleEvery
	for range n {
		ok, err := o.PointKeyFilters[1].Intersects(prop)
		require.NoError(t, err)
		require.True(t, ok)
	}
	// A block's (empty) property is no check.
	ok, err := o.PointKeyFilters[1].Intersects(nil)
	require.NoError(t, err)
	require.True(t, ok)
	l := lensOf(s, RowUnattributed)
	require.EqualValues(t, n, l.Checks)
	require.InDelta(t, lenSampleAll+10, sampled(l), 2)
	require.EqualValues(t, sampled(l), l.ExactEmpty)
	require.EqualValues(t, sampled(l), l.Lens[2]) // ℓ = 3: a1, a2, a3

	// Bytes that are no filter are counted and say nothing of ℓ.
	s.Store().Reset()
	_, _ = o.PointKeyFilters[1].Intersects(tableprops.Append(nil, map[string]string{"rangefilter.v1": "junk"}))
	l = lensOf(s, RowUnattributed)
	require.EqualValues(t, 1, l.Checks)
	require.EqualValues(t, 1, l.Undecoded)
	require.Zero(t, sampled(l))

	tu, ou := s.NewIter(nil)
	defer tu.Release()
	require.Len(t, ou.PointKeyFilters, 1, "no observer without bounds")
}

// TestRangeLenSampleUnbiased alternates checks of a table that holds a key
// in the bounds with one that does not, as a seek over two tables does, and
// checks that the sample keeps their shares: a sample that took every
// sixteenth check would see only one of them.
func TestRangeLenSampleUnbiased(t *testing.T) {
	s, _ := installed(t, nil)
	build := func(keys ...string) []byte {
		b, err := rangefilter.NewBuilder(rangefilter.Config{})
		require.NoError(t, err)
		for _, k := range keys {
			require.NoError(t, b.Add([]byte(k)))
		}
		return tableprops.Append(nil, map[string]string{"rangefilter.v1": string(b.Finish(nil))})
	}
	holds, empty := build("a0", "a2", "a9"), build("a0", "a5", "a9")
	tr, o := s.NewIter(&pebble.IterOptions{LowerBound: []byte("a1"), UpperBound: []byte("a4")})
	defer tr.Release()
	const n = lenSampleAll + 32000
	for i := range n {
		prop := holds
		if i%2 == 1 {
			prop = empty
		}
		_, _ = o.PointKeyFilters[1].Intersects(prop)
	}
	l := lensOf(s, RowUnattributed)
	require.EqualValues(t, n, l.Checks)
	require.InDelta(t, lenSampleAll+32000/lenSampleEvery, sampled(l), 100)
	require.InDelta(t, 0.5, float64(l.ExactHolds)/float64(sampled(l)), 0.05)
}

// TestRangeLenFollowsSetBounds checks that bounds Pebble takes through its
// own SetBounds (the filters kept) are the ones the observer maps
// afterwards, not those the iterator was opened with.
func TestRangeLenFollowsSetBounds(t *testing.T) {
	s, _ := installed(t, nil)
	prop := a0a5a9Property(t)

	tr, o := s.NewIter(&pebble.IterOptions{LowerBound: []byte("a0"), UpperBound: []byte("a9")})
	defer tr.Release()
	tr.SetBounds([]byte("a1"), []byte("a4"))
	_, err := o.PointKeyFilters[1].Intersects(prop)
	require.NoError(t, err)
	l := lensOf(s, RowUnattributed)
	require.EqualValues(t, 1, l.ExactEmpty, "a1..a3 holds no key")
	require.EqualValues(t, 1, l.Lens[2], "ℓ = 3: a1, a2, a3")
}

// rowLens are the range lengths recorded for one row, as seekstats'
// RangeLens reads them.
type rowLens struct {
	Checks, Undecoded, Outside, ExactHolds, ExactEmpty uint64
	Lens                                               [LenBuckets]uint64
}

func lensOf(s *Stats, row int) rowLens {
	c := s.Store().Lens.Sum(row, false)
	l := rowLens{Checks: c[LenChecks], Undecoded: c[LenUndecoded], Outside: c[LenOutside],
		ExactHolds: c[LenExactHolds], ExactEmpty: c[LenExactEmpty]}
	copy(l.Lens[:], c[LenHist:LenHist+LenBuckets])
	return l
}

// sampled is the row's checks whose coverage was taken: those outside the
// map and those in a length bucket.
func sampled(l rowLens) uint64 {
	n := l.Outside
	for _, c := range l.Lens {
		n += c
	}
	return n
}
