// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/objstore"
	"github.com/stretchr/testify/require"
)

// getL6Keys are the two key layouts the Get route is checked on: plain keys
// (Split the identity: the prefix is the whole key) and CockroachDB's MVCC
// keys (the prefix is the key without its timestamp, and a Get of an
// encoded key@ts must not answer with another version of the key).
type getL6Keys struct {
	name string
	opts func(o *Options)
	// key returns the i-th key, at version v (plain keys ignore v).
	key func(i, v int) []byte
	// versions is how many versions of a key the ops write; gets are the
	// versions the Gets ask for.
	versions int
	gets     []int
}

var getL6KeyLayouts = []getL6Keys{
	{
		name:     "plain",
		opts:     func(*Options) {},
		key:      func(i, _ int) []byte { return fmt.Appendf(nil, "key%05d", i) },
		versions: 1, gets: []int{0},
	},
	{
		name: "mvcc",
		opts: func(o *Options) {
			o.Comparer = &cockroachkvs.Comparer
			o.KeySchema = cockroachkvs.KeySchema.Name
			o.KeySchemas = sstable.MakeKeySchemas(&cockroachkvs.KeySchema)
		},
		key: func(i, v int) []byte {
			// Version 0 is the bare key (no timestamp).
			return cockroachkvs.EncodeMVCCKey(nil, fmt.Appendf(nil, "/Table/1/%05d", i), uint64(v)*10, 0)
		},
		versions: 3, gets: []int{0, 1, 2, 5},
	},
}

// getL6Options are the options both engines of a differential test open
// with: Bloom filters on every level (so that L6 has filters to consult),
// small blocks and tables so that a few thousand keys make several tables
// per level.
func getL6Options(layout getL6Keys) *Options {
	o := testOptions()
	o.Merger = upstream.DefaultMerger
	o.MemTableSize = 256 << 10
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		o.Levels[i].BlockSize = 512
	}
	layout.opts(o)
	return o
}

// TestGetL6FiltersDifferential checks that Gets routed through the L6
// filters answer what upstream Pebble's Get answers: random sets, deletes,
// single deletes, range deletions and merges, with flushes and compactions
// into L6 between them, then Gets of every key (present, absent, deleted,
// range-deleted, merged; in the MVCC layout every version, the bare key and
// versions never written) on the DB, on snapshots taken along the way and
// on eventually-file-only snapshots.
func TestGetL6FiltersDifferential(t *testing.T) {
	seeds := uint64(3)
	if testing.Short() {
		seeds = 1 // the race detector's run
	}
	for _, layout := range getL6KeyLayouts {
		for seed := uint64(1); seed <= seeds; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", layout.name, seed), func(t *testing.T) {
				testGetL6Differential(t, layout, seed)
			})
		}
	}
}

