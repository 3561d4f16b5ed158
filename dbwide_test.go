// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/stretchr/testify/require"
)

// TestDBWideTickers checks the DB-wide tickers against what the test itself
// counts, with the per-level statistics off (Open's default) and on: every
// iterator of the DB, of a clone, a snapshot and an indexed batch adds its
// seeks, found seeks, steps and block bytes when closed, and the filter and
// block-cache tickers are Pebble's own metrics.
func TestDBWideTickers(t *testing.T) {
	for _, plugins := range []Plugins{{}, {Statistics: true}} {
		t.Run(fmt.Sprintf("statistics=%t", plugins.Statistics), func(t *testing.T) {
			opts := &Options{FS: vfs.NewMem(), Comparer: defaultPathComparer, DisableAutomaticCompactions: true}
			opts.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
			db, err := OpenWithPlugins("db", opts, plugins)
			require.NoError(t, err)
			defer func() { require.NoError(t, db.Close()) }()
			for p := 0; p < 200; p += 2 {
				require.NoError(t, db.Set(defaultPathKey(p, 0), []byte("v"), nil))
			}
			require.NoError(t, db.Flush())

			s := db.Statistics()
			require.Equal(t, plugins.Statistics, s.PerLevel() != nil)
			var seeks, found, nexts, prevs, blockBytes, blockBytesRead uint64
			seek := func(valid bool) {
				seeks++
				if valid {
					found++
				}
			}
			closeIter := func(it *Iterator) {
				st := it.Stats()
				blockBytes += st.InternalStats.BlockBytes
				blockBytesRead += st.InternalStats.BlockBytes - st.InternalStats.BlockBytesInCache
				require.NoError(t, it.Close())
			}
			read := func(it *Iterator, err error) {
				require.NoError(t, err)
				for p := 0; p < 220; p += 7 {
					seek(it.SeekPrefixGE(defaultPathKey(p, 0)))
				}
				seek(it.SeekGE(defaultPathKey(50, 1)))
				for it.Valid() && nexts < 5 {
					it.Next()
					nexts++
				}
				seek(it.SeekLT(defaultPathKey(300, 0)))
				it.Prev()
				prevs++
				seek(it.First())
				seek(it.Last())
				seek(it.SeekGEWithLimit(defaultPathKey(10, 0), nil) == IterValid)
				seek(it.SeekLTWithLimit(defaultPathKey(0, 0), nil) == IterValid)
			}
			it, err := db.NewIter(nil)
			read(it, err)
			clone, err := it.Clone(CloneOptions{})
			read(clone, err)
			closeIter(clone)
			closeIter(it)
			snap := db.NewSnapshot()
			it, err = snap.NewIter(nil)
			read(it, err)
			closeIter(it)
			require.NoError(t, snap.Close())
			b := db.NewIndexedBatch()
			it, err = b.NewIter(nil)
			read(it, err)
			closeIter(it)
			require.NoError(t, b.Close())
			for p := 0; p < 40; p++ {
				_, c, err := db.Get(defaultPathKey(p, 0))
				if err == nil {
					require.NoError(t, c.Close())
				}
			}

			require.Positive(t, found)
			require.Less(t, found, seeks)
			require.Positive(t, blockBytes)
			want := map[string]uint64{
				"pebblerf.dbwide.number.db.seek":        seeks,
				"pebblerf.dbwide.number.db.seek.found":  found,
				"pebblerf.dbwide.number.db.next":        nexts,
				"pebblerf.dbwide.number.db.prev":        prevs,
				"pebblerf.dbwide.iter.block.bytes":      blockBytes,
				"pebblerf.dbwide.iter.block.bytes.read": blockBytesRead,
			}
			m := db.Metrics()
			require.Positive(t, m.Filter.Hits)
			require.Positive(t, m.Filter.Misses)
			want["pebblerf.dbwide.filter.useful"] = uint64(m.Filter.Hits)
			want["pebblerf.dbwide.filter.positive"] = uint64(m.Filter.Misses)
			want["pebblerf.dbwide.block.cache.hit"] = uint64(m.BlockCache.Hits)
			want["pebblerf.dbwide.block.cache.miss"] = uint64(m.BlockCache.Misses)
			got := map[string]uint64{}
			for _, c := range s.Tickers() {
				if strings.HasPrefix(c.Name, "pebblerf.dbwide.") {
					got[c.Name] = uint64(c.Count)
				}
			}
			require.Equal(t, want, got)
			for name, n := range want {
				require.Equal(t, n, s.Get(name), name)
				if n != 0 {
					require.Contains(t, s.String(), fmt.Sprintf("%s COUNT : %d\n", name, n))
				}
			}
			// The per-level statistics count the same seeks their own way.
			if plugins.Statistics {
				require.Equal(t, seeks, s.Get("rocksdb.number.db.seek"))
				require.Equal(t, found, s.Get("rocksdb.number.db.seek.found"))
			} else {
				require.Zero(t, s.Get("rocksdb.number.db.seek"))
				require.Contains(t, s.String(), "per-level statistics: off")
			}

			// Pop zeroes one ticker, Reset all of them.
			require.Equal(t, seeks, s.Pop("pebblerf.dbwide.number.db.seek"))
			require.Zero(t, s.Get("pebblerf.dbwide.number.db.seek"))
			require.Equal(t, found, s.Get("pebblerf.dbwide.number.db.seek.found"))
			it, err = db.NewIter(nil)
			require.NoError(t, err)
			require.True(t, it.First())
			require.NoError(t, it.Close())
			require.EqualValues(t, 1, s.Get("pebblerf.dbwide.number.db.seek"))
			s.Reset()
			for _, c := range s.Tickers() {
				require.Zero(t, c.Count, c.Name)
			}
		})
	}
}

