// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

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

// ycsbBenchmark is the row of YCSB's core workload letter, ycsb_<letter>.
func ycsbBenchmark(letter string) *Benchmark {
	cfg, err := ycsb.Parse(letter)
	if err != nil {
		panic(err) // the table names the core workloads only
	}
	return &Benchmark{Name: "ycsb_" + strings.ToLower(letter),
		Help: "YCSB workload " + letter + " over ycsb_load's records: " + cfg.Mix.String() + ", " + cfg.Distribution.String() +
			"; -reads operations per thread",
		Reads: true, Writes: true, ShowFound: true, ShowBytes: always, OpKind: "op", Limit: readOps, Loop: ycsbWorkload(letter)}
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

func ycsbLoad(r *Run, w *Worker) error {
	cfg, err := ycsbConfig(r.Config, "A", r.Seq)
	if err != nil {
		return err
	}
	cfg.Seed = uint64(r.Config.Seed) // the records' values do not depend on the run
	wl, err := ycsb.New(cfg)
	if err != nil {
		return err
	}
	loader, err := wl.Loader(w.ID, r.Config.Threads)
	if err != nil {
		return err
	}
	wo := writeOptions(r.Config)
	for w.next() {
		key, value, ok := loader.Next()
		if !ok {
			break
		}
		if err := r.DB.Set(key, value, wo); err != nil {
			return err
		}
		w.done(1, int64(len(key)+len(value)))
	}
	return nil
}

func ycsbWorkload(letter string) func(r *Run, w *Worker) error {
	return func(r *Run, w *Worker) error {
		cfg, err := ycsbConfig(r.Config, letter, r.Seq)
		if err != nil {
			return err
		}
		wl, err := ycsb.New(cfg)
		if err != nil {
			return err
		}
		src, err := wl.Source(w.ID, r.Config.Threads)
		if err != nil {
			return err
		}
		wo := writeOptions(r.Config)
		var op ycsb.Op
		for w.next() && src.Next(&op) {
			var n int
			switch op.Kind {
			case ycsb.Read, ycsb.ReadModifyWrite:
				v, closer, err := r.DB.Get(op.Key)
				switch {
				case err == nil:
					w.Found++
					n = len(op.Key) + len(v)
					if err := closer.Close(); err != nil {
						return err
					}
				case !errors.Is(err, upstream.ErrNotFound):
					return err
				}
				if op.Kind == ycsb.ReadModifyWrite {
					if err := r.DB.Set(op.Key, op.Value, wo); err != nil {
						return err
					}
					n += len(op.Key) + len(op.Value)
				}
			case ycsb.Update, ycsb.Insert:
				if err := r.DB.Set(op.Key, op.Value, wo); err != nil {
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
func ycsbScan(r *Run, w *Worker, op *ycsb.Op) (int, error) {
	it, err := r.DB.NewIter(&upstream.IterOptions{})
	if err != nil {
		return 0, err
	}
	valid := it.SeekGE(op.Key)
	if valid && bytes.Equal(it.Key(), op.Key) {
		w.Found++
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
