package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
)

// DB is upstream Pebble's DB with pebblerf's plug-ins attached. Every
// upstream method is available with its upstream signature; the ones that
// create iterators, batches or snapshots return this package's wrappers, so
// reads made through them stay visible to the plug-ins.
type DB struct {
	*upstream.DB
	stats *seekstats.Statistics // nil: statistics off (statistics.go)
	// rangeFilter is nil while range filters are off (rangefilter_iter.go);
	// cmp is the DB's comparer.
	rangeFilter *rangefilter.Policy
	cmp         Compare
	// pointCounters count the DB's point-filter events (counters.go).
	pointCounters *pointfilter.Counters
	// comparer is the comparer the DB was opened with, for range queries.
	comparer *Comparer
	// stopBackground stops the shape driver and the compaction advisor.
	stopBackground func()
}

// wrapIter wraps an upstream iterator for db (nil for iterators that read no
// DB, such as external iterators), keeping upstream's nil-on-error contract.
func wrapIter(it *upstream.Iterator, err error) (*Iterator, error) {
	if err != nil {
		return nil, err
	}
	return &Iterator{Iterator: it}, nil
}

// wrapBatch wraps a batch of d so that its Gets and iterators report to
// d's statistics.
func (d *DB) wrapBatch(b *upstream.Batch) *Batch {
	return &Batch{Batch: b, stats: d.stats}
}

// NewIter is upstream's DB.NewIter.
func (d *DB) NewIter(o *IterOptions) (*Iterator, error) {
	rb, t, o := prepareIter(d.stats, d.rangeFilter, d.cmp, o)
	it, err := d.DB.NewIter(o)
	return wrapPrepared(it, err, rb, t)
}

// NewIterWithContext is upstream's DB.NewIterWithContext.
func (d *DB) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	rb, t, o := prepareIter(d.stats, d.rangeFilter, d.cmp, o)
	it, err := d.DB.NewIterWithContext(ctx, o)
	return wrapPrepared(it, err, rb, t)
}

// NewSnapshot is upstream's DB.NewSnapshot.
func (d *DB) NewSnapshot() *Snapshot {
	return &Snapshot{Snapshot: d.DB.NewSnapshot(), stats: d.stats, rangeFilter: d.rangeFilter, cmp: d.cmp}
}

// NewEventuallyFileOnlySnapshot is upstream's
// DB.NewEventuallyFileOnlySnapshot.
func (d *DB) NewEventuallyFileOnlySnapshot(keyRanges []KeyRange) *EventuallyFileOnlySnapshot {
	return &EventuallyFileOnlySnapshot{
		EventuallyFileOnlySnapshot: d.DB.NewEventuallyFileOnlySnapshot(keyRanges), stats: d.stats,
		rangeFilter: d.rangeFilter, cmp: d.cmp}
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
