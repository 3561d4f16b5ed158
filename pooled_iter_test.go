// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// diffIter is what the differential test drives on both sides.
type diffIter interface {
	SeekGE([]byte) bool
	SeekPrefixGE([]byte) bool
	SeekLT([]byte) bool
	First() bool
	Last() bool
	Next() bool
	Prev() bool
	SeekGEWithLimit(key, limit []byte) IterValidityState
	SeekLTWithLimit(key, limit []byte) IterValidityState
	Key() []byte
	Valid() bool
	SetBounds(lower, upper []byte)
	SetOptions(o *IterOptions)
	Close() error
}

// diffWrites fills w (a pebblerf or upstream DB) with keys in regions per
// table, so that a range filter for one region rules the other tables out.
func diffKey(i int) []byte { return []byte(fmt.Sprintf("k%03d", i)) }

func diffLoad(t *testing.T, set func(k []byte) error, flush func() error) {
	for table := 0; table < 3; table++ {
		for i := table * 120; i < table*120+100; i++ {
			if (i+table)%2 == 0 {
				require.NoError(t, set(diffKey(i)))
			}
		}
		require.NoError(t, flush())
	}
	for i := 5; i < 400; i += 37 { // memtable
		require.NoError(t, set(diffKey(i)))
	}
}

var diffSkips = []func([]byte) bool{
	nil,
	func(k []byte) bool { n, _ := strconv.Atoi(string(k[1:])); return n%5 == 0 },
	func(k []byte) bool { n, _ := strconv.Atoi(string(k[1:])); return n%3 == 1 },
}

func diffBound(r *rand.Rand) []byte {
	switch r.IntN(2) {
	case 0:
		return nil
	default:
		return diffKey(r.IntN(420))
	}
}

func diffBounds(r *rand.Rand) (lo, up []byte) {
	lo, up = diffBound(r), diffBound(r)
	if lo != nil && up != nil {
		if c := bytes.Compare(lo, up); c == 0 {
			up = nil
		} else if c > 0 {
			lo, up = up, lo
		}
	}
	return lo, up
}

func diffOptions(r *rand.Rand, nilOK bool) *IterOptions {
	if nilOK && r.IntN(3) == 0 {
		return nil
	}
	lo, up := diffBounds(r)
	o := &IterOptions{LowerBound: lo, UpperBound: up, UseL6Filters: r.IntN(2) == 0}
	o.SkipPoint = diffSkips[r.IntN(len(diffSkips))]
	return o
}

