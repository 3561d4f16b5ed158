// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"fmt"
	"io"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/stretchr/testify/require"
)

// The default path (Open, the zero Plugins) must write what upstream Pebble
// writes and read as upstream reads. These tests write one DB with each
// engine from the same operations and read each back with each engine.

// defaultPathComparer is the bytewise comparer with a fixed 6-byte prefix,
// so that SeekPrefixGE consults the prefix filters.
var defaultPathComparer = func() *Comparer {
	c := *upstream.DefaultComparer
	c.Name = "pebblerf.test.prefix6"
	c.Split = func(k []byte) int { return min(6, len(k)) }
	return &c
}()

// defaultPathOptions returns options on fs with policy's filters on every
// level and no automatic compactions, so that both engines build the same
// tables.
func defaultPathOptions(fs vfs.FS, policy FilterPolicy) *Options {
	o := &Options{
		FS:                          fs,
		Comparer:                    defaultPathComparer,
		DisableAutomaticCompactions: true,
		L0CompactionThreshold:       100,
		L0StopWritesThreshold:       1000,
		FormatMajorVersion:          upstream.FormatNewest,
		Logger:                      quietLogger{},
	}
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = policy
	}
	return o
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

// defaultPathKey is key j of prefix p: "p%05d" then a suffix.
func defaultPathKey(p, j int) []byte { return []byte(fmt.Sprintf("p%05d.%02d", p, j)) }

// defaultPathWriter is what writeDefaultPath needs of either engine's DB.
type defaultPathWriter interface {
	Set(key, value []byte, o *WriteOptions) error
	Delete(key []byte, o *WriteOptions) error
	Flush() error
	Compact(ctx context.Context, start, end []byte, parallelize bool) error
}

// writeDefaultPath writes the same operations to w: a compacted bottom
// level, then two L0 sublevels with new keys, overwrites and deletions.
func writeDefaultPath(t *testing.T, w defaultPathWriter) {
	set := func(k []byte) { require.NoError(t, w.Set(k, k, nil)) }
	for p := 0; p < 600; p += 2 {
		for j := 0; j < 3; j++ {
			set(defaultPathKey(p, j))
		}
	}
	require.NoError(t, w.Flush())
	require.NoError(t, w.Compact(context.Background(), []byte("p"), []byte("q"), false))
	for p := 1; p < 600; p += 6 {
		set(defaultPathKey(p, 0))
		set(defaultPathKey(p-1, 1))
	}
	require.NoError(t, w.Flush())
	for p := 0; p < 600; p += 10 {
		require.NoError(t, w.Delete(defaultPathKey(p, 2), nil))
		set(defaultPathKey(p+3, 5))
	}
	require.NoError(t, w.Flush())
}

