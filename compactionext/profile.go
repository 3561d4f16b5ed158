// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"math"

	"github.com/cockroachdb/pebble/v2"
)

// Profile is a recipe for the shape of an LSM: options set before the DB is
// opened, and possibly a background driver run while it is open.
//
// Use: Apply to the Options, open the DB, Start with it; call the returned
// stop function before closing the DB.
type Profile interface {
	// Name is the profile's name as pebblebench prints it.
	Name() string
	// Apply sets the options the shape needs. It is called once, before
	// Open, on options the caller lets it change.
	Apply(opts *pebble.Options) error
	// Start starts the profile's background driver, if it has one. stop
	// waits for the driver to finish and must be called before db is closed.
	// A pebblerf DB's upstream DB is its field DB.
	Start(db *pebble.DB) (stop func(), err error)
}

// mergeDepthOf is the depth (L0 sublevels) at which p's own compactions
// merge a unit of L0 (tables that overlap only each other) into the level
// below, or 0 if p has no such rule. It is the AdvisorConfig.ShapeMergeDepth
// of a DB shaped by p: ManyRuns gives Runs-1, the depth at which a unit is
// due.
func mergeDepthOf(p Profile) int {
	if m, ok := p.(shapeMergeDepth); ok {
		return m.mergeDepth()
	}
	return 0
}

// shapeMergeDepth is implemented by the profiles whose own compactions merge
// a part of L0 into the level below once it is mergeDepth sublevels deep.
type shapeMergeDepth interface{ mergeDepth() int }

// Leveled is Pebble's own leveled compaction with its default knobs: L0
// sublevels are compacted into Lbase once they reach L0CompactionThreshold
// (score 2·sublevels/threshold), and each level is about LevelMultiplier
// times the one above. It changes nothing and runs nothing.
type Leveled struct{}

// Name implements Profile.
func (Leveled) Name() string { return "leveled" }

// Apply implements Profile.
func (Leveled) Apply(*pebble.Options) error { return nil }

// Start implements Profile.
func (Leveled) Start(*pebble.DB) (func(), error) { return func() {}, nil }

// NoCompaction is db_bench's compaction_style=3 (kCompactionStyleNone): no
// automatic compactions at all. Flushes pile up as L0 sublevels without
// bound, so writes never stall on L0; only manual compactions merge runs.
type NoCompaction struct{}

// Name implements Profile.
func (NoCompaction) Name() string { return "none" }

// Apply implements Profile.
func (NoCompaction) Apply(opts *pebble.Options) error {
	opts.DisableAutomaticCompactions = true
	opts.L0StopWritesThreshold = math.MaxInt32
	return nil
}

// Start implements Profile.
func (NoCompaction) Start(*pebble.DB) (func(), error) { return func() {}, nil }
