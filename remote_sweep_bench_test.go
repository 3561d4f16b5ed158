// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/objstore"
)

// BenchmarkRecommendedRemoteSweep checks, on a DB whose every table lives
// on an object store, that Recommended() never makes more GETs, nor moves
// more bytes, than upstream Pebble, at every block-cache size from 1 MiB
// up, with and without Pebble's secondary cache, and says where it makes
// fewer. Both engines hold the same keys in L6 (a load, then a manual
// compaction), on stores of their own that count every request
// (objstore's meter), with Bloom(10) on every level, as a user's options
// name it; each cell reopens copies of both DBs with cold caches and runs
// one read workload:
//
//   - gets: Gets, half of them of absent keys;
//   - scans: short bounded scans (a seek and one Next within 8 key
//     positions), half of them over empty ranges.
//
// Metrics, per cell: gets-ratio and bytes-ratio are pebblerf's remote GETs
// and bytes over upstream's, every request of the run counted (table
// opens, index, filter and data blocks); up-gets the GETs of upstream's
// run. With the secondary cache they are ratios of sums over sweepPairs
// paired runs, and control-gets-ratio and control-bytes-ratio the same for
// upstream against itself: the spread the cell's ratios have to be read
// against.
//
//	go test -run '^$' -bench BenchmarkRecommendedRemoteSweep -benchtime=1x .
func BenchmarkRecommendedRemoteSweep(b *testing.B) {
	base := b.TempDir()
	built := map[bool]string{}
	for _, rec := range []bool{false, true} {
		built[rec] = sweepBuild(b, filepath.Join(base, fmt.Sprint(rec)), rec)
	}
	for _, cache := range []int64{1 << 20, 2 << 20, 8 << 20, 64 << 20} {
		for _, secondary := range []bool{false, true} {
			for _, workload := range []string{"gets", "scans"} {
				name := fmt.Sprintf("cache=%dMiB/secondary=%t/%s", cache>>20, secondary, workload)
				b.Run(name, func(b *testing.B) {
					for b.Loop() {
						sweepCell(b, built, cache, secondary, workload)
					}
				})
			}
		}
	}
}

// sweepPairs is the paired runs of a cell with the secondary cache: its
// GETs are a hundred or so per run, and vary from run to run of the same
// engine by a third (which blocks a run leaves in Pebble's shared cache
// depends on what the DB's background work read meanwhile), so a cell
// sums several pairs, beside a control of upstream against itself.
// Without it, a run's requests repeat exactly.
const sweepPairs = 7

// sweepCell runs one cell of the sweep and reports its metrics.
func sweepCell(b *testing.B, built map[bool]string, cache int64, secondary bool, workload string) {
	pairs := 1
	if secondary {
		pairs = sweepPairs
	}
	// Sums over the pairs: with a few requests per run, a ratio of sums
	// is steadier than a median of ratios.
	var gets, bytes [3]int64
	for range pairs {
		// Upstream, pebblerf, and upstream again for the control.
		for i, rec := range []bool{false, true, false} {
			if i == 2 && !secondary {
				break
			}
			g, by := sweepRead(b, built[rec], filepath.Join(b.TempDir(), "db"), rec, cache, secondary, workload)
			gets[i], bytes[i] = gets[i]+g, bytes[i]+by
		}
	}
	b.ReportMetric(float64(gets[1])/float64(gets[0]), "gets-ratio")
	b.ReportMetric(float64(bytes[1])/float64(bytes[0]), "bytes-ratio")
	b.ReportMetric(float64(gets[0])/float64(pairs), "up-gets")
	if secondary {
		b.ReportMetric(float64(gets[2])/float64(gets[0]), "control-gets-ratio")
		b.ReportMetric(float64(bytes[2])/float64(bytes[0]), "control-bytes-ratio")
	}
}

const (
	sweepKeys  = 200_000
	sweepReads = 20_000
	// sweepSecondary is the secondary cache's size: a third of the data,
	// as a local disk beside a store holds part of what lives there.
	sweepSecondary = 8 << 20
)

// sweepOptions are the options of the sweep's DBs, their tables on store,
// with a block cache of cache bytes and a secondary cache or not.
func sweepOptions(b *testing.B, dir string, store *objstore.Meter, cache int64, secondary bool) *Options {
	o := &Options{FS: vfs.Default, CacheSize: cache, FormatMajorVersion: FormatNewest, Logger: quietLogger{}}
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	cfg := objstore.Config{Store: store, Levels: objstore.AllLevels}
	if secondary {
		cfg.SecondaryCacheSize = sweepSecondary
	}
	if err := objstore.Configure(dir, o, cfg); err != nil {
		b.Fatal(err)
	}
	return o
}

