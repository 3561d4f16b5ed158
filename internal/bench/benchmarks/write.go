// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

import (
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/config"

	upstream "github.com/cockroachdb/pebble/v2"
)

// fillSeq writes keys 0..num-1 in order (times -key_stride).
//
// With -fillseq_overwrite_window=W every new key is followed by an
// overwrite of a random one of the W keys written last, so each flush
// overlaps the one before it a little: sorted runs that cover staggered,
// partly overlapping key ranges, the shape where deferring runs pays.
func fillSeq(r *Run, w *Worker) error {
	var v uint64
	window := uint64(r.Config.FillSeqOverwriteWindow)
	overwrite := false
	return writeLoop(r, w, func() uint64 {
		if overwrite {
			overwrite = false
			return w.keys.Written(v - 1 - w.rng.Uint64N(min(v, window)))
		}
		overwrite = window > 0
		v++
		return w.keys.Written(v - 1)
	})
}

// fillSeqOps is fillseq's operation count: -num new keys, and as many
// overwrites with -fillseq_overwrite_window.
func fillSeqOps(c *config.Config) int64 {
	if c.FillSeqOverwriteWindow > 0 {
		return 2 * c.Num
	}
	return c.Num
}

// fillRandom writes -writes uniformly random keys of [0, num) (times
// -key_stride) with replacement, so with -writes=num about 63% of num keys
// end up distinct, as in db_bench. A sparse fill (-writes given) records
// the keys it writes for the seek targets. It is also the
// writer thread of the *whilewriting benchmarks, which runs until the readers
// finish, at most -benchmark_write_rate_limit bytes a second.
func fillRandom(r *Run, w *Worker) error {
	n := uint64(r.Config.Num)
	written := r.Written
	return writeLoop(r, w, func() uint64 {
		i := w.rng.Uint64N(n)
		if written != nil {
			written.Add(i)
		}
		return w.keys.Written(i)
	})
}

// writeOptions are the benchmarks' write options: -sync's.
func writeOptions(c *config.Config) *upstream.WriteOptions {
	if c.Sync {
		return upstream.Sync
	}
	return upstream.NoSync
}

// writeLoop writes -batch_size keys per operation, each key from nextKey.
// A batch counts as batch_size operations, as in db_bench.
func writeLoop(r *Run, w *Worker, nextKey func() uint64) error {
	c := r.Config
	wo := writeOptions(c)
	entryBytes := int64(c.KeySize + c.ValueSize)
	for w.next() {
		if c.BatchSize == 1 {
			w.keys.Fill(w.key, nextKey())
			if err := r.DB.Set(w.key, w.values.Next(c.ValueSize), wo); err != nil {
				return err
			}
		} else {
			b := r.DB.NewBatch()
			for i := 0; i < c.BatchSize; i++ {
				w.keys.Fill(w.key, nextKey())
				if err := b.Set(w.key, w.values.Next(c.ValueSize), nil); err != nil {
					return errors.CombineErrors(err, b.Close())
				}
			}
			err := b.Commit(wo)
			_ = b.Close()
			if err != nil {
				return err
			}
		}
		w.done(int64(c.BatchSize), int64(c.BatchSize)*entryBytes)
		if c.WriteRateLimit > 0 {
			throttle(w, c.WriteRateLimit)
		}
	}
	return nil
}

// throttle sleeps while the worker is ahead of bytesPerSec.
func throttle(w *Worker, bytesPerSec int64) {
	due := w.Start.Add(time.Duration(float64(w.Bytes) / float64(bytesPerSec) * float64(time.Second)))
	if d := time.Until(due); d > time.Millisecond {
		time.Sleep(d)
	}
}

// flushLoop flushes the memtable once.
func flushLoop(r *Run, w *Worker) error {
	for w.next() {
		if err := r.DB.Flush(); err != nil {
			return err
		}
		w.done(1, 0)
	}
	return nil
}

// compactLoop compacts the whole key space once.
func compactLoop(r *Run, w *Worker) error {
	end := make([]byte, r.Config.KeySize+1)
	for i := range end {
		end[i] = 0xff
	}
	for w.next() {
		if err := r.DB.Compact(nil, end); err != nil {
			return err
		}
		w.done(1, 0)
	}
	return nil
}
