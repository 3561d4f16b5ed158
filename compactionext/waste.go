// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "github.com/cockroachdb/pebble/v2"

// TableWaste is the read work one sstable cost for nothing, counted since the
// source started counting (the counts only grow while the table lives).
type TableWaste struct {
	Table pebble.TableNum
	// EmptyLoads counts data blocks loaded from the table by a seek that
	// then returned no value from it.
	EmptyLoads uint64
	// FilterFalsePositives counts filter checks on the table that answered
	// "may contain" for a key the table did not hold.
	FilterFalsePositives uint64
}

// Total is the table's waste in one figure: every wasted block load and
// every false positive (which also loaded a block) counts once.
func (w TableWaste) Total() uint64 { return w.EmptyLoads + w.FilterFalsePositives }

// WasteSource gives per-table waste counts. seekstats satisfies it; tests use
// a fake.
type WasteSource interface {
	// TableWaste appends the counts of the live tables it knows to dst.
	// Tables with no waste may be left out.
	TableWaste(dst []TableWaste) []TableWaste
}
