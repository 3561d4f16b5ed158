// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

import (
	"bytes"
	"encoding/binary"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/pebblerf/pebble/examples/cockroach/crdb"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
)

func fillMVCCOps(c *config.Config) int64 { return c.Num * int64(c.VersionsPerKey) }

// fillMVCC writes the rounds; each operation is one version (lock keys come
// on top).
func fillMVCC(r *Run, w *Worker) error {
	c := r.Config
	var m mvccKeys
	var key []byte
	lockEvery := max(c.Num/MVCCLockKeys, 1)
	version := make([]byte, crdb.LockVersionLen)
	b := r.DB.NewBatch()
	var inBatch int
	commit := func() error {
		err := b.Commit(upstream.NoSync)
		_ = b.Close()
		b, inBatch = r.DB.NewBatch(), 0
		return err
	}
	for op := int64(0); w.next(); op++ {
		round, i := int(op/c.Num), op%c.Num
		w.keys.Fill(w.key, w.keys.Written(uint64(i)))
		roach := m.setRoach(w.key)
		key = mvccKey(key, roach, roundWallTime(round))
		if err := b.Set(key, w.values.Next(c.ValueSize), nil); err != nil {
			return errors.CombineErrors(err, b.Close())
		}
		if i%lockEvery == 0 && int(i/lockEvery)%4 == round%4 {
			version[0], version[16] = 3, byte(round) // exclusive, a transaction of the round
			key = crdb.LockKey(key, roach, version)
			if err := b.Set(key, []byte("lock"), nil); err != nil {
				return errors.CombineErrors(err, b.Close())
			}
		}
		if inBatch++; inBatch >= c.BatchSize {
			if err := commit(); err != nil {
				return err
			}
		}
		w.done(1, int64(len(key)+c.ValueSize))
		if i == c.Num-1 {
			if err := commit(); err != nil {
				return err
			}
			if err := r.DB.Flush(); err != nil {
				return err
			}
			if round+1 == c.MVCCCompactRounds {
				if err := r.DB.Compact(nil, mvccKeySpaceEnd(c)); err != nil {
					return err
				}
			}
		}
	}
	err := b.Commit(upstream.NoSync)
	return errors.CombineErrors(err, b.Close())
}

// writeIntents is the writer of locktablescanwhilewriting: transactional
// writes as CockroachDB makes them. Each operation writes an intent, in one
// batch: a lock-table key of a new transaction and a provisional version of
// a random roach key. The intent written mvccLockKeys operations earlier is
// resolved in the same batch: its lock key is single-deleted and its
// version rewritten as committed. So the lock table holds mvccLockKeys
// locks at any time, as many as fillmvcc writes, and every flushed table
// spans the lock table's keys (the locks in flight and the deletions of
// the ones resolved) and the table keys, as CockroachDB's flushes do. The
// versions are newer than every round of fillmvcc, so no read timestamp
// sees them.
func writeIntents(r *Run, w *Worker) error {
	c := r.Config
	wo := writeOptions(c)
	type intent struct{ lock, version []byte }
	var (
		m        mvccKeys
		inFlight [MVCCLockKeys]intent
		txn      = make([]byte, crdb.LockVersionLen)
	)
	wall := roundWallTime(c.VersionsPerKey)
	for op := uint64(0); w.next(); op++ {
		b := r.DB.NewBatch()
		slot := &inFlight[op%MVCCLockKeys]
		if slot.lock != nil {
			err := errors.CombineErrors(b.SingleDelete(slot.lock, nil), b.Set(slot.version, w.values.Next(c.ValueSize), nil))
			if err != nil {
				_ = b.Close()
				return err
			}
		}
		w.keys.Fill(w.key, w.keys.Written(w.rng.Uint64N(uint64(c.Num))))
		roach := m.setRoach(w.key)
		txn[0] = 3 // exclusive
		binary.BigEndian.PutUint64(txn[1:], op+1)
		slot.lock = crdb.LockKey(slot.lock, roach, txn)
		slot.version = mvccKey(slot.version, roach, wall+op)
		err := errors.CombineErrors(b.Set(slot.lock, []byte("lock"), nil), b.Set(slot.version, w.values.Next(c.ValueSize), nil))
		if err == nil {
			err = b.Commit(wo)
		}
		if err = errors.CombineErrors(err, b.Close()); err != nil {
			return err
		}
		w.done(1, int64(len(slot.lock)+len(slot.version)+c.ValueSize))
		if c.WriteRateLimit > 0 {
			throttle(w, c.WriteRateLimit)
		}
	}
	return nil
}

// mvccKeySpaceEnd is an engine key above every key fillmvcc writes.
func mvccKeySpaceEnd(c *config.Config) []byte {
	return mvccKey(nil, bytes.Repeat([]byte{0xff}, len(MVCCTablePrefix)+c.KeySize+1), 0)
}

// readTimestamp draws a read timestamp between two rounds, so that it sees
// the versions of the rounds up to a random one.
func readTimestamp(c *config.Config, w *Worker) uint64 {
	return roundWallTime(w.rng.IntN(c.VersionsPerKey)) + mvccWallUnit/2
}

