package querybuilder

import (
	"bytes"
	"sync/atomic"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
	"github.com/pebblerf/pebble/internal/iterhooks"
)

// Options configure a Builder.
type Options struct {
	// Comparer must be the DB's comparer; nil means pebble.DefaultComparer.
	// Stepping and prefix mode compare seek keys with file bounds, so a wrong
	// comparer gives wrong results.
	Comparer *pebble.Comparer
	// Plan forces a plan for every query; PlanAuto (the zero value) chooses
	// per query.
	Plan Plan
	// MinDeferrable is the auto plan's threshold on the sorted runs a
	// forward seek defers on average (what Explain's reason prints); zero
	// means 1.0: step only where a seek defers at least one run.
	MinDeferrable float64
	// RangeFilters, if set, returns the block-property filters that skip
	// tables and blocks holding no key in [lower, upper) (nil: unbounded).
	// They are attached to every query, kept for bounds within the ones they
	// were built for (step bounds, and a caller's narrower SetBounds), since
	// no key in [lower, upper) implies none in any subrange, and rebuilt
	// (with SetOptions, as Pebble requires for filters that depend on the
	// bounds) for any other bounds. rangefilter.Policy.BoundsFilter makes
	// such a filter.
	RangeFilters func(lower, upper []byte) []pebble.BlockPropertyFilter
	// annotators refine Explain output with what they observed (see
	// annotator).
	annotators []annotator
	// LevelFilters, if set, returns the filters each level's new tables get
	// under the DB's current plans, which Explain shows: plans can change
	// while the DB runs, and a query's cost depends on them.
	LevelFilters func() []LevelFilters
	// Closed, if set, is called as each query closes (not Explain's probes)
	// with its upstream iterator's stats, the absolute positionings the
	// caller made and how many of them left the query valid. The stats
	// include the planner's own re-seeks (widenings, prefix exits); seeks
	// does not. st is valid only during the call.
	Closed func(st *pebble.IteratorStats, seeks, found int)
}

// Reader creates upstream iterators: a *pebble.DB, *pebble.Snapshot or
// *pebble.Batch. Queries created through a Builder read from one.
type Reader interface {
	NewIter(o *pebble.IterOptions) (*pebble.Iterator, error)
}

// Builder plans queries on one DB. It caches the LSM's file layout and rebuilds
// it when the DB's version changes; Builders made from one With share
// the cache. A Builder is safe for concurrent use.
type Builder struct {
	db   *pebble.DB
	opts Options
	// queries are the plug-ins of the DB's queries (the root package's
	// statistics), which Builders made by With share.
	queries iterhooks.Queries
	// closed is called as each query closes: the plug-ins' Closed and the
	// caller's Options.Closed.
	closed func(st *pebble.IteratorStats, seeks, found int)
	// hooks are every query's plug-ins; batchHooks those of a query that
	// reads an indexed batch (Hooks.ForBatch).
	hooks, batchHooks iterhooks.Hooks
	cache             *layoutCache
}

// layoutCache holds the most recent Layout of one DB, for the Builders
// that share it.
type layoutCache struct {
	// layout is the most recent layout, tagged with the version it was built
	// from.
	layout atomic.Pointer[taggedLayout]
	// verified holds the name of the comparer checked against a table's.
	verified atomic.Pointer[string]
	// building is set while one query rebuilds the layout; the others go on
	// with the previous one meanwhile.
	building atomic.Bool
}

type taggedLayout struct {
	version  any
	comparer string
	layout   *layout
}

// New returns a Builder for db with a layout cache of its own.
func New(db *pebble.DB, o Options) *Builder {
	return newBuilder(db, o, iterhooks.Queries{}, &layoutCache{})
}

// With returns a Builder of b's DB with options o that shares b's layout
// cache (and, for the Builders of a pebblerf DB, its plug-ins): a program
// that plans each query with options of its own makes one Builder and a
// With per query, which costs no rebuild of the layout.
func (b *Builder) With(o Options) *Builder {
	return newBuilder(b.db, o, b.queries, b.cache)
}

// NewWithPlugins returns a Builder for db with zero options and a layout
// cache of its own, whose queries (and those of the Builders With makes
// from it) get q's plug-ins: the Observers of their reads and a Closed of
// their own, called before each query's Options.Closed. It is how
// pebblerf's root package makes a DB's Builder; a program that plans
// queries on an upstream DB calls New.
func NewWithPlugins(db *pebble.DB, q iterhooks.Queries) *Builder {
	return newBuilder(db, Options{}, q, &layoutCache{})
}

func newBuilder(db *pebble.DB, o Options, q iterhooks.Queries, cache *layoutCache) *Builder {
	if o.Comparer == nil {
		o.Comparer = pebble.DefaultComparer
	}
	if o.MinDeferrable == 0 {
		o.MinDeferrable = defaultMinDeferrable
	}
	hooks := iterhooks.Hooks{Compare: o.Comparer.Compare, RangeFilters: o.RangeFilters != nil, Observers: q.Observers}
	b := &Builder{db: db, opts: o, queries: q, hooks: hooks, batchHooks: hooks.ForBatch(), cache: cache}
	switch plugins, caller := q.Closed, o.Closed; {
	case plugins == nil:
		b.closed = caller
	case caller == nil:
		b.closed = plugins
	default:
		b.closed = func(st *pebble.IteratorStats, seeks, found int) {
			plugins(st, seeks, found)
			caller(st, seeks, found)
		}
	}
	return b
}