// filterReads makes the same reads of present and absent keys on any
// engine: Gets, and SeekPrefixGEs with and without L6 filters, through
// get and seek (which opens an iterator with o, seeks, and closes it).
func filterReads(
	t *testing.T,
	get func(k []byte) (bool, error),
	seek func(o *IterOptions, k []byte) (bool, error),
) (found int) {
	for p := 0; p < 620; p++ {
		for _, j := range []int{0, 1, 2, 5, 7} {
			k := defaultPathKey(p, j)
			ok, err := get(k)
			require.NoError(t, err)
			found += b2i(ok)
			for _, o := range []*IterOptions{nil, {UseL6Filters: true}} {
				ok, err := seek(o, k)
				require.NoError(t, err)
				found += b2i(ok)
			}
		}
	}
	return found
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// getFound adapts a Get to filterReads.
func getFound(v []byte, c io.Closer, err error) (bool, error) {
	if err == ErrNotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_ = v
	return true, c.Close()
}

// readResult is what one engine's reads of one DB showed.
type readResult struct {
	found  int
	filter upstream.FilterMetrics
}

// readWith makes filterReads through one engine's Get and NewIter and
// returns what they found and the engine's filter metrics.
func readWith[I interface {
	SeekPrefixGE([]byte) bool
	Close() error
}](
	t *testing.T,
	get func([]byte) ([]byte, io.Closer, error),
	newIter func(*IterOptions) (I, error),
	metrics func() *upstream.Metrics,
) readResult {
	found := filterReads(t,
		func(k []byte) (bool, error) { return getFound(get(k)) },
		func(o *IterOptions, k []byte) (bool, error) {
			it, err := newIter(o)
			if err != nil {
				return false, err
			}
			ok := it.SeekPrefixGE(k)
			return ok, it.Close()
		})
	return readResult{found: found, filter: metrics().Filter}
}

func readWithUpstream(t *testing.T, fs vfs.FS, policy FilterPolicy) readResult {
	db, err := upstream.Open("db", defaultPathOptions(fs, policy))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	return readWith(t, db.Get, db.NewIter, db.Metrics)
}

func readWithOpen(t *testing.T, fs vfs.FS, policy FilterPolicy) readResult {
	db, err := Open("db", defaultPathOptions(fs, policy))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	return readWith(t, db.Get, db.NewIter, db.Metrics)
}

// tableLayout is one table's level and what upstream records of its
// filter and index, with its bytes.
type tableLayout struct {
	level           int
	filterPolicy    string
	filterSize      uint64
	indexType       uint32
	indexPartitions uint64
	dataBlocks      uint64
	bytes           []byte
}

// layoutOf lists the tables of the DB in fs, read with upstream Pebble.
func layoutOf(t *testing.T, fs vfs.FS, policy FilterPolicy) []tableLayout {
	db, err := upstream.Open("db", defaultPathOptions(fs, policy))
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	levels, err := db.SSTables(upstream.WithProperties())
	require.NoError(t, err)
	var out []tableLayout
	for level, tables := range levels {
		for _, info := range tables {
			f, err := fs.Open(fs.PathJoin("db", fmt.Sprintf("%06d.sst", info.BackingSSTNum)))
			require.NoError(t, err)
			b, err := io.ReadAll(f)
			require.NoError(t, err)
			require.NoError(t, f.Close())
			p := info.Properties
			out = append(out, tableLayout{
				level: level, filterPolicy: p.FilterPolicyName, filterSize: p.FilterSize,
				indexType: p.IndexType, indexPartitions: p.IndexPartitions,
				dataBlocks: p.NumDataBlocks, bytes: b,
			})
		}
	}
	return out
}

// TestDefaultPathUpstreamCompatible writes a DB with Open and one with
// upstream Pebble from the same operations, and checks that the tables are
// the same bytes (so the same filter block names and bytes, the same index
// shape), and that upstream Pebble and Open, reading either DB, find the
// same keys and count the same filter hits and misses: upstream reads
// pebblerf's filters as its own, and pebblerf reads upstream's.
func TestDefaultPathUpstreamCompatible(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy FilterPolicy
	}{
		{"upstream-bloom", bloom.FilterPolicy(10)},
		{"pointfilter-bloom", pointfilter.Bloom(10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rfFS, upFS := vfs.NewMem(), vfs.NewMem()

			rf, err := Open("db", defaultPathOptions(rfFS, tc.policy))
			require.NoError(t, err)
			writeDefaultPath(t, rf)
			require.NoError(t, rf.Close())
			up, err := upstream.Open("db", defaultPathOptions(upFS, tc.policy))
			require.NoError(t, err)
			writeDefaultPath(t, up)
			require.NoError(t, up.Close())

			rfTables, upTables := layoutOf(t, rfFS, tc.policy), layoutOf(t, upFS, tc.policy)
			require.Len(t, rfTables, len(upTables))
			levels := map[int]bool{}
			for i := range upTables {
				levels[upTables[i].level] = true
				require.Equal(t, tc.policy.Name(), rfTables[i].filterPolicy, "table %d", i)
				require.NotZero(t, rfTables[i].filterSize, "table %d", i)
				require.Equal(t, upTables[i], rfTables[i], "table %d", i)
			}
			require.True(t, levels[0] && levels[6], "tables in L0 and L6: %v", levels)

			// Upstream reading what upstream wrote is the reference.
			want := readWithUpstream(t, upFS, tc.policy)
			require.Positive(t, want.found)
			require.Positive(t, want.filter.Hits)
			require.Positive(t, want.filter.Misses)
			require.Equal(t, want, readWithUpstream(t, rfFS, tc.policy), "upstream reads Open's DB")
			require.Equal(t, want, readWithOpen(t, upFS, tc.policy), "Open reads upstream's DB")
			require.Equal(t, want, readWithOpen(t, rfFS, tc.policy), "Open reads its own DB")
		})
	}
}
