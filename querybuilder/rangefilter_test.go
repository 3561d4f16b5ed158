package querybuilder

import (
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// TestWithRangeFilter attaches the range filter (package rangefilter)
// through Options.RangeFilters: results stay identical to plain iterators
// on random LSMs with range deletions, whatever the filter skips, and a
// scan of a range that no table holds reads fewer block bytes.
func TestWithRangeFilter(t *testing.T) {
	policy, err := rangefilter.NewPolicy(nil, rangefilter.Config{Seed: 1})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(11, 11))
	d := openTestDB(t, pebble.DefaultComparer, func(o *pebble.Options) {
		o.BlockPropertyCollectors = append(o.BlockPropertyCollectors, policy.Collector())
	})
	// Sparse keys (every 7th), so that short ranges often hold none.
	const keySpace = 700
	for r := 0; r < 8; r++ {
		b := d.db.NewBatch()
		for k := r * 60 / 7 * 7; k < r*60+200 && k < keySpace; k += 7 {
			require.NoError(t, b.Set(testKey(k), []byte("v"), nil))
		}
		if r%3 == 0 {
			require.NoError(t, b.DeleteRange(testKey(r*60+14), testKey(r*60+40), nil))
		}
		require.NoError(t, b.Commit(pebble.NoSync))
		require.NoError(t, d.db.Flush())
	}
	filters := func(lower, upper []byte) []pebble.BlockPropertyFilter {
		return []pebble.BlockPropertyFilter{policy.BoundsFilter(lower, upper)}
	}
	w := &walker{t: t, rng: rng, randKey: func() []byte { return testKey(rng.IntN(keySpace + 10)) }}
	w.randBounds = func() ([]byte, []byte) {
		lo := rng.IntN(keySpace)
		return testKey(lo), testKey(lo + 1 + rng.IntN(20))
	}
	for _, plan := range []Plan{PlanAuto, PlanPlain} {
		w.walk(New(d.db, Options{Plan: plan, RangeFilters: filters}), d.db, differentialOps()/10)
	}

	// [k00302, k00308) holds no key in any table (keys are multiples of 7).
	o := &pebble.IterOptions{LowerBound: testKey(302), UpperBound: testKey(308)}
	scan := func(rf func(lower, upper []byte) []pebble.BlockPropertyFilter) uint64 {
		q, err := New(d.db, Options{Plan: PlanPlain, RangeFilters: rf}).NewIter(o)
		require.NoError(t, err)
		require.False(t, q.First())
		bytes := q.Stats().InternalStats.BlockBytes
		require.NoError(t, q.Close())
		return bytes
	}
	without, with := scan(nil), scan(filters)
	require.Less(t, with, without)
	t.Logf("empty range: block bytes %d without the range filter, %d with", without, with)
}
