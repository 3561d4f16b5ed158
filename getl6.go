// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"io"
	"runtime"
	"sync/atomic"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/pebblerf/pebble/pointfilter"
)

// Gets that consult the last level's filters (Plugins.GetL6Filters).
//
// Pebble's Get never reads the filters of L6 tables (it opens them without
// IterOptions.UseL6Filters, because an L6 filter block is large and a Get
// that finds its key has no use for it). So a Get of an absent key that
// reaches L6 reads an L6 index and data block to learn the key is not there:
// with L6 on object storage, a remote request per absent key. An iterator
// opened with UseL6Filters does consult them, and SeekPrefixGE(key) on it,
// followed by an exact comparison of the key it lands on, answers what Get
// answers:
//
//   - SeekPrefixGE(key) positions at the first visible user key >= key whose
//     prefix (Comparer.Split) is key's, after range deletions, point
//     tombstones and the snapshot are applied, with merge operands merged as
//     Get merges them (both run upstream's Iterator over the key's history).
//     If key has a visible value it is that key; if not, it is a later key
//     of the prefix or none, and Comparer.Equal tells the two apart, as
//     Get's own comparison does. For a comparer whose Split is the identity
//     the prefix is the whole key; for CockroachDB's MVCC keys it is the key
//     without its timestamp, and a Get of an encoded key@ts is still exact:
//     a seek that lands on key@ts' (an older version) compares unequal.
//   - Both consult the same filters with the same prefix, key[:Split(key)]:
//     Get in every level but L6, the iterator in L6 too. That relies on the
//     Comparer contract Pebble's prefix filters already rely on (keys that
//     compare equal have byte-identical prefixes); a key whose Split does not
//     fall within it is left to upstream's Get.
//
// What it costs: opening an iterator (upstream pools its allocation, this
// package pools the wrapper) and seeking every level's iterator where Get
// stops at the first level holding the key; for a key found above L6, L5
// and L6 are still seeked, by filter (and read if an older version is
// there). And L6's filter blocks, which compete for the block cache. Batch
// Gets stay upstream's.
//
// # When it routes
//
// The route trades an L6 index and data block read per absent key for an
// L6 filter check. That is a saving only while the L6 filter blocks stay
// in the block cache: a filter block that is read again for each Get that
// needs it is many data blocks' worth of bytes (on object storage, a GET
// of hundreds of kilobytes where upstream's Get made one of a few). So in
// both modes the route runs only while L6's filters fit, by an estimate,
// in a quarter of what the block cache holds for blocks, and the largest
// of them in a quarter of what one of its shards holds (Pebble's cache is
// cut into shards, and a block larger than its shard is never cached;
// Pebble also reserves the memtables' memory in it, cacheShards). A
// filter's bytes are estimated as its table's entries (Pebble's table
// stats) times the bits per key of L6's filter policy; entries count every
// version of a key where the filter holds its prefix once, so the estimate
// errs towards routing less. It is taken again, at most once a second,
// after a flush, compaction or ingest changed the LSM; until the stats of
// L6's tables are loaded (Pebble loads them in the background after a
// table is written or the DB opened) the route does not run.
//
// The automatic mode (GetL6Config.Auto) decides further, per DB, in
// windows of getL6Window Gets, from what the DB already counts:
//
//   - Gets that found nothing: every such Get reaches the last level that
//     spans its key, and with L6 holding data that is L6, where the route
//     saves a data block per key (less the filter's false positives). The
//     share is a lower bound of "reaching L6 and finding nothing" (a Get
//     that found its key counts as reaching L6 wherever it found it).
//     The route turns on at getL6OnShare and off below getL6OffShare: the
//     gap keeps a workload near one threshold from switching every window.
//   - L6 holds tables and the options give L6 a filter (Options.Levels or
//     Plugins.Filters): without them there is nothing to save.
//   - What a Get reads from storage: block bytes that missed the block
//     cache, per Get, from Pebble's per-category block stats
//     (Metrics.CategoryStats: upstream's Gets under "pebble-get", the
//     routed ones under getL6Category). With a secondary cache (tables on
//     shared storage and Options.Experimental.SecondaryCacheSizeBytes), a
//     block that misses the block cache is often served from local disk,
//     in pieces of the table, so what reaches the store is the secondary
//     cache's reads that missed (Metrics.SecondaryCacheMetrics: reads with
//     no or a partial hit), per Get; those are the DB's, not per category,
//     and a window's Gets are all routed or all not, so a window's count is
//     its Gets' (and its background work's). The route runs only while
//     upstream's Gets read from storage, getL6MinBytes each (getL6MinReads
//     store reads each with a secondary cache); below that, every block
//     they need is cached and a routed Get could only cost its iterator.
//     With a secondary cache it waits for getL6NeedWindows such windows
//     running: a cold secondary cache's first window reads from the store
//     where the following ones read from local disk, and the route's own
//     first reads (the pieces of the tables that hold the L6 filter
//     blocks) are then more than all it could save. Without one, the
//     filter blocks are a handful of GETs against the data blocks every
//     window reads, and the route starts after one.
//     If, after a
//     warm-up window in which the L6 filter blocks are first loaded, routed
//     Gets read more per Get than upstream's did in the last comparable
//     window (half absent or more) for two windows running, the filters are
//     not staying in the cache: the route turns off and stays off for a
//     hold-off that doubles each time (getL6HoldOff windows the first), so
//     that trying again costs a vanishing share of a long run. While on,
//     one window in getL6Explore goes to upstream's Get, to keep that
//     comparison current.
//
// What is approximate: Pebble's block stats count the bytes of the blocks
// a Get missed, not the requests a remote store served them with, nor the
// bytes a read-ahead added; objstore's meter counts those, but cannot tell
// upstream's Get's requests from the others (Pebble's Get takes no
// context), so the decision compares the block bytes both kinds of Get
// missed, which is what their requests carried. The secondary cache's
// counts are the DB's, flushes' and compactions' reads included.

