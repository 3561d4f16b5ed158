// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/pebblerf/pebble/rangefilter"
)

// BenchmarkRangeLenObserver measures what observing range lengths costs a
// bounded seek: db_bench seekrandom's loop with a bound (a new iterator per
// seek, the costliest case, since every seek opens its tables anew) over L0
// and L6 tables written with range filters and statistics, read with
// statistics on and no range filter, once with the observer and once
// without. The two take turns in slices of 256 seeks over the same keys on
// one locked OS thread, each charged the thread's CPU time (wall time off
// Linux). Reported: ns per seek of each, and their ratio.
func BenchmarkRangeLenObserver(b *testing.B) {
	defer func() { observeRangeLens = true }()
	const n = 100_000
	key := func(dst []byte, i uint64) []byte {
		dst = binary.BigEndian.AppendUint64(dst[:0], i)
		return append(dst, "--------"...)
	}
	opts := &pebble.Options{FS: vfs.NewMem(), DisableAutomaticCompactions: true,
		FormatMajorVersion: pebble.FormatNewest, Cache: pebble.NewCache(64 << 20), Logger: benchLogger{}}
	defer opts.Cache.Unref()
	s := New(Config{}, Sources{RangeFilters: rangefilter.Properties{}})
	s.Install(opts)
	policy, err := rangefilter.NewPolicy(pebble.DefaultComparer, rangefilter.Config{Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, policy.Collector())
	db, err := pebble.Open("db", opts)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := s.Attach(db); err != nil {
		b.Fatal(err)
	}
	// Every other number, in four flushes, the first two compacted to L6.
	var k []byte
	for part := 0; part < 4; part++ {
		for i := part; i < n; i += 4 {
			k = key(k, uint64(2*i))
			if err := db.Set(k, k, nil); err != nil {
				b.Fatal(err)
			}
		}
		if err := db.Flush(); err != nil {
			b.Fatal(err)
		}
		if part == 1 {
			if err := db.Compact(context.Background(), key(nil, 0), key(nil, 2*n), false); err != nil {
				b.Fatal(err)
			}
		}
	}
	seek := func(lo, hi []byte) {
		t, o := s.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
		it, err := db.NewIter(o)
		if err != nil {
			b.Fatal(err)
		}
		t.BeginSeek(false)
		valid := it.SeekGE(lo)
		var found []byte
		if valid {
			found = it.Key()
		}
		t.EndSeek(valid, found)
		_ = it.Close()
		t.Release()
	}
	// Warm the block cache and the table cache over the whole key space.
	for i := uint64(0); i < 2*n; i += 16 {
		lo := key(nil, i)
		seek(lo, key(nil, i+3))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const slice = 256
	los, his := make([][]byte, slice), make([][]byte, slice)
	rng := rand.New(rand.NewPCG(1, 2))
	var spent [2]time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += slice {
		for i := range los {
			x := uint64(rng.IntN(2 * n))
			los[i], his[i] = key(los[i], x), key(his[i], x+3)
		}
		for e, on := range []bool{false, true} {
			observeRangeLens = on
			start := cputime.Thread()
			for i := range los {
				seek(los[i], his[i])
			}
			spent[e] += cputime.Thread() - start
		}
	}
	ops := float64((b.N + slice - 1) / slice * slice)
	b.ReportMetric(float64(spent[0].Nanoseconds())/ops, "without-"+cputime.ClockName+"-ns/seek")
	b.ReportMetric(float64(spent[1].Nanoseconds())/ops, "with-"+cputime.ClockName+"-ns/seek")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "with/without")
	if s.Store().Lens.Sum(RowL0+6, false)[LenChecks] == 0 {
		b.Fatal("no range lengths observed at L6")
	}
}

type benchLogger struct{}

func (benchLogger) Infof(string, ...interface{})  {}
func (benchLogger) Errorf(string, ...interface{}) {}
func (benchLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}
