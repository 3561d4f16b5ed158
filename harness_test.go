// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// The root package's tests open their DBs through this harness: an
// in-memory FS, no automatic compactions (each flush stays an L0 table,
// one sublevel over overlapping ones, until a test compacts) with room for
// many sublevels, and a quiet logger.

// testOptions returns the options a test's DB starts from.
func testOptions() *Options {
	return &Options{
		FS: vfs.NewMem(), DisableAutomaticCompactions: true, L0StopWritesThreshold: 100,
		Logger: quietLogger{},
	}
}

// openTestDB opens a DB of opts (testOptions() if nil) with plugins, and
// closes it when the test ends.
func openTestDB(t testing.TB, opts *Options, plugins Plugins) *DB {
	t.Helper()
	if opts == nil {
		opts = testOptions()
	}
	db, err := OpenWithPlugins("db", opts, plugins)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

// flushTable sets each key to value and flushes: one table.
func flushTable(t testing.TB, db *DB, value string, keys ...string) {
	t.Helper()
	for _, k := range keys {
		require.NoError(t, db.Set([]byte(k), []byte(value), nil))
	}
	require.NoError(t, db.Flush())
}

// keysOf formats key i with format for each i of from, from+step, ...
// below to.
func keysOf(format string, from, to, step int) []string {
	var keys []string
	for i := from; i < to; i += step {
		keys = append(keys, fmt.Sprintf(format, i))
	}
	return keys
}
