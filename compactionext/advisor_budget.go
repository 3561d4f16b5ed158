// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "math"

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
// it wrote beyond c's L0 bytes is what it spends: those the shape would
// have rewritten once anyway.
func (a *Advisor) charge(c candidate, wrote uint64) {
	a.own += max(wrote, c.rewrites+c.l0Bytes)
	a.spent += max(wrote-min(wrote, c.l0Bytes), c.rewrites)
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
