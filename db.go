package pebble

import (
	"context"
	"fmt"
	"io"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
	"github.com/pebblerf/pebble/internal/iterhooks"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
)

// DB is upstream Pebble's DB with pebblerf's plug-ins attached. Every
// upstream method is available with its upstream signature; the ones that
// create iterators, batches or snapshots return this package's wrappers, so
// reads made through them stay visible to the plug-ins.
type DB struct {
	*upstream.DB
	// readerHooks are the statistics (nil: off) and the hooks every
	// iterator of the DB, its snapshots and its batches gets.
	readerHooks
	// rangeFilter is the DB's range-filter policy (nil: off), and
	// pointCounts count its point filters' events (DB.FilterCounters).
	rangeFilter *rangefilter.Policy
	pointCounts *pointfilter.Counts
	// planner is the point filters' planner (nil: the options' filters).
	planner *pointfilter.Planner
	// comparer is the comparer the DB was opened with, for range queries.
	comparer *Comparer
	// queries is the Builder every range query's is made from (With): it
	// holds the LSM's layout cache, so that a planner made per query costs
	// no rebuild, and the plug-ins' hooks of the DB's range queries.
	queries *querybuilder.Builder
	// stopBackground stops the shape driver and the compaction advisor.
	stopBackground func()
	// statistics are the DB-wide tickers and the per-level statistics.
	statistics Statistics
	// levelFiltersFn is d.levelFilters, made once: a method value is a new
	// closure each time it is taken, and RangeQueries is called per query.
	levelFiltersFn func() []querybuilder.LevelFilters
	// boundsFiltersFn is d.boundsFilters, made once for the same reason,
	// when the range filter plug-in is on.
	boundsFiltersFn func(lower, upper []byte) []BlockPropertyFilter
}

// newDB wraps db, opened with the plug-ins in; stop stops their background
// work. It is the one place a DB is built.
func newDB(db *upstream.DB, in *installed, stop func()) *DB {
	dbWide := seekstats.NewDBWide(db.Metrics)
	d := &DB{
		DB:             db,
		readerHooks:    in.readerHooks(),
		rangeFilter:    in.rangeFilter,
		pointCounts:    in.pointCounts,
		planner:        in.planner,
		comparer:       in.comparer,
		stopBackground: stop,
		statistics:     Statistics{dbWide: dbWide},
	}
	if in.stats != nil {
		d.statistics.perLevel = (*seekstats.Statistics)(in.stats.Store())
	}
	d.readerHooks.iterTotals = dbWide.Iterators()
	if in.getL6 != nil {
		in.getL6.attach(db)
	}
	// Closed queries add to the DB-wide iterator totals; the method value is
	// made once, so that a planner made per query allocates no closure.
	d.queries = querybuilder.NewWithPlugins(db, iterhooks.Queries{
		Observers: d.hooks.Observers, Closed: dbWide.Iterators().AddQuery,
	})
	d.levelFiltersFn = d.levelFilters
	if d.rangeFilter != nil {
		d.boundsFiltersFn = d.boundsFilters
	}
	return d
}

// Close is upstream's DB.Close. It first stops the plug-ins' background work
// (the shape driver and the compaction advisor), which would otherwise call
// into a closed DB.
func (d *DB) Close() error {
	if stop := d.stopBackground; stop != nil {
		d.stopBackground = nil
		stop()
	}
	return d.DB.Close()
}

// Statistics returns the DB's statistics: the DB-wide tickers, which are
// always kept, and the per-level statistics if Plugins.Statistics is on.
func (d *DB) Statistics() *Statistics {
	return &d.statistics
}

// Get is upstream's DB.Get, but for one thing: a failed read of a value
// stored apart from its key is its error, which upstream's leaves to the
// closer (readwrite.go, upstreamGet).
func (d *DB) Get(key []byte) ([]byte, io.Closer, error) { return d.get(d.DB, key) }

// NewIter is upstream's DB.NewIter.
func (d *DB) NewIter(o *IterOptions) (*Iterator, error) {
	return d.newIter(context.Background(), d.DB, o)
}

