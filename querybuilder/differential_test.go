package querybuilder

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// walker drives a planned query and a plain upstream iterator with the same
// random operations and records the first difference.
type walker struct {
	t        testing.TB
	rng      *rand.Rand
	keySpace int
	randKey  func() []byte
	// randBounds, if set, replaces bounds.
	randBounds func() (lower, upper []byte)
	plain      *pebble.Iterator
	query      *Iterator
	log        []string
	// mustReposition is set after SetOptions.
	mustReposition bool
	ops            int
}

func (w *walker) bound() []byte {
	if w.rng.IntN(4) == 0 {
		return nil
	}
	return w.randKey()
}

func (w *walker) bounds() (lower, upper []byte) {
	if w.randBounds != nil {
		return w.randBounds()
	}
	lower, upper = w.bound(), w.bound()
	if lower != nil && upper != nil && bytes.Compare(lower, upper) > 0 {
		lower, upper = upper, lower
	}
	if w.rng.IntN(8) == 0 && lower != nil {
		// A range inside one prefix (the whole key, under the default
		// comparer): the prefix plan's case.
		upper = append(bytes.Clone(lower), 0)
	}
	return lower, upper
}

// step applies one random operation to both iterators and compares them.
func (w *walker) step() {
	w.ops++
	var op string
	var a, b any
	x := w.rng.IntN(100)
	if w.mustReposition && x >= 33 {
		// Pebble leaves relative moves after SetOptions undefined until
		// the iterator is repositioned.
		x %= 33
	}
	w.mustReposition = x >= 96 // and after Clone, below
	switch {
	case x < 18:
		op, a, b = keyOp(w, "SeekGE", (*pebble.Iterator).SeekGE, (*Iterator).SeekGE)
	case x < 24:
		op, a, b = keyOp(w, "SeekLT", (*pebble.Iterator).SeekLT, (*Iterator).SeekLT)
	case x < 28:
		op, a, b = keyOp(w, "SeekPrefixGE", (*pebble.Iterator).SeekPrefixGE, (*Iterator).SeekPrefixGE)
	case x < 31:
		op, a, b = "First", w.plain.First(), w.query.First()
	case x < 33:
		op, a, b = "Last", w.plain.Last(), w.query.Last()
	case x < 63:
		op, a, b = "Next", w.plain.Next(), w.query.Next()
	case x < 78:
		op, a, b = "Prev", w.plain.Prev(), w.query.Prev()
	case x < 82:
		op, a, b = "NextPrefix", w.plain.NextPrefix(), w.query.NextPrefix()
	case x < 85:
		op, a, b = keyOp(w, "NextWithLimit", (*pebble.Iterator).NextWithLimit, (*Iterator).NextWithLimit)
	case x < 87:
		op, a, b = keyOp(w, "PrevWithLimit", (*pebble.Iterator).PrevWithLimit, (*Iterator).PrevWithLimit)
	case x < 89:
		op, a, b = keysOp(w, "SeekGEWithLimit", (*pebble.Iterator).SeekGEWithLimit, (*Iterator).SeekGEWithLimit)
	case x < 90:
		op, a, b = keysOp(w, "SeekLTWithLimit", (*pebble.Iterator).SeekLTWithLimit, (*Iterator).SeekLTWithLimit)
	case x < 91:
		// Clones read the same view and are not positioned; the walk
		// goes on with them.
		op = "Clone"
		pc, err := w.plain.Clone(pebble.CloneOptions{})
		require.NoError(w.t, err)
		qc, err := w.query.Clone(pebble.CloneOptions{})
		require.NoError(w.t, err)
		w.close()
		w.plain, w.query = pc, qc
		w.mustReposition = true
	case x < 96:
		lo, hi := w.bounds()
		op = fmt.Sprintf("SetBounds(%s, %s)", lo, hi)
		w.plain.SetBounds(lo, hi)
		w.query.SetBounds(lo, hi)
	default:
		lo, hi := w.bounds()
		o := &pebble.IterOptions{LowerBound: lo, UpperBound: hi}
		op = fmt.Sprintf("SetOptions(%s, %s)", lo, hi)
		w.plain.SetOptions(o)
		w.query.SetOptions(o)
	}
	w.log = append(w.log, op)
	if len(w.log) > 30 {
		w.log = w.log[1:]
	}
	w.compare(a, b)
}

// keyOp applies an operation that takes one key to both iterators.
func keyOp[R any](
	w *walker, name string, p func(*pebble.Iterator, []byte) R, q func(*Iterator, []byte) R,
) (string, any, any) {
	k := w.randKey()
	return fmt.Sprintf("%s(%s)", name, k), p(w.plain, k), q(w.query, k)
}

