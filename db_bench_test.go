package pebble

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/pebblerf/pebble/querybuilder"
)

// seekIter is what the range-query benchmark needs of any iterator.
type seekIter interface {
	SeekGE([]byte) bool
	Next() bool
	Value() []byte
	Close() error
}

// BenchmarkRangeQueryFewRuns measures what a range query costs where the
// planner has nothing to defer: three L0 sublevels that each span the key
// space, where the auto plan picks plain. Upstream's NewIter, pebblerf's
// NewIter and pebblerf's range queries (one Builder, as a program keeps
// one), with statistics off and on, take turns in slices of 256 seeks over
// the same keys on one locked OS thread, each charged the thread's CPU time,
// as in BenchmarkSeekPrefixStatistics (starting
// with a different engine each slice). Ratios are of time (below 1 is
// faster): query/newiter compares like with like, the query and pebblerf's
// own iterator on the same tables and statistics.
func BenchmarkRangeQueryFewRuns(b *testing.B) {
	const n, runs = 30_000, 3
	fill := func(set func(k []byte) error, flush func() error) {
		rng := rand.New(rand.NewPCG(3, 4))
		var k []byte
		for r := 0; r < runs; r++ {
			for i := 0; i < n; i++ {
				k = benchKey(k, uint64(rng.IntN(4*n)))
				if err := set(k); err != nil {
					b.Fatal(err)
				}
			}
			if err := flush(); err != nil {
				b.Fatal(err)
			}
		}
	}
	opts := func() *Options {
		return &Options{FS: vfs.NewMem(), DisableAutomaticCompactions: true, CacheSize: 64 << 20,
			L0StopWritesThreshold: 100, FormatMajorVersion: FormatNewest}
	}
	up, err := upstream.Open("db", opts())
	if err != nil {
		b.Fatal(err)
	}
	defer up.Close()
	fill(func(k []byte) error { return up.Set(k, k, nil) }, up.Flush)
	type engine struct {
		name    string
		newIter func() (seekIter, error)
	}
	engines := []engine{{"upstream", func() (seekIter, error) { return up.NewIter(nil) }}}
	for _, plugins := range []Plugins{{}, {Statistics: true}} {
		db, err := OpenWithPlugins("db", opts(), plugins)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		fill(func(k []byte) error { return db.Set(k, k, nil) }, db.Flush)
		if p, _ := db.NewRangeQuery(nil, nil); p != nil {
			if plan, why := p.Plan(); plan != querybuilder.PlanPlain {
				b.Fatalf("auto chose %s (%s), want plain", plan, why)
			}
			_ = p.Close()
		}
		queries := db.RangeQueries(RangeQueryOptions{})
		on := fmt.Sprintf("stats=%t", plugins.Statistics)
		engines = append(engines,
			engine{"newiter-" + on, func() (seekIter, error) { return db.NewIter(nil) }},
			engine{"query-" + on, func() (seekIter, error) { return queries.NewIter(nil) }})
	}
	for _, nexts := range []int{1, 10} {
		for _, perSeek := range []bool{true, false} {
			b.Run(fmt.Sprintf("nexts=%d/newiter=%t", nexts, perSeek), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				reused := make([]seekIter, len(engines))
				for e := range engines {
					var err error
					if reused[e], err = engines[e].newIter(); err != nil {
						b.Fatal(err)
					}
					defer reused[e].Close()
				}
				const slice = 256
				keys := make([][]byte, slice)
				rng := rand.New(rand.NewPCG(1, 2))
				spent := make([]int64, len(engines)) // ns
				for done, round := 0, 0; done < b.N; done, round = done+slice, round+1 {
					for i := range keys {
						keys[i] = benchKey(keys[i], uint64(rng.IntN(4*n)))
					}
					// Each round starts with another engine, so that none
					// always runs on the caches its predecessor left.
					for j := range engines {
						e := (j + round) % len(engines)
						start := cputime.Thread()
						for _, k := range keys {
							it := reused[e]
							if perSeek {
								var err error
								if it, err = engines[e].newIter(); err != nil {
									b.Fatal(err)
								}
							}
							for ok, j := it.SeekGE(k), 0; ok && j <= nexts; ok, j = it.Next(), j+1 {
								_ = it.Value()
							}
							if perSeek {
								_ = it.Close()
							}
						}
						spent[e] += int64(cputime.Thread() - start)
					}
				}
				ops := float64((b.N + slice - 1) / slice * slice)
				for e := range engines {
					b.ReportMetric(float64(spent[e])/ops, engines[e].name+"-"+cputime.ClockName+"-ns/seek")
				}
				b.ReportMetric(float64(spent[2])/float64(spent[0]), "query-off/upstream")
				b.ReportMetric(float64(spent[2])/float64(spent[1]), "query/newiter-off")
				b.ReportMetric(float64(spent[4])/float64(spent[0]), "query-on/upstream")
				b.ReportMetric(float64(spent[4])/float64(spent[3]), "query/newiter-on")
			})
		}
	}
}
