// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// requireShapeMatchesPebble checks Shape against Pebble's own view: the
// sublevel count and read-amp from Metrics and the files of each sublevel
// from DebugCurrentVersion.
func requireShapeMatchesPebble(t *testing.T, db *pebble.DB) shape {
	t.Helper()
	shape, err := lsmShape(db, nil)
	require.NoError(t, err)
	m := db.Metrics()
	require.Equal(t, m.ReadAmp(), shape.SortedRuns(), "%s", shape)
	require.Equal(t, int(m.Levels[0].Sublevels), shape.Sublevels())
	v := db.DebugCurrentVersion()
	require.Len(t, v.L0SublevelFiles, shape.Sublevels())
	for _, r := range shape.Runs {
		if r.Level != 0 {
			continue
		}
		var want, got []pebble.TableNum
		for f := range v.L0SublevelFiles[r.Sublevel].All() {
			want = append(want, f.TableNum)
		}
		for _, tb := range r.Tables {
			got = append(got, tb.Num)
		}
		require.ElementsMatch(t, want, got, "sublevel %d", r.Sublevel)
	}
	return shape
}

func TestShapeMatchesPebble(t *testing.T) {
	opts := testOptions()
	require.NoError(t, NoCompaction{}.Apply(opts))
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	w := newWriter(t, 1, db)

	// Sequential flushes do not overlap: one sublevel however many.
	for i := 0; i < 5; i++ {
		w.seqFlush(i*1000, 1000)
		shape := requireShapeMatchesPebble(t, db)
		require.Equal(t, 1, shape.SortedRuns())
		require.Len(t, shape.Runs[0].Tables, i+1)
	}
	// Random flushes overlap everything: one sublevel each.
	for i := 0; i < 6; i++ {
		w.randomFlush(500, 5000)
		shape := requireShapeMatchesPebble(t, db)
		require.Equal(t, i+2, shape.SortedRuns())
	}
	// A compaction of everything leaves L6 alone.
	require.NoError(t, db.Compact(context.Background(), keyOf(0), keyOf(10000), false))
	shape := requireShapeMatchesPebble(t, db)
	require.Equal(t, 1, shape.SortedRuns())
	last := shape.Runs[len(shape.Runs)-1]
	require.Equal(t, -1, last.Sublevel, "a level, not a sublevel")
	require.Equal(t, 6, last.Level)
	smallest, _ := last.Bounds()
	require.Equal(t, keyOf(0), smallest)
	require.Equal(t, m6Bytes(db), last.Bytes())
	require.Contains(t, shape.String(), "L6: ")
	require.Contains(t, shape.String(), "1 sorted runs")
}

func m6Bytes(db *pebble.DB) uint64 {
	return uint64(db.Metrics().Levels[6].TablesSize)
}
