package objstore

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/vfs"
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

// contents reads a DB whole, by a full scan.
func contents(t *testing.T, d *pebble.DB) map[string]string {
	t.Helper()
	it, err := d.NewIter(nil)
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
func requireSameReads(t *testing.T, want, got *pebble.DB, keys int) {
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
		wi, err := want.NewIter(bounds)
		require.NoError(t, err)
		gi, err := got.NewIter(bounds)
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
				require.Equal(t, Locator, tb.Locator)
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

// TestDBLifeS3 carries a DB's whole life through the real S3 client to an
// in-process S3 server: fill, flushes, compactions, a manual compaction to
// the bottom, close, reopen from the same bucket and local directory; at
// each step its reads equal those of the same workload on a local DB.
func TestDBLifeS3(t *testing.T) {
	for _, levels := range []Levels{AllLevels, LowerLevels} {
		t.Run(levels.String(), func(t *testing.T) {
			const keys = 3000
			s3 := newFakeS3(t, nil)
			url := s3.url("db1")
			fs, localFS := vfs.NewMem(), vfs.NewMem()

			m := openURL(t, url)
			rdb := openRemote(t, "db", testOptions(fs), m, levels)
			ldb, err := pebble.Open("db", testOptions(localFS))
			require.NoError(t, err)

			for _, o := range workload(1, 6000, keys) {
				require.NoError(t, apply(rdb, o))
				require.NoError(t, apply(ldb, o))
			}
			requireSameReads(t, ldb, rdb, keys)
			for _, d := range []*pebble.DB{rdb, ldb} {
				require.NoError(t, d.Compact(context.Background(), key(0), key(keys+100), true))
			}
			requireSameReads(t, ldb, rdb, keys)
			requirePlacement(t, rdb, levels)
			snap := m.Snapshot()
			require.NotZero(t, snap.Write.Requests)
			require.NotZero(t, snap.Gets().Requests, "compactions read tables back\n%s", snap)
			require.Zero(t, snap.LayoutErrors, "%s", snap)
			t.Logf("after fill and compaction:\n%s", snap)

			if levels == AllLevels {
				names, err := fs.List("db")
				require.NoError(t, err)
				for _, n := range names {
					require.NotContains(t, n, ".sst", "a table file in the local directory")
				}
			}
			require.NoError(t, rdb.Close())
			require.NoError(t, ldb.Close())

			// Reopen with a new client: the same bucket, the same local
			// directory (and so the same creator ID and catalog).
			m2 := openURL(t, url)
			rdb = openRemote(t, "db", testOptions(fs), m2, levels)
			ldb, err = pebble.Open("db", testOptions(localFS))
			require.NoError(t, err)
			requireSameReads(t, ldb, rdb, keys)
			require.NotZero(t, m2.Snapshot().Open.Requests, "a reopened DB opens its tables from the store")
			// More writes after the reopen, then a last comparison.
			for _, o := range workload(2, 1500, keys) {
				require.NoError(t, apply(rdb, o))
				require.NoError(t, apply(ldb, o))
			}
			requireSameReads(t, ldb, rdb, keys)
			require.NoError(t, rdb.Close())
			require.NoError(t, ldb.Close())
		})
	}
}