// TestDBWideTickersRangeQueries checks that planned range queries (and their
// clones) add to the DB-wide iterator tickers when closed, as NewIter's
// iterators do: the caller's seeks and found seeks, not the planner's own
// re-seeks; the upstream iterator's steps and block bytes. Explain's probes
// are not the caller's reads and add nothing; a caller's own Closed hook is
// still called.
func TestDBWideTickersRangeQueries(t *testing.T) {
	for _, plugins := range []Plugins{{}, {Statistics: true}} {
		for _, plan := range []querybuilder.Plan{querybuilder.PlanAuto, querybuilder.PlanPlain, querybuilder.PlanStepped, querybuilder.PlanPrefix} {
			t.Run(fmt.Sprintf("statistics=%t/plan=%s", plugins.Statistics, plan), func(t *testing.T) {
				opts := &Options{FS: vfs.NewMem(), Comparer: defaultPathComparer, DisableAutomaticCompactions: true}
				opts.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
				db, err := OpenWithPlugins("db", opts, plugins)
				require.NoError(t, err)
				defer func() { require.NoError(t, db.Close()) }()
				// Three L0 tables over disjoint ranges, so that the stepped
				// plan has steps to widen past.
				for part := 0; part < 3; part++ {
					for p := part * 100; p < part*100+100; p += 2 {
						require.NoError(t, db.Set(defaultPathKey(p, 0), []byte("v"), nil))
						require.NoError(t, db.Set(defaultPathKey(p, 1), []byte("v"), nil))
					}
					require.NoError(t, db.Flush())
				}
				s := db.Statistics()
				s.Reset()

				var seeks, found, nexts, prevs, blockBytes, upstreamSeeks uint64
				var userClosed int
				seek := func(valid bool) {
					seeks++
					if valid {
						found++
					}
				}
				qo := &RangeQueryOptions{Plan: plan, Closed: func(*IteratorStats, int, int) { userClosed++ }}
				closeQuery := func(q *RangeQuery) {
					st := q.Stats()
					blockBytes += st.InternalStats.BlockBytes
					upstreamSeeks += uint64(st.ForwardSeekCount[InterfaceCall] + st.ReverseSeekCount[InterfaceCall])
					require.NoError(t, q.Close())
				}
				read := func(q *RangeQuery) {
					seek(q.First())
					for q.Valid() && nexts < 120 {
						q.Next()
						nexts++
					}
					seek(q.SeekGE(defaultPathKey(51, 0)))
					seek(q.SeekPrefixGE(defaultPathKey(150, 0)))
					seek(q.SeekPrefixGE(defaultPathKey(151, 0)))
					seek(q.SeekLT(defaultPathKey(250, 0)))
					q.Prev()
					prevs++
					seek(q.Last())
					seek(q.SeekGEWithLimit(defaultPathKey(10, 0), nil) == IterValid)
				}
				q, err := db.NewRangeQuery(&IterOptions{LowerBound: defaultPathKey(0, 0), UpperBound: defaultPathKey(300, 0)}, qo)
				require.NoError(t, err)
				read(q)
				clone, err := q.Clone(CloneOptions{})
				require.NoError(t, err)
				read(clone)
				closeQuery(clone)
				closeQuery(q)
				_, err = db.RangeQueries(*qo).Explain(&IterOptions{UpperBound: defaultPathKey(300, 0)}, defaultPathKey(5, 0), 10)
				require.NoError(t, err)

				require.Positive(t, found)
				require.Less(t, found, seeks)
				require.Positive(t, blockBytes)
				require.Equal(t, 2, userClosed)
				if plan == querybuilder.PlanStepped {
					// The planner re-seeked under the caller's seeks; those
					// are not the caller's.
					require.Greater(t, upstreamSeeks, seeks)
				}
				want := map[string]uint64{
					"pebblerf.dbwide.number.db.seek":       seeks,
					"pebblerf.dbwide.number.db.seek.found": found,
					"pebblerf.dbwide.number.db.next":       nexts,
					"pebblerf.dbwide.number.db.prev":       prevs,
					"pebblerf.dbwide.iter.block.bytes":     blockBytes,
				}
				for name, n := range want {
					require.Equal(t, n, s.Get(name), name)
				}
				if plugins.Statistics {
					require.Equal(t, seeks, s.Get("rocksdb.number.db.seek"))
					require.Equal(t, found, s.Get("rocksdb.number.db.seek.found"))
				}
			})
		}
	}
}
