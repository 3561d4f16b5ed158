// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/pebblerf/pebble/rangefilter"
)

// BenchmarkDefaultPath compares Open with upstream Pebble on identical
// options (Pebble's Bloom filter, 10 bits per key, an 8-byte prefix) in
// db_bench's three basic loops: fillrandom (Set, into the memtable),
// readrandom (Get, half of the keys absent) and seekrandom (a new iterator per SeekPrefixGE, reading
// the value). The engines take turns in slices of 256 operations over the
// same keys on one locked OS thread, each charged the thread's CPU time
// (wall time off Linux). The metric open/upstream is the ratio of the time
// spent, so below 1 means Open is faster.
func BenchmarkDefaultPath(b *testing.B) {
	compareWithUpstream(b, "open", Open, 0)
}

// BenchmarkRecommended is BenchmarkDefaultPath with pebblerf opened with
// Recommended(): what the recommended set costs on reads it cannot help
// (no bounded iterator; half of the Gets absent, which Auto may route
// through L6 filters once L6 holds tables with filters).
func BenchmarkRecommended(b *testing.B) {
	compareWithUpstream(b, "recommended", openRecommended, 0)
}

// BenchmarkRecommendedSmallCache is BenchmarkRecommended with a 1 MiB
// block cache, as the workload matrix's DBs have next to their data: most
// blocks are read and decoded again, so a loop weighs the set's per-operation
// cost against operations that cost what they do in a DB larger than its
// cache.
func BenchmarkRecommendedSmallCache(b *testing.B) {
	compareWithUpstream(b, "recommended", openRecommended, 1<<20)
}

func openRecommended(dir string, o *Options) (*DB, error) {
	return OpenWithPlugins(dir, o, Recommended())
}

// compareWithUpstream is BenchmarkDefaultPath's loops, pebblerf opened by
// open, each engine with a block cache of cache bytes (0: benchOptions'
// own); the metrics carry label.
func compareWithUpstream(b *testing.B, label string, open func(string, *Options) (*DB, error), cache int64) {
	const n = 100_000
	ctx := context.Background()
	lo, hi := benchKey(nil, 0), benchKey(nil, 2*n)
	opts := func() *Options {
		o := benchOptions()
		// fillrandom's flushes pile up in L0, as automatic compactions
		// are off: no stall.
		o.L0StopWritesThreshold = 1 << 30
		if cache > 0 {
			o.CacheSize = cache
		}
		return o
	}
	up, err := upstream.Open("db", opts())
	if err != nil {
		b.Fatal(err)
	}
	defer up.Close()
	db, err := open("db", opts())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	fillBench(b, func(k []byte) error { return up.Set(k, k, nil) }, up.Flush,
		func() error { return up.Compact(ctx, lo, hi, false) }, n)
	fillBench(b, func(k []byte) error { return db.Set(k, k, nil) }, db.Flush,
		func() error { return db.Compact(ctx, lo, hi, false) }, n)

	get := func(g func([]byte) ([]byte, interface{ Close() error }, error)) func(k []byte) {
		return func(k []byte) {
			if _, c, err := g(k); err == nil {
				_ = c.Close()
			}
		}
	}
	type engineOps struct{ set, get, seek func(k []byte) }
	engines := [2]engineOps{{
		set: func(k []byte) { _ = up.Set(k, k, upstream.NoSync) },
		get: get(func(k []byte) ([]byte, interface{ Close() error }, error) { return up.Get(k) }),
		seek: func(k []byte) {
			it, _ := up.NewIter(nil)
			if it.SeekPrefixGE(k) {
				_ = it.Value()
			}
			_ = it.Close()
		},
	}, {
		set: func(k []byte) { _ = db.Set(k, k, NoSync) },
		get: get(func(k []byte) ([]byte, interface{ Close() error }, error) { return db.Get(k) }),
		seek: func(k []byte) {
			it, _ := db.NewIter(nil)
			if it.SeekPrefixGE(k) {
				_ = it.Value()
			}
			_ = it.Close()
		},
	}}
	for _, bench := range []struct {
		name string
		op   func(e engineOps) func([]byte)
	}{
		{"readrandom", func(e engineOps) func([]byte) { return e.get }},
		{"seekrandom", func(e engineOps) func([]byte) { return e.seek }},
		// Last, as its keys change what the reads find.
		{"fillrandom", func(e engineOps) func([]byte) { return e.set }},
	} {
		b.Run(bench.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			const slice = 256
			keys := make([][]byte, slice)
			rng := rand.New(rand.NewPCG(1, 2))
			var spent [2]time.Duration
			for done := 0; done < b.N; done += slice {
				for i := range keys {
					// Reads: any number, so that about half of them miss.
					num := uint64(rng.IntN(2 * n))
					keys[i] = benchKey(keys[i], num)
				}
				// Alternate which engine goes first, so that neither
				// always meets the caches the other warmed.
				for j := range 2 {
					e := (j + done/slice) % 2
					op := bench.op(engines[e])
					start := cputime.Thread()
					for _, k := range keys {
						op(k)
					}
					spent[e] += cputime.Thread() - start
				}
			}
			ops := float64((b.N + slice - 1) / slice * slice)
			b.ReportMetric(float64(spent[0].Nanoseconds())/ops, "upstream-"+cputime.ClockName+"-ns/op")
			b.ReportMetric(float64(spent[1].Nanoseconds())/ops, label+"-"+cputime.ClockName+"-ns/op")
			b.ReportMetric(float64(spent[1])/float64(spent[0]), label+"/upstream")
		})
	}
}

