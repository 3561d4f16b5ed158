package objstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/vfs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// These tests run upstream Pebble directly on the stores: the package must
// work under Pebble's own use of remote.Storage, without pebblerf.

// testOptions are small-DB options that make a short workload flush often,
// compact through several levels and write many small tables.
func testOptions(fs vfs.FS) *pebble.Options {
	o := &pebble.Options{
		FS:                          fs,
		MemTableSize:                64 << 10,
		L0CompactionThreshold:       2,
		LBaseMaxBytes:               128 << 10,
		DisableAutomaticCompactions: false,
		Logger:                      quietLogger{},
	}
	for i := range o.TargetFileSizes {
		o.TargetFileSizes[i] = 32 << 10
	}
	for i := range o.Levels {
		o.Levels[i].BlockSize = 1 << 10
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	return o
}

// quietLogger drops Pebble's informational lines (one per WAL and table
// event) and keeps its errors in the test's failure output via panics.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// openRemote opens (or reopens) a DB in dir with options o and its tables
// on m, placed by levels, through Configure, as a user would.
func openRemote(t *testing.T, dir string, o *pebble.Options, m *Meter, levels Levels) *pebble.DB {
	t.Helper()
	require.NoError(t, Configure(dir, o, Config{Store: m, Levels: levels, CreatorID: 7}))
	d, err := pebble.Open(dir, o)
	require.NoError(t, err)
	return d
}

// op is one write of the test workload.
type op struct {
	kind       byte // 's'et, 'd'elete, 'r'ange delete, 'f'lush
	key, value []byte
	end        []byte
}

func key(i int) []byte { return fmt.Appendf(nil, "key-%05d", i) }

// workload returns n writes over a key space of keys keys, deterministic in
// seed: mostly sets (values of varying size, so tables differ), some point
// deletes, rare range deletes, and a flush every so often.
func workload(seed uint64, n, keys int) []op {
	rng := rand.New(rand.NewPCG(seed, 1))
	ops := make([]op, 0, n)
	for i := range n {
		k := rng.IntN(keys)
		switch r := rng.IntN(100); {
		case r < 80:
			v := fmt.Appendf(nil, "v%d-%d-", i, k)
			v = append(v, bytes.Repeat([]byte{byte('a' + k%26)}, rng.IntN(200))...)
			ops = append(ops, op{kind: 's', key: key(k), value: v})
		case r < 97:
			ops = append(ops, op{kind: 'd', key: key(k)})
		case r < 99:
			ops = append(ops, op{kind: 'r', key: key(k), end: key(k + 1 + rng.IntN(20))})
		default:
			ops = append(ops, op{kind: 'f'})
		}
	}
	return ops
}

// apply applies one op; writes are synced, so a nil error means the write
// was acknowledged.
func apply(d *pebble.DB, o op) error {
	switch o.kind {
	case 's':
		return d.Set(o.key, o.value, pebble.Sync)
	case 'd':
		return d.Delete(o.key, pebble.Sync)
	case 'r':
		return d.DeleteRange(o.key, o.end, pebble.Sync)
	default:
		return d.Flush()
	}
}

// reader is what the read checks ask of a DB: upstream Pebble's, or
// pebblerf's, whose iterators carry its plug-ins (a range filter that
// skipped a table it should have read shows as a missing key).
type reader interface {
	Get(key []byte) ([]byte, io.Closer, error)
	iter(o *pebble.IterOptions) (iterator, error)
}

// iterator is the part of an iterator the read checks use.
type iterator interface {
	First() bool
	Last() bool
	Next() bool
	Prev() bool
	Valid() bool
	Key() []byte
	Value() []byte
	Error() error
	Close() error
}

// upstreamDB reads through upstream Pebble's iterators.
type upstreamDB struct{ *pebble.DB }

func (d upstreamDB) iter(o *pebble.IterOptions) (iterator, error) {
	it, err := d.NewIter(o)
	if err != nil {
		return nil, err
	}
	return it, nil
}

// pebblerfDB reads through pebblerf's iterators.
type pebblerfDB struct{ *pebblerf.DB }

func (d pebblerfDB) iter(o *pebble.IterOptions) (iterator, error) {
	it, err := d.NewIter(o)
	if err != nil {
		return nil, err
	}
	return it, nil
}

// contents reads a DB whole, by a full scan.
func contents(t *testing.T, d reader) map[string]string {
	t.Helper()
	it, err := d.iter(nil)
	require.NoError(t, err)
	kv := map[string]string{}
	for it.First(); it.Valid(); it.Next() {
		kv[string(it.Key())] = string(it.Value())
	}
	require.NoError(t, it.Error())
	require.NoError(t, it.Close())
	return kv
}

// requireSameReads checks that two DBs answer the same: a full scan,
// bounded scans, and Gets of present and absent keys.
func requireSameReads(t *testing.T, want, got reader, keys int) {
	t.Helper()
	w, g := contents(t, want), contents(t, got)
	require.NotEmpty(t, w)
	require.Equal(t, w, g, "full scans differ")
	for i := 0; i < keys+10; i += 7 {
		wv, wc, werr := want.Get(key(i))
		var wantVal []byte
		if werr == nil {
			wantVal = bytes.Clone(wv)
			require.NoError(t, wc.Close())
		}
		gv, gc, gerr := got.Get(key(i))
		require.Equal(t, werr, gerr, "Get(%s)", key(i))
		if gerr == nil {
			require.Equal(t, string(wantVal), string(gv), "Get(%s)", key(i))
			require.NoError(t, gc.Close())
		}
	}
	for lo := 0; lo < keys; lo += keys / 5 {
		bounds := &pebble.IterOptions{LowerBound: key(lo), UpperBound: key(lo + 37)}
		wi, err := want.iter(bounds)
		require.NoError(t, err)
		gi, err := got.iter(bounds)
		require.NoError(t, err)
		wok, gok := wi.Last(), gi.Last()
		for ; wok && gok; wok, gok = wi.Prev(), gi.Prev() {
			require.Equal(t, string(wi.Key()), string(gi.Key()))
			require.Equal(t, string(wi.Value()), string(gi.Value()))
		}
		require.Equal(t, wok, gok, "reverse scan from %s", key(lo))
		require.NoError(t, wi.Close())
		require.NoError(t, gi.Close())
	}
}

// requirePlacement checks where the DB's tables live: with AllLevels all on
// the store, with LowerLevels the tables of L0-L4 local and some of L5-L6
// on the store (a table moved down by a move compaction keeps its place, so
// not necessarily all).
func requirePlacement(t *testing.T, d *pebble.DB, levels Levels) {
	t.Helper()
	tables, err := d.SSTables()
	require.NoError(t, err)
	shared, local := 0, 0
	for level, tables := range tables {
		for _, tb := range tables {
			isShared := tb.BackingType == pebble.BackingTypeShared
			if isShared {
				shared++
				require.Equal(t, locator, tb.Locator)
			} else {
				local++
			}
			switch levels {
			case AllLevels:
				require.True(t, isShared, "L%d table %s is local under AllLevels", level, tb.FileNum)
			case LowerLevels:
				if level < remote.SharedLevelsStart {
					require.False(t, isShared, "L%d table %s is shared under CreateOnSharedLower", level, tb.FileNum)
				}
			}
		}
	}
	require.NotZero(t, shared, "no table on the store (%d local)", local)
}

// openPebblerf opens (or reopens) pebblerf, with range filters, in dir
// with options o and its tables on m, as creator 8: beside a DB of
// openRemote's on the same store, as DBs that share a bucket are.
func openPebblerf(t *testing.T, dir string, o *pebble.Options, m *Meter, levels Levels) *pebblerf.DB {
	t.Helper()
	require.NoError(t, Configure(dir, o, Config{Store: m, Levels: levels, CreatorID: 8}))
	d, err := pebblerf.OpenWithPlugins(dir, o, pebblerf.Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})
	require.NoError(t, err)
	return d
}

