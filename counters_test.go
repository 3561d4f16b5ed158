// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"bytes"
	"fmt"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// damagedBloom writes bytes that do not decode under the Bloom policy's
// name, as a damaged or foreign filter would be.
type damagedBloom struct{}

func (damagedBloom) Name() string { return pointfilter.BloomPolicyName }
func (damagedBloom) MayContain(upstream.FilterType, []byte, []byte) bool {
	return true
}
func (damagedBloom) NewWriter(upstream.FilterType) upstream.FilterWriter { return damagedWriter{} }

type damagedWriter struct{}

func (damagedWriter) AddKey([]byte) {}
func (damagedWriter) Finish(dst []byte) []byte {
	return append(dst, bytes.Repeat([]byte{0xa5}, 40)...)
}

// damagedRangeProps stores bytes that do not decode as the range filter.
type damagedRangeProps struct{}

func (damagedRangeProps) Name() string                           { return rangefilter.Name }
func (damagedRangeProps) Add(upstream.InternalKey, []byte) error { return nil }
func (damagedRangeProps) Finish(props map[string]string) error {
	props["rangefilter.v1"] = "not a range filter"
	return nil
}

// TestFilterCountersPerDB opens two DBs in one process, with one point
// filter instance shared by both callers' options, damages the filters of
// one and checks that only that DB counts them, and that its reads still
// return every key.
func TestFilterCountersPerDB(t *testing.T) {
	const tables, perTable = 4, 25
	key := func(table, i int) []byte { return []byte(fmt.Sprintf("key%04d", table+tables*i)) }

	// Write the damaged DB's tables with upstream Pebble and the damaged
	// policy and collector.
	damagedFS := vfs.NewMem()
	wopts := &upstream.Options{FS: damagedFS, DisableAutomaticCompactions: true}
	for i := range wopts.Levels {
		wopts.Levels[i].FilterPolicy = damagedBloom{}
	}
	wopts.BlockPropertyCollectors = append(wopts.BlockPropertyCollectors,
		tableprops.Adapt(func() tableprops.Collector { return damagedRangeProps{} }))
	w, err := upstream.Open("db", wopts)
	require.NoError(t, err)
	for table := 0; table < tables; table++ {
		for i := 0; i < perTable; i++ {
			require.NoError(t, w.Set(key(table, i), []byte("v"), nil))
		}
		require.NoError(t, w.Flush())
	}
	require.NoError(t, w.Close())

	shared := pointfilter.Bloom(10)
	open := func(fs vfs.FS) *DB {
		opts := &Options{FS: fs, DisableAutomaticCompactions: true}
		for i := range opts.Levels {
			opts.Levels[i].FilterPolicy = shared
		}
		db, err := OpenWithPlugins("db", opts, Plugins{
			Statistics:  true,
			RangeFilter: &rangefilter.Config{BitsPerKey: 16},
		})
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, db.Close()) })
		return db
	}
	damaged, healthy := open(damagedFS), open(vfs.NewMem())
	for table := 0; table < tables; table++ {
		for i := 0; i < perTable; i++ {
			require.NoError(t, healthy.Set(key(table, i), []byte("v"), nil))
		}
		require.NoError(t, healthy.Flush())
	}

	read := func(db *DB) {
		for table := 0; table < tables; table++ {
			for i := 0; i < perTable; i++ {
				k := key(table, i)
				v, closer, err := db.Get(k)
				require.NoError(t, err, "%s", k)
				require.Equal(t, "v", string(v))
				require.NoError(t, closer.Close())
				it, err := db.NewIter(&IterOptions{LowerBound: k, UpperBound: append(k, 0)})
				require.NoError(t, err)
				require.True(t, it.First(), "%s", k)
				require.Equal(t, k, it.Key())
				require.NoError(t, it.Close())
			}
		}
	}
	read(damaged)
	read(healthy)

	got := damaged.FilterCounters()
	require.Positive(t, got.CorruptFilters, "damaged point filters were not counted")
	require.Positive(t, got.CorruptRangeFilters, "damaged range filters were not counted")
	require.Zero(t, got.UniversalRangeFilters)
	require.Positive(t, damaged.Statistics().Get("pebblerf.filter.corrupt"))
	require.Equal(t, FilterCounters{}, healthy.FilterCounters(), "the healthy DB counted the other's filters")
	require.Zero(t, healthy.Statistics().Get("pebblerf.filter.corrupt"))
	// The caller's policy is counted per DB, not used as it is: one the
	// caller queries itself counts in neither DB.
	require.True(t, shared.MayContain(upstream.TableFilter, []byte("not a filter"), []byte("k")))
	require.Equal(t, got, damaged.FilterCounters())
}

// TestCountFiltersKeepsSharing checks that levels sharing one policy share
// one counted policy, that Options.Filters is counted too, and that
// policies of other packages are left alone.
func TestCountFiltersKeepsSharing(t *testing.T) {
	bloom, ribbon := pointfilter.Bloom(10), pointfilter.Ribbon(10)
	opts := &Options{Filters: map[string]FilterPolicy{bloom.Name(): bloom, "other": damagedBloom{}}}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom
	}
	opts.Levels[5].FilterPolicy = ribbon
	opts.Levels[6].FilterPolicy = upstream.NoFilterPolicy
	var c pointfilter.Counts
	countFilters(opts, &c)
	b := opts.Levels[0].FilterPolicy
	require.NotSame(t, bloom, b)
	require.Same(t, b, opts.Levels[4].FilterPolicy)
	require.Same(t, b, opts.Filters[bloom.Name()])
	require.NotSame(t, ribbon, opts.Levels[5].FilterPolicy)
	require.Equal(t, ribbon.Name(), opts.Levels[5].FilterPolicy.Name())
	require.Equal(t, upstream.NoFilterPolicy, opts.Levels[6].FilterPolicy)
	require.Equal(t, damagedBloom{}, opts.Filters["other"])
}

// TestCountFiltersFuseAndPlanned checks that binary fuse policies and a
// planner's level policies are counted too, the planned ones still writing
// under the planner's current plan.
func TestCountFiltersFuseAndPlanned(t *testing.T) {
	pl, err := pointfilter.NewPlanner(pointfilter.Progressive())
	require.NoError(t, err)
	opts := &Options{}
	pl.Apply(opts)
	fuse := pointfilter.Fuse()
	opts.Filters["fuse"] = fuse
	var c pointfilter.Counts
	countFilters(opts, &c)
	require.NotSame(t, fuse, opts.Filters["fuse"])
	for i := range opts.Levels {
		p, ok := opts.Levels[i].FilterPolicy.(interface {
			FilterPolicy
			Level() (int, pointfilter.LevelFilter)
		})
		require.True(t, ok)
		require.Equal(t, pointfilter.PlannedPolicyName, p.Name())
		level, f := p.Level()
		require.Equal(t, i, level)
		require.Equal(t, pointfilter.Progressive().Levels[i], f)
		require.True(t, p.MayContain(upstream.TableFilter, []byte("not a filter"), []byte("k")))
	}
	require.Equal(t, uint64(len(opts.Levels)), c.Corrupt(), "the counted planned policies count in the DB's counts")
}