// TestPooledIteratorsDifferential drives pooled iterators of every kind
// (DB, snapshot, indexed batch, clones, range queries) of a pebblerf DB
// with random options, bounds changes and clones, beside the same iterators
// of upstream Pebble over the same writes, and expects the same positions
// after every call: an option, bound or filter left behind in a pooled
// wrapper by an earlier iterator would show as a different key. With
// statistics on, the per-level seek tickers must count exactly the seeks
// made.
func TestPooledIteratorsDifferential(t *testing.T) {
	steps := 20000
	if testing.Short() {
		steps = 2000
	}
	configs := map[string]Plugins{
		"none":        {},
		"stats":       {Statistics: true},
		"filtersonly": {Statistics: true, StatisticsConfig: seekstats.Config{FiltersOnly: true}},
		"rf":          {RangeFilter: &rangefilter.Config{BitsPerKey: 16}},
		"rf+stats":    {Statistics: true, RangeFilter: &rangefilter.Config{BitsPerKey: 16}},
		"exact":       {Statistics: true, StatisticsConfig: seekstats.Config{ExactAttribution: true}},
		"rf+filtersonly": {Statistics: true, StatisticsConfig: seekstats.Config{FiltersOnly: true},
			RangeFilter: &rangefilter.Config{BitsPerKey: 16}},
	}
	for _, seed := range []uint64{1, 2, 3} {
		for name, plugins := range configs {
			t.Run(fmt.Sprint(name, seed), func(t *testing.T) {
				opts := &Options{FS: vfs.NewMem(), DisableAutomaticCompactions: true, L0StopWritesThreshold: 100}
				opts.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
				db, err := OpenWithPlugins("db", opts, plugins)
				require.NoError(t, err)
				defer func() { require.NoError(t, db.Close()) }()
				uopts := &upstream.Options{FS: vfs.NewMem(), DisableAutomaticCompactions: true, L0StopWritesThreshold: 100}
				uopts.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
				ref, err := upstream.Open("db", uopts)
				require.NoError(t, err)
				defer func() { require.NoError(t, ref.Close()) }()
				diffLoad(t, func(k []byte) error { return db.Set(k, k, nil) }, db.Flush)
				diffLoad(t, func(k []byte) error { return ref.Set(k, k, nil) }, ref.Flush)

				snap, usnap := db.NewSnapshot(), ref.NewSnapshot()
				defer snap.Close()
				defer usnap.Close()
				// Writes after the snapshot, which its iterators must not see.
				for i := 1; i < 400; i += 41 {
					require.NoError(t, db.Set(diffKey(i), nil, nil))
					require.NoError(t, ref.Set(diffKey(i), nil, nil))
				}
				b, ub := db.NewIndexedBatch(), ref.NewIndexedBatch()
				defer b.Close()
				defer ub.Close()
				for i := 2; i < 400; i += 29 {
					require.NoError(t, b.Set(diffKey(i), nil, nil))
					require.NoError(t, ub.Set(diffKey(i), nil, nil))
				}
				require.NoError(t, b.Delete(diffKey(4), nil))
				require.NoError(t, ub.Delete(diffKey(4), nil))

				st := db.Statistics()
				stats := plugins.Statistics
				var seeks, found uint64
				base := func() (uint64, uint64) {
					return st.Get("rocksdb.number.db.seek"), st.Get("rocksdb.number.db.seek.found")
				}
				seeks0, found0 := base()

				type pair struct {
					got, want diffIter
					desc      string
					lo, up    []byte
				}
				var live []pair
				r := rand.New(rand.NewPCG(seed, 2))
				open := func() {
					o := diffOptions(r, true)
					var p pair
					var err error
					switch k := r.IntN(4); k {
					case 0:
						var it *Iterator
						it, err = db.NewIter(o)
						p.got = it
						p.want, _ = ref.NewIter(o)
					case 1:
						var it *Iterator
						it, err = snap.NewIter(o)
						p.got = it
						p.want, _ = usnap.NewIter(o)
					case 2:
						var it *Iterator
						it, err = b.NewIter(o)
						p.got = it
						p.want, _ = ub.NewIter(o)
					case 3:
						var q *RangeQuery
						q, err = db.NewRangeQuery(o, nil)
						p.got = q
						p.want, _ = ref.NewIter(o)
					}
					require.NoError(t, err)
					p.desc = fmt.Sprintf("open %+v", o)
					if o != nil {
						p.lo, p.up = o.LowerBound, o.UpperBound
					}
					live = append(live, p)
				}
				cmp := func(p pair, step string, gv, wv bool) {
					t.Helper()
					require.Equal(t, wv, gv, "%s: %s", p.desc, step)
					if gv {
						require.Equal(t, string(p.want.Key()), string(p.got.Key()), "%s: %s", p.desc, step)
					}
				}
				count := func(valid bool) {
					seeks++
					if valid {
						found++
					}
				}
				// scan positions both iterators with start, then moves
				// them with step while they are valid, comparing each
				// position.
				scan := func(p pair, start, step string, first, next func(diffIter) bool) {
					t.Helper()
					gv, wv := first(p.got), first(p.want)
					count(gv)
					cmp(p, start, gv, wv)
					for i := 0; gv && i < 500; i++ {
						gv, wv = next(p.got), next(p.want)
						cmp(p, step, gv, wv)
					}
				}
				seekWithLimit := func(p pair, name string, seek func(diffIter, []byte, []byte) IterValidityState, key, lim []byte) {
					t.Helper()
					gs, ws := seek(p.got, key, lim), seek(p.want, key, lim)
					count(gs == IterValid)
					require.Equal(t, ws, gs, "%s: %s", p.desc, name)
					if gs == IterValid {
						require.Equal(t, string(p.want.Key()), string(p.got.Key()), "%s: %s", p.desc, name)
					}
				}
				for step := 0; step < steps; step++ {
					if len(live) == 0 || (len(live) < 4 && r.IntN(6) == 0) {
						open()
						continue
					}
					n := r.IntN(len(live))
					p := &live[n]
					key := diffKey(r.IntN(420))
					switch op := r.IntN(20); op {
					case 0:
						gv, wv := p.got.SeekGE(key), p.want.SeekGE(key)
						count(gv)
						cmp(*p, "SeekGE "+string(key), gv, wv)
					case 1:
						if (p.lo != nil && bytes.Compare(key, p.lo) < 0) || (p.up != nil && bytes.Compare(key, p.up) >= 0) {
							continue
						}
						gv, wv := p.got.SeekPrefixGE(key), p.want.SeekPrefixGE(key)
						count(gv)
						cmp(*p, "SeekPrefixGE "+string(key), gv, wv)
					case 2:
						gv, wv := p.got.SeekLT(key), p.want.SeekLT(key)
						count(gv)
						cmp(*p, "SeekLT "+string(key), gv, wv)
					case 3:
						scan(*p, "First", "Next", diffIter.First, diffIter.Next)
					case 4:
						scan(*p, "Last", "Prev", diffIter.Last, diffIter.Prev)
					case 5:
						seekWithLimit(*p, "SeekGEWithLimit", diffIter.SeekGEWithLimit, key, diffKey(r.IntN(420)))
					case 6:
						seekWithLimit(*p, "SeekLTWithLimit", diffIter.SeekLTWithLimit, key, diffKey(r.IntN(420)))
					case 7, 8, 16, 17, 18:
						lo, up := diffBounds(r)
						p.lo, p.up = lo, up
						p.got.SetBounds(lo, up)
						p.want.SetBounds(lo, up)
						p.desc += fmt.Sprintf("; SetBounds(%s, %s)", lo, up)
					case 9:
						o := diffOptions(r, false)
						p.lo, p.up = o.LowerBound, o.UpperBound
						p.got.SetOptions(o)
						p.want.SetOptions(o)
						p.desc += fmt.Sprintf("; SetOptions(%+v)", o)
					case 10, 11:
						if len(live) >= 4 {
							continue
						}
						var co CloneOptions
						if r.IntN(2) == 0 {
							co.IterOptions = diffOptions(r, false)
						}
						co.RefreshBatchView = r.IntN(2) == 0
						c := pair{lo: p.lo, up: p.up}
						if co.IterOptions != nil {
							c.lo, c.up = co.IterOptions.LowerBound, co.IterOptions.UpperBound
						}
						switch g := p.got.(type) {
						case *Iterator:
							it, err := g.Clone(co)
							require.NoError(t, err)
							c.got = it
						case *RangeQuery:
							it, err := g.Clone(co)
							require.NoError(t, err)
							c.got = it
						}
						uc, err := p.want.(*upstream.Iterator).Clone(co)
						require.NoError(t, err)
						c.want = uc
						c.desc = p.desc + fmt.Sprintf("; Clone(%+v)", co.IterOptions)
						live = append(live, c)
					case 19, 15:
						require.NoError(t, p.got.Close())
						require.NoError(t, p.want.Close())
						live = append(live[:n], live[n+1:]...)
					}
					if stats {
						s, f := base()
						require.Equal(t, seeks, s-seeks0, "seeks after step %d (%s)", step, p.desc)
						require.Equal(t, found, f-found0, "found after step %d (%s)", step, p.desc)
					}
				}
				for _, p := range live {
					require.NoError(t, p.got.Close())
					require.NoError(t, p.want.Close())
				}
			})
		}
	}
}