// keysOp applies an operation that takes a key and a limit to both
// iterators.
func keysOp[R any](
	w *walker, name string, p func(*pebble.Iterator, []byte, []byte) R, q func(*Iterator, []byte, []byte) R,
) (string, any, any) {
	k, lim := w.randKey(), w.randKey()
	return fmt.Sprintf("%s(%s, %s)", name, k, lim), p(w.plain, k, lim), q(w.query, k, lim)
}

func (w *walker) compare(a, b any) {
	w.t.Helper()
	if a == b && w.plain.Valid() == w.query.Valid() && sameErr(w.plain.Error(), w.query.Error()) &&
		(!w.plain.Valid() || (bytes.Equal(w.plain.Key(), w.query.Key()) && bytes.Equal(w.plain.Value(), w.query.Value()))) {
		return
	}
	p, _ := w.query.Plan()
	w.t.Fatalf("difference after %d ops under plan %s:\nplain %v valid=%t key=%q err=%v\nquery %v valid=%t key=%q err=%v\nlast ops:\n  %s",
		w.ops, p, a, w.plain.Valid(), keyOf(w.plain), w.plain.Error(),
		b, w.query.Valid(), keyOf(w.query), w.query.Error(), strings.Join(w.log, "\n  "))
}

// close closes both iterators; Close returns an iterator's pending error,
// and the two must agree on it too.
func (w *walker) close() {
	w.t.Helper()
	pe, qe := w.plain.Close(), w.query.Close()
	require.True(w.t, sameErr(pe, qe), "Close: plain %v, query %v", pe, qe)
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}

func keyOf(it interface {
	Valid() bool
	Key() []byte
}) []byte {
	if !it.Valid() {
		return nil
	}
	return it.Key()
}

// newPair creates a plain iterator and a query with the same options, with
// no write in between, so both read the same sequence number.
func newPair(t testing.TB, b *Builder, r Reader, o *pebble.IterOptions) (*pebble.Iterator, *Iterator) {
	plain, err := r.NewIter(o)
	require.NoError(t, err)
	q, err := b.NewIterFrom(r, o)
	require.NoError(t, err)
	return plain, q
}

// differentialOps is the CI-sized number of operations; raceEnabled runs
// fewer, the race detector being about ten times slower.
func differentialOps() int {
	if raceEnabled {
		return 12_000
	}
	return 120_000
}

// TestDifferential compares planned queries with plain iterators on random
// LSM shapes under random walks, for every forced plan and the auto plan.
func TestDifferential(t *testing.T) {
	total := differentialOps()
	const seeds = 12
	plans := []Plan{PlanAuto, PlanStepped, PlanPrefix, PlanPlain}
	var stats QueryStats
	ops := 0
	for seed := uint64(0); seed < seeds; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		d := openTestDB(t, pebble.DefaultComparer, nil)
		keySpace := 200 + rng.IntN(800)
		randomLSM(d, rng, keySpace)
		for _, plan := range plans {
			b := New(d.db, Options{Plan: plan})
			w := &walker{t: t, rng: rng, keySpace: keySpace}
			w.randKey = func() []byte { return testKey(w.rng.IntN(keySpace + 10)) }
			addStats(&stats, w.walk(b, d.db, total/seeds/len(plans)))
			ops += w.ops
		}
	}
	// The walk must have exercised what it claims to test (the counts
	// scale with the number of operations, fewer under the race detector).
	require.GreaterOrEqual(t, ops, total)
	require.Greater(t, stats.Steps, total/120)
	require.Greater(t, stats.Widenings, total/1200)
	require.Greater(t, stats.PrefixSeeks, total/1200)
	require.Greater(t, stats.PrefixExits, total/12000)
	t.Logf("%d operations: %+v", ops, stats)
}

// walk runs ops random operations on fresh query/plain pairs, 200 per pair,
// and returns the queries' summed statistics.
func (w *walker) walk(b *Builder, r Reader, ops int) QueryStats {
	var stats QueryStats
	for start := w.ops; w.ops-start < ops; {
		lo, hi := w.bounds()
		w.plain, w.query = newPair(w.t, b, r, &pebble.IterOptions{LowerBound: lo, UpperBound: hi})
		for n := 0; n < 200; n++ {
			w.step()
		}
		addStats(&stats, w.query.QueryStats())
		w.close()
	}
	return stats
}

func addStats(dst *QueryStats, s QueryStats) {
	dst.Seeks += s.Seeks
	dst.Steps += s.Steps
	dst.Widenings += s.Widenings
	dst.PrefixSeeks += s.PrefixSeeks
	dst.PrefixExits += s.PrefixExits
}

