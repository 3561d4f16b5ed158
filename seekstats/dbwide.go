// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"
)

// DB-wide tickers are what can be said about a DB's reads without changing
// anything on disk or in the read path: they are derived from Pebble's own
// Metrics (which Pebble keeps whatever pebblerf does) and from the
// IteratorStats every Pebble iterator keeps, summed when the iterator is
// closed (IterTotals.Add). They cost a few atomic additions per iterator,
// none per read, so pebblerf keeps them even when the per-level statistics
// are off.
//
// They are totals over the whole DB: no level, no table. They take a
// metrics function (NewDBWide), so they serve upstream Pebble's DB as well
// as pebblerf's, whose DB.Statistics reads them. Their names carry the
// prefix "pebblerf.dbwide." so that they are never mistaken for the
// per-level statistics' tickers of similar meaning (RocksDB's
// rocksdb.bloom.filter.useful, for example, counts Gets only, while
// Pebble's filter metrics count Gets and prefix seeks alike).

// dbWideTicker is one DB-wide ticker; dbWideHelp says what each counts.
type dbWideTicker int8

const (
	dbWideFilterUseful dbWideTicker = iota
	dbWideFilterPositive
	dbWideBlockCacheHit
	dbWideBlockCacheMiss
	// The tickers from dbWideSeek on are summed from closed iterators'
	// IteratorStats (IterTotals).
	dbWideSeek
	dbWideSeekFound
	dbWideNext
	dbWidePrev
	dbWideIterBlockBytes
	dbWideIterBlockBytesRead
	numDBWideTickers
)

var dbWideNames = [numDBWideTickers]string{
	dbWideFilterUseful:       "pebblerf.dbwide.filter.useful",
	dbWideFilterPositive:     "pebblerf.dbwide.filter.positive",
	dbWideBlockCacheHit:      "pebblerf.dbwide.block.cache.hit",
	dbWideBlockCacheMiss:     "pebblerf.dbwide.block.cache.miss",
	dbWideSeek:               "pebblerf.dbwide.number.db.seek",
	dbWideSeekFound:          "pebblerf.dbwide.number.db.seek.found",
	dbWideNext:               "pebblerf.dbwide.number.db.next",
	dbWidePrev:               "pebblerf.dbwide.number.db.prev",
	dbWideIterBlockBytes:     "pebblerf.dbwide.iter.block.bytes",
	dbWideIterBlockBytesRead: "pebblerf.dbwide.iter.block.bytes.read",
}

// dbWideHelp is the definition of each DB-wide ticker, in one line each:
// DBWideHelp hands them out (package promstats exports them as help texts).
var dbWideHelp = [numDBWideTickers]string{
	dbWideFilterUseful: "Pebble's Metrics.Filter.Hits: table filter checks (by Get and SeekPrefixGE, at every level " +
		"where the reader consults filters) that ruled the table out, so that none of its data blocks was read.",
	dbWideFilterPositive: "Pebble's Metrics.Filter.Misses: filter checks that did not rule the table out " +
		"(Pebble's metrics cannot tell true from false positives).",
	dbWideBlockCacheHit: "Pebble's Metrics.BlockCache.Hits, over every block kind; the cache's, so they include " +
		"other DBs' reads when several DBs share one Cache.",
	dbWideBlockCacheMiss: "Pebble's Metrics.BlockCache.Misses, over every block kind; the cache's, as the hits.",
	dbWideSeek: "Seeks of closed iterators (SeekGE, SeekPrefixGE, SeekLT, their WithLimit forms, First and Last), " +
		"as RocksDB's rocksdb.number.db.seek counts them.",
	dbWideSeekFound:      "Seeks of closed iterators that left the iterator valid.",
	dbWideNext:           "Next steps of closed iterators.",
	dbWidePrev:           "Prev steps of closed iterators.",
	dbWideIterBlockBytes: "Bytes of the blocks closed iterators loaded (index, data and filter blocks, compressed size).",
	dbWideIterBlockBytesRead: "Bytes of the blocks closed iterators loaded that were not in the block cache " +
		"and were read from storage.",
}

