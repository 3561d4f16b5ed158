// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"fmt"
	"testing"

	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// plannedDB returns a DB with an L6 table of keys key000-key999 and two
// overlapping L0 tables of every tenth key over the same span, so that a
// lookup consults two L0 sublevels and L6.
func plannedDB(t *testing.T, plugins Plugins) *DB {
	db := openTestDB(t, nil, plugins)
	for table := 0; table < 3; table++ {
		step := 10
		if table == 0 {
			step = 1
		}
		flushTable(t, db, "v", keysOf("key%03d", table, 1000, step)...)
		if table == 0 {
			require.NoError(t, db.Compact(context.Background(), []byte("key"), []byte("kez"), false))
		}
	}
	tables, err := db.SSTables()
	require.NoError(t, err)
	require.Len(t, tables[0], 2)
	require.Len(t, tables[6], 1)
	return db
}

// TestPointFilterLoads checks the loads PointFilterLoads gives Optimal: the
// uniform assumption before any lookup, then the measured consultations of
// each level per absent-key lookup, relative to L6's, and that a planner
// takes the plan Optimal makes of them.
func TestPointFilterLoads(t *testing.T) {
	planner := pointfilter.MustNewPlanner(pointfilter.Uniform(10))
	db := plannedDB(t, Plugins{Statistics: true, Filters: planner})
	require.Same(t, planner, db.FilterPlanner())

	loads, err := db.PointFilterLoads(true)
	require.NoError(t, err)
	require.Equal(t, 2.0, loads[0].Checks, "uniform: once per L0 sublevel")
	require.Equal(t, 1.0, loads[6].Checks)
	require.Equal(t, 1.0, loads[3].Checks, "an empty level will be consulted once it holds tables")
	require.Equal(t, 200.0, loads[0].Keys)
	require.Equal(t, 1000.0, loads[6].Keys)

	// Absent keys, looked up with L6 filters: each consults both L0 tables
	// and the L6 table.
	const lookups = 300
	it, err := db.NewIter(&IterOptions{UseL6Filters: true})
	require.NoError(t, err)
	for i := 10; i < 10+lookups; i++ { // within every table's span
		require.False(t, it.SeekPrefixGE([]byte(fmt.Sprintf("key%03dx", i))))
	}
	require.NoError(t, it.Close())
	loads, err = db.PointFilterLoads(false)
	require.NoError(t, err)
	require.Equal(t, 1.0, loads[6].Checks, "measured: L6 is the busiest level below L0, despite l6Consulted=false")
	require.Equal(t, 2.0, loads[0].Checks, "measured: two L0 tables per lookup")
	require.Equal(t, 1.0, loads[3].Checks, "nothing measured on an empty level: the uniform assumption")

	plan, err := pointfilter.Optimal(10, loads)
	require.NoError(t, err)
	require.NoError(t, db.FilterPlanner().Set(plan))
	require.Equal(t, plan.String(), planner.Plan().String())
	require.NotEqual(t, pointfilter.Uniform(10).String(), plan.String())
}

// TestRangeFilterLoads checks what RangeFilterLoads gives ForBudget: the
// skips of L0's range filters, and the what-if's prediction for L6, which
// has none; a small budget keeps L0's filters only, a full one adds L6's.
func TestRangeFilterLoads(t *testing.T) {
	l0 := rangefilter.OverlappingRuns(16)
	db := plannedDB(t, Plugins{Statistics: true, RangeFilter: &rangefilter.Config{BitsPerKey: 16, Seed: 1},
		RangeFilterLevels: &l0})
	_, err := plannedDB(t, Plugins{}).RangeFilterLoads()
	require.ErrorContains(t, err, "needs Plugins.Statistics")

	// Empty ranges: key<i>a to key<i>b holds nothing in any table.
	for i := 0; i < 200; i++ {
		lower, upper := fmt.Sprintf("key%03da", i), fmt.Sprintf("key%03db", i)
		it, err := db.NewIter(&IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)})
		require.NoError(t, err)
		require.False(t, it.SeekGE([]byte(lower)))
		require.NoError(t, it.Close())
	}
	loads, err := db.RangeFilterLoads()
	require.NoError(t, err)
	require.Greater(t, loads[0].Skipped, 300.0, "L0's filters skipped the tables (2 per read)")
	require.Greater(t, loads[6].Skipped, 100.0, "the what-if for L6's empty loads")
	for i := 1; i < 6; i++ {
		require.Zero(t, loads[i].Skipped)
	}
	// 4 bits/key over 1200 keys: L0's 200 keys at 16 bits fit, L6's 1000
	// do not.
	small, err := rangefilter.ForBudget(16, 4, loads)
	require.NoError(t, err)
	require.Equal(t, l0, small)
	full, err := rangefilter.ForBudget(16, 16, loads)
	require.NoError(t, err)
	require.NoError(t, db.RangeFilterPolicy().SetPlan(full))
	require.Equal(t, "L0 16 L1-L5 none L6 16", db.RangeFilterPolicy().Plan().String())
}
