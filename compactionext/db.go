// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"

	"github.com/cockroachdb/pebble/v2"
)

// compactDB is the part of a DB the background drivers use: upstream's
// *pebble.DB, or a test's stand-in for it.
//
// Compact must not be called after the DB is closed (upstream panics), which
// is why every driver's stop function has to return before Close is called.
type compactDB interface {
	Compact(ctx context.Context, start, end []byte, parallelize bool) error
	Metrics() *pebble.Metrics
	SSTables(opts ...pebble.SSTablesOption) ([][]pebble.SSTableInfo, error)
}

var _ compactDB = (*pebble.DB)(nil)
