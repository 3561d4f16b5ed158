package querybuilder

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestLayoutFollowsVersions: a flush gives the next query a new layout,
// except while another query is rebuilding it, when the previous one is
// used instead of a second rebuild.
func TestLayoutFollowsVersions(t *testing.T) {
	d := openTestDB(t, pebble.DefaultComparer, nil)
	buildStep(t, d, strings.Fields("flush a b c"))
	b := New(d.db, Options{})
	first, err := b.layout()
	require.NoError(t, err)
	again, err := b.layout()
	require.NoError(t, err)
	require.Same(t, first, again, "unchanged version, cached layout")

	buildStep(t, d, strings.Fields("flush b d"))
	b.cache.building.Store(true) // another query is rebuilding
	during, err := b.layout()
	require.NoError(t, err)
	require.Same(t, first, during)
	b.cache.building.Store(false)
	after, err := b.layout()
	require.NoError(t, err)
	require.NotSame(t, first, after)
	require.Len(t, after.Runs, 2)
	require.False(t, b.cache.building.Load())
}