// GetL6Config, set as Plugins.GetL6Filters, routes Gets through a prefix
// iterator that consults L6 filters. The zero value routes the Gets of the
// DB, its snapshots and eventually-file-only snapshots while L6's filters
// fit in a quarter of the block cache; Auto decides further, per DB.
type GetL6Config struct {
	// Auto, if set, routes Gets only while the DB's counts say it pays:
	// when at least half of its Gets find nothing, L6 holds tables with
	// filters that fit in a quarter of the block cache, upstream's Gets
	// read from storage (a DB whose blocks are all cached has no read to
	// save), and routed Gets read no more from storage than upstream's. It
	// starts with upstream's Get.
	Auto bool
}

// getL6Category is the block-stats category of routed Gets, so that
// Metrics.CategoryStats counts their storage reads apart from upstream's
// Gets ("pebble-get").
var getL6Category = block.RegisterCategory("pebblerf-get-l6", block.LatencySensitiveQoSLevel)

// upstreamGetCategory is the name of upstream's Get category (unexported
// there).
const upstreamGetCategory = "pebble-get"

// getL6IterOptions are every routed Get's iterator options. Pebble copies
// them; nothing writes them.
var getL6IterOptions = IterOptions{UseL6Filters: true, Category: getL6Category}

// The routing's constants (see above).
const (
	getL6Window   = 1024
	getL6OnShare  = 0.5
	getL6OffShare = 0.25
	getL6HoldOff  = 64
	getL6Explore  = 64
	getL6MinBytes = 64
	// getL6MinReads is the secondary cache's misses per Get below which
	// upstream's Gets read nothing worth saving: one store read in 64
	// Gets, as getL6MinBytes is a 4 KiB block in 64.
	getL6MinReads = 1.0 / 64
	// getL6NeedWindows is how many windows running upstream's Gets must
	// read from the store before the route runs, with a secondary cache.
	getL6NeedWindows = 2
	getL6CacheShare  = 4
	// getL6FitEvery is how often, at most, the fit of L6's filters in the
	// block cache is estimated again.
	getL6FitEvery = time.Second
	// getL6DefaultBits is the bits per key assumed of an L6 filter policy
	// whose own is not known.
	getL6DefaultBits = 10
	// getL6PendingWindow is the window while the stats of L6's tables are
	// loading, so that the route starts soon after they are.
	getL6PendingWindow = 64
)

