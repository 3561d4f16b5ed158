package pebble

import (
	"context"
	"io"

	upstream "github.com/cockroachdb/pebble/v2"
)

// Batch is upstream Pebble's Batch. Indexed batches hand out iterators, which
// are this package's Iterator; every other upstream method is available with
// its upstream signature.
type Batch struct {
	*upstream.Batch
	readerHooks // the DB's, without range filters (see Iterator)
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

// Get is upstream's Batch.Get, with DB.Get's one difference.
func (b *Batch) Get(key []byte) ([]byte, io.Closer, error) { return b.get(b.Batch, key) }

// NewIter is upstream's Batch.NewIter.
func (b *Batch) NewIter(o *IterOptions) (*Iterator, error) {
	return b.newIter(context.Background(), b.Batch, o)
}

// NewIterWithContext is upstream's Batch.NewIterWithContext.
func (b *Batch) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	return b.newIter(ctx, b.Batch, o)
}

// NewBatchOnlyIter is upstream's Batch.NewBatchOnlyIter.
func (b *Batch) NewBatchOnlyIter(ctx context.Context, o *IterOptions) (*Iterator, error) {
	return wrapIter(b.Batch.NewBatchOnlyIter(ctx, o))
}
