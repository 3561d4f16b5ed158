package pebble

import (
	"runtime"
	"sync"
	"weak"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/querybuilder"
)

// RangeQuery is a planned bounded read (package querybuilder): an iterator
// with upstream's methods and results, which gives Pebble the tightest
// bounds that are still correct, so that sorted runs and tables that cannot
// answer the read are never opened.
type RangeQuery = querybuilder.Iterator

// RangeQueryOptions configure how range queries are planned. Comparer, if
// nil, is the comparer the DB was opened with; RangeFilters, if nil, are
// the DB's range filters when Plugins.RangeFilter is on.
type RangeQueryOptions = querybuilder.Options

// QueryPlan is how a range query reads the LSM.
type QueryPlan = querybuilder.Plan

// The plans a range query can be forced to; PlanAuto chooses per query.
const (
	PlanAuto    = querybuilder.PlanAuto
	PlanPlain   = querybuilder.PlanPlain
	PlanStepped = querybuilder.PlanStepped
	PlanPrefix  = querybuilder.PlanPrefix
)

// RangeQueries returns a planner for reads on d. The planner caches the
// LSM's file layout per DB, so making one per query is cheap. With
// statistics on (Plugins.Statistics), range queries report their seeks,
// data-block loads and value reads to them as NewIter's iterators do,
// unless o.Observe is set.
func (d *DB) RangeQueries(o RangeQueryOptions) *querybuilder.Builder {
	if o.Comparer == nil {
		o.Comparer = d.comparer
	}
	if o.Observe == nil && d.stats != nil {
		stats := d.stats
		o.Observe = func(io *IterOptions) (querybuilder.Observer, *IterOptions) {
			t, io := stats.NewIter(io)
			return t, io
		}
	}
	if o.RangeFilters == nil && d.rangeFilter != nil {
		policy := d.rangeFilter
		o.RangeFilters = func(lower, upper []byte) []BlockPropertyFilter {
			if lower == nil && upper == nil {
				return nil
			}
			return []BlockPropertyFilter{policy.BoundsFilter(lower, upper)}
		}
	}
	return querybuilder.NewWithCache(d.DB, o, layoutCacheFor(d.DB))
}

// NewRangeQuery returns a planned iterator over o's bounds: a drop-in for
// NewIter whose results are identical. qo may be nil (auto plan, default
// comparer).
func (d *DB) NewRangeQuery(o *IterOptions, qo *RangeQueryOptions) (*RangeQuery, error) {
	var opts RangeQueryOptions
	if qo != nil {
		opts = *qo
	}
	return d.RangeQueries(opts).NewIter(o)
}

// layoutCaches maps each open upstream DB, weakly, to its layout cache. The
// DB type cannot grow a field for it without touching every file that
// builds one, and a weak key lets a closed, unreachable DB take its cache
// with it.
var layoutCaches sync.Map // weak.Pointer[upstream.DB] -> *querybuilder.LayoutCache

func layoutCacheFor(db *upstream.DB) *querybuilder.LayoutCache {
	key := weak.Make(db)
	if c, ok := layoutCaches.Load(key); ok {
		return c.(*querybuilder.LayoutCache)
	}
	c, loaded := layoutCaches.LoadOrStore(key, &querybuilder.LayoutCache{})
	if !loaded {
		runtime.AddCleanup(db, func(k weak.Pointer[upstream.DB]) { layoutCaches.Delete(k) }, key)
	}
	return c.(*querybuilder.LayoutCache)
}