// TestDBLifeS3 runs testDBLife through the real S3 client to an in-process
// S3 server.
func TestDBLifeS3(t *testing.T) {
	for _, levels := range []Levels{AllLevels, LowerLevels} {
		t.Run(levels.String(), func(t *testing.T) {
			testDBLife(t, fakeServer(t).location(), levels)
		})
	}
}

// testDBLife carries a DB's whole life to the S3 store at url: fill,
// flushes, compactions, a manual compaction to the bottom, close, reopen
// from the same bucket and local directory. Upstream Pebble and pebblerf
// with range filters live it side by side, both on the store (the same
// bucket and prefix, distinct creator IDs, a client each), beside a local
// upstream DB; at each step all three read alike.
func testDBLife(t *testing.T, url string, levels Levels) {
	const keys = 3000
	fs, rfFS, localFS := vfs.NewMem(), vfs.NewMem(), vfs.NewMem()

	m, rfm := openURL(t, url), openURL(t, url)
	rdb := openRemote(t, "db", testOptions(fs), m, levels)
	rf := openPebblerf(t, "db", testOptions(rfFS), rfm, levels)
	ldb, err := pebble.Open("db", testOptions(localFS))
	require.NoError(t, err)
	dbs := []*pebble.DB{rdb, rf.DB, ldb}
	requireAllSame := func() {
		t.Helper()
		requireSameReads(t, upstreamDB{ldb}, upstreamDB{rdb}, keys)
		requireSameReads(t, upstreamDB{ldb}, pebblerfDB{rf}, keys)
	}

	for _, o := range workload(1, 6000, keys) {
		for _, d := range dbs {
			require.NoError(t, apply(d, o))
		}
	}
	requireAllSame()
	for _, d := range dbs {
		require.NoError(t, d.Compact(context.Background(), key(0), key(keys+100), true))
	}
	requireAllSame()
	requirePlacement(t, rdb, levels)
	requirePlacement(t, rf.DB, levels)
	for _, m := range []*Meter{m, rfm} {
		snap := m.Snapshot()
		require.NotZero(t, snap.Write.Requests)
		require.NotZero(t, snap.Gets().Requests, "compactions read tables back\n%s", snap)
		require.Zero(t, snap.LayoutErrors, "%s", snap)
	}
	t.Logf("after fill and compaction, upstream's requests:\n%s", m.Snapshot())

	if levels == AllLevels {
		for _, fs := range []vfs.FS{fs, rfFS} {
			names, err := fs.List("db")
			require.NoError(t, err)
			for _, n := range names {
				require.NotContains(t, n, ".sst", "a table file in the local directory")
			}
		}
	}
	require.NoError(t, rdb.Close())
	require.NoError(t, rf.Close())
	require.NoError(t, ldb.Close())

	// Reopen with new clients: the same bucket, the same local directories
	// (and so the same creator IDs and catalogs).
	m2, rfm2 := openURL(t, url), openURL(t, url)
	rdb = openRemote(t, "db", testOptions(fs), m2, levels)
	rf = openPebblerf(t, "db", testOptions(rfFS), rfm2, levels)
	ldb, err = pebble.Open("db", testOptions(localFS))
	require.NoError(t, err)
	dbs = []*pebble.DB{rdb, rf.DB, ldb}
	requireAllSame()
	require.NotZero(t, m2.Snapshot().Open.Requests, "a reopened DB opens its tables from the store")
	require.NotZero(t, rfm2.Snapshot().Open.Requests, "a reopened DB opens its tables from the store")
	// More writes after the reopen, then a last comparison.
	for _, o := range workload(2, 1500, keys) {
		for _, d := range dbs {
			require.NoError(t, apply(d, o))
		}
	}
	requireAllSame()
	require.NoError(t, rdb.Close())
	require.NoError(t, rf.Close())
	require.NoError(t, ldb.Close())
}
