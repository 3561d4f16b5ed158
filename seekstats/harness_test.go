// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	pebble "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// fixedPrefixComparer is the bytewise comparer with Split returning the first
// n bytes (or the whole key if shorter): RocksDB's fixed prefix extractor
// expressed the Pebble way.
func fixedPrefixComparer(n int) *pebble.Comparer {
	c := *upstream.DefaultComparer
	c.Name = "seekstats.fixedprefix." + strconv.Itoa(n)
	c.Split = func(k []byte) int { return min(n, len(k)) }
	return &c
}

// testDB is a DB on a MemFS with a shape the test controls: no automatic
// compactions and room for many L0 sublevels.
type testDB struct {
	t     testing.TB
	fs    vfs.FS
	db    *pebble.DB
	stats *seekstats.Statistics
	cmp   *pebble.Comparer
	n     int // external tables written
	// closed is set once reopen closed db.
	closed bool
}

type openConfig struct {
	prefix    int  // Split prefix length; 0 for whole keys
	bloomBits int  // bits per key of upstream's Bloom filter; 0 for none
	exact     bool // exact attribution
	filters   bool // Config.FiltersOnly
	rangeBits int  // bits per key of pebblerf's range filter; 0 for none
}

func openTestDB(t testing.TB, cfg openConfig) *testDB {
	return openTestDBOn(t, vfs.NewMem(), cfg)
}

// reopen closes d's DB and opens the same files with cfg, as a new testDB
// with fresh statistics.
func (d *testDB) reopen(cfg openConfig) *testDB {
	require.NoError(d.t, d.db.Close())
	d.closed = true
	return openTestDBOn(d.t, d.fs, cfg)
}

func openTestDBOn(t testing.TB, fs vfs.FS, cfg openConfig) *testDB {
	opts := &pebble.Options{
		FS:                          fs,
		DisableAutomaticCompactions: true,
		L0StopWritesThreshold:       1000,
		L0CompactionThreshold:       1000,
		FormatMajorVersion:          pebble.FormatNewest,
		Logger:                      quietLogger{},
	}
	opts.Comparer = upstream.DefaultComparer
	if cfg.prefix > 0 {
		opts.Comparer = fixedPrefixComparer(cfg.prefix)
	}
	if cfg.bloomBits > 0 {
		opts.Levels[0].FilterPolicy = bloom.FilterPolicy(cfg.bloomBits)
	}
	plugins := pebble.Plugins{
		Statistics:       true,
		StatisticsConfig: seekstats.Config{ExactAttribution: cfg.exact, FiltersOnly: cfg.filters},
	}
	if cfg.rangeBits > 0 {
		// A fixed seed keeps hashed filters, and so their false positives, the
		// same from run to run.
		plugins.RangeFilter = &rangefilter.Config{BitsPerKey: float64(cfg.rangeBits), Seed: 7}
	}
	db, err := pebble.OpenWithPlugins("db", opts, plugins)
	require.NoError(t, err)
	d := &testDB{t: t, fs: fs, db: db, stats: db.Statistics().PerLevel(), cmp: opts.Comparer}
	t.Cleanup(func() {
		if !d.closed { // Pebble panics on a second Close
			_ = db.Close()
		}
	})
	return d
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

// ingest writes kvs into an external table with upstream's plain writer
// (no seekstats tags; a plain Bloom filter if bloomBits > 0) and ingests it.
func (d *testDB) ingest(kvs [][2]string, bloomBits int) error {
	d.n++
	name := fmt.Sprintf("ext%d.sst", d.n)
	f, err := d.fs.Create(name, vfs.WriteCategoryUnspecified)
	if err != nil {
		return err
	}
	wo := sstable.WriterOptions{
		TableFormat: d.db.TableFormat(),
		Comparer:    d.cmp,
	}
	if bloomBits > 0 {
		wo.FilterPolicy = bloom.FilterPolicy(bloomBits)
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), wo)
	for _, kv := range kvs {
		if err := w.Set([]byte(kv[0]), []byte(kv[1])); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return d.db.Ingest(context.Background(), []string{name})
}

// lsm describes the LSM: one line per level, tables as number[smallest-largest].
func (d *testDB) lsm() string {
	levels, err := d.db.SSTables()
	require.NoError(d.t, err)
	var b strings.Builder
	for l, tables := range levels {
		if len(tables) == 0 {
			continue
		}
		fmt.Fprintf(&b, "L%d:", l)
		for _, t := range tables {
			fmt.Fprintf(&b, " %s[%s-%s]", t.FileNum, t.Smallest.UserKey, t.Largest.UserKey)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// nonZero prints the tickers that are not zero, db_bench style.
func nonZero(sn seekstats.Snapshot) string {
	var b strings.Builder
	seekstats.WriteTickers(&b, sn.Tickers(), false)
	if b.Len() == 0 {
		return "(all zero)\n"
	}
	return b.String()
}

func get(db *pebble.DB, key string) string {
	v, c, err := db.Get([]byte(key))
	if err != nil {
		return err.Error()
	}
	defer c.Close()
	return string(bytes.Clone(v))
}