// NewIterWithContext is upstream's DB.NewIterWithContext.
func (d *DB) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	return d.newIter(ctx, d.DB, o)
}

// NewSnapshot is upstream's DB.NewSnapshot.
func (d *DB) NewSnapshot() *Snapshot {
	return &Snapshot{Snapshot: d.DB.NewSnapshot(), readerHooks: d.readerHooks}
}

// NewEventuallyFileOnlySnapshot is upstream's
// DB.NewEventuallyFileOnlySnapshot.
func (d *DB) NewEventuallyFileOnlySnapshot(keyRanges []KeyRange) *EventuallyFileOnlySnapshot {
	return &EventuallyFileOnlySnapshot{
		EventuallyFileOnlySnapshot: d.DB.NewEventuallyFileOnlySnapshot(keyRanges),
		readerHooks:                d.readerHooks,
	}
}

// wrapBatch wraps a batch of d so that its Gets and iterators report to
// d's statistics.
func (d *DB) wrapBatch(b *upstream.Batch) *Batch {
	return &Batch{Batch: b, readerHooks: d.readerHooks.forBatch()}
}

// NewBatch is upstream's DB.NewBatch.
func (d *DB) NewBatch(opts ...BatchOption) *Batch {
	return d.wrapBatch(d.DB.NewBatch(opts...))
}

// NewBatchWithSize is upstream's DB.NewBatchWithSize.
func (d *DB) NewBatchWithSize(size int, opts ...BatchOption) *Batch {
	return d.wrapBatch(d.DB.NewBatchWithSize(size, opts...))
}

// NewIndexedBatch is upstream's DB.NewIndexedBatch.
func (d *DB) NewIndexedBatch() *Batch {
	return d.wrapBatch(d.DB.NewIndexedBatch())
}

// NewIndexedBatchWithSize is upstream's DB.NewIndexedBatchWithSize.
func (d *DB) NewIndexedBatchWithSize(size int) *Batch {
	return d.wrapBatch(d.DB.NewIndexedBatchWithSize(size))
}

// Apply is upstream's DB.Apply.
func (d *DB) Apply(batch *Batch, opts *WriteOptions) error {
	return d.DB.Apply(batch.upstream(), opts)
}

// ApplyNoSyncWait is upstream's DB.ApplyNoSyncWait.
func (d *DB) ApplyNoSyncWait(batch *Batch, opts *WriteOptions) error {
	return d.DB.ApplyNoSyncWait(batch.upstream(), opts)
}

// RangeQuery is a planned bounded read (package querybuilder): an iterator
// with upstream's methods and results, which gives Pebble the tightest
// bounds that are still correct, so that sorted runs and tables that cannot
// answer the read are never opened.
type RangeQuery = querybuilder.Iterator

// RangeQueryOptions configure how range queries are planned. Comparer, if
// nil, is the comparer the DB was opened with; RangeFilters, if nil, are
// the DB's range filters when Plugins.RangeFilter is on; LevelFilters, if
// nil, are the DB's current filter plans (Plugins.Filters and
// Plugins.RangeFilterLevels), which Explain shows. Plan, if set, forces one
// of querybuilder's plans on every query.
type RangeQueryOptions = querybuilder.Options

// RangeQueries returns a planner for reads on d. The planner shares the
// DB's layout cache, so making one per query is cheap. With statistics on
// (Plugins.Statistics), range queries report their seeks, data-block loads
// and value reads to them as NewIter's iterators do. Closed queries add to
// the DB-wide iterator tickers as NewIter's iterators do (their seeks are
// the caller's, not the planner's re-seeks); o.Closed, if set, is called as
// well.
func (d *DB) RangeQueries(o RangeQueryOptions) *querybuilder.Builder {
	if o.Comparer == nil {
		o.Comparer = d.comparer
	}
	if o.RangeFilters == nil {
		o.RangeFilters = d.boundsFiltersFn
	}
	if o.LevelFilters == nil && (d.planner != nil || d.rangeFilter != nil) {
		o.LevelFilters = d.levelFiltersFn
	}
	return d.queries.With(o)
}

