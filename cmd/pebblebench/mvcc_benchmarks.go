// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"encoding/binary"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/pebblerf/pebble/examples/cockroach/crdb"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/internal/bench/engine"
)

// The benchmarks of -key_format=mvcc: the reads a CockroachDB-style storage
// layer makes (mvcc_keys.go has the keys; the options and the lock-table
// keys are examples/cockroach/crdb's).
//
//   - fillmvcc writes -versions_per_key rounds; round r writes a version of
//     each of the -num roach keys at wall time (r+1)s, in key order, plus a
//     quarter of the lock table's keys, and flushes. With no compactions
//     (-compaction_style=3) each round is at least one L0 sublevel: the
//     shape CockroachDB's L0 has under a write burst. With
//     -mvcc_compact_rounds=N it compacts the DB after round N, so that the
//     older versions lie in L6 below the sublevels.
//   - mvccget reads a roach key's newest version at or below a read
//     timestamp, as CockroachDB's point gets do: SeekPrefixGE to the key at
//     the timestamp, on a reused iterator (with -use_l6_filters it asks for
//     L6 filters). -missing_fraction of the keys are absent.
//   - mvccscan scans -mvcc_scan_keys roach keys from a random one, returning
//     each key's version visible at a read timestamp: on a key newer than
//     the timestamp it seeks to the key at the timestamp, and after a
//     visible version it moves to the next roach key with NextPrefix.
//   - locktablescan checks the lock table over the span of -mvcc_scan_keys
//     roach keys, as a KV read does before it reads: a bounded scan, which
//     is almost always empty ("found" counts the spans holding a lock).
//   - lockedscan is mvccscan with a locktablescan check of each span before
//     it (an iterator each), as a KV read runs both on one DB.
//   - locktablescanwhilewriting is locktablescan while one more thread
//     writes transactions' intents (writeIntents), so that the lock checks
//     keep meeting tables just flushed or compacted, whose blocks no read
//     has cached yet: the lock table as CockroachDB's writers keep it.
//   - mvcctimebound scans -mvcc_scan_keys roach keys for the versions of one
//     round, as an incremental backup does: a time-interval block-property
//     filter (cockroachkvs.NewMVCCTimeIntervalFilter) skips tables and
//     blocks with no version in the interval, and SkipPoint hides the rest.
//
// The scans use -use_query_builder and -use_tailing_iterator as seekrandom
// does (boundedScan), and add the block bytes their iterators read to the
// run's figures. Read timestamps and intervals are drawn per operation from
// the rounds fillmvcc wrote.
func init() {
	for name, b := range map[string]*benchmark{
		"fillmvcc": {fresh: true, writes: true, singleThread: true, ignoresDuration: true,
			showBytes: always, opKind: "write", limit: fillMVCCOps, loop: fillMVCC},
		"mvccget": {reads: true, showFound: true, showBytes: always, opKind: "read",
			limit: readOps, loop: mvccGet},
		"mvccscan": {reads: true, showFound: true, showBytes: always, opKind: "seek",
			limit: readOps, loop: mvccScan},
		"locktablescan": {reads: true, showFound: true, showBytes: never, opKind: "seek",
			limit: readOps, loop: lockTableScan},
		"lockedscan": {reads: true, showFound: true, showBytes: always, opKind: "seek",
			limit: readOps, loop: lockedScan},
		"locktablescanwhilewriting": {reads: true, writes: true, showFound: true, showBytes: never, opKind: "seek",
			limit: readOps, loop: lockTableScan, background: writeIntents},
		"mvcctimebound": {reads: true, showFound: true, showBytes: always, opKind: "seek",
			limit: readOps, loop: mvccTimeBound},
	} {
		b.name = name
		benchmarks[name] = b
	}
	for name, help := range map[string]string{
		"fillmvcc":                  "-key_format=mvcc: write -versions_per_key flushed rounds of versions of -num keys, and lock keys",
		"mvccget":                   "-key_format=mvcc: newest version at or below a read timestamp (SeekPrefixGE)",
		"mvccscan":                  "-key_format=mvcc: the visible versions of -mvcc_scan_keys keys",
		"locktablescan":             "-key_format=mvcc: lock-table span checks over -mvcc_scan_keys keys, almost all empty",
		"lockedscan":                "-key_format=mvcc: mvccscan with a lock-table check of each span before it",
		"locktablescanwhilewriting": "-key_format=mvcc: locktablescan while one more thread writes intents and resolves them",
		"mvcctimebound":             "-key_format=mvcc: scans of one round's versions with a time-interval filter",
	} {
		benchmarkHelp[name] = help
	}
}

