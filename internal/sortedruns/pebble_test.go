// Copyright 2026 The pebblerf Authors. All rights reserved.

package sortedruns

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestSublevelsMatchPebble builds random LSMs through Pebble's exported API
// and checks, after every step, that the view's L0 sublevels hold exactly the
// tables of Pebble's own sublevels (DB.DebugCurrentVersion's
// L0SublevelFiles, which ScanInternal numbers its sublevels by), in the same
// order, and that the run and memtable counts agree with Metrics.
//
// The steps are flushes of staggered windows of sets, deletions, range
// deletions and range keys (flushes split at Pebble's flush split keys, so a
// range deletion can end one table exclusively where the next one starts),
// ingests of several adjacent tables in one call (some ending in a range
// deletion up to the next table's first key), ingests that excise (which
// leaves virtual tables in L0), ingests over the memtable (ingested as a
// flushable) and manual compactions.
func TestSublevelsMatchPebble(t *testing.T) {
	seeds := 16
	if testing.Short() {
		seeds = 4
	}
	var cov coverage
	for seed := 0; seed < seeds; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			d := openRandomDB(t, &cov)
			rng := rand.New(rand.NewPCG(uint64(seed), 17))
			for step := 0; step < 40; step++ {
				d.randomStep(rng)
				requireMatchesPebble(t, d.db, &cov)
			}
		})
	}
	// The steps must have produced the cases where the rules of the
	// planner and the shape report used to differ from Pebble's.
	t.Logf("coverage: %+v", cov.snapshot())
	require.Positive(t, cov.touching.Load(), "no L0 tables touching at an exclusive end")
	require.Positive(t, cov.multiIngestL0.Load(), "no multi-table ingest into L0")
	require.Positive(t, cov.virtualL0.Load(), "no virtual table in L0")
	require.Positive(t, cov.deepL0.Load(), "never more than two sublevels")
}

type coverage struct {
	// touching counts pairs of tables in one Pebble sublevel where one ends
	// exclusively at the key the next starts with.
	touching atomic.Int64
	// multiIngestL0 counts ingests that put two or more tables in L0.
	multiIngestL0 atomic.Int64
	// virtualL0 counts checks that saw a virtual table in L0.
	virtualL0 atomic.Int64
	// deepL0 counts checks that saw more than two sublevels.
	deepL0 atomic.Int64
}

func (c *coverage) snapshot() map[string]int64 {
	return map[string]int64{"touching": c.touching.Load(), "multiIngestL0": c.multiIngestL0.Load(),
		"virtualL0": c.virtualL0.Load(), "deepL0": c.deepL0.Load()}
}

// requireMatchesPebble compares the view of db with Pebble's version. The
// version is read before and after the view, and the comparison retried
// when they differ: an ingest over the memtable schedules a flush that may
// finish meanwhile.
func requireMatchesPebble(t *testing.T, db *pebble.DB, cov *coverage) {
	t.Helper()
	for {
		before := db.DebugCurrentVersion()
		m := db.Metrics()
		view, err := Read(db, nil)
		require.NoError(t, err)
		v := db.DebugCurrentVersion()
		if v != before || m.MemTable.Count != db.Metrics().MemTable.Count {
			continue
		}
		require.Equal(t, m.ReadAmp(), view.SortedRuns())
		require.Equal(t, int(m.Levels[0].Sublevels), view.Sublevels())
		require.Equal(t, int(m.MemTable.Count), view.Memtables.Count)
		require.Len(t, v.L0SublevelFiles, view.Sublevels())
		for s := range v.L0SublevelFiles {
			var want []pebble.TableNum
			var prevLargest []byte
			prevExclusive := false
			for f := range v.L0SublevelFiles[s].All() {
				want = append(want, f.TableNum)
				if prevExclusive && bytes.Equal(prevLargest, f.Smallest().UserKey) {
					cov.touching.Add(1)
				}
				prevLargest, prevExclusive = f.Largest().UserKey, f.Largest().IsExclusiveSentinel()
				if f.Virtual {
					cov.virtualL0.Add(1)
				}
			}
			run := view.Sublevel(s)
			require.NotNil(t, run)
			require.Equal(t, 0, run.Level)
			require.Equal(t, s, run.Sublevel)
			var got []pebble.TableNum
			for _, tb := range run.Tables {
				got = append(got, tb.Num)
			}
			require.Equal(t, want, got, "sublevel %d of %d", s, len(v.L0SublevelFiles))
		}
		if len(v.L0SublevelFiles) > 2 {
			cov.deepL0.Add(1)
		}
		for _, r := range view.Runs[view.Sublevels():] {
			require.Equal(t, -1, r.Sublevel)
			require.Equal(t, v.Levels[r.Level].Len(), len(r.Tables), "L%d", r.Level)
		}
		return
	}
}

