package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
)

// Iterator is upstream Pebble's Iterator, wrapped so that plug-ins see the
// values a caller reads. All upstream methods are available with their
// upstream signatures.
type Iterator struct {
	*upstream.Iterator
}

// Clone is upstream's Iterator.Clone.
func (i *Iterator) Clone(opts CloneOptions) (*Iterator, error) {
	return wrapIter(i.Iterator.Clone(opts))
}

// CloneWithContext is upstream's Iterator.CloneWithContext.
func (i *Iterator) CloneWithContext(ctx context.Context, opts CloneOptions) (*Iterator, error) {
	return wrapIter(i.Iterator.CloneWithContext(ctx, opts))
}
