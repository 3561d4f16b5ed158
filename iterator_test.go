package pebble

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
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

// TestReusedIteratorDropsRangeFilters checks the rule for an iterator
// reused across spans (iterhooks.IterHooks.LimitRebuilds): a plain
// iterator whose bounds move outside its range filter's gets new filters
// twice, and the third time gives its range filters up, reading blocks as
// upstream does and the same keys; a range query keeps its filters; a new
// iterator has them again. Both ways of re-bounding are checked.
func TestReusedIteratorDropsRangeFilters(t *testing.T) {
	db := gappyDB(t, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})
	ref := gappyDB(t, Plugins{})
	// Empty spans (the tables hold keys ending in 0, 1 and 2), each outside
	// the one before.
	spans := [][2]string{{"key105", "key109"}, {"key205", "key209"}, {"key305", "key309"}, {"key405", "key409"}, {"key505", "key509"}}
	type iter interface {
		scannable
		SetBounds(lower, upper []byte)
		SetOptions(o *IterOptions)
		ResetStats()
		Close() error
	}
	scan := func(it iter) ([]string, uint64) {
		it.ResetStats()
		return scanBytes(t, it)
	}
	for _, viaOptions := range []bool{false, true} {
		rebound := func(it iter, lower, upper string) {
			if viaOptions {
				it.SetOptions(&IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)})
			} else {
				it.SetBounds([]byte(lower), []byte(upper))
			}
		}
		first := &IterOptions{LowerBound: []byte(spans[0][0]), UpperBound: []byte(spans[0][1])}
		it, err := db.NewIter(first)
		require.NoError(t, err)
		q, err := db.NewRangeQuery(first, nil)
		require.NoError(t, err)
		for n, span := range spans {
			if n > 0 {
				rebound(it, span[0], span[1])
				rebound(q, span[0], span[1])
			}
			keys, bytes := scan(it)
			require.Empty(t, keys, "span %q", span)
			switch n {
			case 0, 1, 2:
				require.Zero(t, bytes, "setOptions=%t span %d: the filter still skips every table", viaOptions, n)
			case 3:
				require.Positive(t, bytes, "setOptions=%t span %d: the filters were dropped, blocks are read", viaOptions, n)
			default:
				// Pebble kept the stack: the blocks the last span loaded
				// serve this one, as on a reused upstream iterator.
				require.Zero(t, bytes, "setOptions=%t span %d: the iterator stack was rebuilt again", viaOptions, n)
			}
			keys, bytes = scan(q)
			require.Empty(t, keys)
			require.Zero(t, bytes, "setOptions=%t span %d: a range query keeps its filters", viaOptions, n)
		}
		// After the drop the iterator reads what upstream reads.
		want, err := ref.NewIter(nil)
		require.NoError(t, err)
		want.SetBounds([]byte("key100"), []byte("key150"))
		wantKeys, _ := scanBytes(t, want)
		require.NoError(t, want.Close())
		rebound(it, "key100", "key150")
		gotKeys, _ := scan(it)
		require.NotEmpty(t, gotKeys)
		require.Equal(t, wantKeys, gotKeys)
		require.NoError(t, it.Close())
		require.NoError(t, q.Close())

		// A new iterator (from the pool that took the old one's state) has
		// its filters again.
		it, err = db.NewIter(&IterOptions{LowerBound: []byte(spans[4][0]), UpperBound: []byte(spans[4][1])})
		require.NoError(t, err)
		_, bytes := scan(it)
		require.Zero(t, bytes)
		require.NoError(t, it.Close())
	}
}

