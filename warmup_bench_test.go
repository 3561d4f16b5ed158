// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/pebblerf/pebble/rangefilter"
)

// BenchmarkRecommendedWarmup measures how a DB that was only written, then
// read with bounded seeks, gets the range filters' win under Recommended(),
// which builds no filter while no bounded read comes. Three engines hold
// the same keys: upstream Pebble, pebblerf with range filters in every table
// (RangeFilter alone: the win as it is when every table was written with a
// filter) and pebblerf with Recommended(). After the load, nothing is
// written: the bounded seeks run in rounds of warmupRound, the engines
// taking turns, each charged its thread's CPU time, and the Recommended
// engine's backfill derives the filters of the tables the seeks consult.
//
// Shapes: leveled (the load compacted into L6) and l0-burst (the same, then
// warmupBurst flushes of overwrites that stay in L0 as sublevels, as a burst
// of writes that outpace compactions leaves them). Half of the seeks' spans
// are empty.
//
// Metrics: all-win and recommended-win are upstream's CPU over each
// engine's, the medians of the last half of the rounds; rounds-to-90% is
// the first round from which the Recommended engine's win, as the median of
// five rounds, stays at 90% of all-win or more, and seconds-to-90% the wall
// time from the first seek to that round's end (no write is needed);
// backfill/db-bytes is what the backfill read to derive filters, as a share
// of the DB's table bytes (one full compaction reads them all, and writes
// them again; the backfill writes nothing).
//
//	go test -run '^$' -bench BenchmarkRecommendedWarmup -benchtime=1x .
func BenchmarkRecommendedWarmup(b *testing.B) {
	for _, shape := range []string{"leveled", "l0-burst"} {
		b.Run(shape, func(b *testing.B) {
			for b.Loop() {
				warmup(b, shape == "l0-burst")
			}
		})
	}
}

const (
	warmupKeys   = 200_000
	warmupRound  = 2000
	warmupRounds = 30
	warmupBurst  = 12
	// warmupCache is the block cache: a few percent of the data, so that a
	// seek that is not skipped loads blocks, as in a DB larger than its
	// cache.
	warmupCache = 2 << 20
)

