// Copyright 2026 The pebblerf Authors. All rights reserved.

package whatif

import (
	"fmt"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// TestWhatIfArithmetic checks the what-ifs against counts set by hand,
// independently of any DB.
func TestWhatIfArithmetic(t *testing.T) {
	var sn seekstats.Snapshot
	// The candidates are the loads not needed: values read (USEFUL) take
	// nothing off, the loads whose table held a found key do.
	sn.Rows[seekstats.RowL0] = seekstats.LevelCounts{Data: 100, DataBounded: 80, NeededBounded: 20, Needed: 30, UsefulBounded: 5, UsefulNoFilter: 7}
	sn.Rows[seekstats.RowL6] = seekstats.LevelCounts{Data: 50, Needed: 10, UsefulNoFilter: 40}
	// L5 had a prefix filter decide its seeks: no prefix what-if there.
	sn.Rows[seekstats.RowL5] = seekstats.LevelCounts{Data: 10, FilterMatch: 10}
	var w Options
	w.BitsPerKey = 12
	w.RangeLen = 4
	w.Shape[seekstats.RowL0] = LevelShape{Tables: 2, Keys: 1000}
	w.Shape[seekstats.RowL6] = LevelShape{Tables: 1, Keys: 8000}

	r := RangeFilters(&sn, w)
	require.Len(t, r, 1) // L0 only: L6 and L5 had no bounded loads.
	l0 := r[0]
	require.Equal(t, seekstats.RowL0, l0.Row)
	require.EqualValues(t, 60, l0.Candidates)
	require.InDelta(t, 4.0/1024, l0.FPR, 1e-12) // ℓ/2^(B-2) = 4/2^10
	require.InDelta(t, 60*4.0/1024, l0.FalsePositives, 1e-9)
	require.InDelta(t, 60-60*4.0/1024, l0.Avoided, 1e-9)
	require.EqualValues(t, 1000*12/8+2*64, l0.FilterBytes)
	red, ok := l0.Reduction()
	require.True(t, ok)
	require.InDelta(t, (60-60*4.0/1024)/80, red, 1e-9)
	_, ok = Level{}.Reduction()
	require.False(t, ok)

	// Needed loads no level could be given come off the total: 30 of them,
	// loads of L0 (whose 60 empty loads were really 30). Unplaced values
	// alone take nothing off.
	sn.Rows[seekstats.RowUnattributed] = seekstats.LevelCounts{UsefulBounded: 30}
	require.Len(t, RangeFilters(&sn, w), 1)
	sn.Rows[seekstats.RowUnattributed] = seekstats.LevelCounts{NeededBounded: 30}
	r = RangeFilters(&sn, w)
	require.Len(t, r, 2)
	u := r[1]
	require.Equal(t, seekstats.RowUnattributed, u.Row)
	require.EqualValues(t, 30, u.Unplaced)
	require.Zero(t, u.Loads)
	total := Total(r)
	require.EqualValues(t, 80, total.Loads)
	require.InDelta(t, 30*(1-4.0/1024), total.Avoided, 1e-9)
	require.EqualValues(t, 1000*12/8+2*64, total.FilterBytes)
	sn.Rows[seekstats.RowUnattributed] = seekstats.LevelCounts{}

	p := PrefixFilters(&sn, w)
	require.Len(t, p, 2) // L0 and L6; L5's seeks met a prefix filter.
	l6 := p[1]
	require.Equal(t, seekstats.RowL6, l6.Row)
	require.EqualValues(t, 40, l6.Candidates)
	require.EqualValues(t, 50, l6.Loads)
	require.InDelta(t, bloomFPR(12), l6.FPR, 0)
	require.InDelta(t, 40*(1-bloomFPR(12)), l6.Avoided, 1e-9)
	require.EqualValues(t, 8000*12/8, l6.FilterBytes)
}

// TestBloomFPR pins the Bloom formula at known points: 10 bits per key
// with 7 probes is about 0.82%, and more bits never raise the rate.
func TestBloomFPR(t *testing.T) {
	require.InDelta(t, 0.0082, bloomFPR(10), 0.0002)
	prev := 1.0
	for b := 1.0; b <= 30; b++ {
		f := bloomFPR(b)
		require.LessOrEqual(t, f, prev, "bits %g", b)
		prev = f
	}
	require.Equal(t, 1.0, bloomFPR(0))
}

// TestRangeWhatIfObserved checks the range what-if on observed checks set
// by hand: exact filters' checks that hold a key become loads that must
// pass, hashed checks give false positives at their lengths, and the bound's
// cap of 1 per check holds.
func TestRangeWhatIfObserved(t *testing.T) {
	var sn seekstats.Snapshot
	sn.Rows[seekstats.RowL0] = seekstats.LevelCounts{Data: 200, DataBounded: 200, NeededBounded: 20}
	l := &sn.RangeLens[seekstats.RowL0]
	// 100 checks: 20 outside the map, 40 of exact filters (30 holding a
	// key), 40 of hashed ones: 38 of ℓ in [4, 8) summing 200, and 2 of
	// ℓ = 3000, past the bound's cap at 12 bits (2^10 positions).
	l.Checks, l.Outside, l.ExactHolds, l.ExactEmpty, l.HashedHolds = 100, 20, 30, 10, 10
	l.Lens[3], l.HashedLens[3], l.HashedLenSum[3] = 38+40, 38, 200
	l.Lens[12], l.HashedLens[12], l.HashedLenSum[12] = 2, 2, 6000

	cfg := rangefilter.Config{BitsPerKey: 12}
	require.InDelta(t, 200.0/1024+2, expectedFalsePositives(l, cfg), 1e-12)
	require.EqualValues(t, 40, hashed(l))
	p50, ok := lenQuantile(l, 0.5)
	require.True(t, ok)
	require.EqualValues(t, 7, p50)
	p99, _ := lenQuantile(l, 0.99)
	require.EqualValues(t, 4095, p99)

	w := Options{BitsPerKey: 12}
	r := RangeFilters(&sn, w)
	require.Len(t, r, 1)
	got := r[0]
	require.EqualValues(t, 180, got.Candidates)
	require.EqualValues(t, 100, got.Checks)
	// Two loads per check. Checks on tables holding a key: the 30 exact
	// ones and the 10 hashed "yes" answers (no expected false positives of
	// the filters as written are known here), so 80 loads, less the 20
	// needed ones.
	require.InDelta(t, 60, got.MustPass, 1e-9)
	fpr := (200.0/1024 + 2) / 100
	require.InDelta(t, fpr, got.FPR, 1e-12)
	require.InDelta(t, fpr*200, got.FalsePositives, 1e-9)
	require.InDelta(t, 180-60-fpr*200, got.Avoided, 1e-9)
	require.InDelta(t, 60+fpr*200, got.Passed(), 1e-9)
	require.InDelta(t, 180*2.0/1024, got.FalsePositivesAssumed, 1e-9)
	require.Equal(t, DefaultRangeLen, got.AssumedLen)

	// The filters as written at this budget: their own expectation, 0.5
	// false positives over the 40 hashed checks, replaces the bound, and
	// comes off their 10 "yes" answers: 39.5 checks hold a key, 79 loads,
	// 59 must pass.
	l.HashedFPRSum, l.HashedBitsSum = 0.5, 40*12.01
	fromWritten := RangeFilters(&sn, w)[0]
	require.True(t, fromWritten.FromWritten)
	require.InDelta(t, 59, fromWritten.MustPass, 1e-9)
	require.InDelta(t, 0.5/100*200, fromWritten.FalsePositives, 1e-9)
	require.InDelta(t, fpr*200, fromWritten.FalsePositivesBound, 1e-9)
	require.InDelta(t, 180-59-1.0, fromWritten.Avoided, 1e-9)
	// At another budget, the bound.
	require.False(t, RangeFilters(&sn, Options{BitsPerKey: 14})[0].FromWritten)
	l.HashedFPRSum, l.HashedBitsSum = 0, 0

	// Unplaced needed loads: with every level observed, they are already
	// among the must-pass ones, so the total does not change.
	sn.Rows[seekstats.RowUnattributed] = seekstats.LevelCounts{NeededBounded: 5}
	r = RangeFilters(&sn, w)
	require.Len(t, r, 2)
	require.Zero(t, r[1].Avoided)
	require.InDelta(t, got.Avoided, Total(r).Avoided, 1e-9)
}

// TestShapeMeasuresRangeFilters checks that the shape reads the range
// filters tables carry, and their bits per key.
func TestShapeMeasuresRangeFilters(t *testing.T) {
	b, err := rangefilter.NewBuilder(rangefilter.Config{})
	require.NoError(t, err)
	for i := range 1000 {
		require.NoError(t, b.Add([]byte(fmt.Sprintf("key%06d", 7*i))))
	}
	f := b.Finish(nil)
	info, err := rangefilter.Describe(f)
	require.NoError(t, err)
	// Pebble hands user properties with a one-byte short ID before the
	// collector's bytes; the range filter's collector writes a tableprops
	// map of its filter.
	withFilter := &sstable.Properties{}
	withFilter.NumEntries = 1000
	withFilter.UserProperties = map[string]string{rangefilter.Name: "\x00" + string(tableprops.Append(nil, map[string]string{"rangefilter.v1": string(f)}))}
	without := &sstable.Properties{}
	without.NumEntries = 500
	levels := make([][]upstream.SSTableInfo, 7)
	levels[6] = []upstream.SSTableInfo{{Properties: withFilter}, {Properties: without}}
	sh := ShapeOf(levels)[seekstats.RowL6]
	require.EqualValues(t, 2, sh.Tables)
	require.EqualValues(t, 1500, sh.Keys)
	require.EqualValues(t, 1, sh.RangeFilterTables)
	require.EqualValues(t, 1000, sh.RangeFilterKeys)
	require.EqualValues(t, info.Size, sh.RangeFilterBytes)
	bpk, ok := sh.measuredBitsPerKey()
	require.True(t, ok)
	require.InDelta(t, info.BitsPerKey(), bpk, 1e-9)
	// Keys seven apart are stored exactly, in well under the 16-bit budget.
	require.Less(t, bpk, 16.0)
}
