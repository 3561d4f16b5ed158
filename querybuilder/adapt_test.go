package querybuilder

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// staggeredRuns flushes runs sorted runs of width keys each, every one
// starting where the previous one ends but overlapping it by a few keys,
// so that each flush is its own L0 sublevel and a seek anywhere defers
// most runs: the shape the auto plan steps on.
func staggeredRuns(t *testing.T, d *testDB, runs, width int) {
	for r := 0; r < runs; r++ {
		b := d.db.NewBatch()
		for k := max(0, r*width-3); k < (r+1)*width; k++ {
			require.NoError(t, b.Set(testKey(k), fmt.Appendf(nil, "v%d-%d", r, k), nil))
		}
		require.NoError(t, b.Commit(pebble.NoSync))
		require.NoError(t, d.db.Flush())
	}
}

// TestAutoPlanAdapts checks the auto plan's second judgement, made while a
// query runs: a step costs a second seek each time the caller moves past
// it, so when more than half of a window of stepped seeks were widened the
// query gives stepping up and runs plain; short reads that stay within
// their step keep it. Either way the keys are the plain iterator's.
func TestAutoPlanAdapts(t *testing.T) {
	const runs, width = 16, 50
	d := openTestDB(t, nil, nil)
	staggeredRuns(t, d, runs, width)
	rng := rand.New(rand.NewPCG(7, 7))

	// read seeks to a random key and takes n keys, checking them against a
	// plain iterator.
	read := func(q *Iterator, plain *pebble.Iterator, n int) {
		target := testKey(rng.IntN(runs * width))
		qv, pv := q.SeekGE(target), plain.SeekGE(target)
		for j := 0; ; j++ {
			require.Equal(t, pv, qv)
			if !pv {
				break
			}
			require.Equal(t, string(plain.Key()), string(q.Key()))
			if j == n {
				break
			}
			qv, pv = q.Next(), plain.Next()
		}
	}
	newPairFor := func(o Options) (*Iterator, *pebble.Iterator) {
		plain, err := d.db.NewIter(nil)
		require.NoError(t, err)
		q, err := New(d.db, o).NewIter(nil)
		require.NoError(t, err)
		t.Cleanup(func() {
			require.NoError(t, q.Close())
			require.NoError(t, plain.Close())
		})
		return q, plain
	}

	t.Run("short reads keep stepping", func(t *testing.T) {
		q, plain := newPairFor(Options{})
		plan, why := q.Plan()
		require.Equal(t, PlanStepped, plan, "%s", why)
		for range 4 * adaptWindow {
			read(q, plain, 1)
		}
		plan, why = q.Plan()
		require.Equal(t, PlanStepped, plan, "%s", why)
		st := q.QueryStats()
		require.False(t, st.SteppingStopped)
		require.Equal(t, 4*adaptWindow, st.Seeks)
		// Seeks into the last run have no file start above them to step to.
		require.Greater(t, st.Steps, 3*adaptWindow)
		// A seek lands within a few keys of a step only by chance.
		require.Less(t, st.Widenings, adaptWindow)
	})

	t.Run("scans past the step stop stepping", func(t *testing.T) {
		q, plain := newPairFor(Options{})
		// Each read crosses at least one run boundary, so nearly every
		// stepped seek is widened. The plan is judged once a window of
		// stepped seeks is full; seeks into the last run do not step.
		for range 2 * adaptWindow {
			read(q, plain, 2*width)
		}
		plan, why := q.Plan()
		require.Equal(t, PlanPlain, plan)
		require.Contains(t, string(why), "widened")
		st := q.QueryStats()
		require.True(t, st.SteppingStopped)
		steps := st.Steps
		// Once plain, seeks no longer step, and the keys stay the same.
		for range adaptWindow {
			read(q, plain, 2*width)
		}
		require.Equal(t, steps, q.QueryStats().Steps)

		// New options are a new query: it is planned afresh.
		q.SetOptions(&pebble.IterOptions{})
		plain.SetOptions(&pebble.IterOptions{})
		plan, why = q.Plan()
		require.Equal(t, PlanStepped, plan, "%s", why)
		read(q, plain, 1)
	})

	t.Run("a forced plan never stops", func(t *testing.T) {
		q, plain := newPairFor(Options{Plan: PlanStepped})
		for range 2 * adaptWindow {
			read(q, plain, 2*width)
		}
		plan, _ := q.Plan()
		require.Equal(t, PlanStepped, plan)
		st := q.QueryStats()
		require.False(t, st.SteppingStopped)
		require.Greater(t, st.Widenings, adaptWindow)
	})
}
