// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
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
// there). An L6 filter block is loaded once into the block cache, where it
// competes with data blocks. Batch Gets stay upstream's.
//
// The automatic mode (GetL6Config.Auto) decides per DB, in windows of
// getL6Window Gets, from what the DB already counts:
//
//   - Gets that found nothing: every such Get reaches the last level that
//     spans its key, and with L6 holding data that is L6, where the route
//     saves a data block per key (less the filter's false positives). The
//     share is a lower bound of "reaching L6 and finding nothing" (a Get
//     that found its key counts as reaching L6 wherever it found it).
//     The route turns on at getL6OnShare and off below getL6OffShare: the
//     gap keeps a workload near one threshold from switching every window.
//   - L6 holds tables (Metrics) and the options give L6 a filter
//     (Options.Levels or Plugins.Filters): without them there is nothing to
//     save.
//   - Time waited on storage per Get, from Pebble's per-category block
//     stats (Metrics.CategoryStats: upstream's Gets under "pebble-get", the
//     routed ones under getL6Category). If, after a warm-up window in which
//     the L6 filter blocks are first loaded, routed Gets wait longer on
//     storage than upstream's did in the last comparable window (half absent
//     or more) for two windows running, the filters are not staying in the
//     cache (or are not there): the route turns off and stays off for
//     getL6HoldOff windows. While on, one window in getL6Explore goes to
//     upstream's Get, to keep that comparison current. Routed waits under
//     getL6MinWait per Get (everything cached) never count as slower; but
//     while upstream's Gets wait less than that, the route stays off: with
//     every block they read cached there is no read to save, and a routed
//     Get costs an iterator's CPU (docs/benchmarks.md, BenchmarkRecommended).

