package querybuilder

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// testDB is a MemFS DB whose shape the test controls: automatic compactions
// are off and L0 may hold many sublevels, so every flush adds a sorted run.
type testDB struct {
	t    testing.TB
	fs   vfs.FS
	db   *pebble.DB
	opts *pebble.Options
	n    int // ingested files
}

func openTestDB(t testing.TB, cmp *pebble.Comparer, tweak func(*pebble.Options)) *testDB {
	fs := vfs.NewMem()
	opts := &pebble.Options{
		FS:                          fs,
		Comparer:                    cmp,
		DisableAutomaticCompactions: true,
		L0StopWritesThreshold:       1000,
		L0CompactionThreshold:       1000,
		MemTableStopWritesThreshold: 1000,
		FormatMajorVersion:          pebble.FormatNewest,
		Logger:                      quietLogger{},
	}
	if tweak != nil {
		tweak(opts)
	}
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		// A failed walk leaves iterators open, and closing a DB with open
		// iterators panics, hiding the failure.
		if !t.Failed() {
			require.NoError(t, db.Close())
		}
	})
	return &testDB{t: t, fs: fs, db: db, opts: opts}
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

// ingest writes kvs (already sorted) and range deletions into one sstable
// and ingests it: it lands in the lowest level it does not overlap.
func (d *testDB) ingest(kvs [][2][]byte, rangeDels [][2][]byte) {
	d.n++
	path := fmt.Sprintf("ext%d.sst", d.n)
	f, err := d.fs.Create(path, vfs.WriteCategoryUnspecified)
	require.NoError(d.t, err)
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), sstable.WriterOptions{
		Comparer:    d.opts.Comparer,
		TableFormat: d.db.TableFormat(),
	})
	for _, rd := range rangeDels {
		require.NoError(d.t, w.DeleteRange(rd[0], rd[1]))
	}
	for _, kv := range kvs {
		require.NoError(d.t, w.Set(kv[0], kv[1]))
	}
	require.NoError(d.t, w.Close())
	require.NoError(d.t, d.db.Ingest(context.Background(), []string{path}))
}

func testKey(i int) []byte { return fmt.Appendf(nil, "k%05d", i) }

// randomLSM fills d with a random shape: staggered, partly overlapping
// flushes (one L0 sublevel each), overwrites, point and range deletions,
// some data left in the memtable, some ingested into lower levels, some
// compacted down. keySpace is the number of distinct keys.
func randomLSM(d *testDB, rng *rand.Rand, keySpace int) {
	rounds := 5 + rng.IntN(25)
	val := 0
	for r := 0; r < rounds; r++ {
		switch rng.IntN(10) {
		case 0:
			// An ingest of a sparse run somewhere, maybe with a range
			// deletion; it goes as deep as it fits.
			lo := rng.IntN(keySpace)
			hi := min(keySpace, lo+1+rng.IntN(keySpace/4+1))
			var kvs [][2][]byte
			for k := lo; k < hi; k += 1 + rng.IntN(4) {
				val++
				kvs = append(kvs, [2][]byte{testKey(k), fmt.Appendf(nil, "i%d", val)})
			}
			var rds [][2][]byte
			if rng.IntN(3) == 0 && hi-lo > 2 {
				rds = append(rds, [2][]byte{testKey(lo + 1), testKey(lo + 1 + rng.IntN(hi-lo-1))})
			}
			d.ingest(kvs, rds)
			continue
		case 1:
			lo, hi := rng.IntN(keySpace), rng.IntN(keySpace)
			if lo > hi {
				lo, hi = hi, lo
			}
			require.NoError(d.t, d.db.Compact(context.Background(), testKey(lo), testKey(hi+1), false))
			continue
		}
		// A staggered window: later rounds write further along, with some
		// overlap with the previous window.
		width := 1 + rng.IntN(keySpace/3+1)
		start := (r*keySpace/rounds + rng.IntN(keySpace/8+1)) % keySpace
		b := d.db.NewBatch()
		for n := 0; n < width; n++ {
			k := (start + n) % keySpace
			switch x := rng.IntN(20); {
			case x == 0:
				require.NoError(d.t, b.Delete(testKey(k), nil))
			case x == 1:
				end := min(keySpace, k+1+rng.IntN(8))
				require.NoError(d.t, b.DeleteRange(testKey(k), testKey(end), nil))
			case x < 12:
				val++
				require.NoError(d.t, b.Set(testKey(k), fmt.Appendf(nil, "v%d", val), nil))
			}
		}
		require.NoError(d.t, b.Commit(pebble.NoSync))
		if rng.IntN(5) != 0 {
			require.NoError(d.t, d.db.Flush())
		}
	}
}