func testGetL6Differential(t *testing.T, layout getL6Keys, seed uint64) {
	const keys = 1500
	rng := rand.New(rand.NewPCG(seed, 0))
	up, err := upstream.Open("db", getL6Options(layout))
	require.NoError(t, err)
	defer func() { require.NoError(t, up.Close()) }()
	rf := openTestDB(t, getL6Options(layout), Plugins{GetL6Filters: &GetL6Config{}})
	routeEveryGet(rf)

	// Both engines take every op; single deletes only where the key has had
	// exactly one set since it was last deleted, as their contract asks.
	sets := make(map[string]int)
	both := func(op func(w Writer) error, uop func(w *upstream.DB) error) {
		require.NoError(t, uop(up))
		require.NoError(t, op(rf))
	}
	type snaps struct {
		up *upstream.Snapshot
		rf *Snapshot
	}
	var snapshots []snaps
	var efos [2]*upstream.EventuallyFileOnlySnapshot
	var rfEFOS *EventuallyFileOnlySnapshot
	for op := 0; op < 6000; op++ {
		i, v := rng.IntN(keys), rng.IntN(layout.versions)
		k := layout.key(i, v)
		val := fmt.Appendf(nil, "v%d", op)
		switch r := rng.IntN(100); {
		case r < 50:
			both(func(w Writer) error { return w.Set(k, val, nil) }, func(w *upstream.DB) error { return w.Set(k, val, nil) })
			sets[string(k)]++
		case r < 62:
			both(func(w Writer) error { return w.Delete(k, nil) }, func(w *upstream.DB) error { return w.Delete(k, nil) })
			sets[string(k)] = 0
		case r < 67:
			if sets[string(k)] == 1 {
				both(func(w Writer) error { return w.SingleDelete(k, nil) }, func(w *upstream.DB) error { return w.SingleDelete(k, nil) })
				sets[string(k)] = 0
			}
		case r < 70:
			end := layout.key(i+1+rng.IntN(20), 0)
			both(func(w Writer) error { return w.DeleteRange(k, end, nil) }, func(w *upstream.DB) error { return w.DeleteRange(k, end, nil) })
			clear(sets)
		case r < 90:
			both(func(w Writer) error { return w.Merge(k, val, nil) }, func(w *upstream.DB) error { return w.Merge(k, val, nil) })
			sets[string(k)] += 2 // no single delete after a merge
		case r < 96:
			require.NoError(t, up.Flush())
			require.NoError(t, rf.Flush())
		case r < 98:
			// Into L6, so that later Gets meet L6 tables under newer levels.
			lo, hi := layout.key(0, 0), layout.key(keys+100, 0)
			require.NoError(t, up.Compact(t.Context(), lo, hi, true))
			require.NoError(t, rf.Compact(t.Context(), lo, hi, true))
		case r < 99:
			if len(snapshots) < 4 {
				snapshots = append(snapshots, snaps{up.NewSnapshot(), rf.NewSnapshot()})
			}
		default:
			if rfEFOS == nil {
				all := []KeyRange{{Start: layout.key(0, 0), End: layout.key(keys+100, 0)}}
				efos[0] = up.NewEventuallyFileOnlySnapshot(all)
				rfEFOS = rf.NewEventuallyFileOnlySnapshot(all)
			}
		}
	}
	lo, hi := layout.key(0, 0), layout.key(keys+100, 0)
	require.NoError(t, up.Compact(t.Context(), lo, hi, true))
	require.NoError(t, rf.Compact(t.Context(), lo, hi, true))
	// Newer writes over the compacted L6, in L0 and the memtable.
	for j := 0; j < 300; j++ {
		k := layout.key(rng.IntN(keys), rng.IntN(layout.versions))
		require.NoError(t, up.Set(k, []byte("late"), nil))
		require.NoError(t, rf.Set(k, []byte("late"), nil))
		if j == 150 {
			require.NoError(t, up.Flush())
			require.NoError(t, rf.Flush())
		}
	}

	compare := func(what string, ug, rg func([]byte) ([]byte, func() error, error)) (found, absent int) {
		for i := 0; i < keys+50; i++ {
			// The MVCC layout also asks for a version no op writes.
			for _, v := range layout.gets {
				k := layout.key(i, v)
				uv, uc, uerr := ug(k)
				rv, rc, rerr := rg(k)
				require.Equal(t, uerr, rerr, "%s: Get(%q) error", what, k)
				if uerr == nil {
					require.True(t, bytes.Equal(uv, rv), "%s: Get(%q) = %q, upstream %q", what, k, rv, uv)
					require.NoError(t, uc())
					require.NoError(t, rc())
					found++
				} else {
					absent++
				}
			}
		}
		return found, absent
	}
	wrap := func(get func([]byte) ([]byte, interface{ Close() error }, error)) func([]byte) ([]byte, func() error, error) {
		return func(k []byte) ([]byte, func() error, error) {
			v, c, err := get(k)
			if err != nil {
				return nil, nil, err
			}
			return v, c.Close, nil
		}
	}
	found, absent := compare("db",
		wrap(func(k []byte) ([]byte, interface{ Close() error }, error) { return up.Get(k) }),
		wrap(func(k []byte) ([]byte, interface{ Close() error }, error) { return rf.Get(k) }))
	require.Positive(t, found)
	require.Positive(t, absent)
	for n, s := range snapshots {
		compare(fmt.Sprintf("snapshot %d", n),
			wrap(func(k []byte) ([]byte, interface{ Close() error }, error) { return s.up.Get(k) }),
			wrap(func(k []byte) ([]byte, interface{ Close() error }, error) { return s.rf.Get(k) }))
		require.NoError(t, s.up.Close())
		require.NoError(t, s.rf.Close())
	}
	if rfEFOS != nil {
		compare("efos",
			wrap(func(k []byte) ([]byte, interface{ Close() error }, error) { return efos[0].Get(k) }),
			wrap(func(k []byte) ([]byte, interface{ Close() error }, error) { return rfEFOS.Get(k) }))
		require.NoError(t, efos[0].Close())
		require.NoError(t, rfEFOS.Close())
	}
	m := rf.Metrics()
	require.Positive(t, m.Levels[6].TablesCount, "the Gets met L6 tables")
	require.Positive(t, m.Filter.Hits, "filters ruled tables out")
}

