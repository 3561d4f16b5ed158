// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"strings"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/ycsb"
)

// The YCSB benchmarks (Cooper et al., SoCC 2010), named after the core
// workloads as Pebble's `pebble bench ycsb --workload=A` names them:
// ycsb_load writes -ycsb_record_count records in YCSB's hashed key order,
// then ycsb_a..ycsb_f each make -reads operations per thread of their mix,
// with YCSB's request distributions (scrambled Zipfian, "latest" for D).
// The operations come from internal/ycsb's generator, a function of -seed,
// the run's number and the thread alone, so both engines of -engine=both
// make the same operations; a thread inserts records no other thread uses
// (see ycsb.Source). An operation is one Get, one Set, a Get then a Set
// (read-modify-write) or an iterator's SeekGE and Nexts (a scan); found
// counts the reads and scans that found their record.

func init() {
	benchmarks["ycsb_load"] = &benchmark{name: "ycsb_load", fresh: true, writes: true, showBytes: always,
		opKind: "write", limit: ycsbLoadOps, loop: ycsbLoad}
	benchmarkHelp["ycsb_load"] = "write -ycsb_record_count YCSB records (keys \"user\" and a hashed number) into a new DB, split over -threads"
	for _, letter := range ycsb.StandardNames() {
		name := "ycsb_" + strings.ToLower(letter)
		cfg, err := ycsb.Parse(letter)
		if err != nil {
			panic(err)
		}
		benchmarks[name] = &benchmark{name: name, reads: true, writes: true, showFound: true, showBytes: always,
			opKind: "op", limit: readOps, loop: ycsbWorkload(letter)}
		benchmarkHelp[name] = "YCSB workload " + letter + " over ycsb_load's records: " + cfg.Mix.String() +
			", " + cfg.Distribution.String() + "; -reads operations per thread"
	}
}

// ycsbConfig is the generator's configuration for workload letter in run
// seq: the records and value size of the flags, -reads operations a thread.
func ycsbConfig(c *config.Config, letter string, seq int) (ycsb.Config, error) {
	cfg, err := ycsb.Parse(letter)
	if err != nil {
		return ycsb.Config{}, err
	}
	cfg.RecordCount = uint64(c.YCSBRecordCount)
	cfg.OperationCount = uint64(c.Reads) * uint64(c.Threads)
	cfg.ValueSize = c.YCSBValueSize
	// Each run draws other operations, as db_bench's runs draw other keys.
	cfg.Seed = uint64(c.Seed)<<16 ^ uint64(seq)
	return cfg, nil
}

// ycsbLoadOps is a thread's share of the records, rounded up.
func ycsbLoadOps(c *config.Config) int64 {
	return (c.YCSBRecordCount + int64(c.Threads) - 1) / int64(c.Threads)
}

func ycsbLoad(r *run, w *worker) error {
	cfg, err := ycsbConfig(r.cfg, "A", r.seq)
	if err != nil {
		return err
	}
	cfg.Seed = uint64(r.cfg.Seed) // the records' values do not depend on the run
	wl, err := ycsb.New(cfg)
	if err != nil {
		return err
	}
	loader, err := wl.Loader(w.id, r.cfg.Threads)
	if err != nil {
		return err
	}
	wo := writeOptions(r.cfg)
	for w.next() {
		key, value, ok := loader.Next()
		if !ok {
			break
		}
		if err := r.db.Set(key, value, wo); err != nil {
			return err
		}
		w.done(1, int64(len(key)+len(value)))
	}
	return nil
}

func ycsbWorkload(letter string) func(r *run, w *worker) error {
	return func(r *run, w *worker) error {
		cfg, err := ycsbConfig(r.cfg, letter, r.seq)
		if err != nil {
			return err
		}
		wl, err := ycsb.New(cfg)
		if err != nil {
			return err
		}
		src, err := wl.Source(w.id, r.cfg.Threads)
		if err != nil {
			return err
		}
		wo := writeOptions(r.cfg)
		var op ycsb.Op
		for w.next() && src.Next(&op) {
			var n int
			switch op.Kind {
			case ycsb.Read, ycsb.ReadModifyWrite:
				v, closer, err := r.db.Get(op.Key)
				switch {
				case err == nil:
					w.found++
					n = len(op.Key) + len(v)
					if err := closer.Close(); err != nil {
						return err
					}
				case !errors.Is(err, upstream.ErrNotFound):
					return err
				}
				if op.Kind == ycsb.ReadModifyWrite {
					if err := r.db.Set(op.Key, op.Value, wo); err != nil {
						return err
					}
					n += len(op.Key) + len(op.Value)
				}
			case ycsb.Update, ycsb.Insert:
				if err := r.db.Set(op.Key, op.Value, wo); err != nil {
					return err
				}
				n = len(op.Key) + len(op.Value)
			case ycsb.Scan:
				var err error
				if n, err = ycsbScan(r, w, &op); err != nil {
					return err
				}
			default: // no core workload reverse-scans
				return errors.AssertionFailedf("ycsb_%s: operation %s", strings.ToLower(letter), op.Kind)
			}
			w.done(1, int64(n))
		}
		return nil
	}
}

// ycsbScan reads op.ScanLength records from op.Key on and returns the
// bytes read; finding op.Key itself counts as found.
func ycsbScan(r *run, w *worker, op *ycsb.Op) (int, error) {
	it, err := r.db.NewIter(&upstream.IterOptions{})
	if err != nil {
		return 0, err
	}
	valid := it.SeekGE(op.Key)
	if valid && bytes.Equal(it.Key(), op.Key) {
		w.found++
	}
	n := 0
	for i := 0; i < op.ScanLength && valid; i++ {
		n += len(it.Key()) + len(it.Value())
		valid = it.Next()
	}
	if err := it.Error(); err != nil {
		_ = w.closeIter(it)
		return 0, err
	}
	return n, w.closeIter(it)
}