// randomDB is a MemFS DB whose shape the steps control: automatic
// compactions are off, L0 may grow deep, and flushes split small.
type randomDB struct {
	t    *testing.T
	fs   vfs.FS
	db   *pebble.DB
	opts *pebble.Options
	n    int // files written for ingestion
	val  int
}

const keySpace = 2000

func key(i int) []byte { return fmt.Appendf(nil, "k%05d", i) }

func openRandomDB(t *testing.T, cov *coverage) *randomDB {
	fs := vfs.NewMem()
	opts := &pebble.Options{
		FS:                          fs,
		DisableAutomaticCompactions: true,
		L0CompactionThreshold:       1000,
		L0StopWritesThreshold:       1000,
		MemTableStopWritesThreshold: 1000,
		FlushSplitBytes:             8 << 10,
		FormatMajorVersion:          pebble.FormatNewest,
		EventListener: &pebble.EventListener{
			TableIngested: func(info pebble.TableIngestInfo) {
				inL0 := 0
				for _, tb := range info.Tables {
					if tb.Level == 0 {
						inL0++
					}
				}
				if inL0 >= 2 {
					cov.multiIngestL0.Add(1)
				}
			},
		},
	}
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return &randomDB{t: t, fs: fs, db: db, opts: opts}
}

func (d *randomDB) value(rng *rand.Rand) []byte {
	d.val++
	return fmt.Appendf(bytes.Repeat([]byte{'v'}, 40+rng.IntN(200)), "%d", d.val)
}

func (d *randomDB) randomStep(rng *rand.Rand) {
	ctx := context.Background()
	switch x := rng.IntN(20); {
	case x < 4:
		d.ingest(rng, false)
	case x < 5:
		d.ingest(rng, true)
	case x < 6:
		lo, hi := rng.IntN(keySpace), rng.IntN(keySpace)
		lo, hi = min(lo, hi), max(lo, hi)
		require.NoError(d.t, d.db.Compact(ctx, key(lo), key(hi+1), false))
	default:
		d.write(rng)
		if rng.IntN(6) != 0 {
			require.NoError(d.t, d.db.Flush())
		}
	}
}

// write commits a batch over a random window of the key space.
func (d *randomDB) write(rng *rand.Rand) {
	width := 1 + rng.IntN(keySpace/4)
	start := rng.IntN(keySpace - width + 1)
	b := d.db.NewBatch()
	for k := start; k < start+width; k++ {
		switch x := rng.IntN(40); {
		case x == 0:
			require.NoError(d.t, b.Delete(key(k), nil))
		case x == 1:
			require.NoError(d.t, b.DeleteRange(key(k), key(k+1+rng.IntN(30)), nil))
		case x == 2:
			require.NoError(d.t, b.RangeKeySet(key(k), key(k+1+rng.IntN(30)), nil, []byte("r"), nil))
		case x < 20:
			require.NoError(d.t, b.Set(key(k), d.value(rng), nil))
		}
	}
	require.NoError(d.t, b.Commit(pebble.NoSync))
}

// ingest ingests one to four adjacent tables in one call; with excise, one
// table and an excise of a span around it.
func (d *randomDB) ingest(rng *rand.Rand, excise bool) {
	files := 1 + rng.IntN(4)
	if excise {
		files = 1
	}
	lo := rng.IntN(keySpace - 40*files)
	var paths []string
	for f := 0; f < files; f++ {
		from, to := lo+40*f, lo+40*(f+1)
		d.n++
		path := fmt.Sprintf("ext%d.sst", d.n)
		file, err := d.fs.Create(path, vfs.WriteCategoryUnspecified)
		require.NoError(d.t, err)
		w := sstable.NewWriter(objstorageprovider.NewFileWritable(file), sstable.WriterOptions{
			Comparer:    pebble.DefaultComparer,
			TableFormat: d.db.TableFormat(),
		})
		last := from + 1 + rng.IntN(to-from-1)
		if rng.IntN(2) == 0 {
			// A range deletion ending at the next table's first key: the
			// table's largest key is that key, exclusive.
			require.NoError(d.t, w.DeleteRange(key(last), key(to)))
		}
		for k := from; k < last; k += 1 + rng.IntN(3) {
			require.NoError(d.t, w.Set(key(k), d.value(rng)))
		}
		require.NoError(d.t, w.Close())
		paths = append(paths, path)
	}
	if !excise {
		require.NoError(d.t, d.db.Ingest(context.Background(), paths))
		return
	}
	span := pebble.KeyRange{Start: key(max(0, lo-rng.IntN(20))), End: key(lo + 40 + rng.IntN(20))}
	_, err := d.db.IngestAndExcise(context.Background(), paths, nil, nil, span)
	require.NoError(d.t, err)
}
