package pebble

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// gappyDB opens a DB whose three flushed tables each span key000..key990
// but hold only every tenth key (offset by table), so most short ranges
// inside their spans are empty.
func gappyDB(t *testing.T, plugins Plugins) *DB { return gappyDBWith(t, plugins, nil) }

// gappyDBWith is gappyDB with the keys extra returns for each table added
// to it.
func gappyDBWith(t *testing.T, plugins Plugins, extra func(table int) []string) *DB {
	db := openTestDB(t, nil, plugins)
	for table := 0; table < 3; table++ {
		for i := table; i < 1000; i += 10 {
			require.NoError(t, db.Set([]byte(fmt.Sprintf("key%03d", i)), []byte("v"), nil))
		}
		require.NoError(t, db.Set([]byte("key999"), []byte("v"), nil))
		if extra != nil {
			for _, k := range extra(table) {
				require.NoError(t, db.Set([]byte(k), []byte("x"), nil))
			}
		}
		require.NoError(t, db.Flush())
	}
	return db
}

// scannable is what scanBytes needs of an iterator or a range query.
type scannable interface {
	First() bool
	Next() bool
	Key() []byte
	Error() error
	Stats() IteratorStats
}

// scanBytes scans it from First and returns the keys and the block bytes
// Pebble loaded.
func scanBytes(t *testing.T, it scannable) ([]string, uint64) {
	var keys []string
	for valid := it.First(); valid; valid = it.Next() {
		keys = append(keys, string(it.Key()))
	}
	require.NoError(t, it.Error())
	return keys, it.Stats().InternalStats.BlockBytes
}

func TestRangeFilterPlugin(t *testing.T) {
	plain := gappyDB(t, Plugins{})
	filtered := gappyDB(t, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})

	// An empty range: key105..key109 holds nothing in any table.
	for _, db := range []*DB{plain, filtered} {
		it, err := db.NewIter(&IterOptions{LowerBound: []byte("key105"), UpperBound: []byte("key109")})
		require.NoError(t, err)
		keys, bytes := scanBytes(t, it)
		require.Empty(t, keys)
		if db == plain {
			require.Positive(t, bytes, "upstream reads a block of every table spanning the range")
		} else {
			require.Zero(t, bytes, "the range filter skips every table before any block is read")
		}

		// Widening the bounds past the filter's must not lose keys: the
		// filter built for [key105, key109) excludes every table.
		it.SetBounds([]byte("key100"), []byte("key113"))
		keys, _ = scanBytes(t, it)
		require.Equal(t, []string{"key100", "key101", "key102", "key110", "key111", "key112"}, keys)
		// Narrowing keeps the filter and stays right.
		it.SetBounds([]byte("key101"), []byte("key111"))
		keys, _ = scanBytes(t, it)
		require.Equal(t, []string{"key101", "key102", "key110"}, keys)
		require.NoError(t, it.Close())
	}
}

func TestPluginErrorsNameTheirField(t *testing.T) {
	opts := &Options{FS: vfs.NewMem()}
	_, err := OpenWithPlugins("db", opts, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 1000}})
	require.ErrorContains(t, err, "Plugins.RangeFilter")
	_, err = OpenWithPlugins("db", opts, Plugins{Advisor: &compactionext.AdvisorConfig{}})
	require.ErrorContains(t, err, "Plugins.Advisor")
	_, err = OpenWithPlugins("db", opts, Plugins{RangeFilter: &rangefilter.Config{},
		RangeFilterLevels: &rangefilter.Plan{Levels: [rangefilter.PlanLevels]float64{50}}})
	require.ErrorContains(t, err, "Plugins.RangeFilterLevels")
	_, err = pointfilter.NewPlanner(pointfilter.Plan{BitsPerKey: -3})
	require.ErrorContains(t, err, "BitsPerKey")
}

// TestOpenLeavesOptionsAlone installs every plug-in and checks the caller's
// options are as they were.
func TestOpenLeavesOptionsAlone(t *testing.T) {
	opts := &Options{FS: vfs.NewMem()}
	opts.EnsureDefaults()
	before := opts.String()
	collectors, filters, listener := len(opts.BlockPropertyCollectors), len(opts.Filters), *opts.EventListener
	db, err := OpenWithPlugins("db", opts, Plugins{
		Statistics:  true,
		Filters:     pointfilter.MustNewPlanner(pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: 3, L6Filters: true}),
		RangeFilter: &rangefilter.Config{BitsPerKey: 12},
		Shape:       &compactionext.ManyRuns{Runs: 4},
		Advisor:     &compactionext.AdvisorConfig{},
	})
	require.NoError(t, err)
	require.NoError(t, db.Close())
	require.Equal(t, before, opts.String())
	require.Len(t, opts.BlockPropertyCollectors, collectors)
	require.Len(t, opts.Filters, filters)
	require.Equal(t, fmt.Sprintf("%p", listener.TableCreated), fmt.Sprintf("%p", opts.EventListener.TableCreated))
}

// TestTableWaste checks the per-table waste the advisor reads: seeks that
// load a table's block and read nothing charge that table.
func TestTableWaste(t *testing.T) {
	db := gappyDB(t, Plugins{Statistics: true})
	require.Empty(t, db.stats.TableWaste(nil))
	for i := 0; i < 20; i++ {
		it, err := db.NewIter(&IterOptions{UpperBound: []byte("key109")})
		require.NoError(t, err)
		require.False(t, it.SeekGE([]byte("key105")))
		require.NoError(t, it.Close())
	}
	waste := db.stats.TableWaste(nil)
	require.Len(t, waste, 3, "every table spanning the empty range loaded a block for nothing")
	for _, w := range waste {
		require.EqualValues(t, 20, w.EmptyLoads)
	}
}
