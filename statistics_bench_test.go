package pebble

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/internal/attribution"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
)

// benchKey is db_bench's key layout: an 8-byte big-endian number, then
// padding to 16 bytes; with an 8-byte prefix every key has its own prefix.
func benchKey(dst []byte, n uint64) []byte {
	dst = binary.BigEndian.AppendUint64(dst[:0], n)
	return append(dst, "--------"...)
}

var benchComparer = func() *Comparer {
	c := *upstream.DefaultComparer
	c.Name = "pebblerf.bench.prefix8"
	c.Split = func(k []byte) int { return min(8, len(k)) }
	return &c
}()

// benchReader is what the benchmark needs of either engine.
type benchReader[I interface {
	SeekPrefixGE([]byte) bool
	Next() bool
	Value() []byte
	Close() error
}] interface {
	NewIter(*IterOptions) (I, error)
}

// fillBench writes n keys (every other number, so that half the seeks miss)
// in four flushed batches, compacting the first two to L6: an LSM with L6
// and L0 tables.
func fillBench(b *testing.B, set func(k []byte) error, flush func() error, compact func() error, n int) {
	var k []byte
	for part := 0; part < 4; part++ {
		for i := part; i < n; i += 4 {
			k = benchKey(k, uint64(2*i))
			if err := set(k); err != nil {
				b.Fatal(err)
			}
		}
		if err := flush(); err != nil {
			b.Fatal(err)
		}
		if part == 1 {
			if err := compact(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func benchOptions() *Options {
	// A cache that holds the whole DB next to the memtable reservation, so
	// that the loop measures seeks, not block decoding.
	o := &Options{FS: vfs.NewMem(), Comparer: benchComparer, DisableAutomaticCompactions: true,
		CacheSize: 64 << 20, FormatMajorVersion: FormatNewest}
	o.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
	return o
}

// seeker runs db_bench seekrandom's loop on one engine: SeekPrefixGE, then
// up to nexts Next calls, reading every value.
type seeker func(k []byte, nexts int, newIterPerSeek bool)

func seekerFor[I interface {
	SeekPrefixGE([]byte) bool
	Next() bool
	Value() []byte
	Close() error
}](b *testing.B, r benchReader[I]) (seeker, func()) {
	it, err := r.NewIter(nil)
	if err != nil {
		b.Fatal(err)
	}
	run := func(k []byte, nexts int, newIterPerSeek bool) {
		cur := it
		if newIterPerSeek {
			if cur, err = r.NewIter(nil); err != nil {
				b.Fatal(err)
			}
		}
		for ok, j := cur.SeekPrefixGE(k), 0; ok && j <= nexts; ok, j = cur.Next(), j+1 {
			_ = cur.Value()
		}
		if newIterPerSeek {
			_ = cur.Close()
		}
	}
	return run, func() { _ = it.Close() }
}

// benchEngine, if set, makes BenchmarkSeekPrefixStatistics run one engine
// alone, so that a CPU profile shows that engine's costs only (compare the
// profiles of two runs); its ratios are then meaningless.
var benchEngine = flag.String("statistics.engine", "", "BenchmarkSeekPrefixStatistics: run only this engine (upstream, off, on or filtersonly), for profiles")

// BenchmarkSeekPrefixStatistics compares upstream Pebble with pebblerf with
// statistics off, on, and on with FiltersOnly, over identical LSMs with identical filters (Pebble's
// Bloom, 10 bits per key), on db_bench seekrandom's loop. The engines take
// turns in slices of 256 seeks over the same keys on one locked OS thread,
// and each is charged the thread's CPU time (wall time off Linux), so that
// other processes disturb the comparison as little as possible. The reported
// metrics are each engine's ns per seek and pebblerf's ratios to upstream
// (time, so below 1 is faster).
func BenchmarkSeekPrefixStatistics(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	lo, hi := benchKey(nil, 0), benchKey(nil, 2*n)
	up, err := upstream.Open("db", benchOptions())
	if err != nil {
		b.Fatal(err)
	}
	defer up.Close()
	fillBench(b, func(k []byte) error { return up.Set(k, k, nil) }, up.Flush,
		func() error { return up.Compact(ctx, lo, hi, false) }, n)
	upSeek, upClose := seekerFor[*upstream.Iterator](b, up)
	defer upClose()
	seekers := []seeker{upSeek}
	for _, plugins := range []Plugins{{}, {Statistics: true},
		{Statistics: true, StatisticsConfig: seekstats.Config{FiltersOnly: true}}} {
		db, err := OpenWithPlugins("db", benchOptions(), plugins)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		fillBench(b, func(k []byte) error { return db.Set(k, k, nil) }, db.Flush,
			func() error { return db.Compact(ctx, lo, hi, false) }, n)
		s, c := seekerFor[*Iterator](b, db)
		defer c()
		seekers = append(seekers, s)
	}
	for _, nexts := range []int{1, 10} {
		for _, perSeek := range []bool{true, false} {
			b.Run(fmt.Sprintf("nexts=%d/newiter=%t", nexts, perSeek), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				const slice = 256
				keys := make([][]byte, slice)
				rng := rand.New(rand.NewPCG(1, 2))
				var spent [4]time.Duration
				engines := []string{"upstream", "off", "on", "filtersonly"}
				for done := 0; done < b.N; done += slice {
					for i := range keys {
						keys[i] = benchKey(keys[i], uint64(rng.IntN(2*n)))
					}
					for e, seek := range seekers {
						if *benchEngine != "" && engines[e] != *benchEngine {
							continue
						}
						start := cputime.Thread()
						for _, k := range keys {
							seek(k, nexts, perSeek)
						}
						spent[e] += cputime.Thread() - start
					}
				}
				ops := float64((b.N + slice - 1) / slice * slice)
				b.ReportMetric(float64(spent[0].Nanoseconds())/ops, "upstream-"+cputime.ClockName+"-ns/seek")
				b.ReportMetric(float64(spent[1].Nanoseconds())/ops, "off-"+cputime.ClockName+"-ns/seek")
				b.ReportMetric(float64(spent[2].Nanoseconds())/ops, "on-"+cputime.ClockName+"-ns/seek")
				b.ReportMetric(float64(spent[1])/float64(spent[0]), "off/upstream")
				b.ReportMetric(float64(spent[2])/float64(spent[0]), "on/upstream")
				b.ReportMetric(float64(spent[2])/float64(spent[1]), "on/off")
				b.ReportMetric(float64(spent[3])/float64(spent[1]), "filtersonly/off")
			})
		}
	}
}

// BenchmarkSeekPrefixStatisticsSplit splits the cost of statistics for an
// iterator per seek (db_bench seekrandom's loop, one Next) into three
// steps, each engine over the one before it in the same run, as
// BenchmarkSeekPrefixStatistics interleaves them: statistics off over
// untagged tables; off over tables written with statistics (the tables'
// tags and the reader that strips them from the filters); FiltersOnly over
// those tables (the plug-in's own work per iterator, seek and filter
// check); and on (the block-property filter: Pebble's per-table set-up and
// the data-block and value attribution).
func BenchmarkSeekPrefixStatisticsSplit(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	lo, hi := benchKey(nil, 0), benchKey(nil, 2*n)
	filtersOnly := Plugins{Statistics: true, StatisticsConfig: seekstats.Config{FiltersOnly: true}}
	engines := []struct{ write, read Plugins }{
		{Plugins{}, Plugins{}},
		{filtersOnly, Plugins{}},
		{filtersOnly, filtersOnly},
		{Plugins{Statistics: true}, Plugins{Statistics: true}},
	}
	var seekers []seeker
	for _, e := range engines {
		opts := benchOptions()
		db, err := OpenWithPlugins("db", opts, e.write)
		if err != nil {
			b.Fatal(err)
		}
		fillBench(b, func(k []byte) error { return db.Set(k, k, nil) }, db.Flush,
			func() error { return db.Compact(ctx, lo, hi, false) }, n)
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		reopen := benchOptions()
		reopen.FS, reopen.Logger = opts.FS, quietLogger{}
		if db, err = OpenWithPlugins("db", reopen, e.read); err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		s, c := seekerFor[*Iterator](b, db)
		defer c()
		seekers = append(seekers, s)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const slice = 256
	keys := make([][]byte, slice)
	rng := rand.New(rand.NewPCG(1, 2))
	var spent [4]time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += slice {
		for i := range keys {
			keys[i] = benchKey(keys[i], uint64(rng.IntN(2*n)))
		}
		for e, seek := range seekers {
			start := cputime.Thread()
			for _, k := range keys {
				seek(k, 1, true)
			}
			spent[e] += cputime.Thread() - start
		}
	}
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "offtagged/off")
	b.ReportMetric(float64(spent[2])/float64(spent[1]), "filtersonly/offtagged")
	b.ReportMetric(float64(spent[3])/float64(spent[2]), "on/filtersonly")
	b.ReportMetric(float64(spent[3])/float64(spent[0]), "on/off")
}

// BenchmarkIteratorPluginState measures what an iterator of a reader with
// statistics costs in plug-in state alone, without Pebble: readying it, one
// prefix seek's reports (begin, end, a value read) and releasing it, for
// each tier. The wrapper's pool Get and Put, which every iterator pays, are
// included.
func BenchmarkIteratorPluginState(b *testing.B) {
	for _, tier := range []struct {
		name string
		cfg  seekstats.Config
	}{{"full", seekstats.Config{}}, {"filtersonly", seekstats.Config{FiltersOnly: true}}} {
		b.Run(tier.name, func(b *testing.B) {
			stats := attribution.New(tier.cfg, attribution.Sources{RangeFilters: rangefilter.Properties{}})
			r := (&installed{stats: stats}).readerHooks()
			key := benchKey(nil, 1)
			// EndSeek reads the key of an iterator that ended valid; an
			// unpositioned one has none, and the seek loaded nothing to
			// credit with it.
			unpositioned := new(upstream.Iterator)
			b.ReportAllocs()
			for b.Loop() {
				i := getIterator()
				i.r = &r
				_ = i.initHooks(nil)
				if i.h != nil {
					i.h.BeginSeek(true)
					i.h.EndSeek(unpositioned, true)
					i.h.OnValue(key)
				} else {
					i.counted(true)
				}
				i.release()
			}
		})
	}
}
