// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	pebble "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/examples/cockroach/crdb"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
)

func main() {
	dir := flag.String("dir", "", "directory of the DB (default: a temporary one, removed at exit)")
	keys := flag.Int("keys", 2000, "roach keys in the key space (every other one is written)")
	flag.Parse()
	if err := runMain(*dir, *keys, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func runMain(dir string, keys int, out io.Writer) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "pebblerf-cockroach")
		if err != nil {
			return errors.Wrap(err, "creating a temporary directory")
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	db, err := pebble.OpenWithPlugins(filepath.Join(dir, "pebblerf"), crdb.Options(), cockroachPlugins())
	if err != nil {
		return err
	}
	up, err := upstream.Open(filepath.Join(dir, "upstream"), crdb.Options())
	if err != nil {
		return errors.CombineErrors(err, db.Close())
	}
	rf, us := pebblerfStore(db), upstreamStore(up)
	closeAll := func(err error) error { return errors.CombineErrors(err, errors.CombineErrors(rf.close(), us.close())) }

	w := newWorkload(keys)
	var res [2]*results
	var cost [2]costs
	for i, s := range []store{us, rf} {
		if err := w.load(s); err != nil {
			return closeAll(err)
		}
		if res[i], cost[i], err = w.read(s); err != nil {
			return closeAll(err)
		}
	}
	if !reflect.DeepEqual(res[0], res[1]) {
		return closeAll(errors.New("pebblerf and upstream Pebble returned different results"))
	}
	res[1].print(out)
	fmt.Fprintf(out, "\nThe same reads, same options, on both engines: identical results.\n")
	printCosts(out, cost[0], cost[1])

	e, err := db.RangeQueries(pebble.RangeQueryOptions{}).Explain(w.versionsOf(0), nil, versionsPerKey)
	if err != nil {
		return closeAll(err)
	}
	fmt.Fprintf(out, "\nexplain, a scan over one key's versions:\n%s\n", e)
	fmt.Fprintf(out, "\npebblerf's per-level statistics:\n%s%s", db.Statistics().PerLevel().Snapshot().LevelTable(), levelTableLegend)
	return closeAll(nil)
}

// printCosts prints, per kind of read, the block bytes each engine's
// iterators loaded and their ratio.
func printCosts(out io.Writer, up, rf costs) {
	fmt.Fprintf(out, "%-22s %14s %14s %10s\n", "read", "upstream KiB", "pebblerf KiB", "ratio")
	for p := range numPhases {
		u, r := up[p], rf[p]
		ratio := "-"
		if u > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(r)/float64(u))
		}
		fmt.Fprintf(out, "%-22s %14.1f %14.1f %10s\n", phaseNames[p], float64(u)/1024, float64(r)/1024, ratio)
	}
	fmt.Fprintf(out, "KiB: the bytes of the blocks the reads' iterators loaded, from the block cache or\n"+
		"from disk (IteratorStats.InternalStats.BlockBytes); ratio: pebblerf/upstream, lower is less read.\n")
}

// levelTableLegend says what LevelTable's columns count.
const levelTableLegend = `filtered: tables a filter ruled a seek out of (range: of these, by a range filter);
match: seeks a prefix filter passed; data: seeks that loaded a data block (bounded: of
iterators with bounds); useful: data loads whose value the caller read; seekFPR: the prefix
filters' false-positive rate estimated from seeks (a pass with no value read counts as false);
rangeOpp: of bounded data loads, those that read no value, which a range filter could have
saved (lock-table checks read keys only, so they all count); get.*: Gets' filter checks.
`

// cockroachPlugins are the plug-ins the program turns on: statistics, Bloom
// above L3 and Ribbon from it down at Bloom(10)'s false-positive rate, with
// L6 filters as CockroachDB has them; a range filter in every table; and the
// advisor, which compacts where the statistics see seeks wasted.
func cockroachPlugins() pebble.Plugins {
	return pebble.Plugins{
		Statistics:  true,
		Filters:     pointfilter.MustNewPlanner(pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: 3, L6Filters: true}),
		RangeFilter: &rangefilter.Config{},
		Advisor:     &compactionext.AdvisorConfig{},
	}
}

