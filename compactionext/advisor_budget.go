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
// anyway) is what it spends, less c.credit (what of the tables below the
// shape would have rewritten too, see belowCredit), plus the cost of the
// flush it forced (see forcedFlushCost). The credit is taken off as the
// amount estimated, not as a share of what was written: whatever else the
// call wrote (tables Pebble pulled into the compaction, a concurrent
// compaction of the shape's) earned no credit and is charged in full.
func (a *Advisor) charge(c candidate, wrote uint64) {
	a.own += max(wrote, c.rewrites+c.l0Bytes)
	extra := max(wrote-min(wrote, c.l0Bytes), c.rewrites)
	a.spent += extra - min(extra, c.credit) + c.flushCost
}

// belowCredit is the part of t, a table below L0 that compacting
// [start, end] rewrites, that the shape would have rewritten anyway.
//
// With no ShapeMergeDepth, none of it: the advisor's rewrite is all extra.
// With one, D, the shape merges a unit of L0 into the level below once the
// unit is D deep, rewriting the tables under it. Take the depth over t to be
// that of the deepest unit over it, the first to come due: each sublevel
// (flush) it gains brings t's next rewrite 1/D of a rewrite nearer, and a
// merge, whoever does it, takes t's depth back to that of the units over it
// that were not merged. So over n flushes the shape alone rewrites t n/D
// times, and each advisor merge that takes t's depth from in to out adds
// (1-(in-out)/D) of a rewrite: the credit is the rest, (in-out)/D of t, with
// both depths capped at D (a unit past due the shape would merge now).
// Units inside [start, end] are merged; units outside it stay (a candidate
// is made of whole units). This is a model of the shape's rule, and it errs
// towards charging too little where the shape merges a unit later than at
// D: ManyRuns does so while it waits for the memtable to fill or spreads a
// clump, which is rare once it is warm (docs/benchmarks.md counts it).
func (a *Advisor) belowCredit(t pebble.SSTableInfo, units []l0Unit, start, end []byte) uint64 {
	due := a.cfg.ShapeMergeDepth
	if due <= 0 {
		return 0
	}
	in, out := unitDepthsOver(units, t.Smallest.UserKey, t.Largest.UserKey, start, end, a.comparer.Compare)
	saved := min(in, due) - min(out, due)
	if saved <= 0 {
		return 0
	}
	return uint64(float64(t.Size) * float64(saved) / float64(due))
}

// forcedFlushCost is what the flush a compaction forces costs the budget
// (Compact first flushes a memtable overlapping its range): with a
// ShapeMergeDepth, D, it adds a sublevel over every unit that the shape
// would not have had (the memtable would have been flushed later, with more
// in it), so it brings the shape's next rewrite of everything below L0 1/D
// of a rewrite nearer; taking every unit to be deepened errs on the safe
// side. Without one, nothing: the rewrites are charged in full already.
func (a *Advisor) forcedFlushCost(lsm runIndex) uint64 {
	if a.cfg.ShapeMergeDepth <= 0 {
		return 0
	}
	return lsm.belowL0Bytes() / uint64(a.cfg.ShapeMergeDepth)
}

// budget is the bytes the advisor may be charged now, -1 if unbounded:
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
