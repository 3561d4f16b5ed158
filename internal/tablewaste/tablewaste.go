// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package tablewaste holds the one definition of a table's wasted read work.
//
// seekstats counts it (per live table, as seeks run) and the compaction
// advisor in compactionext consumes it. The two packages are siblings:
// DESIGN.md lets neither import the other, so the type they share lives
// below both, here. seekstats exports it as seekstats.TableWaste, and
// compactionext.WasteSource is written in terms of it, so a
// *seekstats.Statistics is a WasteSource as it stands and the root package,
// which wires the two together, needs no adapter.
package tablewaste

import "github.com/cockroachdb/pebble/v2"

// Counts is one live table's wasted seeks since it was written (or since
// the DB was opened, for older tables). The counts only grow while the table
// lives. A wasted seek is counted once, in one of the two fields.
type Counts struct {
	Table pebble.TableNum
	// EmptyLoads counts seeks that loaded a data block of the table, with no
	// filter checked, and read no value from it.
	EmptyLoads uint64
	// FilterFalsePositives counts seeks whose filter check on the table
	// matched, that loaded one of its data blocks, and read no value from it.
	FilterFalsePositives uint64
}

// Total is the table's waste in one figure: every wasted seek, whether or
// not a filter was checked first.
func (c Counts) Total() uint64 { return c.EmptyLoads + c.FilterFalsePositives }