// TestConcurrentWrites walks query/plain pairs while another goroutine
// writes, flushes and compacts: both must keep seeing the view they were
// created with, and a step computed from a newer layout must not change it.
func TestConcurrentWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 42))
	d := openTestDB(t, pebble.DefaultComparer, nil)
	const keySpace = 600
	randomLSM(d, rng, keySpace)
	b := New(d.db, Options{Plan: PlanStepped})

	var mu sync.Mutex // held while a pair is created: no write in between
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		wrng := rand.New(rand.NewPCG(1, 2))
		for n := 0; ; n++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			mu.Lock()
			k := wrng.IntN(keySpace)
			err := d.db.Set(testKey(k), fmt.Appendf(nil, "w%d", n), pebble.NoSync)
			if err == nil && n%7 == 0 {
				err = d.db.DeleteRange(testKey(k), testKey(k+3), pebble.NoSync)
			}
			mu.Unlock()
			if err == nil && n%50 == 0 {
				err = d.db.Flush()
			}
			if err == nil && n%400 == 0 {
				err = d.db.Compact(t.Context(), testKey(k), testKey(k+100), false)
			}
			if err != nil {
				done <- err
				return
			}
		}
	}()
	w := &walker{t: t, rng: rng, keySpace: keySpace}
	w.randKey = func() []byte { return testKey(w.rng.IntN(keySpace + 10)) }
	for w.ops < differentialOps()/6 {
		lo, hi := w.bounds()
		mu.Lock()
		w.plain, w.query = newPair(t, b, d.db, &pebble.IterOptions{LowerBound: lo, UpperBound: hi})
		mu.Unlock()
		for n := 0; n < 300; n++ {
			w.step()
		}
		w.close()
	}
	close(stop)
	require.NoError(t, <-done)
}

// TestSnapshotReader plans queries on the DB's current layout but reads
// from an older snapshot: the layout is newer than the view (flushes,
// ingests and compactions happened in between), which may only cost
// efficiency.
func TestSnapshotReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	d := openTestDB(t, pebble.DefaultComparer, nil)
	const keySpace = 500
	randomLSM(d, rng, keySpace)
	snap := d.db.NewSnapshot()
	defer func() { require.NoError(t, snap.Close()) }()
	// Newer staggered flushes: the layout the queries are planned on has
	// files the snapshot's view does not.
	for r := 0; r < 10; r++ {
		for k := r * 50; k < r*50+70; k++ {
			require.NoError(t, d.db.Set(testKey(k), []byte("new"), pebble.NoSync))
		}
		require.NoError(t, d.db.Flush())
	}
	w := &walker{t: t, rng: rng, randKey: func() []byte { return testKey(rng.IntN(keySpace + 10)) }}
	stats := w.walk(New(d.db, Options{Plan: PlanStepped}), snap, differentialOps()/8)
	require.Greater(t, stats.Widenings, 10)
}

// boundsFilter is a range filter stand-in: no table carries its property,
// so it never skips anything, but it records the bounds it was built for.
type boundsFilter struct{ lower, upper []byte }

func (boundsFilter) Name() string                                           { return "querybuilder.test-bounds" }
func (boundsFilter) Intersects([]byte) (bool, error)                        { return true, nil }
func (boundsFilter) SyntheticSuffixIntersects([]byte, []byte) (bool, error) { return true, nil }

// TestRangeFiltersRebuilt checks that range filters are built for the
// query's bounds, kept for bounds within them, and rebuilt whenever the
// caller's bounds leave them (Pebble requires SetOptions for filters that
// depend on the bounds), and that results are unchanged.
func TestRangeFiltersRebuilt(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	d := openTestDB(t, pebble.DefaultComparer, nil)
	const keySpace = 300
	randomLSM(d, rng, keySpace)
	var built [][2][]byte
	b := New(d.db, Options{Plan: PlanStepped, RangeFilters: func(lower, upper []byte) []pebble.BlockPropertyFilter {
		built = append(built, [2][]byte{bytes.Clone(lower), bytes.Clone(upper)})
		return []pebble.BlockPropertyFilter{boundsFilter{lower, upper}}
	}})
	q, err := b.NewIter(&pebble.IterOptions{LowerBound: testKey(10), UpperBound: testKey(20)})
	require.NoError(t, err)
	q.SetBounds(testKey(30), testKey(40))
	q.SetBounds(testKey(30), testKey(40)) // unchanged: nothing to rebuild
	q.SetBounds(testKey(32), testKey(38)) // narrower: the filter stays valid
	q.SetBounds(testKey(30), testKey(40)) // back within the filter's bounds
	q.SetOptions(&pebble.IterOptions{LowerBound: testKey(50)})
	q.SetBounds(testKey(60), nil) // within [k50, ∞)
	q.SetBounds(testKey(40), nil) // below the filter's lower bound
	require.NoError(t, q.Close())
	require.Equal(t, [][2][]byte{
		{testKey(10), testKey(20)}, {testKey(30), testKey(40)}, {testKey(50), nil}, {testKey(40), nil},
	}, built)

	w := &walker{t: t, rng: rng, randKey: func() []byte { return testKey(rng.IntN(keySpace + 10)) }}
	w.walk(b, d.db, differentialOps()/8)
}