// store is what the workload needs of a DB, so that it runs unchanged on
// pebblerf and on upstream Pebble.
type store struct {
	apply   func(kvs [][2][]byte) error
	flush   func() error
	settle  func()
	newIter func(o *pebble.IterOptions) (iterator, error)
	close   func() error
}

type iterator interface {
	Stats() pebble.IteratorStats
	SeekPrefixGE(key []byte) bool
	SeekGE(key []byte) bool
	First() bool
	Next() bool
	Valid() bool
	Key() []byte
	Value() []byte
	Error() error
	Close() error
}

func pebblerfStore(db *pebble.DB) store {
	return store{
		apply:   applier(func() *pebble.Batch { return db.NewBatch() }),
		flush:   db.Flush,
		settle:  func() { settle(db.Metrics) },
		newIter: func(o *pebble.IterOptions) (iterator, error) { return db.NewIter(o) },
		close:   db.Close,
	}
}

func upstreamStore(db *upstream.DB) store {
	return store{
		apply:   applier(func() *upstream.Batch { return db.NewBatch() }),
		flush:   db.Flush,
		settle:  func() { settle(db.Metrics) },
		newIter: func(o *pebble.IterOptions) (iterator, error) { return db.NewIter(o) },
		close:   db.Close,
	}
}

// settle waits until a DB has run no compaction for a while, so that both
// engines are read on the LSM shape their compactions settle on, not on
// whatever a compaction in flight left.
func settle(metrics func() *pebble.Metrics) {
	for quiet := 0; quiet < 5; {
		time.Sleep(10 * time.Millisecond)
		if m := metrics(); m.Compact.NumInProgress == 0 && m.Flush.NumInProgress == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
}

// applier returns a store's apply for a DB whose batches newBatch makes.
func applier[B interface {
	Set(key, value []byte, o *pebble.WriteOptions) error
	Commit(o *pebble.WriteOptions) error
}](newBatch func() B) func(kvs [][2][]byte) error {
	return func(kvs [][2][]byte) error {
		b := newBatch()
		for _, kv := range kvs {
			if err := b.Set(kv[0], kv[1], nil); err != nil {
				return err
			}
		}
		return b.Commit(pebble.NoSync)
	}
}

const (
	// rounds of writes, each flushed: overlapping L0 tables, as a write
	// burst leaves them.
	rounds = 10
	// versionsPerKey is how many rounds write each key.
	versionsPerKey = 4
	// lockEvery: one written key in lockEvery gets a lock.
	lockEvery = 97
)

// workload is a key space of keys roach keys, of which the even ones are
// written: round r writes versions at wall time wallTime(r) of the keys in a
// window that slides with r, so that every key gets versionsPerKey
// versions, and locks on some of them.
type workload struct{ keys int }

func newWorkload(keys int) *workload { return &workload{keys: max(keys, 2*rounds)} }

func roachKey(i int) []byte { return fmt.Appendf(nil, "/Table/104/1/%08d", i) }
func wallTime(r int) uint64 { return uint64(r+1) * 10 }
func mvccKey(i int, ts uint64) []byte {
	return cockroachkvs.EncodeMVCCKey(nil, roachKey(i), ts, 0)
}

// lockKey is the lock-table engine key for roach key i; version nil makes
// the bare key, which sorts before every lock on i.
func lockKey(i int, version []byte) []byte { return crdb.LockKey(nil, roachKey(i), version) }

// written reports the rounds in which key i gets a version.
func (w *workload) written(i int) []int {
	if i%2 != 0 || i < 0 || i >= w.keys {
		return nil
	}
	// Key i is first written in round start, then in the next
	// versionsPerKey-1 rounds, wrapping around.
	start := i * rounds / w.keys
	var rs []int
	for v := 0; v < versionsPerKey; v++ {
		rs = append(rs, (start+v)%rounds)
	}
	return rs
}

func value(i, r int) []byte { return fmt.Appendf(nil, "v%d@%d", i, wallTime(r)) }

func (w *workload) load(s store) error {
	for r := 0; r < rounds; r++ {
		var kvs [][2][]byte
		for i := 0; i < w.keys; i++ {
			for _, wr := range w.written(i) {
				if wr == r {
					kvs = append(kvs, [2][]byte{mvccKey(i, wallTime(r)), value(i, r)})
					if i%lockEvery == 0 {
						version := make([]byte, crdb.LockVersionLen)
						version[0] = 3 // exclusive
						version[16] = byte(r)
						kvs = append(kvs, [2][]byte{lockKey(i, version), []byte("lock")})
					}
				}
			}
		}
		if err := s.apply(kvs); err != nil {
			return err
		}
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.settle()
	return nil
}

// versionsOf returns options bounding a scan to the versions of key i.
func (w *workload) versionsOf(i int) *pebble.IterOptions {
	return &pebble.IterOptions{LowerBound: mvccKey(i, 0), UpperBound: mvccKey(i+1, 0)}
}

// results is what the reads returned, in a form two engines can be
// compared by.
type results struct {
	// Gets holds, per roach key, the value visible at the read timestamp,
	// or "" if none.
	Gets []string
	// Scans holds the visible versions of each scanned span.
	Scans [][]string
	// Locks holds the lock keys found in each checked span.
	Locks [][]string
	// TimeBound holds the keys a time-bound scan returned.
	TimeBound []string
}

// costs are the block bytes each phase's iterators loaded.
type costs [numPhases]uint64

// metered counts an iterator's block bytes when it closes.
type metered struct {
	iterator
	add func(blockBytes uint64)
}

func (m metered) Close() error {
	m.add(m.Stats().InternalStats.BlockBytes)
	return m.iterator.Close()
}

// The phases of the read workload.
const (
	phaseGets = iota
	phaseScans
	phaseLocks
	phaseTimeBound
	numPhases
)

var phaseNames = [numPhases]string{"point gets", "mvcc scans", "lock-table checks", "time-bound scan"}

// readTS is the read timestamp of gets and scans: it sees some keys' newest
// version and hides others'.
var readTS = wallTime(rounds/2) + 5

// read makes the reads and returns what they found and what they cost.
func (w *workload) read(s store) (*results, costs, error) {
	var r results
	var c costs
	phase := phaseGets
	newIter := s.newIter
	s.newIter = func(o *pebble.IterOptions) (iterator, error) {
		it, err := newIter(o)
		if err != nil {
			return nil, err
		}
		return metered{it, func(n uint64) { c[phase] += n }}, nil
	}
	// Both engines write filters into L6, as CockroachDB's options do, but
	// Pebble reads L6 filters only for iterators that ask.
	it, err := s.newIter(&pebble.IterOptions{UseL6Filters: true})
	if err != nil {
		return nil, c, err
	}
	for i := 0; i < w.keys; i++ {
		r.Gets = append(r.Gets, mvccGet(it, i, readTS))
	}
	if err := errors.CombineErrors(it.Error(), it.Close()); err != nil {
		return nil, c, err
	}
	phase = phaseScans
	for start := 0; start < w.keys; start += w.keys / 10 {
		scan, err := mvccScan(s, start, start+8, readTS)
		if err != nil {
			return nil, c, err
		}
		r.Scans = append(r.Scans, scan)
	}
	phase = phaseLocks
	for start := 0; start < w.keys; start += w.keys / 20 {
		locks, err := lockSpan(s, start, start+4)
		if err != nil {
			return nil, c, err
		}
		r.Locks = append(r.Locks, locks)
	}
	phase = phaseTimeBound
	r.TimeBound, err = timeBoundScan(s, 0, w.keys, wallTime(3), wallTime(4))
	return &r, c, err
}

// mvccGet returns the value of the newest version of roach key i at or
// below ts, as CockroachDB's point get finds it: SeekPrefixGE to the key at
// ts, where versions sort newest first, so the first key of i's prefix is
// the one visible at ts.
func mvccGet(it iterator, i int, ts uint64) string {
	if !it.SeekPrefixGE(mvccKey(i, ts)) {
		return ""
	}
	return string(it.Value())
}

// mvccScan returns the visible version at ts of each written roach key in
// [start, end): one bounded iterator, a seek per key to its version at ts.
func mvccScan(s store, start, end int, ts uint64) ([]string, error) {
	it, err := s.newIter(&pebble.IterOptions{LowerBound: mvccKey(start, 0), UpperBound: mvccKey(end, 0)})
	if err != nil {
		return nil, err
	}
	var out []string
	for valid := it.First(); valid; {
		roach, _, ok := cockroachkvs.DecodeEngineKey(it.Key())
		if !ok {
			return nil, errors.AssertionFailedf("undecodable key %x", it.Key())
		}
		roach = bytes.Clone(roach)
		if it.SeekGE(cockroachkvs.EncodeMVCCKey(nil, roach, ts, 0)) {
			if r, _, _ := cockroachkvs.DecodeEngineKey(it.Key()); bytes.Equal(r, roach) {
				out = append(out, fmt.Sprintf("%s=%s", roach, it.Value()))
			}
		}
		// The bare key of roach+"\x00" sorts after every version of roach.
		valid = it.SeekGE(cockroachkvs.EncodeMVCCKey(nil, append(roach, 0), 0, 0))
	}
	return out, errors.CombineErrors(it.Error(), it.Close())
}

// lockSpan returns the lock keys on roach keys [start, end): a bounded scan
// of the lock table, which is nearly always empty.
func lockSpan(s store, start, end int) ([]string, error) {
	it, err := s.newIter(&pebble.IterOptions{LowerBound: lockKey(start, nil), UpperBound: lockKey(end, nil)})
	if err != nil {
		return nil, err
	}
	var out []string
	for valid := it.First(); valid; valid = it.Next() {
		out = append(out, fmt.Sprintf("%x", it.Key()))
	}
	return out, errors.CombineErrors(it.Error(), it.Close())
}

// timeBoundScan returns the versions of roach keys [start, end) with wall
// times in [minWall, maxWall], as an incremental backup reads them: the
// time-interval block-property filter skips tables and blocks with no
// version in the interval, and SkipPoint drops the versions outside it in
// the blocks that are read.
func timeBoundScan(s store, start, end int, minWall, maxWall uint64) ([]string, error) {
	it, err := s.newIter(&pebble.IterOptions{
		LowerBound:      mvccKey(start, 0),
		UpperBound:      mvccKey(end, 0),
		PointKeyFilters: []pebble.BlockPropertyFilter{cockroachkvs.NewMVCCTimeIntervalFilter(minWall, maxWall)},
		SkipPoint: func(k []byte) bool {
			wall, _, err := cockroachkvs.DecodeMVCCTimestampSuffix(k[cockroachkvs.Split(k):])
			return err != nil || wall < minWall || wall > maxWall
		},
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for valid := it.First(); valid; valid = it.Next() {
		out = append(out, fmt.Sprintf("%s=%s", cockroachkvs.FormatKey(it.Key()), it.Value()))
	}
	return out, errors.CombineErrors(it.Error(), it.Close())
}

func (r *results) print(out io.Writer) {
	found := 0
	for _, g := range r.Gets {
		if g != "" {
			found++
		}
	}
	fmt.Fprintf(out, "point gets at wall time %d: %d of %d keys visible\n", readTS, found, len(r.Gets))
	for i, s := range r.Scans {
		fmt.Fprintf(out, "mvcc scan %d: %d keys %v\n", i, len(s), s)
	}
	locked := 0
	for _, l := range r.Locks {
		if len(l) > 0 {
			locked++
		}
	}
	fmt.Fprintf(out, "lock-table checks: %d spans, %d with locks\n", len(r.Locks), locked)
	fmt.Fprintf(out, "time-bound scan [%d, %d]: %d versions\n", wallTime(3), wallTime(4), len(r.TimeBound))
}