// TestPlainIteratorsGateRangeFilters checks the range-filter gate on plain
// iterators (the range filter policy's gate): while their filters rule out no table (each
// span holds a key of every table), the gate closes and new iterators but
// one in rangefilter.SampleEvery read as upstream's; once the sampled iterators'
// filters rule tables out again (empty spans), it reopens and every new
// iterator skips the tables. Every scan returns upstream's keys.
func TestPlainIteratorsGateRangeFilters(t *testing.T) {
	db := gappyDB(t, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})
	ref := gappyDB(t, Plugins{})
	gate := db.RangeFilterPolicy()
	scan := func(d *DB, lower, upper string) ([]string, uint64) {
		it, err := d.NewIter(&IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)})
		require.NoError(t, err)
		defer func() { require.NoError(t, it.Close()) }()
		return scanBytes(t, it)
	}
	check := func(n int, lower, upper string) uint64 {
		got, bytes := scan(db, lower, upper)
		want, _ := scan(ref, lower, upper)
		require.Equal(t, want, got, "iterator %d, [%s, %s)", n, lower, upper)
		return bytes
	}
	// key%d0..key%d3 holds one key of each of the three tables.
	n := 0
	for ; !gate.GateClosed([]byte("key")); n++ {
		require.Less(t, n, rangefilter.Window, "the gate must close when filters rule nothing out")
		d := n % 99
		check(n, fmt.Sprintf("key%02d0", d), fmt.Sprintf("key%02d3", d))
	}
	// Closed: of rangefilter.SampleEvery new iterators on an empty span, one has
	// its filters (and reads no block), the others read blocks.
	skipped := 0
	for i := range rangefilter.SampleEvery {
		if check(n+i, "key105", "key109") == 0 {
			skipped++
		}
	}
	require.Equal(t, 1, skipped)
	// Empty spans: the samples' filters rule every table out, and the gate
	// reopens after about as many iterators as it took to close.
	for n = 0; gate.GateClosed([]byte("key")); n++ {
		require.Less(t, n, rangefilter.Window, "the gate must reopen")
		d := n % 99
		check(n, fmt.Sprintf("key%02d5", d), fmt.Sprintf("key%02d9", d))
	}
	for i := range rangefilter.SampleEvery {
		require.Zero(t, check(i, "key205", "key209"), "reopened: every iterator skips the tables")
	}
}

// TestGateJudgesKeyRegionsApart: a CockroachDB-style mix on one DB, each
// data scan preceded by a lock-table check. The scans' spans hold keys of
// every table, the checks' spans none, and the two key spaces start with
// different bytes (\x01 for the lock table). The gate must take range
// filters off the scans and leave them on the checks, which then skip every
// table, where one verdict for the mix would keep the filters on both.
func TestGateJudgesKeyRegionsApart(t *testing.T) {
	locks := func(table int) (keys []string) {
		for i := table; i < 1000; i += 100 {
			keys = append(keys, fmt.Sprintf("\x01lock%03d", i))
		}
		return keys
	}
	open := func(plugins Plugins) *DB { return gappyDBWith(t, plugins, locks) }
	db := open(Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})
	ref := open(Plugins{})
	scan := func(d *DB, lower, upper string) ([]string, uint64) {
		it, err := d.NewIter(&IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)})
		require.NoError(t, err)
		defer func() { require.NoError(t, it.Close()) }()
		return scanBytes(t, it)
	}
	check := func(lower, upper string) uint64 {
		got, bytes := scan(db, lower, upper)
		want, _ := scan(ref, lower, upper)
		require.Equal(t, want, got, "[%q, %q)", lower, upper)
		return bytes
	}
	gate := db.RangeFilterPolicy()
	var lockBytes uint64
	for n := 0; n < 2*rangefilter.Window; n++ {
		d := n % 99
		require.NotEmpty(t, check(fmt.Sprintf("key%02d0", d), fmt.Sprintf("key%02d3", d)))
		lockBytes = check(fmt.Sprintf("\x01lock%d05", d%10), fmt.Sprintf("\x01lock%d95", d%10))
	}
	require.True(t, gate.GateClosed([]byte("key")), "the scans' filters rule nothing out")
	require.False(t, gate.GateClosed([]byte("\x01lock")), "the checks' filters rule every table out")
	require.Zero(t, lockBytes, "a lock-table check with its filters reads no block")
}

