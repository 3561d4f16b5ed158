// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"fmt"
	"math"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

func TestPlanPresets(t *testing.T) {
	require.Equal(t, "L0-L6 16", AllLevels(0).String())
	require.Equal(t, "L0 12 L1-L6 none", OverlappingRuns(12).String())
	require.NoError(t, AllLevels(40).Validate())
	for _, bad := range []float64{3, 41, math.NaN(), -1} {
		p := OverlappingRuns(16)
		p.Levels[4] = bad
		require.ErrorContains(t, p.Validate(), "Plan.Levels[4]")
	}
}

func TestForBudget(t *testing.T) {
	// A leveled shape: L0 small and consulted per sublevel, L5 and L6 large.
	loads := make([]LevelLoad, PlanLevels)
	loads[0] = LevelLoad{Keys: 1e5, Skipped: 8000}
	loads[5] = LevelLoad{Keys: 1e6, Skipped: 900}
	loads[6] = LevelLoad{Keys: 1e7, Skipped: 1000}
	loads[3] = LevelLoad{Keys: 1e5} // skips nothing: never gets a filter

	all, err := ForBudget(16, 16, loads)
	require.NoError(t, err)
	require.Equal(t, "L0 16 L1-L4 none L5-L6 16", all.String(), "a full budget: every level that skips")

	// 2 bits/key over 11.2M keys buys 22.4M bits: L0's 1.6M and L5's 16M,
	// not L6's 160M.
	two, err := ForBudget(16, 2, loads)
	require.NoError(t, err)
	require.Equal(t, "L0 16 L1-L4 none L5 16 L6 none", two.String())

	small, err := ForBudget(16, 0.2, loads)
	require.NoError(t, err)
	require.Equal(t, "L0 16 L1-L6 none", small.String(), "the most skips per bit first")

	none, err := ForBudget(16, 0, loads)
	require.NoError(t, err)
	require.Equal(t, Plan{}, none)

	_, err = ForBudget(2, 16, loads)
	require.ErrorContains(t, err, "bits/key")
	_, err = ForBudget(16, -1, loads)
	require.ErrorContains(t, err, "budget")
	_, err = ForBudget(16, 1, loads[:3])
	require.ErrorContains(t, err, "7 levels")
	loads[2].Skipped = math.NaN()
	_, err = ForBudget(16, 1, loads)
	require.ErrorContains(t, err, "level 2")
}

// TestPolicyFollowsPlan writes tables through flushes and a compaction and
// checks that each got the filter the plan current at its writing gave its
// output level, learned from the DB's events: L0 only, then every level.
func TestPolicyFollowsPlan(t *testing.T) {
	p, err := NewPolicy(nil, Config{Seed: 1})
	require.NoError(t, err)
	require.Equal(t, AllLevels(0), p.Plan())
	require.NoError(t, p.SetPlan(OverlappingRuns(0)))
	require.Error(t, p.SetPlan(Plan{Levels: [PlanLevels]float64{1}}))
	require.Equal(t, OverlappingRuns(0), p.Plan(), "a failed SetPlan keeps the plan")

	opts := &pebble.Options{FS: vfs.NewMem(), DisableAutomaticCompactions: true,
		BlockPropertyCollectors: []func() pebble.BlockPropertyCollector{p.Collector()}}
	opts.AddEventListener(p.EventListener())
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	write := func(offset int) {
		for i := 0; i < 500; i++ {
			k := []byte(fmt.Sprintf("k%05d", 2*i+offset))
			require.NoError(t, db.Set(k, k, nil))
		}
		require.NoError(t, db.Flush())
	}
	hasFilter := func() map[int][]bool {
		levels, err := db.SSTables(pebble.WithProperties())
		require.NoError(t, err)
		out := map[int][]bool{}
		for l, tables := range levels {
			for _, tbl := range tables {
				_, ok, err := FromUserProperties(tbl.Properties.UserProperties)
				require.NoError(t, err)
				out[l] = append(out[l], ok)
			}
		}
		return out
	}
	write(0)
	write(1)
	require.Equal(t, map[int][]bool{0: {true, true}}, hasFilter(), "L0 tables get filters")
	require.NoError(t, db.Compact(t.Context(), []byte("k"), []byte("l"), false))
	require.Equal(t, map[int][]bool{6: {false}}, hasFilter(), "the L6 output does not")

	// A table without a filter reads as "may intersect".
	it, err := db.NewIter(p.AttachBoundsFilter(&pebble.IterOptions{LowerBound: []byte("k00010"), UpperBound: []byte("k00012")}))
	require.NoError(t, err)
	require.True(t, it.First())
	require.Equal(t, "k00010", string(it.Key()))
	require.NoError(t, it.Close())

	require.NoError(t, p.SetPlan(AllLevels(0)))
	write(0)
	require.NoError(t, db.Compact(t.Context(), []byte("k"), []byte("l"), false))
	require.Equal(t, map[int][]bool{6: {true}}, hasFilter(), "re-planned: the new L6 output has one")
}
