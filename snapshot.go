package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
)

// Snapshot is upstream Pebble's Snapshot; its iterators are this package's.
type Snapshot struct {
	*upstream.Snapshot
}

// NewIter is upstream's Snapshot.NewIter.
func (s *Snapshot) NewIter(o *IterOptions) (*Iterator, error) {
	return wrapIter(s.Snapshot.NewIter(o))
}

// NewIterWithContext is upstream's Snapshot.NewIterWithContext.
func (s *Snapshot) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	return wrapIter(s.Snapshot.NewIterWithContext(ctx, o))
}

// EventuallyFileOnlySnapshot is upstream Pebble's EventuallyFileOnlySnapshot;
// its iterators are this package's.
type EventuallyFileOnlySnapshot struct {
	*upstream.EventuallyFileOnlySnapshot
}

// NewIter is upstream's EventuallyFileOnlySnapshot.NewIter.
func (s *EventuallyFileOnlySnapshot) NewIter(o *IterOptions) (*Iterator, error) {
	return wrapIter(s.EventuallyFileOnlySnapshot.NewIter(o))
}

// NewIterWithContext is upstream's EventuallyFileOnlySnapshot.NewIterWithContext.
func (s *EventuallyFileOnlySnapshot) NewIterWithContext(
	ctx context.Context, o *IterOptions,
) (*Iterator, error) {
	return wrapIter(s.EventuallyFileOnlySnapshot.NewIterWithContext(ctx, o))
}