// layout returns the layout of the DB's current version, building it if the
// version changed since the last call.
//
// DebugCurrentVersion serves only as a cheap change signal: the pointer is
// compared, never dereferenced, because the version it returns is not
// reference-counted. The file list itself comes from DB.SSTables, which
// holds a reference while it copies. If a flush or compaction lands between
// the two calls, the layout is newer than its tag and is rebuilt once more
// on the next call; either way a layout can only be as stale as any file
// list an iterator might be planned on, which costs efficiency, never
// correctness (see the package comment).
//
// While a version change is being rebuilt for, concurrent queries are
// planned on the previous layout (a stale layout is safe, as above), so
// that after a flush or compaction every thread does not rebuild at once.
func (b *Builder) layout() (*layout, error) {
	v := any(b.db.DebugCurrentVersion())
	t := b.cache.layout.Load()
	if t != nil && t.comparer == b.opts.Comparer.Name {
		if t.version == v {
			return t.layout, nil
		}
		if !b.cache.building.CompareAndSwap(false, true) {
			return t.layout, nil
		}
		defer b.cache.building.Store(false)
	}
	tables, err := b.db.SSTables()
	if err != nil {
		return nil, errors.Wrap(err, "querybuilder: reading the LSM's file metadata")
	}
	if err := b.verifyComparer(tables); err != nil {
		return nil, err
	}
	l := layoutFromSSTables(b.opts.Comparer, tables)
	b.cache.layout.Store(&taggedLayout{version: v, comparer: b.opts.Comparer.Name, layout: l})
	return l, nil
}

// verifyComparer checks, once, that the Builder's comparer is the one the
// DB's tables were written with: stepping and prefix mode under another
// comparer's order would return wrong results. It reads the properties of
// one table; until the DB has a table there is nothing to check against.
func (b *Builder) verifyComparer(tables [][]pebble.SSTableInfo) error {
	if v := b.cache.verified.Load(); v != nil && *v == b.opts.Comparer.Name {
		return nil
	}
	for _, level := range tables {
		if len(level) == 0 {
			continue
		}
		t := level[0]
		one, err := b.db.SSTables(pebble.WithProperties(),
			pebble.WithKeyRangeFilter(t.Smallest.UserKey, append(bytes.Clone(t.Largest.UserKey), 0)))
		if err != nil {
			return errors.Wrap(err, "querybuilder: reading table properties")
		}
		for _, l := range one {
			for _, info := range l {
				if info.Properties == nil || info.Properties.ComparerName == "" {
					continue
				}
				if info.Properties.ComparerName != b.opts.Comparer.Name {
					return errors.Newf("querybuilder: comparer %q given, but the DB's tables use %q",
						redact.SafeString(b.opts.Comparer.Name), redact.SafeString(info.Properties.ComparerName))
				}
				b.cache.verified.Store(&b.opts.Comparer.Name)
				return nil
			}
		}
	}
	return nil
}

// NewIter returns a query over the DB with Pebble's iterator semantics.
func (b *Builder) NewIter(o *pebble.IterOptions) (*Iterator, error) {
	return b.NewIterFrom(b.db, o)
}

// NewIterFrom returns a query that reads from r (the DB, or a snapshot or
// batch of it) and is planned on the DB's current layout.
func (b *Builder) NewIterFrom(r Reader, o *pebble.IterOptions) (*Iterator, error) {
	return b.newIter(r, o, false)
}

// newIter is NewIterFrom; an unobserved query reports to no Observer.
func (b *Builder) newIter(r Reader, o *pebble.IterOptions, unobserved bool) (*Iterator, error) {
	// Create the upstream iterator first: the layout read right after it is
	// the closest to the iterator's view.
	i := iterPool.Get().(*Iterator)
	i.b = b
	if !unobserved {
		i.closed = b.closed
	}
	hooks := &b.hooks
	if _, ok := r.(*pebble.Batch); ok {
		hooks = &b.batchHooks
	}
	i.h.Init(hooks, o)
	return i.start(r.NewIter(i.h.Open(i.rangeFilters(), !unobserved)))
}

// rangeFilters returns the range filters of the bounds the query's state
// asks them for (iterhooks.IterHooks.FilterBounds), from
// Options.RangeFilters; nil when it asks for none. Planned queries never
// ask a gate.
func (i *Iterator) rangeFilters() []pebble.BlockPropertyFilter {
	lower, upper, _, ok := i.h.FilterBounds()
	if !ok {
		return nil
	}
	return i.b.opts.RangeFilters(lower, upper)
}

// start plans i around the upstream iterator just created for it.
func (i *Iterator) start(it *pebble.Iterator, err error) (*Iterator, error) {
	if err != nil {
		i.recycle()
		return nil, err
	}
	i.it = it
	if err := i.replan(); err != nil {
		_ = i.Close()
		return nil, err
	}
	return i, nil
}