// sweepBuild writes the sweep's DB under root, with pebblerf and
// Recommended() when rec is set, and returns root: the DB's directory is
// root/db, its store root/store.
func sweepBuild(b *testing.B, root string, rec bool) string {
	store, err := objstore.Open("sim+file://" + filepath.Join(root, "store") + "?latency=0")
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	dir := filepath.Join(root, "db")
	o := sweepOptions(b, dir, store, 8<<20, false)
	type writer interface {
		Set(k, v []byte, o *WriteOptions) error
		Compact(ctx context.Context, start, end []byte, parallelize bool) error
		Close() error
	}
	var db writer
	if rec {
		db, err = OpenWithPlugins(dir, o, Recommended())
	} else {
		db, err = upstream.Open(dir, o)
	}
	if err != nil {
		b.Fatal(err)
	}
	value := make([]byte, 100)
	for i := range sweepKeys {
		// Keys 0, 4, 8, ...: absent keys and empty spans lie between.
		if err := db.Set(sweepKey(4*i), value, NoSync); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Compact(context.Background(), sweepKey(0), sweepKey(4*sweepKeys), false); err != nil {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	return root
}

func sweepKey(i int) []byte { return fmt.Appendf(nil, "key%09d", i) }

// sweepRead copies the DB built under root to dir (and its store beside
// it), opens it as built, with a cold block cache of cache bytes and a
// secondary cache or not, runs the workload and returns the GETs and bytes
// the store served.
func sweepRead(b *testing.B, root, dir string, rec bool, cache int64, secondary bool, workload string) (gets, bytes int64) {
	storeDir := filepath.Join(filepath.Dir(dir), "store")
	for from, to := range map[string]string{filepath.Join(root, "db"): dir, filepath.Join(root, "store"): storeDir} {
		if err := os.CopyFS(to, os.DirFS(from)); err != nil {
			b.Fatal(err)
		}
	}
	store, err := objstore.Open("sim+file://" + storeDir + "?latency=0")
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	o := sweepOptions(b, dir, store, cache, secondary)
	// What the workloads do on either engine.
	var (
		get     func(k []byte) ([]byte, io.Closer, error)
		scan    func(o *IterOptions) error
		closeDB func() error
	)
	if rec {
		db, err := OpenWithPlugins(dir, o, Recommended())
		if err != nil {
			b.Fatal(err)
		}
		get, closeDB = db.Get, db.Close
		scan = func(o *IterOptions) error { return sweepScan(db.NewIter(o)) }
	} else {
		db, err := upstream.Open(dir, o)
		if err != nil {
			b.Fatal(err)
		}
		get, closeDB = db.Get, db.Close
		scan = func(o *IterOptions) error { return sweepScan(db.NewIter(o)) }
	}
	defer func() {
		if err := closeDB(); err != nil {
			b.Fatal(err)
		}
	}()
	before := store.Snapshot()
	rng := rand.New(rand.NewPCG(9, 10))
	for range sweepReads {
		k := 4 * rng.IntN(sweepKeys)
		switch workload {
		case "gets":
			if rng.IntN(2) == 1 {
				k += 2 // absent
			}
			if _, c, err := get(sweepKey(k)); err == nil {
				_ = c.Close()
			} else if err != ErrNotFound {
				b.Fatal(err)
			}
		case "scans":
			if rng.IntN(2) == 1 {
				k++ // [k+1, k+3) is empty
			}
			if err := scan(&IterOptions{LowerBound: sweepKey(k), UpperBound: sweepKey(k + 8)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	d := store.Snapshot().Sub(before)
	for _, c := range []objstore.Counts{d.Open, d.Index, d.Filter, d.Data, d.Other} {
		gets, bytes = gets+c.Requests, bytes+c.Bytes
	}
	return gets, bytes
}

// sweepScan is a short scan on it: a seek and one Next.
func sweepScan[I interface {
	First() bool
	Next() bool
	Close() error
}](it I, err error) error {
	if err != nil {
		return err
	}
	if it.First() {
		it.Next()
	}
	return it.Close()
}
