package pebble

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestRangeQueryDropIn reads the same bounded ranges through NewIter and
// NewRangeQuery on a DB with staggered L0 sublevels and expects the same
// keys, under every plan.
func TestRangeQueryDropIn(t *testing.T) {
	db, err := Open("", &Options{
		FS: vfs.NewMem(), DisableAutomaticCompactions: true, L0StopWritesThreshold: 100,
	})
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	for r := 0; r < 8; r++ {
		for k := r * 50; k < r*50+80; k++ {
			require.NoError(t, db.Set(fmt.Appendf(nil, "k%04d", k), []byte("v"), Sync))
		}
		require.NoError(t, db.Flush())
	}
	scan := func(it interface {
		SeekGE([]byte) bool
		Next() bool
		Key() []byte
		Close() error
	}, from []byte) (keys [][]byte) {
		for valid := it.SeekGE(from); valid; valid = it.Next() {
			keys = append(keys, bytes.Clone(it.Key()))
		}
		require.NoError(t, it.Close())
		return keys
	}
	for _, plan := range []QueryPlan{PlanAuto, PlanPlain, PlanStepped, PlanPrefix} {
		for _, b := range [][2]string{{"k0100", "k0300"}, {"k0042", "k0042\x00"}, {"", ""}} {
			o := &IterOptions{}
			if b[0] != "" {
				o.LowerBound, o.UpperBound = []byte(b[0]), []byte(b[1])
			}
			it, err := db.NewIter(o)
			require.NoError(t, err)
			q, err := db.NewRangeQuery(o, &RangeQueryOptions{Plan: plan})
			require.NoError(t, err)
			from := []byte("k0120")
			want := scan(it, from)
			require.Equal(t, want, scan(q, from), "plan %s bounds %q", plan, b)
		}
	}
}