// getRouter routes one DB's Gets (nil in readerHooks: the plug-in is off).
type getRouter struct {
	equal func(a, b []byte) bool
	split func(key []byte) int
	// on says whether Gets are routed.
	on atomic.Bool
	// window counts the current window's Gets (high 32 bits) and those
	// that found nothing (low 32); the Get that completes a window
	// evaluates it, and the fields below are only touched then, by one
	// goroutine at a time (evaluating).
	window     atomic.Uint64
	evaluating atomic.Bool

	fit  l6Fit
	auto *getAuto // nil: explicit mode
	// always routes every Get: for the tests of the route's answers, which
	// must route whatever the DB's shape.
	always bool
}

// l6Fit estimates whether L6's filters fit in a quarter of the block
// cache (see above).
type l6Fit struct {
	// bitsPerKey is L6's filter policy's bits per key now (0: no filter).
	bitsPerKey func() float64
	cacheBytes int64
	// tables lists the DB's tables (DB.SSTables), and metrics reads its
	// metrics (for the memtables' reservation here, and the automatic
	// mode's windows), set once it is open.
	tables  func() ([][]upstream.SSTableInfo, error)
	metrics func() *upstream.Metrics
	// changed is set by the events that change the LSM; pending while the
	// stats of an L6 table are not loaded.
	changed, pending atomic.Bool
	now              func() time.Time
	last             time.Time
	fits             bool
	// filterBytes is the last estimate of L6's filter bytes.
	filterBytes float64
}

// getAuto is the automatic mode's state, touched by the evaluating Get.
type getAuto struct {
	windows    int     // windows evaluated
	mode       bool    // whether the route is on (but for exploring windows)
	routedWin  bool    // whether the window just ended was routed
	lastGet    float64 // category missed bytes at the last evaluation
	lastRouted float64
	baseline   float64 // upstream Gets' missed bytes (or store reads) per Get, last comparable window
	// needed counts the comparable upstream windows running whose Gets
	// read from storage.
	needed int
	// secondary is set when the DB reads its remote tables through a
	// secondary cache: the windows are judged by its misses, and
	// lastReads is their count at the last evaluation.
	secondary   bool
	lastReads   float64
	onFor       int // routed windows since the route turned on
	costlier    int // routed windows running that read more than baseline
	holdUntil   int // no routing before this window
	holdWindows int // the next hold-off
	// stale is set while windows pass without reading the metrics, so
	// that lastGet and lastRouted are not this window's base.
	stale bool
}

// newGetRouter returns the router Plugins.GetL6Filters (c) asks for, or nil;
// opts are the DB's options with the plug-ins installed and planner the
// point filters' planner (nil: the options' filters). Its listener must be
// added to opts.
func newGetRouter(c *GetL6Config, comparer *Comparer, opts *Options, planner *pointfilter.Planner) *getRouter {
	if c == nil {
		return nil
	}
	// The comparer as Pebble completes it at Open (Split and Equal filled).
	comparer = comparer.EnsureDefaults()
	g := &getRouter{equal: comparer.Equal, split: comparer.Split}
	g.fit = l6Fit{bitsPerKey: l6BitsPerKey(opts, planner), cacheBytes: cacheBytes(opts), now: time.Now}
	if c.Auto {
		g.auto = &getAuto{holdWindows: getL6HoldOff,
			secondary: opts.Experimental.RemoteStorage != nil && opts.Experimental.SecondaryCacheSizeBytes > 0}
	}
	return g
}

// attach gives the router what it reads of the open DB.
func (g *getRouter) attach(db *upstream.DB) {
	g.fit.tables = func() ([][]upstream.SSTableInfo, error) { return db.SSTables() }
	g.fit.metrics = db.Metrics
	if g.auto == nil {
		g.on.Store(g.always || g.evaluateFit())
	}
}

// listener returns the events after which the fit is estimated again.
func (g *getRouter) listener() EventListener {
	changed := func() { g.fit.changed.Store(true) }
	return EventListener{
		FlushEnd:      func(FlushInfo) { changed() },
		CompactionEnd: func(CompactionInfo) { changed() },
		TableIngested: func(TableIngestInfo) { changed() },
		// Table stats, which the estimate reads, load after the tables.
		TableStatsLoaded: func(TableStatsInfo) { changed() },
	}
}

