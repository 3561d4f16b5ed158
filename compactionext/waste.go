// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "github.com/pebblerf/pebble/internal/tablewaste"

// WasteSource gives per-table waste counts. *seekstats.Statistics satisfies
// it; tests use a fake. The counts' type is seekstats.TableWaste, defined
// below both packages (internal/tablewaste) because compactionext and
// seekstats are siblings that must not import each other.
type WasteSource interface {
	// TableWaste appends the counts of the live tables it knows to dst.
	// Tables with no waste may be left out.
	TableWaste(dst []tablewaste.Counts) []tablewaste.Counts
}
