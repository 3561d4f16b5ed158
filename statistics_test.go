package pebble

import (
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

func openStatsDB(t *testing.T, plugins Plugins) *DB {
	opts := testOptions()
	opts.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
	db := openTestDB(t, opts, plugins)
	for _, k := range []string{"a", "b", "c"} {
		require.NoError(t, db.Set([]byte(k), []byte(k), nil))
	}
	require.NoError(t, db.Flush())
	return db
}

func TestStatisticsOff(t *testing.T) {
	db := openStatsDB(t, Plugins{})
	require.Nil(t, db.Statistics().PerLevel())
	it, err := db.NewIter(nil)
	require.NoError(t, err)
	require.Nil(t, it.h)
	require.True(t, it.SeekGE([]byte("a")))
	require.Equal(t, []byte("a"), it.Value())
	require.NoError(t, it.Close())
	// A nil Statistics is usable.
	require.Zero(t, db.Statistics().Get("rocksdb.number.db.seek"))
}

// TestStatisticsWrappers checks that every way of reading reports to the
// statistics: iterators of the DB, of clones, of snapshots and of indexed
// batches, after SetOptions, and Gets through DB, Batch and Snapshot.
func TestStatisticsWrappers(t *testing.T) {
	db := openStatsDB(t, Plugins{Statistics: true})
	s := db.Statistics()
	require.NotNil(t, s)

	seekAndRead := func(it *Iterator, err error) {
		t.Helper()
		require.NoError(t, err)
		require.True(t, it.SeekGE([]byte("b")))
		require.Equal(t, []byte("b"), it.Value())
	}
	it, err := db.NewIter(nil)
	seekAndRead(it, err)
	require.EqualValues(t, 1, s.Pop("pebblerf.l0.seek.data"))
	require.EqualValues(t, 1, s.Pop("pebblerf.l0.seek.data.useful.no.filter"))

	// SetOptions keeps the block-property filter: the rebuilt stack loads
	// and reports again.
	it.SetOptions(&IterOptions{LowerBound: []byte("a")})
	seekAndRead(it, nil)
	require.EqualValues(t, 1, s.Pop("pebblerf.l0.seek.data"))
	require.EqualValues(t, 1, s.Pop("pebblerf.l0.seek.data.useful.no.filter"))

	// A clone has a tracker of its own and inherits the options.
	clone, err := it.Clone(CloneOptions{})
	require.NotSame(t, it.h, clone.h)
	seekAndRead(clone, err)
	require.EqualValues(t, []byte("a"), clone.h.Options().LowerBound)
	require.EqualValues(t, 1, s.Pop("pebblerf.l0.seek.data"))
	require.NoError(t, clone.Close())
	require.NoError(t, it.Close())

	snap := db.NewSnapshot()
	it, err = snap.NewIter(nil)
	seekAndRead(it, err)
	require.NoError(t, it.Close())
	require.EqualValues(t, 1, s.Pop("pebblerf.l0.seek.data"))

	b := db.NewIndexedBatch()
	it, err = b.NewIter(nil)
	seekAndRead(it, err)
	require.NoError(t, it.Close())
	require.EqualValues(t, 1, s.Pop("pebblerf.l0.seek.data"))

	// Gets: one whole-key filter check each, a true positive when found.
	for _, r := range []Reader{db, b, snap} {
		v, c, err := r.Get([]byte("c"))
		require.NoError(t, err)
		require.Equal(t, []byte("c"), v)
		require.NoError(t, c.Close())
		require.EqualValues(t, 1, s.Pop("rocksdb.bloom.filter.full.positive"))
		require.EqualValues(t, 1, s.Pop("rocksdb.bloom.filter.full.true.positive"))
	}
	require.NoError(t, b.Close())
	require.NoError(t, snap.Close())
}

// TestStatisticsReopen checks that filters written while statistics were on
// keep working when the DB is reopened with them off, and that upstream
// Pebble still reads the DB correctly (without those filters).
func TestStatisticsReopen(t *testing.T) {
	fs := vfs.NewMem()
	opts := func() *Options {
		o := &Options{FS: fs, DisableAutomaticCompactions: true}
		o.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
		return o
	}
	db, err := OpenWithPlugins("db", opts(), Plugins{Statistics: true})
	require.NoError(t, err)
	require.NoError(t, db.Set([]byte("a"), []byte("1"), nil))
	require.NoError(t, db.Set([]byte("c"), []byte("3"), nil))
	require.NoError(t, db.Flush())
	require.NoError(t, db.Close())

	for _, plugins := range []Plugins{{}, {Statistics: true}} {
		db, err := OpenWithPlugins("db", opts(), plugins)
		require.NoError(t, err)
		_, _, err = db.Get([]byte("b"))
		require.ErrorIs(t, err, ErrNotFound)
		// Pebble counts a filter that ruled the table out as a hit.
		require.EqualValues(t, 1, db.Metrics().Filter.Hits, "statistics=%t", plugins.Statistics)
		require.NoError(t, db.Close())
	}

	up, err := upstream.Open("db", &upstream.Options{FS: fs})
	require.NoError(t, err)
	v, c, err := up.Get([]byte("c"))
	require.NoError(t, err)
	require.Equal(t, "3", string(v))
	require.NoError(t, c.Close())
	require.NoError(t, up.Close())
}

// TestStatisticsFiltersOnlySeeks checks that the cheaper tier
// (seekstats.Config.FiltersOnly), whose iterators carry no plug-in state,
// counts every kind of seek of every kind of iterator as the full tier does,
// exactly while the iterator is open, and the same filter checks, while
// counting no data-block load.
func TestStatisticsFiltersOnlySeeks(t *testing.T) {
	type counts struct{ seeks, found, filtered, match, data uint64 }
	run := func(cfg seekstats.Config) []counts {
		db := openStatsDB(t, Plugins{Statistics: true, StatisticsConfig: cfg})
		s := db.Statistics()
		read := func() counts {
			return counts{
				s.Get("rocksdb.number.db.seek"), s.Get("rocksdb.number.db.seek.found"),
				s.Get("rocksdb.non.last.level.seek.filtered"), s.Get("rocksdb.non.last.level.seek.filter.match"),
				s.Get("pebblerf.l0.seek.data"),
			}
		}
		var out []counts
		seeks := func(it *Iterator, err error) {
			t.Helper()
			require.NoError(t, err)
			require.True(t, it.SeekGE([]byte("b")))
			require.True(t, it.SeekPrefixGE([]byte("b")))
			require.False(t, it.SeekPrefixGE([]byte("zz")))
			require.False(t, it.SeekLT([]byte("a")))
			require.True(t, it.First())
			require.True(t, it.Last())
			require.Equal(t, IterValid, it.SeekGEWithLimit([]byte("b"), []byte("c")))
			require.Equal(t, IterValid, it.SeekLTWithLimit([]byte("c"), []byte("a")))
			out = append(out, read()) // while the iterator is open
		}
		it, err := db.NewIter(nil)
		seeks(it, err)
		clone, err := it.Clone(CloneOptions{})
		seeks(clone, err)
		require.NoError(t, clone.Close())
		require.NoError(t, it.Close())
		snap := db.NewSnapshot()
		it, err = snap.NewIter(nil)
		seeks(it, err)
		require.NoError(t, it.Close())
		require.NoError(t, snap.Close())
		b := db.NewIndexedBatch()
		it, err = b.NewIter(nil)
		seeks(it, err)
		require.NoError(t, it.Close())
		require.NoError(t, b.Close())
		return out
	}
	full, filtersOnly := run(seekstats.Config{}), run(seekstats.Config{FiltersOnly: true})
	require.Len(t, filtersOnly, len(full))
	for i := range full {
		want := full[i]
		require.EqualValues(t, 8*(i+1), want.seeks)
		require.EqualValues(t, 6*(i+1), want.found)
		require.Positive(t, want.filtered+want.match)
		require.Positive(t, want.data)
		want.data = 0
		require.Equal(t, want, filtersOnly[i], "iterator %d", i)
	}
}