// DBWideNames returns every DB-wide ticker's name, in All's order.
func DBWideNames() []string { return append([]string(nil), dbWideNames[:]...) }

// DBWideHelp returns the definition of the named DB-wide ticker, and whether
// name is one.
func DBWideHelp(name string) (string, bool) {
	for k := range dbWideNames {
		if dbWideNames[k] == name {
			return dbWideHelp[k], true
		}
	}
	return "", false
}

// IterTotals are the sums of closed iterators' IteratorStats. The zero
// value is ready; Add is safe for concurrent use.
//
// Every iterator's Close adds to them, so they are sharded as the per-level
// counters are: goroutines that close iterators at the same time add to
// different cache lines. A closing iterator's stats live on its goroutine's
// stack, and goroutines' stacks lie apart, so the stats' address picks the
// shard: a goroutine keeps to one shard (its line stays in its core's
// cache) and concurrent goroutines spread over all of them, without a
// shared counter to hand shards out. Reading a total sums the shards.
type IterTotals struct {
	shards [numIterShards]iterShard
}

// numIterShards is a power of two, so that picking a shard is a mask.
const numIterShards = 16

// iterShard holds one shard of the iterator tickers (from dbWideSeek on).
// Its size is two cache lines whatever the array's alignment, and its
// counters fill less than one, so no two shards' counters share a line.
type iterShard struct {
	c [numDBWideTickers - dbWideSeek]atomic.Uint64
	_ [128 - 8*int(numDBWideTickers-dbWideSeek)]byte
}

// shardOf picks the shard for stats at address st. Bits below 10 are the
// same for every goroutine that closes an iterator through the same calls
// (the offset within its stack frame), so the higher ones choose.
func (t *IterTotals) shardOf(st *pebble.IteratorStats) *iterShard {
	p := uintptr(unsafe.Pointer(st))
	return &t.shards[(p>>10^p>>14^p>>18)&(numIterShards-1)]
}

// load sums iterator ticker k over the shards. Each shard's count only
// grows, so a load that starts after another ended never returns less.
func (t *IterTotals) load(k dbWideTicker) uint64 {
	var n uint64
	for i := range t.shards {
		n += t.shards[i].c[k-dbWideSeek].Load()
	}
	return n
}

// Add adds one closed iterator's stats, and the number of its seeks that
// left it valid (which IteratorStats does not record). Zero counts are
// skipped, so an iterator costs one atomic addition per non-zero figure.
func (t *IterTotals) Add(st *pebble.IteratorStats, found int) {
	t.AddQuery(st, st.ForwardSeekCount[pebble.InterfaceCall]+st.ReverseSeekCount[pebble.InterfaceCall], found)
}

// AddQuery is Add for an iterator that issues seeks of its own under the
// caller's (a planned range query): seeks is the caller's count, which
// replaces the stats' count of seeks made on the upstream iterator.
func (t *IterTotals) AddQuery(st *pebble.IteratorStats, seeks, found int) {
	sh := t.shardOf(st)
	add := func(k dbWideTicker, n uint64) {
		if n != 0 {
			sh.c[k-dbWideSeek].Add(n)
		}
	}
	add(dbWideSeek, uint64(seeks))
	add(dbWideSeekFound, uint64(found))
	add(dbWideNext, uint64(st.ForwardStepCount[pebble.InterfaceCall]))
	add(dbWidePrev, uint64(st.ReverseStepCount[pebble.InterfaceCall]))
	in := &st.InternalStats
	add(dbWideIterBlockBytes, in.BlockBytes)
	add(dbWideIterBlockBytesRead, in.BlockBytes-min(in.BlockBytesInCache, in.BlockBytes))
}

// DBWide are one DB's DB-wide tickers (see the package documentation),
// since it was opened or since the last Reset. All methods are safe for
// concurrent use.
type DBWide struct {
	metrics func() *pebble.Metrics
	iters   IterTotals
	// base is each ticker's value at the last Pop or Reset; popMu orders
	// Pops and Resets, so that two of them never hand out the same counts.
	base  [numDBWideTickers]atomic.Uint64
	popMu sync.Mutex
}