func warmup(b *testing.B, burst bool) {
	ctx := context.Background()
	lo, hi := benchKey(nil, 0), benchKey(nil, 4*warmupKeys)
	opts := func() *Options {
		o := benchOptions()
		o.CacheSize = warmupCache
		o.Logger = quietLogger{}
		// The burst's flushes stay in L0.
		o.L0CompactionThreshold, o.L0StopWritesThreshold = 1<<20, 1<<20
		return o
	}
	up, err := upstream.Open("db", opts())
	if err != nil {
		b.Fatal(err)
	}
	defer up.Close()
	all, err := OpenWithPlugins("db", opts(), Plugins{RangeFilter: &rangefilter.Config{}})
	if err != nil {
		b.Fatal(err)
	}
	defer all.Close()
	rec, err := OpenWithPlugins("db", opts(), Recommended())
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Close()

	value := make([]byte, 100)
	type engine struct {
		set     func(k []byte) error
		flush   func() error
		compact func() error
		seek    func(lower, upper []byte) error
	}
	seekOf := func(newIter func(o *IterOptions) (interface {
		First() bool
		Close() error
	}, error)) func(lower, upper []byte) error {
		o := &IterOptions{}
		return func(lower, upper []byte) error {
			o.LowerBound, o.UpperBound = lower, upper
			it, err := newIter(o)
			if err != nil {
				return err
			}
			it.First()
			return it.Close()
		}
	}
	engines := []engine{{
		set: func(k []byte) error { return up.Set(k, value, upstream.NoSync) }, flush: up.Flush,
		compact: func() error { return up.Compact(ctx, lo, hi, false) },
		seek: seekOf(func(o *IterOptions) (interface {
			First() bool
			Close() error
		}, error) {
			return up.NewIter(o)
		}),
	}}
	for _, db := range []*DB{all, rec} {
		engines = append(engines, engine{
			set: func(k []byte) error { return db.Set(k, value, NoSync) }, flush: db.Flush,
			compact: func() error { return db.Compact(ctx, lo, hi, false) },
			seek: seekOf(func(o *IterOptions) (interface {
				First() bool
				Close() error
			}, error) {
				return db.NewIter(o)
			}),
		})
	}
	for _, e := range engines {
		// Keys 0, 4, 8, ... in four flushes, compacted: a span
		// [4m+1, 4m+3) is empty, [4m, 4m+2) holds a key.
		var k []byte
		for part := range 4 {
			for i := part; i < warmupKeys; i += 4 {
				if err := e.set(benchKey(k, uint64(4*i))); err != nil {
					b.Fatal(err)
				}
			}
			if err := e.flush(); err != nil {
				b.Fatal(err)
			}
		}
		if err := e.compact(); err != nil {
			b.Fatal(err)
		}
		if burst {
			rng := rand.New(rand.NewPCG(5, 6))
			for f := range warmupBurst {
				for range warmupKeys / warmupBurst {
					k = benchKey(k, uint64(4*rng.IntN(warmupKeys)))
					if err := e.set(k); err != nil {
						b.Fatal(err)
					}
				}
				if err := e.flush(); err != nil {
					b.Fatalf("flush %d: %v", f, err)
				}
			}
		}
	}
	var dbBytes uint64
	levels, err := rec.SSTables()
	if err != nil {
		b.Fatal(err)
	}
	for _, tables := range levels {
		for _, t := range tables {
			dbBytes += t.Size
		}
	}

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rng := rand.New(rand.NewPCG(7, 8))
	spans := make([][2][]byte, warmupRound)
	spent := make([][3]time.Duration, warmupRounds)
	ends := make([]time.Duration, warmupRounds)
	start := time.Now()
	for r := range warmupRounds {
		for i := range spans {
			m := uint64(4 * rng.IntN(warmupKeys))
			if i%2 == 1 {
				m++
			}
			spans[i][0] = benchKey(spans[i][0], m)
			spans[i][1] = benchKey(spans[i][1], m+2)
		}
		for j := range engines {
			e := (j + r) % len(engines)
			t0 := cputime.Thread()
			for _, s := range spans {
				if err := engines[e].seek(s[0], s[1]); err != nil {
					b.Fatal(err)
				}
			}
			spent[r][e] = cputime.Thread() - t0
		}
		ends[r] = time.Since(start)
	}
	win := func(r, e int) float64 { return float64(spent[r][0]) / float64(spent[r][e]) }
	median := func(e, from, to int) float64 {
		var w []float64
		for r := from; r < to; r++ {
			w = append(w, win(r, e))
		}
		slices.Sort(w)
		return w[len(w)/2]
	}
	allWin := median(1, warmupRounds/2, warmupRounds)
	reached := -1
	const roll = 5
	for r := 0; r+roll <= warmupRounds; r++ {
		stays := true
		for s := r; s+roll <= warmupRounds; s++ {
			if median(2, s, s+roll) < 0.9*allWin {
				stays = false
				break
			}
		}
		if stays {
			reached = r + roll/2
			break
		}
	}
	b.ReportMetric(allWin, "all-win")
	b.ReportMetric(median(2, warmupRounds/2, warmupRounds), "recommended-win")
	if reached >= 0 {
		b.ReportMetric(float64(reached+1), "rounds-to-90%")
		b.ReportMetric(ends[reached].Seconds(), "seconds-to-90%")
	} else {
		b.ReportMetric(-1, "rounds-to-90%")
	}
	b.ReportMetric(float64(rec.RangeFilterPolicy().Backfilled().Bytes)/float64(dbBytes), "backfill/db-bytes")
}