// cacheBytes is the capacity of the DB's block cache.
func cacheBytes(opts *Options) int64 {
	switch {
	case opts.Cache != nil:
		return opts.Cache.MaxSize()
	case opts.CacheSize > 0:
		return opts.CacheSize
	}
	return 8 << 20 // Pebble's default
}

// l6BitsPerKey returns the function that gives the bits per key of L6's
// filter policy: the planner's plan for L6 when there is one (it may be
// re-planned), else the options' (a level without a policy takes the one
// above it, as Pebble's defaults do); 0 for no filter.
func l6BitsPerKey(opts *Options, planner *pointfilter.Planner) func() float64 {
	if planner != nil {
		return func() float64 {
			l := planner.Level(len(opts.Levels) - 1)
			switch l.Kind {
			case pointfilter.KindNone:
				return 0
			case pointfilter.KindBloom, pointfilter.KindRibbon:
				return l.Bits
			}
			return getL6DefaultBits
		}
	}
	var p FilterPolicy
	for i := range opts.Levels {
		if opts.Levels[i].FilterPolicy != nil {
			p = opts.Levels[i].FilterPolicy
		}
	}
	bits := float64(getL6DefaultBits)
	switch p := p.(type) {
	case nil:
		bits = 0
	case bloom.FilterPolicy:
		bits = float64(p)
	case interface{ BitsPerKey() float64 }:
		bits = p.BitsPerKey()
	}
	if p == upstream.NoFilterPolicy {
		bits = 0
	}
	return func() float64 { return bits }
}

// evaluateFit estimates again, when the LSM changed and at most once per
// getL6FitEvery, whether L6's filters fit in the block cache, and returns
// whether they do.
func (g *getRouter) evaluateFit() bool {
	f := &g.fit
	now := f.now()
	if !f.last.IsZero() && (now.Sub(f.last) < getL6FitEvery || !f.changed.Load()) {
		return f.fits
	}
	f.changed.Store(false)
	f.pending.Store(false)
	f.last = now
	bits := f.bitsPerKey()
	if bits == 0 || f.tables == nil {
		f.fits, f.filterBytes = false, 0
		return false
	}
	levels, err := f.tables()
	if err != nil || len(levels) == 0 {
		f.fits = false
		return false
	}
	var entries, largest uint64
	for _, t := range levels[len(levels)-1] {
		if t.TableStats.NumEntries == 0 {
			// Its stats are not loaded yet (every table holds an entry):
			// no estimate, and the next window, a short one, tries again.
			f.fits, f.last = false, time.Time{}
			f.pending.Store(true)
			return false
		}
		entries += t.TableStats.NumEntries
		largest = max(largest, t.TableStats.NumEntries)
	}
	f.filterBytes = float64(entries) * bits / 8
	shards, shard := cacheShards(f.cacheBytes, f.memtableBytes())
	f.fits = len(levels[len(levels)-1]) > 0 &&
		f.filterBytes*getL6CacheShare <= float64(shards)*shard &&
		float64(largest)*bits/8*getL6CacheShare <= shard
	return f.fits
}

// memtableBytes is what the DB's memtables hold of the block cache now:
// Pebble reserves their memory in it.
func (f *l6Fit) memtableBytes() int64 {
	if f.metrics == nil {
		return 0
	}
	return int64(f.metrics().MemTable.Size)
}

// cacheShards returns the shards of a block cache of capacity bytes, as
// Pebble's NewCache cuts it (four per processor, but four in all where
// that leaves a shard under 4 MiB), and what each holds for blocks once
// reserved bytes (the memtables') are taken out. A block larger than what
// its shard holds is never cached, and one close to it does not stay.
func cacheShards(capacity, reserved int64) (shards int, perShard float64) {
	shards = 4 * runtime.GOMAXPROCS(0)
	if shards > 4 && capacity/int64(shards) < 4<<20 {
		shards = 4
	}
	return shards, float64(max(0, capacity-reserved)) / float64(shards)
}

// getByPrefix is src's Get through a prefix iterator with L6 filters (see
// above).
// The closer it returns is the iterator, whose value stays valid until it
// is closed, as Get's does until its closer is.
func (r *readerHooks) getByPrefix(src reader, key []byte) ([]byte, io.Closer, error) {
	it, err := r.newIter(context.Background(), src, &getL6IterOptions)
	if err != nil {
		return nil, nil, err
	}
	if !it.SeekPrefixGE(key) || !r.getL6.equal(key, it.Key()) {
		if err := it.Close(); err != nil {
			return nil, nil, err
		}
		return nil, nil, ErrNotFound
	}
	v, err := it.ValueAndErr()
	if err != nil {
		_ = it.Close()
		return nil, nil, err
	}
	return v, it, nil
}