// NewDBWide returns DB-wide tickers that read Pebble's metrics through metrics
// (a DB's Metrics method) and the iterator totals of Iterators.
func NewDBWide(metrics func() *pebble.Metrics) *DBWide {
	return &DBWide{metrics: metrics}
}

// Iterators returns the totals the DB's iterators add to when closed.
func (w *DBWide) Iterators() *IterTotals { return &w.iters }

// load returns every ticker's value since the DB was opened, reading
// Pebble's metrics once.
func (w *DBWide) load() [numDBWideTickers]uint64 {
	var v [numDBWideTickers]uint64
	for k := dbWideSeek; k < numDBWideTickers; k++ {
		v[k] = w.iters.load(k)
	}
	if m := w.metrics(); m != nil {
		fromMetrics(m, &v)
	}
	return v
}

// fromMetrics sets the tickers that are Pebble's Metrics.
func fromMetrics(m *pebble.Metrics, v *[numDBWideTickers]uint64) {
	v[dbWideFilterUseful] = uint64(m.Filter.Hits)
	v[dbWideFilterPositive] = uint64(m.Filter.Misses)
	v[dbWideBlockCacheHit] = uint64(m.BlockCache.Hits)
	v[dbWideBlockCacheMiss] = uint64(m.BlockCache.Misses)
}

// MetricsTickers returns the DB-wide tickers that are Pebble's Metrics, by
// name, since m's DB was opened: the ones any Pebble DB, upstream's too,
// can report under the same names and definitions.
func MetricsTickers(m *pebble.Metrics) []Ticker {
	var v [numDBWideTickers]uint64
	fromMetrics(m, &v)
	out := make([]Ticker, 0, dbWideBlockCacheMiss+1)
	for k := dbWideFilterUseful; k <= dbWideBlockCacheMiss; k++ {
		out = append(out, Ticker{Name: dbWideNames[k], Count: int64(v[k])})
	}
	return out
}

// DBWideFilterUseful is the name of the ticker of table filter checks that ruled
// a table out (Metrics.Filter.Hits).
var DBWideFilterUseful = dbWideNames[dbWideFilterUseful]

// All returns every DB-wide ticker by name, zero or not.
func (w *DBWide) All() []Ticker {
	// The bases first: a base is a value loaded earlier, so a count loaded
	// after it is never below it, whatever a concurrent Pop stores.
	var base [numDBWideTickers]uint64
	for k := range base {
		base[k] = w.base[k].Load()
	}
	v := w.load()
	out := make([]Ticker, numDBWideTickers)
	for k := range v {
		out[k] = Ticker{Name: dbWideNames[k], Count: int64(v[k] - base[k])}
	}
	return out
}

// Get returns the named DB-wide ticker, and whether name is one.
func (w *DBWide) Get(name string) (uint64, bool) {
	return w.read(name, false)
}

// Pop is Get, and resets the ticker to zero.
func (w *DBWide) Pop(name string) (uint64, bool) {
	return w.read(name, true)
}

func (w *DBWide) read(name string, pop bool) (uint64, bool) {
	for k := range dbWideNames {
		if dbWideNames[k] != name {
			continue
		}
		if pop {
			w.popMu.Lock()
			defer w.popMu.Unlock()
		}
		base := w.base[k].Load() // before now: see All
		now := w.load()[k]
		if pop {
			w.base[k].Store(now)
		}
		return now - base, true
	}
	return 0, false
}

// Reset sets every DB-wide ticker to zero.
func (w *DBWide) Reset() {
	w.popMu.Lock()
	defer w.popMu.Unlock()
	v := w.load()
	for k := range v {
		w.base[k].Store(v[k])
	}
}

// String prints the non-zero DB-wide tickers in db_bench's format, under a
// heading that says what they are.
func (w *DBWide) String() string {
	var b strings.Builder
	b.WriteString("DB-wide (whole DB, since open or reset):\n")
	WriteTickers(&b, w.All(), false)
	return b.String()
}