// mvccBenchmark reports whether the named benchmark needs -key_format=mvcc.
func mvccBenchmark(name string) bool {
	switch name {
	case "fillmvcc", "mvccget", "mvccscan", "locktablescan", "lockedscan", "locktablescanwhilewriting", "mvcctimebound":
		return true
	}
	return false
}

// validateMVCC checks the flags of -key_format.
func validateMVCC(c *config.Config, specs []dbbench.Spec) error {
	switch c.KeyFormat {
	case config.KeyFormatDBBench:
		for _, s := range specs {
			if mvccBenchmark(s.Name) {
				return config.BadFlag("benchmarks", "%s needs -key_format=mvcc", s.Name)
			}
		}
		for _, name := range []string{"versions_per_key", "mvcc_scan_keys", "mvcc_compact_rounds"} {
			if c.Given[name] {
				return config.BadFlag(name, "has no effect without -key_format=mvcc")
			}
		}
		return nil
	case config.KeyFormatMVCC:
	default:
		return config.BadFlag("key_format", "unknown format %q (dbbench or mvcc)", c.KeyFormat)
	}
	if c.PrefixSize > 0 {
		return config.BadFlag("prefix_size", "does not apply to -key_format=mvcc, whose prefix is the roach key")
	}
	if c.VersionsPerKey < 1 {
		return config.BadFlag("versions_per_key", "%d must be at least 1", c.VersionsPerKey)
	}
	if c.MVCCCompactRounds < 0 || c.MVCCCompactRounds > c.VersionsPerKey {
		return config.BadFlag("mvcc_compact_rounds", "%d must be in [0, versions_per_key=%d]", c.MVCCCompactRounds, c.VersionsPerKey)
	}
	if c.MVCCScanKeys < 1 {
		return config.BadFlag("mvcc_scan_keys", "%d must be at least 1", c.MVCCScanKeys)
	}
	for _, s := range specs {
		if b, _ := benchmarkByName(s.Name); b.meta == nil && !mvccBenchmark(s.Name) && s.Name != "flush" && s.Name != "compact" {
			return config.BadFlag("key_format", "mvcc keys are written and read only by fillmvcc, mvccget, mvccscan, locktablescan, lockedscan, locktablescanwhilewriting and mvcctimebound, not %s", s.Name)
		}
	}
	return nil
}

func fillMVCCOps(c *config.Config) int64 { return c.Num * int64(c.VersionsPerKey) }

