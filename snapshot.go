package pebble

import (
	"context"
	"io"

	upstream "github.com/cockroachdb/pebble/v2"
)

// Snapshot is upstream Pebble's Snapshot; its iterators are this package's.
type Snapshot struct {
	*upstream.Snapshot
	readerHooks // the DB's
}

// Get is upstream's Snapshot.Get, with DB.Get's one difference.
func (s *Snapshot) Get(key []byte) ([]byte, io.Closer, error) { return s.get(s.Snapshot, key) }

// NewIter is upstream's Snapshot.NewIter.
func (s *Snapshot) NewIter(o *IterOptions) (*Iterator, error) {
	return s.newIter(context.Background(), s.Snapshot, o)
}

// NewIterWithContext is upstream's Snapshot.NewIterWithContext.
func (s *Snapshot) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	return s.newIter(ctx, s.Snapshot, o)
}

// EventuallyFileOnlySnapshot is upstream Pebble's EventuallyFileOnlySnapshot;
// its iterators are this package's.
type EventuallyFileOnlySnapshot struct {
	*upstream.EventuallyFileOnlySnapshot
	readerHooks // the DB's
}

// Get is upstream's EventuallyFileOnlySnapshot.Get, with DB.Get's one
// difference.
func (s *EventuallyFileOnlySnapshot) Get(key []byte) ([]byte, io.Closer, error) {
	return s.get(s.EventuallyFileOnlySnapshot, key)
}

// NewIter is upstream's EventuallyFileOnlySnapshot.NewIter.
func (s *EventuallyFileOnlySnapshot) NewIter(o *IterOptions) (*Iterator, error) {
	return s.newIter(context.Background(), s.EventuallyFileOnlySnapshot, o)
}

// NewIterWithContext is upstream's EventuallyFileOnlySnapshot.NewIterWithContext.
func (s *EventuallyFileOnlySnapshot) NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error) {
	return s.newIter(ctx, s.EventuallyFileOnlySnapshot, o)
}
