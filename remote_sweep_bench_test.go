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
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/objstore"
)

// BenchmarkRecommendedRemoteSweep checks, on a DB whose every table lives
// on an object store, that Recommended() never makes more GETs, nor moves
// more bytes, than upstream Pebble, at every block-cache size from 1 MiB
// up, with and without Pebble's secondary cache, and says where it makes
// fewer. One DB is built, with pebblerf and Recommended() (its tables are
// upstream's with a range-filter property; without bounded reads the set
// builds no filter), 200,000 keys loaded and compacted into L6, Bloom(10)
// on every level, as a user's options name it; each cell copies it, with
// its store, for each engine, reopens the copy with cold caches on a store
// that counts every request (objstore's meter), and runs one read
// workload. Reading the same files, the engines differ only in how they
// read them (with a secondary cache, which blocks a run fetches depends on
// where they lie in the files, so two builds' layouts would differ by more
// than the engines do):
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
	built := sweepBuild(b, b.TempDir())
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
// engine by up to a half (the secondary cache fetches a piece of a table
// that two reads miss at once twice, and writes what it fetched back to
// local disk in the background, so which reads race depends on timing),
// so a cell sums several pairs, beside a control of upstream against
// itself. Without it, a run's requests repeat exactly.
const sweepPairs = 15

// sweepCell runs one cell of the sweep and reports its metrics.
func sweepCell(b *testing.B, built string, cache int64, secondary bool, workload string) {
	pairs := 1
	if secondary {
		pairs = sweepPairs
	}
	// Sums over the pairs: with a few requests per run, a ratio of sums
	// is steadier than a median of ratios.
	var gets, bytes [3]int64
	for pair := range pairs {
		// Upstream, pebblerf, and upstream again for the control, each
		// pair in another order, so that no engine always reads first.
		for j := range 3 {
			i := (j + pair) % 3
			if i == 2 && !secondary {
				continue
			}
			g, by := sweepRead(b, built, filepath.Join(b.TempDir(), "db"), i == 1, cache, secondary, workload)
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
// Recommended(), and returns root: the DB's directory is root/db, its
// store root/store.
func sweepBuild(b *testing.B, root string) string {
	store, err := objstore.Open("sim+file://" + filepath.Join(root, "store") + "?latency=0")
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	dir := filepath.Join(root, "db")
	o := sweepOptions(b, dir, store, 8<<20, false)
	db, err := OpenWithPlugins(dir, o, Recommended())
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
		metrics func() *upstream.Metrics
	)
	if rec {
		db, err := OpenWithPlugins(dir, o, Recommended())
		if err != nil {
			b.Fatal(err)
		}
		get, closeDB, metrics = db.Get, db.Close, db.Metrics
		scan = func(o *IterOptions) error { return sweepScan(db.NewIter(o)) }
	} else {
		db, err := upstream.Open(dir, o)
		if err != nil {
			b.Fatal(err)
		}
		get, closeDB, metrics = db.Get, db.Close, db.Metrics
		scan = func(o *IterOptions) error { return sweepScan(db.NewIter(o)) }
	}
	// Pebble loads the tables' stats in the background after an open,
	// reading them from the store; reads that race it fetch some pieces
	// twice, by chance. The workload starts once they are loaded, so that
	// the GETs counted are its own.
	for m := metrics(); !m.Table.InitialStatsCollectionComplete || m.Table.PendingStatsCollectionCount > 0; m = metrics() {
		time.Sleep(time.Millisecond)
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
