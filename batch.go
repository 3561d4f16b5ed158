package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
)

// Batch is upstream Pebble's Batch. Indexed batches hand out iterators, which
// are this package's Iterator; every other upstream method is available with
// its upstream signature.
type Batch struct {
	*upstream.Batch
	stats *seekstats.Statistics // nil: statistics off (statistics.go)
}

// upstream returns the upstream batch, or nil for a nil *Batch so that
// upstream reports the misuse rather than this package panicking first.
func (b *Batch) upstream() *upstream.Batch {
	if b == nil {
		return nil
	}
	return b.Batch
}

// Apply is upstream's Batch.Apply.
func (b *Batch) Apply(batch *Batch, opts *WriteOptions) error {
	return b.Batch.Apply(batch.upstream(), opts)
}

// NewIter is upstream's Batch.NewIter.
func (b *Batch) NewIter(o *IterOptions) (*Iterator, error) {
	rb, t, o := prepareIter(b.stats, nil, nil, o)
	it, err := b.Batch.NewIter(o)
	return wrapPrepared(it, err, rb, t)
}

// NewIterWithContext is upstream's Batch.NewIterWithContext.
func (b *Batch) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	rb, t, o := prepareIter(b.stats, nil, nil, o)
	it, err := b.Batch.NewIterWithContext(ctx, o)
	return wrapPrepared(it, err, rb, t)
}

// NewBatchOnlyIter is upstream's Batch.NewBatchOnlyIter.
func (b *Batch) NewBatchOnlyIter(ctx context.Context, o *IterOptions) (*Iterator, error) {
	return wrapIter(b.Batch.NewBatchOnlyIter(ctx, o))
}