// BenchmarkRecommendedFlushCompact measures what the recommended set adds
// to a DB's writes where they cost: not in Set, which it leaves alone, but
// in the flushes and compactions that build its range filters. Each
// iteration fills a memtable-only DB per engine (in memory, compactions
// off, untimed), then charges the engine the process CPU time of one flush
// and one full compaction, the engines' order swapped every iteration. The
// metrics are each engine's CPU ns per key and their ratio (above 1: the
// set costs more). "open", pebblerf with no plug-in, is the control: it
// runs upstream's code, so its ratio is the loop's own error;
// "every-table", range filters in every table as a plan without demand
// builds them, is what the recommended set does not pay while no bounded
// read comes. Process CPU
// counts every goroutine, so the benchmark must be alone in its process:
// run it by itself.
func BenchmarkRecommendedFlushCompact(b *testing.B) {
	for _, tc := range []struct {
		name    string
		plugins Plugins
	}{
		{"open", Plugins{}},
		{"recommended", Recommended()},
		{"every-table", Plugins{RangeFilter: &rangefilter.Config{}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			flushCompactBench(b, tc.name, [2]func(*Options) (writeEngine, error){
				func(o *Options) (writeEngine, error) { return upstream.Open("db", o) },
				func(o *Options) (writeEngine, error) { return OpenWithPlugins("db", o, tc.plugins) },
			})
		})
	}
}

// flushCompactBench is BenchmarkRecommendedFlushCompact's loop over the
// two engines open opens; the metrics carry label.
func flushCompactBench(b *testing.B, label string, open [2]func(*Options) (writeEngine, error)) {
	const n = 100_000
	ctx := context.Background()
	opts := func() *Options {
		o := benchOptions()
		o.MemTableSize = 64 << 20 // every key in one memtable: one flush
		o.Logger = quietLogger{}
		return o
	}
	rng := rand.New(rand.NewPCG(3, 4))
	value := make([]byte, 100)
	var spent [2]time.Duration
	var k []byte
	for i := range b.N {
		for j := range 2 {
			e := (i + j) % 2
			db, err := open[e](opts())
			if err != nil {
				b.Fatal(err)
			}
			for range n {
				k = benchKey(k, rng.Uint64N(16*n))
				if err := db.Set(k, value, NoSync); err != nil {
					b.Fatal(err)
				}
			}
			runtime.GC()
			start := cputime.Process()
			if err := db.Flush(); err != nil {
				b.Fatal(err)
			}
			if err := db.Compact(ctx, benchKey(nil, 0), benchKey(nil, 16*n), false); err != nil {
				b.Fatal(err)
			}
			spent[e] += cputime.Process() - start
			if err := db.Close(); err != nil {
				b.Fatal(err)
			}
		}
	}
	keys := float64(b.N * n)
	b.ReportMetric(float64(spent[0].Nanoseconds())/keys, "upstream-cpu-ns/key")
	b.ReportMetric(float64(spent[1].Nanoseconds())/keys, label+"-cpu-ns/key")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), label+"/upstream")
}

// writeEngine is what flushCompactBench does to either engine: upstream's
// DB and pebblerf's share these methods.
type writeEngine interface {
	Set(k, v []byte, o *WriteOptions) error
	Compact(ctx context.Context, lo, hi []byte, parallel bool) error
	Flush() error
	Close() error
}
