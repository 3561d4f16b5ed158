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
	stats  *seekstats.IterTracker // nil: statistics off (statistics_iter.go)
	bounds *rangeBounds           // nil: range filters off (rangefilter_iter.go)
}

// Clone is upstream's Iterator.Clone.
func (i *Iterator) Clone(opts CloneOptions) (*Iterator, error) {
	return i.CloneWithContext(context.Background(), opts)
}

// CloneWithContext is upstream's Iterator.CloneWithContext. The clone gets
// plug-in state of its own: a range filter for its bounds and a statistics
// tracker, since sharing the original's would mix their seeks.
func (i *Iterator) CloneWithContext(ctx context.Context, opts CloneOptions) (*Iterator, error) {
	var rb *rangeBounds
	if i.bounds != nil {
		rb = &rangeBounds{policy: i.bounds.policy, cmp: i.bounds.cmp}
		base := opts.IterOptions
		if base == nil {
			base = &i.bounds.opts
		}
		opts.IterOptions = rb.attach(base)
	}
	var w *Iterator
	var err error
	if i.stats != nil {
		w, err = i.cloneTracked(ctx, opts)
	} else {
		w, err = wrapIter(i.Iterator.CloneWithContext(ctx, opts))
	}
	if w != nil {
		w.bounds = rb
	}
	return w, err
}