// fillMVCC writes the rounds; each operation is one version (lock keys come
// on top).
func fillMVCC(r *run, w *worker) error {
	c := r.cfg
	var m mvccKeys
	var key []byte
	lockEvery := max(c.Num/mvccLockKeys, 1)
	version := make([]byte, crdb.LockVersionLen)
	b := r.db.NewBatch()
	var inBatch int
	commit := func() error {
		err := b.Commit(upstream.NoSync)
		_ = b.Close()
		b, inBatch = r.db.NewBatch(), 0
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
			if err := r.db.Flush(); err != nil {
				return err
			}
			if round+1 == c.MVCCCompactRounds {
				if err := r.db.Compact(nil, mvccKeySpaceEnd(c)); err != nil {
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
func writeIntents(r *run, w *worker) error {
	c := r.cfg
	wo := writeOptions(c)
	type intent struct{ lock, version []byte }
	var (
		m        mvccKeys
		inFlight [mvccLockKeys]intent
		txn      = make([]byte, crdb.LockVersionLen)
	)
	wall := roundWallTime(c.VersionsPerKey)
	for op := uint64(0); w.next(); op++ {
		b := r.db.NewBatch()
		slot := &inFlight[op%mvccLockKeys]
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
	return mvccKey(nil, bytes.Repeat([]byte{0xff}, len(mvccTablePrefix)+c.KeySize+1), 0)
}

// readTimestamp draws a read timestamp between two rounds, so that it sees
// the versions of the rounds up to a random one.
func readTimestamp(c *config.Config, w *worker) uint64 {
	return roundWallTime(w.rng.IntN(c.VersionsPerKey)) + mvccWallUnit/2
}

func mvccGet(r *run, w *worker) error {
	c := r.cfg
	it, err := r.db.NewIter(&upstream.IterOptions{UseL6Filters: c.UseL6Filters})
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
			w.found++
			n = int64(len(it.Key()) + len(it.Value()))
		}
		w.done(1, n)
	}
	return errors.CombineErrors(it.Error(), w.closeIter(it))
}

// scanSpan sets lower and upper to the engine keys (made by encode) of the
// first roach key of a scan and of the key -mvcc_scan_keys positions on.
func scanSpan(c *config.Config, w *worker, m *mvccKeys, first uint64, lower, upper []byte, encode func(buf, roach []byte) []byte) ([]byte, []byte) {
	w.keys.Fill(w.key, w.keys.Written(first))
	lower = encode(lower, m.setRoach(w.key))
	w.keys.Fill(w.key, w.keys.Written(first+uint64(c.MVCCScanKeys)))
	upper = encode(upper, m.setRoach(w.key))
	return lower, upper
}

// firstScanKey draws the first roach key of a scan.
func firstScanKey(c *config.Config, w *worker) uint64 { return w.rng.Uint64N(uint64(c.Num)) }

// spanScanner reads one kind of bounded scan for a worker. Each scan gets a
// new iterator, or with -use_tailing_iterator the scanner's one iterator,
// given the scan's options with SetOptions, as CockroachDB's pebbleReadOnly
// reuses its iterator for the spans one request reads.
type spanScanner struct {
	w       *worker
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

func newSpanScanner(r *run, w *worker, opts *upstream.IterOptions) *spanScanner {
	s := &spanScanner{w: w, opts: opts, newIter: r.db.NewIter, reuse: r.cfg.UseTailingIterator}
	if r.cfg.UseQueryBuilder {
		s.newIter = r.db.NewQueryIter
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
func boundedScan(r *run, w *worker, opts *upstream.IterOptions, encode func(buf, roach []byte) []byte,
	read func(it engine.Iterator, lower []byte) (n int64, found bool), setup ...func()) (err error) {
	s := newSpanScanner(r, w, opts)
	defer func() { err = errors.CombineErrors(err, s.close()) }()
	return eachScan(r, w, func(first uint64) (int64, bool, error) {
		for _, f := range setup {
			f()
		}
		return s.scan(r.cfg, first, encode, read)
	})
}

// eachScan runs op for each operation of a scan benchmark, with the first
// roach key of its span, and counts what op read and whether it found
// anything.
func eachScan(r *run, w *worker, op func(first uint64) (n int64, found bool, err error)) error {
	for w.next() {
		n, found, err := op(firstScanKey(r.cfg, w))
		if err != nil {
			return err
		}
		if found {
			w.found++
		}
		w.done(1, n)
	}
	return nil
}

func bareMVCCKey(buf, roach []byte) []byte { return mvccKey(buf, roach, 0) }
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

func mvccScan(r *run, w *worker) error {
	return boundedScan(r, w, &upstream.IterOptions{}, bareMVCCKey, mvccScanRead(r.cfg, w))
}

// mvccScanRead returns mvccscan's read of a span: each roach key's version
// visible at a read timestamp drawn per span.
func mvccScanRead(c *config.Config, w *worker) func(it engine.Iterator, lower []byte) (int64, bool) {
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

func lockTableScan(r *run, w *worker) error {
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
func lockedScan(r *run, w *worker) (err error) {
	locks := newSpanScanner(r, w, &upstream.IterOptions{})
	data := newSpanScanner(r, w, &upstream.IterOptions{})
	defer func() { err = errors.CombineErrors(err, errors.CombineErrors(locks.close(), data.close())) }()
	read := mvccScanRead(r.cfg, w)
	return eachScan(r, w, func(first uint64) (int64, bool, error) {
		if _, _, err := locks.scan(r.cfg, first, bareLockKey, lockCheck); err != nil {
			return 0, false, err
		}
		return data.scan(r.cfg, first, bareMVCCKey, read)
	})
}

func mvccTimeBound(r *run, w *worker) error {
	var lo, hi uint64
	opts := &upstream.IterOptions{SkipPoint: func(k []byte) bool {
		wall, ok := wallTime(k)
		return !ok || wall < lo || wall > hi
	}}
	var valueBuf [256]byte
	return boundedScan(r, w, opts, bareMVCCKey, func(it engine.Iterator, lower []byte) (int64, bool) {
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
		lo = roundWallTime(w.rng.IntN(r.cfg.VersionsPerKey))
		hi = lo
		opts.PointKeyFilters = []upstream.BlockPropertyFilter{cockroachkvs.NewMVCCTimeIntervalFilter(lo, hi)}
	})
}
