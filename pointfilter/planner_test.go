// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestPlannerReplans opens a DB under a Planner, changes the plan between
// flushes, and checks that each new table got the plan current when it was
// written (by its filter's size), that every table stays readable and
// filtered, and that the DB reopens under a fixed plan and under a new
// planner with every key intact.
func TestPlannerReplans(t *testing.T) {
	fs := vfs.NewMem()
	pl, err := NewPlanner(Uniform(10))
	require.NoError(t, err)
	open := func(apply func(*pebble.Options)) *pebble.DB {
		opts := &pebble.Options{FS: fs, Logger: filterPlanQuietLogger{}}
		apply(opts)
		db, err := pebble.Open("db", opts)
		require.NoError(t, err)
		return db
	}
	db := open(pl.Apply)
	const perFlush = 2000
	flush := func(batch int) {
		for i := 0; i < perFlush; i++ {
			require.NoError(t, db.Set([]byte(fmt.Sprintf("k%d-%05d", batch, i)), []byte("v"), pebble.NoSync))
		}
		require.NoError(t, db.Flush())
	}
	l0 := func(f LevelFilter) Plan {
		p := Progressive()
		p.Levels[0] = f
		return p
	}
	plans := []Plan{Uniform(10), l0(LevelFilter{Kind: KindBloom, Bits: 20}), l0(LevelFilter{}), l0(LevelFilter{Kind: KindFuse})}
	for batch, p := range plans {
		require.NoError(t, pl.Set(p))
		require.Equal(t, p.Levels == nil, pl.Plan().Levels == nil)
		flush(batch)
	}
	require.Error(t, pl.Set(Plan{Levels: make([]LevelFilter, 2)}))
	require.Equal(t, KindFuse, pl.Level(0).Kind, "a failed Set keeps the plan")

	tables, err := db.SSTables(pebble.WithProperties())
	require.NoError(t, err)
	require.Len(t, tables[0], len(plans), "one L0 table per flush")
	sizes := make(map[string]uint64)
	for _, tbl := range tables[0] {
		require.Equal(t, PlannedPolicyName, tbl.Properties.FilterPolicyName)
		sizes[string(tbl.Smallest.UserKey[:2])] = tbl.Properties.FilterSize
	}
	bloomSize := func(bits float64) uint64 { return uint64(bloomSize(perFlush, bits)) }
	require.Equal(t, bloomSize(10), sizes["k0"], "Bloom 10 before re-planning")
	require.Equal(t, bloomSize(20), sizes["k1"], "Bloom 20 after")
	require.Equal(t, uint64(bloomLineBytes+pointTrailerLen), sizes["k2"], "no filter: the one-line match-all")
	require.Less(t, sizes["k3"], bloomSize(12.5), "binary fuse")

	check := func(db *pebble.DB, filtered bool) {
		before := db.Metrics().Filter.Hits
		for batch := range plans {
			for i := 0; i < perFlush; i += 7 {
				v, closer, err := db.Get([]byte(fmt.Sprintf("k%d-%05d", batch, i)))
				require.NoError(t, err)
				require.Equal(t, "v", string(v))
				require.NoError(t, closer.Close())
				_, _, err = db.Get([]byte(fmt.Sprintf("k%d-%05dx", batch, i)))
				require.True(t, errors.Is(err, pebble.ErrNotFound))
			}
		}
		if filtered {
			require.Greater(t, db.Metrics().Filter.Hits, before, "absent keys were filtered out")
		}
	}
	check(db, true)
	require.NoError(t, db.Close())

	// A fixed plan does not know the planned name: reads are correct,
	// merely unfiltered.
	db = open(func(o *pebble.Options) { require.NoError(t, Uniform(10).Apply(o)) })
	check(db, false)
	require.NoError(t, db.Close())

	pl2, err := NewPlanner(Progressive())
	require.NoError(t, err)
	db = open(pl2.Apply)
	check(db, true)
	require.NoError(t, db.Close())
}

// TestMatchAllFilter checks the filter a planned level without a filter
// writes: valid, and "may contain" for every key.
func TestMatchAllFilter(t *testing.T) {
	w := allWriter{}
	w.AddKey([]byte("a"))
	f := w.Finish(nil)
	require.NoError(t, validate(f))
	for _, p := range []pebble.FilterPolicy{Bloom(10), Fuse()} {
		for i := 0; i < 1000; i++ {
			require.True(t, p.MayContain(pebble.TableFilter, f, []byte(fmt.Sprint(i))))
		}
	}
}
