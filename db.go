package pebble

import (
	"context"
	"io"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/dbwide"
	"github.com/pebblerf/pebble/internal/filtercount"
	"github.com/pebblerf/pebble/internal/iterhooks"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
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
	// pointCounters count its point filters' events (counters.go).
	rangeFilter   *rangefilter.Policy
	pointCounters *filtercount.Point
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
}

// newDB wraps db, opened with the plug-ins in; stop stops their background
// work. It is the one place a DB is built.
func newDB(db *upstream.DB, in *installed, stop func()) *DB {
	dbWide := dbwide.New(db.Metrics)
	d := &DB{
		DB:             db,
		readerHooks:    in.readerHooks(),
		rangeFilter:    in.rangeFilter,
		pointCounters:  in.pointCounters,
		planner:        in.planner,
		comparer:       in.comparer,
		stopBackground: stop,
		statistics:     Statistics{dbWide: dbWide},
	}
	if in.stats != nil {
		d.statistics.perLevel = in.stats.View()
	}
	d.readerHooks.iterTotals = dbWide.Iterators()
	// Closed queries add to the DB-wide iterator totals; the method value is
	// made once, so that a planner made per query allocates no closure.
	d.queries = iterhooks.NewBuilder(db, iterhooks.Queries{
		Observe: d.hooks.Observe, Closed: dbWide.Iterators().AddQuery,
	}).(*querybuilder.Builder)
	d.levelFiltersFn = d.levelFilters
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

// Get is upstream's DB.Get.
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
		o.RangeFilters = d.hooks.RangeFilters
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
