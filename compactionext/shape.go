// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
	"github.com/pebblerf/pebble/internal/sortedruns"
)

// shape lists the sorted runs of a DB, newest first: the memtables, the
// L0 sublevels from the highest (newest) down, then the levels. Its
// SortedRuns equals Metrics.ReadAmp, and its L0 runs are Pebble's sublevels.
type shape struct {
	sortedruns.View
}

// SafeFormat implements redact.SafeFormatter: one run a line.
func (s shape) SafeFormat(w redact.SafePrinter, _ rune) {
	w.Printf("%d sorted runs\n", redact.Safe(s.SortedRuns()))
	w.Printf("  memtables: %d, %s\n", redact.Safe(s.Memtables.Count), redact.Safe(humanBytes(s.Memtables.Bytes)))
	for _, r := range s.Runs {
		smallest, largest := r.Bounds()
		w.Printf("  %v: %d files, %s, [%s, %s]\n", r, redact.Safe(len(r.Tables)),
			redact.Safe(humanBytes(r.Bytes())), smallest, largest)
	}
}

// String implements fmt.Stringer.
func (s shape) String() string { return redact.StringWithoutMarkers(s) }

// lsmShape describes the sorted runs of db now. cmp orders user keys (nil means
// bytewise order, Pebble's default comparer).
func lsmShape(db compactDB, cmp pebble.Compare) (shape, error) {
	v, err := sortedruns.Read(db, cmp)
	if err != nil {
		return shape{}, errors.Wrap(err, "compactionext: shape")
	}
	return shape{View: v}, nil
}