// routes reports whether a Get of key goes through the prefix iterator.
func (g *getRouter) routes(key []byte) bool {
	if !g.on.Load() {
		return false
	}
	n := g.split(key)
	return n >= 0 && n <= len(key)
}

// done counts one Get's result, and evaluates the window it completes.
func (g *getRouter) done(err error) {
	inc := uint64(1) << 32
	if err == ErrNotFound {
		inc++
	}
	v := g.window.Add(inc)
	size := uint64(getL6Window)
	if g.fit.pending.Load() {
		size = getL6PendingWindow
	}
	if v>>32 < size || !g.evaluating.CompareAndSwap(false, true) {
		return
	}
	// Take this window's counts out; Gets counted since stay in.
	g.window.Add(-v)
	g.evaluate(float64(v>>32), float64(uint32(v)))
	g.evaluating.Store(false)
}

// evaluate decides the next window's route from the one just ended: gets
// Gets, of which absent found nothing.
func (g *getRouter) evaluate(gets, absent float64) {
	if g.always {
		return
	}
	a := g.auto
	if a == nil {
		g.on.Store(g.evaluateFit())
		return
	}
	a.windows++
	share := absent / gets
	if !a.routedWin && !a.mode && share < getL6OnShare {
		// The route is off and most Gets found their key, so it stays off
		// whatever the metrics say; they are not read, as DB.Metrics costs
		// more than a window of cached Gets. The next window that reads
		// them takes their totals as its base and judges nothing.
		a.stale = true
		return
	}
	m := g.fit.metrics()
	var getMissed, routedMissed float64
	for _, c := range m.CategoryStats {
		missed := float64(c.CategoryStats.BlockBytes - c.CategoryStats.BlockBytesInCache)
		switch {
		case c.Category == getL6Category:
			routedMissed = missed
		case c.Category.String() == upstreamGetCategory:
			getMissed = missed
		}
	}
	dGet, dRouted := (getMissed-a.lastGet)/gets, (routedMissed-a.lastRouted)/gets
	a.lastGet, a.lastRouted = getMissed, routedMissed
	minRead := float64(getL6MinBytes)
	if a.secondary {
		sc := m.SecondaryCacheMetrics
		reads := float64(sc.ReadsWithNoHit + sc.ReadsWithPartialHit)
		dGet = (reads - a.lastReads) / gets
		dRouted, a.lastReads, minRead = dGet, reads, getL6MinReads
	}
	if a.stale {
		// The totals span windows whose metrics were not read: this one
		// only measures, for the next.
		a.stale = false
		return
	}
	if a.routedWin {
		a.onFor++
		// The first routed window loads the L6 filter blocks: not judged.
		if a.onFor > 1 && dRouted > a.baseline {
			a.costlier++
		} else {
			a.costlier = 0
		}
	} else if share >= getL6OnShare {
		a.baseline = dGet
		if dGet >= minRead {
			a.needed++
		} else {
			a.needed = 0
		}
	}
	switch {
	case !g.evaluateFit() || m.Levels[len(m.Levels)-1].TablesCount == 0:
		a.mode = false
	case a.costlier >= 2:
		a.mode, a.holdUntil = false, a.windows+a.holdWindows
		a.holdWindows *= 2
	case a.windows < a.holdUntil:
		a.mode = false
	case a.needed < 1 || a.secondary && a.needed < getL6NeedWindows:
		// Upstream's Gets read (almost) nothing from storage, or have not
		// for long: every block they need is cached, so the route could
		// save no read and would only cost its iterator and its own reads.
		a.mode = false
	case share >= getL6OnShare:
		a.mode = true
	case share < getL6OffShare:
		a.mode = false
	}
	if !a.mode {
		a.onFor, a.costlier = 0, 0
	}
	// While on, one window in getL6Explore measures upstream's Get again.
	a.routedWin = a.mode && (a.onFor == 0 || a.windows%getL6Explore != 0)
	g.on.Store(a.routedWin)
}