// TestGateConcurrentIterators: iterators of four goroutines, while the
// gate closes and reopens under them (phases of spans that hold keys in
// every table, then of empty spans), read what upstream reads, also after
// SetBounds, SetOptions and Clone move their bounds.
func TestGateConcurrentIterators(t *testing.T) {
	db := gappyDB(t, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})
	ref := gappyDB(t, Plugins{})
	want := func(lo, hi string) []string {
		it, err := ref.NewIter(&IterOptions{LowerBound: []byte(lo), UpperBound: []byte(hi)})
		require.NoError(t, err)
		k, _ := scanBytes(t, it)
		require.NoError(t, it.Close())
		return k
	}
	spans := func(r *rand.Rand, full bool) (string, string) {
		d := r.IntN(99)
		if full {
			return fmt.Sprintf("key%02d0", d), fmt.Sprintf("key%02d3", d)
		}
		return fmt.Sprintf("key%02d5", d), fmt.Sprintf("key%02d9", d)
	}
	gate := db.RangeFilterPolicy()
	var sawClosed, sawOpen atomic.Bool
	var wg sync.WaitGroup
	iters := 3000
	if testing.Short() {
		iters = 1000
	}
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for n := 0; n < iters; n++ {
				full := (n/(iters/4))%2 == 0
				lo, hi := spans(r, full)
				it, err := db.NewIter(&IterOptions{LowerBound: []byte(lo), UpperBound: []byte(hi)})
				require.NoError(t, err)
				k, _ := scanBytes(t, it)
				require.Equal(t, want(lo, hi), k)
				switch n % 4 {
				case 1: // widen through SetBounds
					lo2, hi2 := spans(r, !full)
					it.SetBounds([]byte(lo2), []byte(hi2))
					k, _ = scanBytes(t, it)
					require.Equal(t, want(lo2, hi2), k, "SetBounds %s %s", lo2, hi2)
				case 2:
					lo2, hi2 := spans(r, true)
					it.SetOptions(&IterOptions{LowerBound: []byte(lo2), UpperBound: []byte(hi2)})
					k, _ = scanBytes(t, it)
					require.Equal(t, want(lo2, hi2), k, "SetOptions")
				case 3:
					lo2, hi2 := spans(r, true)
					c, err := it.Clone(CloneOptions{IterOptions: &IterOptions{LowerBound: []byte(lo2), UpperBound: []byte(hi2)}})
					require.NoError(t, err)
					k, _ = scanBytes(t, c)
					require.Equal(t, want(lo2, hi2), k, "Clone")
					c2, err := it.Clone(CloneOptions{})
					require.NoError(t, err)
					c2.SetBounds([]byte("key000"), []byte("key999"))
					k, _ = scanBytes(t, c2)
					require.Equal(t, want("key000", "key999"), k, "Clone+SetBounds")
					require.NoError(t, c.Close())
					require.NoError(t, c2.Close())
				}
				require.NoError(t, it.Close())
				if gate.GateClosed([]byte("key")) {
					sawClosed.Store(true)
				} else if sawClosed.Load() {
					sawOpen.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	require.True(t, sawClosed.Load() && sawOpen.Load(), "the gate must close and reopen while the iterators run")
}

// TestDeferredHooks: an iterator opened without bounds on a DB with range
// filters (and no statistics) has no plug-in state until it is given
// bounds, and then gets the filter its bounds deserve, whichever way the
// bounds come: SetBounds, SetOptions, or a clone with bounds of its own.
func TestDeferredHooks(t *testing.T) {
	db := gappyDB(t, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})
	empty := &IterOptions{LowerBound: []byte("key105"), UpperBound: []byte("key109")}
	// scanEmpty scans it, which must now have the empty range's bounds,
	// and returns the block bytes the scan loaded.
	scanEmpty := func(it *Iterator) uint64 {
		it.ResetStats()
		keys, bytes := scanBytes(t, it)
		require.Empty(t, keys)
		return bytes
	}
	give := map[string]func(it *Iterator) *Iterator{
		"SetBounds": func(it *Iterator) *Iterator {
			it.SetBounds(empty.LowerBound, empty.UpperBound)
			return it
		},
		"SetOptions": func(it *Iterator) *Iterator {
			it.SetOptions(empty)
			return it
		},
		"Clone": func(it *Iterator) *Iterator {
			c, err := it.Clone(CloneOptions{IterOptions: empty})
			require.NoError(t, err)
			return c
		},
	}
	for name, give := range give {
		for _, opts := range []*IterOptions{nil, {}} {
			it, err := db.NewIter(opts)
			require.NoError(t, err)
			require.Nil(t, it.h, "%s: an unbounded iterator starts without plug-in state", name)
			keys, _ := scanBytes(t, it)
			require.Len(t, keys, 301, "%s: every key", name)
			got := give(it)
			require.NotNil(t, got.h, "%s: bounds bring the plug-in state", name)
			require.Zero(t, scanEmpty(got), "%s: the new bounds' filter skips every table", name)
			if got != it {
				require.NoError(t, got.Close())
			}
			require.NoError(t, it.Close())
		}
	}

	// A pooled wrapper that was deferred and closed carries nothing into
	// the next iterator: a bounded one gets its filter at once, and an
	// unbounded one starts deferred again, with no bounds of the last.
	for n := 0; n < 4; n++ {
		it, err := db.NewIter(nil)
		require.NoError(t, err)
		require.NoError(t, it.Close())
		it, err = db.NewIter(empty)
		require.NoError(t, err)
		require.NotNil(t, it.h)
		require.Zero(t, scanEmpty(it))
		require.NoError(t, it.Close())
		it, err = db.NewIter(&IterOptions{})
		require.NoError(t, err)
		require.Nil(t, it.h)
		keys, _ := scanBytes(t, it)
		require.Len(t, keys, 301)
		require.NoError(t, it.Close())
	}

	// With statistics on, every iterator is observed from its opening.
	observed := gappyDB(t, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}, Statistics: true})
	it, err := observed.NewIter(nil)
	require.NoError(t, err)
	require.NotNil(t, it.h)
	require.NoError(t, it.Close())
}
