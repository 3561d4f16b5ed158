// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package tablewaste holds the one definition of a table's wasted read
// work.
//
// The per-level statistics (internal/attribution) count it, per live table
// as seeks run, and compactionext's advisor consumes it. Neither imports
// the other, so what they share lives below both, here: the counts, and
// the Source the advisor reads them from (the statistics are one as they
// stand). compactionext names them TableWaste and WasteSource.
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

// Source gives per-table waste counts: the per-level statistics
// (internal/attribution) do.
type Source interface {
	// TableWaste appends the counts of the live tables it knows to dst.
	// Tables with no waste may be left out.
	TableWaste(dst []Counts) []Counts
}
