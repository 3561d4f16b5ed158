package pebble

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// TestCloneInheritsBounds checks that a clone made without options of its
// own gets the bounds the caller last set, as upstream's Clone does, with
// and without plug-ins, after a SetBounds that kept the range filter
// (narrower) and after one that rebuilt it (wider).
func TestCloneInheritsBounds(t *testing.T) {
	for name, plugins := range map[string]Plugins{
		"none":         {},
		"statistics":   Plugins{Statistics: true},
		"range-filter": {Statistics: true, RangeFilter: &rangefilter.Config{BitsPerKey: 16}},
	} {
		t.Run(name, func(t *testing.T) {
			db := gappyDB(t, plugins)
			it, err := db.NewIter(&IterOptions{LowerBound: []byte("key100"), UpperBound: []byte("key200")})
			require.NoError(t, err)
			for _, b := range [][2]string{{"key110", "key113"}, {"key050", "key052"}} {
				it.SetBounds([]byte(b[0]), []byte(b[1]))
				want, _ := scanBytes(t, it)
				clone, err := it.Clone(CloneOptions{})
				require.NoError(t, err)
				got, _ := scanBytes(t, clone)
				require.Equal(t, want, got, "bounds %q", b)
				require.NotEmpty(t, got)
				require.NoError(t, clone.Close())
			}
			require.NoError(t, it.Close())
		})
	}
}

// TestCloseTwice checks that closing an iterator, or a range query, twice in
// a row returns nil as upstream's does, although both are recycled.
func TestCloseTwice(t *testing.T) {
	db := openStaggered(t, Plugins{Statistics: true, RangeFilter: &rangefilter.Config{BitsPerKey: 16}}, 2)
	for _, o := range []*IterOptions{nil, {LowerBound: []byte("k0010"), UpperBound: []byte("k0020")}} {
		it, err := db.NewIter(o)
		require.NoError(t, err)
		require.NoError(t, it.Close())
		require.NoError(t, it.Close())
		q, err := db.NewRangeQuery(o, nil)
		require.NoError(t, err)
		require.NoError(t, q.Close())
		require.NoError(t, q.Close())
	}
	plain, err := Open("", &Options{FS: vfs.NewMem()})
	require.NoError(t, err)
	it, err := plain.NewIter(nil)
	require.NoError(t, err)
	require.NoError(t, it.Close())
	require.NoError(t, it.Close())
	require.NoError(t, plain.Close())
}
