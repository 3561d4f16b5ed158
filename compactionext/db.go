// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"

	"github.com/cockroachdb/pebble/v2"
)

// DB is the part of a DB the background drivers use. Upstream's *pebble.DB
// satisfies it, and so does pebblerf's DB, which embeds it.
//
// Compact must not be called after the DB is closed (upstream panics), which
// is why every driver's stop function has to return before Close is called.
type DB interface {
	Compact(ctx context.Context, start, end []byte, parallelize bool) error
	Metrics() *pebble.Metrics
	SSTables(opts ...pebble.SSTablesOption) ([][]pebble.SSTableInfo, error)
}

var _ DB = (*pebble.DB)(nil)
