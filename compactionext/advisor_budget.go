// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"math"

	"github.com/cockroachdb/pebble/v2"
)

// written is the bytes flushes and compactions have written since the DB
// was opened.
func (a *Advisor) written() uint64 {
	return a.monitor.FlushedBytes() + a.monitor.CompactedBytes()
}

// charge books the compaction of c against the budget, even if it failed
// (part of it may have been written); wrote is what the compaction events
// counted while it ran. The count is taken over the whole call,
// because Compact rewrites the range once per level between L0 and the
// bottom and may pull in tables beyond it; a compaction of the shape's
// running at the same time is charged too, which errs on the safe side. The
// input size is the floor, should the events have missed the output. What
// it wrote beyond c's L0 bytes (those the shape would have rewritten once
// anyway) is what it spends, in the share c.charged/c.rewrites that the
// shape would not have rewritten (see belowCharge).
func (a *Advisor) charge(c candidate, wrote uint64) {
	a.own += max(wrote, c.rewrites+c.l0Bytes)
	extra := max(wrote-min(wrote, c.l0Bytes), c.rewrites)
	if c.rewrites > 0 && c.charged < c.rewrites {
		extra = uint64(float64(extra) * float64(c.charged) / float64(c.rewrites))
	}
	a.spent += extra
}

// belowCharge is what rewriting t, a table below L0, costs the budget.
//
// With no ShapeMergeDepth, all of t: the advisor's rewrite is counted as
// extra. With one, the shape itself merges a unit of L0 into the level
// below once the unit is ShapeMergeDepth deep, rewriting the data there.
// Each table below is then rewritten once every ShapeMergeDepth sublevels
// (flushes) the units over it gain, whoever merges them: on a shape merging
// at depth D, n flushes cost n/D rewrites, and if the advisor merges some
// of them at depths d_i instead, the flushes between merges still add up to
// n, so the rewrites add up to n/D plus the sum of (1-d_i/D) over the
// advisor's merges. So a merge of units d deep is charged the fraction
// 1-d/D of t, where d is the depth of the deepest unit over t (the first to
// come due), and nothing at or past D: the shape would merge it now. This
// is a model of the shape's rule; a shape that merges past due, or a first
// sweep that merges early, makes it approximate.
func (a *Advisor) belowCharge(t pebble.SSTableInfo, units []l0Unit) uint64 {
	due := a.cfg.ShapeMergeDepth
	if due <= 0 {
		return t.Size
	}
	d := deepestUnitOver(units, t.Smallest.UserKey, t.Largest.UserKey, a.comparer.Compare)
	if d >= due {
		return 0
	}
	return t.Size * uint64(due-d) / uint64(due)
}

// budget is the bytes below L0 the advisor may rewrite now, -1 if unbounded:
// WriteBudget times what the others wrote since it started, less what it
// spent. The product is taken in floating point and capped, so that a huge
// WriteBudget means "nearly unbounded" rather than overflowing.
func (a *Advisor) budget() int64 {
	if a.cfg.WriteBudget < 0 {
		return -1
	}
	others := float64(a.written()-a.writtenAtStart) - float64(a.own)
	b := a.cfg.WriteBudget*max(others, 0) - float64(a.spent)
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return max(int64(b), 0)
}
