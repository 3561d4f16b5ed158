// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"fmt"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	pebble "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// TestRewriteForUpstream writes a DB with statistics on, whose filters
// upstream Pebble cannot read, rolls it back, and checks that upstream
// Pebble then reads the same keys and uses the filters (its Metrics count
// filter hits for absent keys), where on the original it used none.
func TestRewriteForUpstream(t *testing.T) {
	fs := vfs.NewMem()
	opts := func() *upstream.Options {
		o := &upstream.Options{FS: fs, Logger: quietLogger{}, FormatMajorVersion: upstream.FormatNewest}
		o.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
		return o
	}
	db, err := pebble.OpenWithPlugins("src", opts(), pebble.Plugins{Statistics: true})
	require.NoError(t, err)
	const n = 1000
	for i := 0; i < n; i++ {
		require.NoError(t, db.Set([]byte(fmt.Sprintf("key%05d", 2*i)), []byte(fmt.Sprint(i)), nil))
	}
	require.NoError(t, db.RangeKeySet([]byte("key00100"), []byte("key00200"), []byte("@5"), []byte("rk"), nil))
	require.NoError(t, db.Flush())
	require.NoError(t, db.Close())

	// Absent keys within the table's range: with its filters, upstream
	// answers most of them from the filter alone.
	filterHits := func(dir string) (hits int64, keys int) {
		d, err := upstream.Open(dir, opts())
		require.NoError(t, err)
		defer func() { require.NoError(t, d.Close()) }()
		for i := 0; i < n; i++ {
			v, c, err := d.Get([]byte(fmt.Sprintf("key%05d", 2*i)))
			require.NoError(t, err)
			require.Equal(t, fmt.Sprint(i), string(v))
			require.NoError(t, c.Close())
			_, _, err = d.Get([]byte(fmt.Sprintf("key%05d", 2*i+1)))
			require.ErrorIs(t, err, upstream.ErrNotFound)
		}
		it, err := d.NewIter(&upstream.IterOptions{KeyTypes: upstream.IterKeyTypeRangesOnly})
		require.NoError(t, err)
		for valid := it.First(); valid; valid = it.Next() {
			keys++
			start, end := it.RangeBounds()
			require.Equal(t, "key00100", string(start))
			require.Equal(t, "key00200", string(end))
		}
		require.NoError(t, it.Close())
		return d.Metrics().Filter.Hits, keys
	}
	hits, rangeKeys := filterHits("src")
	require.Zero(t, hits, "upstream does not know the tagged filters")
	require.Equal(t, 1, rangeKeys)

	require.NoError(t, seekstats.RewriteForUpstream("src", "dst", opts()))
	hits, rangeKeys = filterHits("dst")
	require.Greater(t, hits, int64(n/2), "upstream uses the rewritten filters")
	require.Equal(t, 1, rangeKeys)

	// The source is left as it was, and a second rollback into the same
	// directory is refused.
	hits, _ = filterHits("src")
	require.Zero(t, hits)
	require.Error(t, seekstats.RewriteForUpstream("src", "dst", opts()))
}
