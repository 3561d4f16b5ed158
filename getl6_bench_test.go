// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/objstore"
)

// getL6Engine is one DB of BenchmarkGetL6Filters.
type getL6Engine struct {
	name  string
	get   func([]byte) ([]byte, io.Closer, error)
	store *objstore.Meter
}

// BenchmarkGetL6Filters measures Gets on a DB whose L5 and L6 live on a
// metered simulated object store (objstore.LowerLevels, 20 µs a request,
// which the sleeps of this machine's timers stretch), with
// 200,000 keys of 100-byte values compacted into L6, Bloom(10) on every
// level and an 8 MiB block cache (about a third of the data) or a 64 MiB
// one (all of it, so that ns/op is the CPU a Get costs): upstream
// Pebble, pebblerf without the plug-in, with GetL6Filters on, and with its
// automatic mode. Each engine has its own store holding the same data.
// Gets of absent keys (odd numbers, between the written even ones) and of
// present keys report remote GETs per Get (getsPerOp: every GET, table opens,
// index, filter and data blocks) and ns/op, the GETs' waits and the CPU a
// Get costs; at a real store's latency the GETs decide.
func BenchmarkGetL6Filters(b *testing.B) {
	const n = 200_000
	open := func(name string, cache int64, plugins *Plugins) getL6Engine {
		e := getL6Engine{name: name}
		e.store = remoteL6(b, n, cache, func(o *Options) error {
			if plugins == nil {
				db, err := upstream.Open("db", o)
				if err == nil {
					e.get = db.Get
					b.Cleanup(func() { _ = db.Close() })
				}
				return err
			}
			db, err := OpenWithPlugins("db", o, *plugins)
			if err == nil {
				e.get = db.Get
				b.Cleanup(func() { _ = db.Close() })
			}
			return err
		})
		return e
	}
	for _, cache := range []int64{8 << 20, 64 << 20} {
		engines := []getL6Engine{
			open("upstream", cache, nil),
			open("off", cache, &Plugins{}),
			open("on", cache, &Plugins{GetL6Filters: &GetL6Config{}}),
			open("auto", cache, &Plugins{GetL6Filters: &GetL6Config{Auto: true}}),
		}
		benchGetL6(b, n, cache, engines)
	}
}

// benchGetL6 runs BenchmarkGetL6Filters' Gets on engines, whose block caches
// are cache bytes.
func benchGetL6(b *testing.B, n int, cache int64, engines []getL6Engine) {
	getsOf := func(s objstore.Snapshot) int64 {
		return s.Open.Requests + s.Index.Requests + s.Filter.Requests + s.Data.Requests + s.Other.Requests
	}
	for _, keys := range []string{"absent", "present"} {
		for _, e := range engines {
			b.Run(fmt.Sprintf("cache=%dMiB/keys=%s/engine=%s", cache>>20, keys, e.name), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				var k []byte
				// Warm the cache (and the automatic mode's first windows)
				// with the same kind of Gets, outside the count.
				get := func() {
					i := 2 * rng.IntN(n)
					if keys == "absent" {
						i++
					}
					k = fmt.Appendf(k[:0], "key%07d", i)
					_, c, err := e.get(k)
					switch {
					case err == nil:
						_ = c.Close()
					case err != ErrNotFound:
						b.Fatal(err)
					}
				}
				for j := 0; j < 4*getL6Window; j++ {
					get()
				}
				before := getsOf(e.store.Snapshot())
				b.ResetTimer()
				for j := 0; j < b.N; j++ {
					get()
				}
				b.StopTimer()
				b.ReportMetric(float64(getsOf(e.store.Snapshot())-before)/float64(b.N), "getsPerOp")
			})
		}
	}
}