// TestGetL6FiltersBatchStaysUpstream checks that a batch's Gets are
// upstream's (the route is for the DB and its snapshots).
func TestGetL6FiltersBatchStaysUpstream(t *testing.T) {
	db := openTestDB(t, nil, Plugins{GetL6Filters: &GetL6Config{}})
	b := db.NewIndexedBatch()
	defer b.Close()
	require.Nil(t, b.readerHooks.getL6)
	require.NoError(t, b.Set([]byte("a"), []byte("1"), nil))
	v, c, err := b.Get([]byte("a"))
	require.NoError(t, err)
	require.Equal(t, "1", string(v))
	require.NoError(t, c.Close())
}

// remoteGetL6DB opens a DB whose L5 and L6 tables live on a metered
// in-memory object store, writes n keys (the even ones of 2n, 100-byte
// values) into L6 through a compaction, and reopens it with a cold 1 MiB
// block cache (about a third of the data at n=20,000).
func remoteGetL6DB(t testing.TB, n int, plugins Plugins) (*DB, *objstore.Meter) {
	return remoteGetL6DBCache(t, n, 1<<20, plugins)
}

// remoteGetL6DBCache is remoteGetL6DB with a block cache of cacheSize bytes.
func remoteGetL6DBCache(t testing.TB, n int, cacheSize int64, plugins Plugins) (*DB, *objstore.Meter) {
	t.Helper()
	var db *DB
	store := remoteL6(t, n, cacheSize, func(o *Options) (err error) {
		db, err = OpenWithPlugins("db", o, plugins)
		return err
	})
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	// The route starts once the stats of L6's tables are loaded, at the end
	// of a window of getL6PendingWindow Gets: let it.
	require.Eventually(t, func() bool {
		levels, err := db.SSTables()
		require.NoError(t, err)
		for _, tbl := range levels[6] {
			if tbl.TableStats.NumEntries == 0 {
				return false
			}
		}
		return true
	}, time.Minute, time.Millisecond)
	for i := range getL6PendingWindow {
		_, _, _ = db.Get(fmt.Appendf(nil, "warm%d", i))
	}
	return db, store
}

// remoteL6 writes the DB of remoteGetL6DB with upstream Pebble, and reopens
// it, with a cold block cache of cacheSize bytes, through open, which keeps
// the DB it opens.
func remoteL6(t testing.TB, n int, cacheSize int64, open func(*Options) error) *objstore.Meter {
	t.Helper()
	fs := vfs.NewMem()
	// Reads wait 20µs, as a fast object store's might, so that Auto sees
	// upstream's Gets wait on storage.
	store, err := objstore.Open("sim://?latency=20us&jitter=0&seed=1")
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	options := func() *Options {
		o := testOptions()
		o.FS = fs
		o.Cache = NewCache(cacheSize)
		t.Cleanup(o.Cache.Unref)
		for i := range o.Levels {
			o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		}
		require.NoError(t, objstore.Configure("db", o, objstore.Config{Store: store, Levels: objstore.LowerLevels}))
		return o
	}
	db, err := upstream.Open("db", options())
	require.NoError(t, err)
	value := bytes.Repeat([]byte("v"), 100)
	for i := 0; i < n; i++ {
		require.NoError(t, db.Set(fmt.Appendf(nil, "key%07d", 2*i), value, upstream.NoSync))
	}
	require.NoError(t, db.Compact(t.Context(), []byte("key"), []byte("kez"), true))
	require.Positive(t, db.Metrics().Levels[6].TablesCount)
	require.NoError(t, db.Close())
	require.NoError(t, open(options()))
	return store
}