// NewRangeQuery returns a planned iterator over o's bounds: a drop-in for
// NewIter whose results are identical. qo may be nil (auto plan, the DB's
// comparer).
func (d *DB) NewRangeQuery(o *IterOptions, qo *RangeQueryOptions) (*RangeQuery, error) {
	var opts RangeQueryOptions
	if qo != nil {
		opts = *qo
	}
	return d.RangeQueries(opts).NewIter(o)
}

// FilterCounters are one DB's counts of filter events that cost reads but
// never results: filters fail open, so each event below made a read look at
// a table it might have skipped. Non-zero corruption counts mean damaged or
// foreign filter bytes on disk; a non-zero universal count means a comparer
// whose Split prefixes do not sort bytewise, which the range filter cannot
// serve.
type FilterCounters struct {
	// CorruptFilters is how many point-filter queries met a filter of
	// package pointfilter whose bytes did not decode, and answered "may
	// contain".
	CorruptFilters uint64
	// CorruptRangeFilters is how many range-filter checks met a table
	// property that did not decode, and answered "may intersect".
	CorruptRangeFilters uint64
	// UniversalRangeFilters is how many tables were written with a range
	// filter that answers "may intersect" to everything, because their
	// Split prefixes did not arrive in bytewise order.
	UniversalRangeFilters uint64
}

// FilterCounters returns the DB's filter counters since it was opened. They
// count this DB alone, however many DBs the process has open: the point
// filters of package pointfilter that the DB's options name (those of
// Plugins.Filters and those found in Options.Levels and Options.Filters)
// are bound to counters of the DB's own at Open, and the range filter
// policy is made for the DB. The point count is also in the statistics, as
// the ticker pebblerf.filter.corrupt.
func (d *DB) FilterCounters() FilterCounters {
	var c FilterCounters
	if d.pointCounts != nil {
		c.CorruptFilters = d.pointCounts.Corrupt()
	}
	if d.rangeFilter != nil {
		rc := d.rangeFilter.Counts()
		c.CorruptRangeFilters = rc.Corrupt
		c.UniversalRangeFilters = rc.Universal
	}
	return c
}

// Re-planning a running DB's filters. The plans live in the plug-ins
// (pointfilter.Planner, rangefilter.Policy); what only the DB can give them
// is its current shape and what its statistics saw, which these methods read:
//
//	loads, _ := db.PointFilterLoads(false)
//	plan, _ := pointfilter.Optimal(10, loads)
//	_ = db.FilterPlanner().Set(plan)
//
//	rl, _ := db.RangeFilterLoads()
//	rplan, _ := rangefilter.ForBudget(16, 2, rl)
//	_ = db.RangeFilterPolicy().SetPlan(rplan)
//
// New tables follow the new plans; tables already written keep their
// filters until a compaction rewrites them, and stay readable.

// FilterPlanner returns the planner of the DB's point filters
// (Plugins.Filters), or nil if the DB uses the options' own filters.
func (d *DB) FilterPlanner() *pointfilter.Planner { return d.planner }

// RangeFilterPolicy returns the DB's range-filter policy, whose SetPlan
// re-plans which levels get range filters, or nil if range filters are off.
func (d *DB) RangeFilterPolicy() *rangefilter.Policy { return d.rangeFilter }

