package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// The upstream functions below take or return a wrapped type, so they are
// declared here rather than generated into aliases_gen.go.

// NewExternalIter is upstream's NewExternalIter.
func NewExternalIter(o *Options, iterOpts *IterOptions, files [][]sstable.ReadableFile) (*Iterator, error) {
	return wrapIter(upstream.NewExternalIter(o, iterOpts, files))
}

// NewExternalIterWithContext is upstream's NewExternalIterWithContext.
func NewExternalIterWithContext(
	ctx context.Context, o *Options, iterOpts *IterOptions, files [][]sstable.ReadableFile,
) (*Iterator, error) {
	return wrapIter(upstream.NewExternalIterWithContext(ctx, o, iterOpts, files))
}

// CanDeterministicallySingleDelete is upstream's
// CanDeterministicallySingleDelete.
func CanDeterministicallySingleDelete(it *Iterator) (bool, error) {
	return upstream.CanDeterministicallySingleDelete(it.Iterator)
}

// DebugCheckLevels is upstream's DebugCheckLevels.
func DebugCheckLevels(db *DB) error {
	return upstream.DebugCheckLevels(db.DB)
}