// TestGetL6FiltersRemoteGets counts the GETs absent-key Gets make on an
// object store holding L6: with the plug-in on, the L6 filters rule out
// almost every absent key, so those Gets read almost no data block, where
// upstream's Get reads one per key the cache does not hold. Every GET
// counts, the filter blocks the route loads included (here they arrive in
// the first GET of each table, which reads its tail and which the meter
// counts as an open).
func TestGetL6FiltersRemoteGets(t *testing.T) {
	const n, gets = 20000, 2000
	absentGets := func(db *DB, store *objstore.Meter) (data, all, bytes int64) {
		before := store.Snapshot()
		rng := rand.New(rand.NewPCG(7, 0))
		for j := 0; j < gets; j++ {
			_, _, err := db.Get(fmt.Appendf(nil, "key%07d", 2*rng.IntN(n)+1))
			require.ErrorIs(t, err, ErrNotFound)
		}
		after := store.Snapshot()
		getsOf := func(s objstore.Snapshot) (n, b int64) {
			for _, k := range []objstore.Counts{s.Open, s.Index, s.Filter, s.Data, s.Other} {
				n, b = n+k.Requests, b+k.Bytes
			}
			return n, b
		}
		n0, b0 := getsOf(before)
		n1, b1 := getsOf(after)
		return after.Data.Requests - before.Data.Requests, n1 - n0, b1 - b0
	}
	offData, offAll, offBytes := absentGets(remoteGetL6DB(t, n, Plugins{}))
	onData, onAll, onBytes := absentGets(remoteGetL6DB(t, n, Plugins{GetL6Filters: &GetL6Config{}}))
	t.Logf("absent Gets: data GETs off %d, on %d; all GETs off %d, on %d; bytes off %d, on %d", offData, onData, offAll, onAll, offBytes, onBytes)
	require.Greater(t, offData, int64(gets/2), "upstream's Get reads a data block for most absent keys")
	// 10 bits/key Bloom: about 1% false positives.
	require.Less(t, onData, int64(gets/20), "the route reads a data block only on a filter's false positive")
	require.Less(t, onAll, offAll/4, "fewer GETs in all, filter blocks included")
	require.Less(t, onBytes, offBytes, "and fewer bytes")

	// L6's filters (about 25 KB) do not fit in a quarter of a 64 KiB cache:
	// the route stays off, and the Gets make upstream's GETs exactly.
	smallData, smallAll, smallBytes := absentGets(remoteGetL6DBCache(t, n, 64<<10, Plugins{GetL6Filters: &GetL6Config{}}))
	upData, upAll, upBytes := absentGets(remoteGetL6DBCache(t, n, 64<<10, Plugins{}))
	require.Equal(t, upData, smallData)
	require.Equal(t, upAll, smallAll)
	require.Equal(t, upBytes, smallBytes)
}