func mvccGet(r *Run, w *Worker) error {
	c := r.Config
	it, err := r.DB.NewIter(&upstream.IterOptions{UseL6Filters: c.UseL6Filters})
	if err != nil {
		return err
	}
	var m mvccKeys
	var key []byte
	for w.next() {
		w.keys.RandomKey(w.rng, w.key, c.MissingFraction)
		roach := m.setRoach(w.key)
		key = mvccKey(key, roach, readTimestamp(c, w))
		var n int64
		if it.SeekPrefixGE(key) {
			w.Found++
			n = int64(len(it.Key()) + len(it.Value()))
		} else if err := it.Error(); err != nil {
			// A seek that failed is the run's error, not a key not found.
			return errors.CombineErrors(err, w.closeIter(it))
		}
		w.done(1, n)
	}
	return errors.CombineErrors(it.Error(), w.closeIter(it))
}

// scanSpan sets lower and upper to the engine keys (made by encode) of the
// first roach key of a scan and of the key -mvcc_scan_keys positions on.
func scanSpan(c *config.Config, w *Worker, m *mvccKeys, first uint64, lower, upper []byte, encode func(buf, roach []byte) []byte) ([]byte, []byte) {
	w.keys.Fill(w.key, w.keys.Written(first))
	lower = encode(lower, m.setRoach(w.key))
	w.keys.Fill(w.key, w.keys.Written(first+uint64(c.MVCCScanKeys)))
	upper = encode(upper, m.setRoach(w.key))
	return lower, upper
}

// firstScanKey draws the first roach key of a scan.
func firstScanKey(c *config.Config, w *Worker) uint64 { return w.rng.Uint64N(uint64(c.Num)) }

// spanScanner reads one kind of bounded scan for a worker. Each scan gets a
// new iterator, or with -use_tailing_iterator the scanner's one iterator,
// given the scan's options with SetOptions, as CockroachDB's pebbleReadOnly
// reuses its iterator for the spans one request reads.
type spanScanner struct {
	w       *Worker
	m       mvccKeys
	opts    *upstream.IterOptions
	newIter func(*upstream.IterOptions) (engine.Iterator, error)
	reuse   bool
	reused  engine.Iterator
	// Two buffers each, alternated: Pebble may hold the previous bounds
	// until the next iterator is created or given new options.
	lowers, uppers [2][]byte
	scans          int
}

func newSpanScanner(r *Run, w *Worker, opts *upstream.IterOptions) *spanScanner {
	s := &spanScanner{w: w, opts: opts, newIter: r.DB.NewIter, reuse: r.Config.UseTailingIterator}
	if r.Config.UseQueryBuilder {
		s.newIter = r.DB.NewQueryIter
	}
	return s
}

// scan reads the span from roach key first (scanSpan, with encode) with
// read, which returns the bytes read and whether it found anything.
func (s *spanScanner) scan(c *config.Config, first uint64, encode func(buf, roach []byte) []byte,
	read func(it engine.Iterator, lower []byte) (n int64, found bool)) (n int64, found bool, err error) {
	i := s.scans % 2
	s.scans++
	s.lowers[i], s.uppers[i] = scanSpan(c, s.w, &s.m, first, s.lowers[i], s.uppers[i], encode)
	s.opts.LowerBound, s.opts.UpperBound = s.lowers[i], s.uppers[i]
	it := s.reused
	if it != nil {
		it.SetOptions(s.opts)
	} else if it, err = s.newIter(s.opts); err != nil {
		return 0, false, err
	} else if s.reuse {
		s.reused = it
	}
	n, found = read(it, s.opts.LowerBound)
	err = it.Error()
	if s.reused == nil {
		err = errors.CombineErrors(err, s.w.closeIter(it))
	}
	return n, found, err
}

// close closes the reused iterator, if any.
func (s *spanScanner) close() error {
	if s.reused == nil {
		return nil
	}
	return s.w.closeIter(s.reused)
}

// boundedScan runs each operation of a scan benchmark over a span it draws:
// opts gets the bounds, read does the reading and returns the bytes read
// and whether it found anything; setup, if given, changes opts before each
// operation.
func boundedScan(r *Run, w *Worker, opts *upstream.IterOptions, encode func(buf, roach []byte) []byte,
	read func(it engine.Iterator, lower []byte) (n int64, found bool), setup ...func()) (err error) {
	s := newSpanScanner(r, w, opts)
	defer func() { err = errors.CombineErrors(err, s.close()) }()
	return eachScan(r, w, func(first uint64) (int64, bool, error) {
		for _, f := range setup {
			f()
		}
		return s.scan(r.Config, first, encode, read)
	})
}

// eachScan runs op for each operation of a scan benchmark, with the first
// roach key of its span, and counts what op read and whether it found
// anything.
func eachScan(r *Run, w *Worker, op func(first uint64) (n int64, found bool, err error)) error {
	for w.next() {
		n, found, err := op(firstScanKey(r.Config, w))
		if err != nil {
			return err
		}
		if found {
			w.Found++
		}
		w.done(1, n)
	}
	return nil
}

