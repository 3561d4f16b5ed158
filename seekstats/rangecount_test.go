// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRangeFilteredAfterSetBounds checks that an iterator whose bounds
// change keeps counting its range filters' rule-outs: new bounds outside
// the old ones rebuild the iterator with new range filters, which the
// tracker binds again.
func TestRangeFilteredAfterSetBounds(t *testing.T) {
	d := openTestDB(t, openConfig{prefix: 3, rangeBits: 16})
	for _, k := range []string{"aaa1", "ddd1", "ggg1"} {
		require.NoError(t, d.db.Set([]byte(k), []byte("v"), nil))
	}
	require.NoError(t, d.db.Flush())

	it, err := d.db.NewIter(nil)
	require.NoError(t, err)
	defer func() { require.NoError(t, it.Close()) }()
	it.SetBounds([]byte("bbb"), []byte("ccc"))
	require.False(t, it.SeekGE([]byte("bbb")))
	require.EqualValues(t, 1, d.stats.Get("pebblerf.l0.seek.filtered.range"))

	// Bounds holding ddd1: the range filter passes, a block is read.
	it.SetBounds([]byte("ddd"), []byte("eee"))
	require.True(t, it.SeekGE([]byte("ddd")))
	require.EqualValues(t, 1, d.stats.Get("pebblerf.l0.seek.filtered.range"))
	require.EqualValues(t, 1, d.stats.Get("pebblerf.l0.seek.data.bounded"))

	// A gap again, on new bounds: counted again, for the same table.
	it.SetBounds([]byte("eee"), []byte("fff"))
	require.False(t, it.SeekGE([]byte("eee")))
	require.EqualValues(t, 2, d.stats.Get("pebblerf.l0.seek.filtered.range"))
	require.EqualValues(t, 2, d.stats.Get("rocksdb.non.last.level.seek.filtered"))
	require.Zero(t, d.stats.Get("pebblerf.unattributed.seek.filtered"))
}