// GetL6Config, set as Plugins.GetL6Filters, routes Gets through a prefix
// iterator that consults L6 filters. The zero value routes every Get of the
// DB, its snapshots and eventually-file-only snapshots; Auto decides per
// DB.
type GetL6Config struct {
	// Auto, if set, routes Gets only while the DB's counts say it pays:
	// when at least half of its Gets find nothing, L6 holds tables with
	// filters, upstream's Gets wait on storage (a DB whose blocks are all
	// cached has no read to save), and routed Gets do not wait longer on
	// storage than upstream's. It starts with upstream's Get.
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

// The automatic mode's constants (see above).
const (
	getL6Window   = 1024
	getL6OnShare  = 0.5
	getL6OffShare = 0.25
	getL6HoldOff  = 64
	getL6Explore  = 64
	getL6MinWait  = time.Microsecond
)

// getRouter routes one DB's Gets (nil in readerHooks: the plug-in is off).
type getRouter struct {
	equal func(a, b []byte) bool
	split func(key []byte) int
	// on says whether Gets are routed; always true without auto.
	on   atomic.Bool
	auto *getAuto // nil: explicit mode
}

// getAuto is the automatic mode's state. window counts the current
// window's Gets (high 32 bits) and those that found nothing (low 32); the
// Get that completes a window evaluates it, and the fields below are only
// touched then, by one goroutine at a time (evaluating).
type getAuto struct {
	window     atomic.Uint64
	evaluating atomic.Bool

	metrics func() *upstream.Metrics
	// l6Filter reports whether new L6 tables get a filter.
	l6Filter func() bool

	windows    int           // windows evaluated
	mode       bool          // whether the route is on (but for exploring windows)
	routedWin  bool          // whether the window just ended was routed
	lastGet    time.Duration // category totals at the last evaluation
	lastRouted time.Duration
	baseline   time.Duration // upstream Gets' storage wait per Get, last comparable window
	onFor      int           // routed windows since the route turned on
	slower     int           // routed windows running that waited longer than baseline
	holdUntil  int           // no routing before this window
	// stale is set while windows pass without reading the metrics, so
	// that lastGet and lastRouted are not this window's base.
	stale bool
}

// newGetRouter returns the router Plugins.GetL6Filters (c) asks for, or nil;
// opts are the DB's options with the plug-ins installed and planner the
// point filters' planner (nil: the options' filters).
func newGetRouter(c *GetL6Config, comparer *Comparer, opts *Options, planner *pointfilter.Planner) *getRouter {
	if c == nil {
		return nil
	}
	// The comparer as Pebble completes it at Open (Split and Equal filled).
	comparer = comparer.EnsureDefaults()
	g := &getRouter{equal: comparer.Equal, split: comparer.Split}
	if !c.Auto {
		g.on.Store(true)
		return g
	}
	static := l6HasFilter(opts)
	g.auto = &getAuto{l6Filter: func() bool {
		if planner != nil {
			// Re-planned while the DB runs: ask the plan now.
			return planner.Level(len(opts.Levels)-1).Kind != pointfilter.KindNone
		}
		return static
	}}
	return g
}

// l6HasFilter reports whether opts give L6 a filter: a level without a
// policy takes the one above it, as Pebble's defaults do.
func l6HasFilter(opts *Options) bool {
	var p FilterPolicy
	for i := range opts.Levels {
		if opts.Levels[i].FilterPolicy != nil {
			p = opts.Levels[i].FilterPolicy
		}
	}
	return p != nil && p != upstream.NoFilterPolicy
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

// done counts one Get's result for the automatic mode.
func (g *getRouter) done(err error) {
	a := g.auto
	if a == nil {
		return
	}
	inc := uint64(1) << 32
	if err == ErrNotFound {
		inc++
	}
	v := a.window.Add(inc)
	if v>>32 < getL6Window || !a.evaluating.CompareAndSwap(false, true) {
		return
	}
	// Take this window's counts out; Gets counted since stay in.
	a.window.Add(-v)
	g.evaluate(float64(v>>32), float64(uint32(v)))
	a.evaluating.Store(false)
}

// evaluate decides the next window's route from the one just ended: gets
// Gets, of which absent found nothing.
func (g *getRouter) evaluate(gets, absent float64) {
	a := g.auto
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
	m := a.metrics()
	var getWait, routedWait time.Duration
	for _, c := range m.CategoryStats {
		switch {
		case c.Category == getL6Category:
			routedWait = c.CategoryStats.BlockReadDuration
		case c.Category.String() == upstreamGetCategory:
			getWait = c.CategoryStats.BlockReadDuration
		}
	}
	perGet := func(total, last time.Duration) time.Duration {
		return time.Duration(float64(total-last) / gets)
	}
	dGet, dRouted := perGet(getWait, a.lastGet), perGet(routedWait, a.lastRouted)
	a.lastGet, a.lastRouted = getWait, routedWait
	if a.stale {
		// The totals span windows whose metrics were not read: this one
		// only measures, for the next.
		a.stale = false
		return
	}
	if a.routedWin {
		a.onFor++
		// The first routed window loads the L6 filter blocks: not judged.
		if a.onFor > 1 && dRouted >= getL6MinWait && dRouted > a.baseline {
			a.slower++
		} else {
			a.slower = 0
		}
	} else if share >= getL6OnShare {
		a.baseline = dGet
	}
	switch {
	case !a.l6Filter() || m.Levels[len(m.Levels)-1].TablesCount == 0:
		a.mode = false
	case a.slower >= 2:
		a.mode, a.holdUntil = false, a.windows+getL6HoldOff
	case a.windows < a.holdUntil:
		a.mode = false
	case a.baseline < getL6MinWait:
		// Upstream's Gets did not wait on storage: every block they read
		// was cached, so the route could save no read and would only
		// cost its iterator.
		a.mode = false
	case share >= getL6OnShare:
		a.mode = true
	case share < getL6OffShare:
		a.mode = false
	}
	if !a.mode {
		a.onFor, a.slower = 0, 0
	}
	// While on, one window in getL6Explore measures upstream's Get again.
	a.routedWin = a.mode && (a.onFor == 0 || a.windows%getL6Explore != 0)
	g.on.Store(a.routedWin)
}