func BareMVCCKey(buf, roach []byte) []byte { return mvccKey(buf, roach, 0) }
func bareLockKey(buf, roach []byte) []byte { return crdb.LockKey(buf, roach, nil) }

// wallTime is the wall time of an engine key's MVCC version; ok is false
// for a bare key or one whose version is not a timestamp.
func wallTime(key []byte) (wall uint64, ok bool) {
	suffix := key[cockroachkvs.Split(key):]
	if len(suffix) == 0 {
		return 0, false
	}
	wall, _, err := cockroachkvs.DecodeMVCCTimestampSuffix(suffix)
	return wall, err == nil
}

func mvccScan(r *Run, w *Worker) error {
	return boundedScan(r, w, &upstream.IterOptions{}, BareMVCCKey, mvccScanRead(r.Config, w))
}

// mvccScanRead returns mvccscan's read of a span: each roach key's version
// visible at a read timestamp drawn per span.
func mvccScanRead(c *config.Config, w *Worker) func(it engine.Iterator, lower []byte) (int64, bool) {
	var roach, seekKey []byte
	var valueBuf [256]byte
	return func(it engine.Iterator, lower []byte) (int64, bool) {
		ts := readTimestamp(c, w)
		var n int64
		found := false
		for valid := it.SeekGE(lower); valid; {
			k := it.Key()
			roach = append(roach[:0], k[:cockroachkvs.Split(k)-1]...)
			if wall, ok := wallTime(k); ok && wall > ts {
				// Newer than the read: seek to the roach key at ts, which
				// sorts after its newer versions.
				seekKey = mvccKey(seekKey, roach, ts)
				if valid = it.SeekGE(seekKey); !valid {
					break
				}
				if k = it.Key(); !sameRoach(k, roach) {
					continue // no version visible at ts
				}
			}
			v := it.Value()
			copy(valueBuf[:], v)
			n += int64(len(k) + len(v))
			found = true
			// The older versions are not read: one Next, and if it stays
			// on the roach key, a seek past its versions (to the bare key
			// of the roach key's immediate successor).
			if valid = it.Next(); valid && sameRoach(it.Key(), roach) {
				valid = it.SeekGE(mvccKey(seekKey, append(roach, 0), 0))
			}
		}
		return n, found
	}
}

// sameRoach reports whether the engine key k is a version of roach.
func sameRoach(k, roach []byte) bool {
	return cockroachkvs.Split(k) == len(roach)+1 && bytes.HasPrefix(k, roach)
}

func lockTableScan(r *Run, w *Worker) error {
	return boundedScan(r, w, &upstream.IterOptions{}, bareLockKey, lockCheck)
}

// lockCheck is locktablescan's read of a span: whether it holds a lock.
func lockCheck(it engine.Iterator, lower []byte) (int64, bool) {
	found := false
	for valid := it.SeekGE(lower); valid; valid = it.Next() {
		found = true
	}
	return 0, found
}

// lockedScan checks the lock table over a span and then scans it, each with
// its own iterator, as a CockroachDB KV read does: the lock-table checks,
// almost all empty, and the MVCC scans, which always find keys, share one
// DB. "found" counts the spans with a visible version.
func lockedScan(r *Run, w *Worker) (err error) {
	locks := newSpanScanner(r, w, &upstream.IterOptions{})
	data := newSpanScanner(r, w, &upstream.IterOptions{})
	defer func() { err = errors.CombineErrors(err, errors.CombineErrors(locks.close(), data.close())) }()
	read := mvccScanRead(r.Config, w)
	return eachScan(r, w, func(first uint64) (int64, bool, error) {
		if _, _, err := locks.scan(r.Config, first, bareLockKey, lockCheck); err != nil {
			return 0, false, err
		}
		return data.scan(r.Config, first, BareMVCCKey, read)
	})
}

func mvccTimeBound(r *Run, w *Worker) error {
	var lo, hi uint64
	opts := &upstream.IterOptions{SkipPoint: func(k []byte) bool {
		wall, ok := wallTime(k)
		return !ok || wall < lo || wall > hi
	}}
	var valueBuf [256]byte
	return boundedScan(r, w, opts, BareMVCCKey, func(it engine.Iterator, lower []byte) (int64, bool) {
		var n int64
		found := false
		for valid := it.SeekGE(lower); valid; valid = it.Next() {
			v := it.Value()
			copy(valueBuf[:], v)
			n += int64(len(it.Key()) + len(v))
			found = true
		}
		return n, found
	}, func() {
		// One round's versions, as an incremental backup since the round
		// before reads them.
		lo = roundWallTime(w.rng.IntN(r.Config.VersionsPerKey))
		hi = lo
		opts.PointKeyFilters = []upstream.BlockPropertyFilter{cockroachkvs.NewMVCCTimeIntervalFilter(lo, hi)}
	})
}
