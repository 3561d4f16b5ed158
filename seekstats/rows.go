// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"fmt"

	"github.com/pebblerf/pebble/internal/attribution"
)

// Row is one row of the per-level statistics: the memtables, one LSM level,
// or the tables whose level (or tag) is unknown.
type Row int8

// The rows, in the order they are printed.
const (
	RowMemtables Row = iota
	RowL0
	RowL1
	RowL2
	RowL3
	RowL4
	RowL5
	RowL6
	// RowUnattributed holds what happened in tables written without the
	// statistics' tags (by upstream Pebble, or ingested), in tables whose level
	// is not (or no longer) known, and values the fast attribution rule could
	// not assign to one table. Like RocksDB's level -1, it counts as non-last.
	RowUnattributed
	// NumRows is the number of rows.
	NumRows
)

// The counters' storage has a row for each of these, numbered alike.
var (
	_ [attribution.Rows - NumRows]struct{}
	_ [NumRows - attribution.Rows]struct{}
	_ [attribution.RowMemtables - int(RowMemtables)]struct{}
	_ [int(RowMemtables) - attribution.RowMemtables]struct{}
	_ [attribution.RowL0 - int(RowL0)]struct{}
	_ [int(RowL0) - attribution.RowL0]struct{}
	_ [attribution.RowUnattributed - int(RowUnattributed)]struct{}
	_ [int(RowUnattributed) - attribution.RowUnattributed]struct{}
)

// RowForLevel returns the row of LSM level l (0..6), or RowUnattributed.
func RowForLevel(l int) Row {
	if l < 0 || l > 6 {
		return RowUnattributed
	}
	return RowL0 + Row(l)
}

// String is the row's name in the per-level table: "memtables", "L0" to
// "L6" or "unattributed".
func (r Row) String() string {
	switch {
	case r == RowMemtables:
		return "memtables"
	case r >= RowL0 && r <= RowL6:
		return fmt.Sprintf("L%d", r-RowL0)
	case r == RowUnattributed:
		return "unattributed"
	}
	return fmt.Sprintf("row(%d)", int8(r))
}

// isLast reports whether the row is RocksDB's "last level": level
// num_levels-1, which for Pebble's seven levels is L6, and nothing else.
func (r Row) isLast() bool { return r == RowL6 }