// PointFilterLoads returns, per level, what pointfilter.Optimal needs: the
// keys and tables of the level's tables now, and how often a lookup of an
// absent key consults the level's filters. With statistics on and point
// lookups counted, that is measured: the level's filter checks that said no
// plus those that passed and found nothing (Gets, and seeks of iterators
// that consulted prefix filters), divided by the count of the busiest level
// below L0, which every lookup that gets that far consults once. Otherwise
// it is the uniform assumption (pointfilter.UniformLoads): once per level,
// once per L0 sublevel, and L6 only if l6Consulted (DB.Get never reads L6
// filters; iterators with IterOptions.UseL6Filters do). A level that holds
// no tables now keeps the uniform assumption either way: nothing was
// measured there, and its future tables will be consulted (Optimal plans
// it for the keys it will hold).
func (d *DB) PointFilterLoads(l6Consulted bool) ([]pointfilter.LevelLoad, error) {
	tables, err := d.DB.SSTables(WithProperties())
	if err != nil {
		return nil, errors.Wrap(err, "pebble: PointFilterLoads")
	}
	shape := whatif.ShapeOf(tables)
	var keys, count [pointfilter.PlanLevels]float64
	for i := range keys {
		s := shape[seekstats.RowForLevel(i)]
		keys[i], count[i] = float64(s.Keys), float64(s.Tables)
	}
	loads := pointfilter.UniformLoads(keys, count, int(d.DB.Metrics().Levels[0].Sublevels), l6Consulted)
	if d.statistics.perLevel == nil {
		return loads, nil
	}
	sn := d.statistics.perLevel.Snapshot()
	checks, ok := sn.AbsentKeyChecks()
	if !ok {
		return loads, nil // nothing counted yet: the uniform assumption
	}
	for i := range loads {
		if loads[i].Keys > 0 {
			loads[i].Checks = checks[i]
		}
	}
	return loads, nil
}

// RangeFilterLoads returns, per level, what rangefilter.ForBudget needs: the
// keys of the level's tables now, and the bounded reads' data-block loads
// that range filters skipped on the level (seekstats' FilteredRange) or,
// on a level where no range filter skipped anything (none was written
// there, or none was asked), the loads the what-if predicts filters of
// RangeFilter.BitsPerKey would skip (whatif.RangeFilters).
// It needs the per-level statistics (Plugins.Statistics), and counts what
// they saw since they were last reset.
func (d *DB) RangeFilterLoads() ([]rangefilter.LevelLoad, error) {
	if d.statistics.perLevel == nil {
		return nil, errors.New("pebble: RangeFilterLoads needs Plugins.Statistics")
	}
	tables, err := d.DB.SSTables(WithProperties())
	if err != nil {
		return nil, errors.Wrap(err, "pebble: RangeFilterLoads")
	}
	shape := whatif.ShapeOf(tables)
	bits := float64(rangefilter.DefaultBitsPerKey)
	if d.rangeFilter != nil {
		bits = d.rangeFilter.Config().BitsPerKey
		if bits == 0 {
			bits = rangefilter.DefaultBitsPerKey
		}
	}
	sn := d.statistics.perLevel.Snapshot()
	loads := make([]rangefilter.LevelLoad, rangefilter.PlanLevels)
	for i := range loads {
		r := seekstats.RowForLevel(i)
		loads[i] = rangefilter.LevelLoad{Keys: float64(shape[r].Keys), Skipped: float64(sn.Rows[r].FilteredRange)}
	}
	for _, w := range whatif.RangeFilters(&sn, whatif.Options{BitsPerKey: bits}) {
		if l := int(w.Row - seekstats.RowL0); l >= 0 && l < len(loads) && loads[l].Skipped == 0 && w.Avoided > 0 {
			loads[l].Skipped += w.Avoided
		}
	}
	return loads, nil
}

// levelFilters names the filters each level's new tables get under the
// DB's current plans (Plugins.Filters and Plugins.RangeFilterLevels), for
// Explain (a program reads the same from DB.FilterPlanner and
// DB.RangeFilterPolicy): a level's Point filter is empty when the DB uses the
// options' own filters, its Range filter empty when range filters are off.
// Tables written under earlier plans keep the filters they were written
// with until a compaction rewrites them.
func (d *DB) levelFilters() []querybuilder.LevelFilters {
	out := make([]querybuilder.LevelFilters, pointfilter.PlanLevels)
	var rplan rangefilter.Plan
	if d.rangeFilter != nil {
		rplan = d.rangeFilter.Plan()
	}
	for i := range out {
		out[i].Level = i
		if d.planner != nil {
			out[i].Point = redact.SafeString(d.planner.Level(i).String())
		}
		if d.rangeFilter != nil {
			out[i].Range = "none"
			if b := rplan.Levels[i]; b != 0 {
				out[i].Range = redact.SafeString(fmt.Sprintf("%g bits/key", b))
			}
		}
	}
	return out
}
