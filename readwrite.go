package pebble

import (
	"context"
	"io"
)

// Reader is upstream's Reader, over this package's Iterator: DB, Batch,
// Snapshot and EventuallyFileOnlySnapshot implement it.
type Reader interface {
	Get(key []byte) (value []byte, closer io.Closer, err error)
	NewIter(o *IterOptions) (*Iterator, error)
	NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error)
	Close() error
}

// Writer is upstream's Writer, over this package's Batch: DB and Batch
// implement it.
type Writer interface {
	Apply(batch *Batch, o *WriteOptions) error
	Delete(key []byte, o *WriteOptions) error
	DeleteSized(key []byte, valueSize uint32, o *WriteOptions) error
	SingleDelete(key []byte, o *WriteOptions) error
	DeleteRange(start, end []byte, o *WriteOptions) error
	LogData(data []byte, opts *WriteOptions) error
	Merge(key, value []byte, o *WriteOptions) error
	Set(key, value []byte, o *WriteOptions) error
	RangeKeySet(start, end, suffix, value []byte, opts *WriteOptions) error
	RangeKeyUnset(start, end, suffix []byte, opts *WriteOptions) error
	RangeKeyDelete(start, end []byte, opts *WriteOptions) error
}

var (
	_ Reader = (*DB)(nil)
	_ Reader = (*Batch)(nil)
	_ Reader = (*Snapshot)(nil)
	_ Reader = (*EventuallyFileOnlySnapshot)(nil)
	_ Writer = (*DB)(nil)
	_ Writer = (*Batch)(nil)
)
