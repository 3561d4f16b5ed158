package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
)

// Iterator is upstream Pebble's Iterator, wrapped so that plug-ins see the
// values a caller reads. All upstream methods are available with their
// upstream signatures.
type Iterator struct {
	*upstream.Iterator
	stats *seekstats.IterTracker // nil: statistics off (statistics_iter.go)
}

// Clone is upstream's Iterator.Clone.
func (i *Iterator) Clone(opts CloneOptions) (*Iterator, error) {
	if i.stats != nil {
		return i.cloneTracked(context.Background(), opts)
	}
	return wrapIter(i.Iterator.Clone(opts))
}

// CloneWithContext is upstream's Iterator.CloneWithContext.
func (i *Iterator) CloneWithContext(ctx context.Context, opts CloneOptions) (*Iterator, error) {
	if i.stats != nil {
		return i.cloneTracked(ctx, opts)
	}
	return wrapIter(i.Iterator.CloneWithContext(ctx, opts))
}