// TestGetL6FiltersAuto checks the automatic mode's rule on a DB whose data
// sits in L6 on an object store: it starts with upstream's Get, routes once
// a window of Gets mostly finds nothing, and goes back when Gets find their
// keys; with no filter on L6 it never routes.
func TestGetL6FiltersAuto(t *testing.T) {
	const n = 20000
	window := func(db *DB, absent bool, rng *rand.Rand) {
		for j := 0; j < getL6Window; j++ {
			k := 2 * rng.IntN(n)
			if absent {
				k++
			}
			_, c, err := db.Get(fmt.Appendf(nil, "key%07d", k))
			if absent {
				require.ErrorIs(t, err, ErrNotFound)
			} else {
				require.NoError(t, err)
				require.NoError(t, c.Close())
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 0))
	db, store := remoteGetL6DB(t, n, Plugins{GetL6Filters: &GetL6Config{Auto: true}})
	g := db.readerHooks.getL6
	require.False(t, g.on.Load(), "starts with upstream's Get")
	window(db, true, rng)
	require.True(t, g.on.Load(), "a window of absent keys read from storage turns the route on")
	before := store.Snapshot().Data.Requests
	window(db, true, rng)
	require.True(t, g.on.Load())
	require.Less(t, store.Snapshot().Data.Requests-before, int64(getL6Window/20), "routed: few data GETs")
	window(db, false, rng)
	require.False(t, g.on.Load(), "a window of present keys turns it off")
	window(db, true, rng)
	require.True(t, g.on.Load(), "and absent keys on again")

	// The same, with no filter on any level: nothing to save.
	noFilter := testOptions()
	db = openTestDB(t, noFilter, Plugins{GetL6Filters: &GetL6Config{Auto: true}})
	for i := 0; i < n; i += 2 {
		require.NoError(t, db.Set(fmt.Appendf(nil, "key%07d", i), []byte("v"), upstream.NoSync))
	}
	require.NoError(t, db.Compact(t.Context(), []byte("key"), []byte("kez"), true))
	window(db, true, rng)
	require.False(t, db.readerHooks.getL6.on.Load(), "no L6 filter: upstream's Get")
}

// fakeRouter is an automatic router over made-up metrics and tables: L6
// holds one table of entries entries, the cache holds cacheBytes, and the
// block bytes each category missed are read from getMissed and
// routedMissed when a window ends.
type fakeRouter struct {
	g                       *getRouter
	getMissed, routedMissed int64
	// entries are those of L6's tables, one table each; memtable the
	// memtables' bytes.
	entries  []uint64
	memtable uint64
	now      time.Time
}

func newFakeRouter(t *testing.T, auto bool, cacheBytes int64) *fakeRouter {
	getCat := upstreamGetCategoryOf(t)
	f := &fakeRouter{entries: []uint64{1000}, now: time.Unix(0, 0)}
	o := testOptions()
	o.CacheSize = cacheBytes
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	f.g = newGetRouter(&GetL6Config{Auto: auto}, DefaultComparer, o, nil)
	f.g.fit.now = func() time.Time { return f.now }
	f.g.fit.tables = func() ([][]upstream.SSTableInfo, error) {
		levels := make([][]upstream.SSTableInfo, 7)
		for _, n := range f.entries {
			var t upstream.SSTableInfo
			t.TableStats.NumEntries = n
			levels[6] = append(levels[6], t)
		}
		return levels, nil
	}
	m := &upstream.Metrics{}
	m.Levels[6].TablesCount = 1
	f.g.fit.metrics = func() *upstream.Metrics {
		m.MemTable.Size = f.memtable
		m.CategoryStats = []block.CategoryStatsAggregate{
			{Category: getCat, CategoryStats: block.CategoryStats{BlockBytes: uint64(f.getMissed)}},
			{Category: getL6Category, CategoryStats: block.CategoryStats{BlockBytes: uint64(f.routedMissed)}},
		}
		return m
	}
	return f
}

// window ends a window of Gets, three in four absent, each of which missed
// perGet block bytes, and reports whether the next window routes.
func (f *fakeRouter) window(perGet int64) bool {
	const w = getL6Window
	if f.g.on.Load() {
		f.routedMissed += perGet * w
	} else {
		f.getMissed += perGet * w
	}
	f.now = f.now.Add(time.Second)
	f.g.evaluate(w, w*3/4)
	return f.g.on.Load()
}

// TestGetL6AutoSecondaryCache drives the automatic mode on a DB with a
// secondary cache, where a Get's store reads are the secondary cache's
// misses: a cold cache's one window of reads does not turn the route on,
// two running do, and once upstream's Gets find everything in the
// secondary cache the next exploring window turns it off.
func TestGetL6AutoSecondaryCache(t *testing.T) {
	f := newFakeRouter(t, true, 8<<20)
	f.g.auto.secondary = true
	var reads int64
	metrics := f.g.fit.metrics
	f.g.fit.metrics = func() *upstream.Metrics {
		m := metrics()
		m.SecondaryCacheMetrics.ReadsWithNoHit = reads
		return m
	}
	// window ends a window whose Gets made perGet store reads each (in
	// 1024ths), the block bytes they missed in the block cache being
	// large either way, as with a secondary cache beneath it.
	window := func(perGet1024 int64) bool {
		reads += perGet1024
		return f.window(4096)
	}
	require.False(t, window(200), "a cold secondary cache's first window")
	require.False(t, window(2), "then upstream's Gets find their blocks on local disk: off")
	for range 4 {
		require.False(t, window(1), "and stay off while they do")
	}
	require.False(t, window(100), "store reads again, one window")
	require.True(t, window(100), "two running: on")
	require.True(t, window(300), "the route's first window reads the filters: not judged")
	for i := 0; f.g.on.Load(); i++ {
		require.LessOrEqual(t, i, getL6Explore, "an exploring window comes")
		window(10) // routed Gets read less than upstream's did
	}
	// The exploring window runs upstream's Gets, which now find their
	// blocks on local disk.
	require.False(t, window(1), "upstream's Gets no longer read from the store: off")
	require.False(t, window(1), "and it stays off")
}

// TestGetL6AutoBytesGuard drives the automatic mode's rule with made-up
// metrics: routed Gets that read more from storage than upstream's did turn
// the route off after the warm-up window and two costlier windows, and it
// stays off for a hold-off that doubles each time; while upstream's Gets
// read almost nothing from storage the route stays off.
func TestGetL6AutoBytesGuard(t *testing.T) {
	f := newFakeRouter(t, true, 8<<20)
	require.True(t, f.window(4096), "upstream's Gets miss a block each: on")
	require.True(t, f.window(40000), "the warm-up window is not judged")
	require.True(t, f.window(40000), "one costlier window is not enough")
	require.False(t, f.window(40000), "two are: off")
	for i := 0; i < getL6HoldOff-1; i++ {
		require.False(t, f.window(4096), "held off (window %d)", i)
	}
	require.True(t, f.window(4096), "tried again after the hold-off")
	require.True(t, f.window(40000))
	require.True(t, f.window(40000))
	require.False(t, f.window(40000), "costlier again: off")
	for i := 0; i < 2*getL6HoldOff-1; i++ {
		require.False(t, f.window(4096), "held off twice as long (window %d)", i)
	}
	require.True(t, f.window(4096))
	for i := 0; i < 2*getL6Explore; i++ {
		if f.g.on.Load() {
			f.window(1000) // routed: cheaper than upstream's
		} else {
			f.window(4096) // upstream's, exploring
		}
	}
	require.True(t, f.g.on.Load(), "routed Gets that read less stay on")
	for i := 0; i <= getL6Explore && f.g.on.Load(); i++ {
		f.window(getL6MinBytes / 2)
	}
	require.False(t, f.g.on.Load(), "once upstream's Gets read nothing from storage, the next exploring window turns it off")
}

// TestGetL6Fit: in both modes the route runs only while L6's filters fit
// in a quarter of what the block cache holds for blocks, and the largest
// in a quarter of what one of its shards holds, by the estimate from L6's
// entries and its policy's bits per key, taken again when the LSM changes.
func TestGetL6Fit(t *testing.T) {
	shards, _ := cacheShards(80_000, 0)
	require.Equal(t, 4, shards, "a small cache is cut into four shards")
	for _, auto := range []bool{false, true} {
		// One table of 1,000 entries at 10 bits: 1,250 bytes of filter,
		// and a quarter of a shard of 5,000 bytes.
		f := newFakeRouter(t, auto, 4*4*1250)
		require.True(t, f.window(4096), "auto %t: the filters fit", auto)
		f.entries = []uint64{1001}
		require.True(t, f.window(4096), "auto %t: the LSM did not change: no new estimate", auto)
		f.g.fit.changed.Store(true)
		require.False(t, f.window(4096), "auto %t: the LSM changed and the largest filter no longer fits a shard", auto)
		require.InDelta(t, 1251.25, f.g.fit.filterBytes, 0.01)

		f.entries = []uint64{500, 501}
		f.g.fit.changed.Store(true)
		require.True(t, f.window(4096), "auto %t: about the same bytes in two tables fit", auto)
		f.entries = []uint64{1000}
		f.memtable = 4
		f.g.fit.changed.Store(true)
		require.False(t, f.window(4096), "auto %t: the memtables take their share of the cache", auto)

		f.memtable = 0
		f.entries = []uint64{1000, 1000, 1000, 1000, 1}
		f.g.fit.changed.Store(true)
		require.False(t, f.window(4096), "auto %t: the filters' sum no longer fits a quarter of the cache", auto)
	}
}

// routeEveryGet makes db route every Get through the L6 filters, whatever
// its shape, for the tests of what routed Gets answer.
func routeEveryGet(db *DB) {
	db.readerHooks.getL6.always = true
	db.readerHooks.getL6.on.Store(true)
}

func upstreamGetCategoryOf(t *testing.T) block.Category {
	for c := block.Category(1); c < block.CategoryMax; c++ {
		if c.String() == upstreamGetCategory {
			return c
		}
	}
	t.Fatal("no upstream Get category")
	return 0
}

// TestGetL6AutoSkipsMetrics: while the route is off and most Gets find
// their key, the automatic mode never reads DB.Metrics (which costs more
// than a window of cached Gets); once most Gets find nothing, the first
// window that reads them only measures, and the next turns the route on.
func TestGetL6AutoSkipsMetrics(t *testing.T) {
	const w = getL6Window
	f := newFakeRouter(t, true, 8<<20)
	metrics := f.g.fit.metrics
	reads := 0
	f.g.fit.metrics = func() *upstream.Metrics {
		reads++
		f.getMissed += w * 4096 // upstream's Gets miss a block each
		return metrics()
	}
	for i := 0; i < 100; i++ {
		f.g.evaluate(w, w/10)
	}
	require.Zero(t, reads, "Gets that find their key never read the metrics")
	require.False(t, f.g.on.Load())
	f.g.evaluate(w, w*3/4)
	require.Equal(t, 1, reads)
	require.False(t, f.g.on.Load(), "the first window after skipped ones only measures")
	f.g.evaluate(w, w*3/4)
	require.True(t, f.g.on.Load(), "most Gets absent: on")
}
