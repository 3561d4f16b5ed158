package pebble

import (
	"testing"

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
