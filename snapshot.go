package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
)

// Snapshot is upstream Pebble's Snapshot; its iterators are this package's.
type Snapshot struct {
	*upstream.Snapshot
	stats *seekstats.Statistics // nil: statistics off (statistics.go)
	// rangeFilter is nil while range filters are off (rangefilter_iter.go);
	// cmp is the DB's comparer.
	rangeFilter *rangefilter.Policy
	cmp         Compare
}

// NewIter is upstream's Snapshot.NewIter.
func (s *Snapshot) NewIter(o *IterOptions) (*Iterator, error) {
	rb, t, o := prepareIter(s.stats, s.rangeFilter, s.cmp, o)
	it, err := s.Snapshot.NewIter(o)
	return wrapPrepared(it, err, rb, t)
}

// NewIterWithContext is upstream's Snapshot.NewIterWithContext.
func (s *Snapshot) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	rb, t, o := prepareIter(s.stats, s.rangeFilter, s.cmp, o)
	it, err := s.Snapshot.NewIterWithContext(ctx, o)
	return wrapPrepared(it, err, rb, t)
}

// EventuallyFileOnlySnapshot is upstream Pebble's EventuallyFileOnlySnapshot;
// its iterators are this package's.
type EventuallyFileOnlySnapshot struct {
	*upstream.EventuallyFileOnlySnapshot
	stats *seekstats.Statistics // nil: statistics off (statistics.go)
	// rangeFilter is nil while range filters are off (rangefilter_iter.go);
	// cmp is the DB's comparer.
	rangeFilter *rangefilter.Policy
	cmp         Compare
}

// NewIter is upstream's EventuallyFileOnlySnapshot.NewIter.
func (s *EventuallyFileOnlySnapshot) NewIter(o *IterOptions) (*Iterator, error) {
	rb, t, o := prepareIter(s.stats, s.rangeFilter, s.cmp, o)
	it, err := s.EventuallyFileOnlySnapshot.NewIter(o)
	return wrapPrepared(it, err, rb, t)
}

// NewIterWithContext is upstream's EventuallyFileOnlySnapshot.NewIterWithContext.
func (s *EventuallyFileOnlySnapshot) NewIterWithContext(
	ctx context.Context, o *IterOptions,
) (*Iterator, error) {
	rb, t, o := prepareIter(s.stats, s.rangeFilter, s.cmp, o)
	it, err := s.EventuallyFileOnlySnapshot.NewIterWithContext(ctx, o)
	return wrapPrepared(it, err, rb, t)
}
