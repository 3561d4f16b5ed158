// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "github.com/cockroachdb/pebble/v2"

// candidate is a key range the advisor might compact.
type candidate struct {
	start, end []byte
	waste      uint64
	runs       int
	// rewrites and l0Bytes are the size of the tables overlapping the
	// range below L0 and in L0; credit is the part of rewrites the shape
	// would have rewritten anyway (see belowCredit), and flushCost what the
	// flush the compaction forces costs (see forcedFlushCost). Zero credit
	// is the safe default: the rewrites are charged in full.
	rewrites, l0Bytes, credit, flushCost uint64
}

// charged is what compacting c is expected to cost the write budget.
func (c candidate) charged() uint64 { return c.rewrites - c.credit + c.flushCost }

// pick returns the range most worth compacting, or the best it saw and why it
// is not worth it.
//
// The candidates are L0's units: a compaction of any range inside a unit
// takes the whole unit, so a narrower candidate would only mislead about the
// cost. A unit's waste is the score of every table overlapping it (its L0
// tables and those below), its runs the runs a seek to its start faces (see
// runsFaced). The unit with the most waste, among those with MinRuns runs
// and MinWaste waste, is widened over the adjacent units (in key order) that
// pass both thresholds too: when waste spans the whole written range across
// many runs, as uniformly random reads over randomly written keys leave it,
// the range to compact is all of it, and the rate limit is what bounds the
// cost. The range then reaches right over the units after it until fewer
// than MinRuns runs hold a table past its end, since a seek into it pays for
// those runs whatever is merged. Without L0 units (every run is a level),
// each scored table's range is a candidate.
func (a *Advisor) pick(lsm runIndex, units []l0Unit) (candidate, string) {
	if len(units) == 0 {
		return a.pickTable(lsm)
	}
	cands := make([]candidate, len(units))
	best, reason := -1, reasonFewRuns
	for i, u := range units {
		cands[i] = a.score(lsm, units, u.Smallest, u.Largest)
		c := cands[i]
		if c.runs < a.cfg.MinRuns || c.waste == 0 {
			continue
		}
		if best < 0 || c.waste > cands[best].waste {
			best = i
		}
	}
	if best < 0 {
		return candidate{}, reason
	}
	if cands[best].waste < a.cfg.MinWaste {
		return cands[best], reasonLowWaste
	}
	passes := func(c candidate) bool { return c.runs >= a.cfg.MinRuns && c.waste >= a.cfg.MinWaste }
	lo, hi := best, best
	for lo > 0 && passes(cands[lo-1]) {
		lo--
	}
	for hi+1 < len(cands) && passes(cands[hi+1]) {
		hi++
	}
	// Reach right until a seek into the range would face fewer than MinRuns
	// runs afterwards: compacting only where the waste is leaves a seek
	// there paying for every run with a table after it.
	for hi+1 < len(cands) && lsm.runsPast(units[hi].Largest) >= a.cfg.MinRuns {
		hi++
	}
	if lo == hi {
		return cands[best], ""
	}
	return a.score(lsm, units, units[lo].Smallest, units[hi].Largest), ""
}

// score sums the waste of the tables overlapping [start, end] and counts the
// runs a seek to start pays for; units are L0's, for the credit.
func (a *Advisor) score(lsm runIndex, units []l0Unit, start, end []byte) candidate {
	c := candidate{start: start, end: end, runs: lsm.runsFaced(start)}
	lsm.overlapping(start, end, func(t pebble.SSTableInfo, inL0 bool) {
		c.waste += a.scores[t.FileNum]
		if inL0 {
			c.l0Bytes += t.Size
		} else {
			c.rewrites += t.Size
			c.credit += a.belowCredit(t, units, start, end)
		}
	})
	return c
}

// pickTable is pick when L0 is empty: each scored table's key range is a
// candidate.
func (a *Advisor) pickTable(lsm runIndex) (candidate, string) {
	compare := a.comparer.Compare
	var best candidate
	reason := reasonFewRuns
	for num := range a.scores {
		t, ok := lsm.tables[num]
		if !ok {
			continue
		}
		c := a.score(lsm, nil, t.Smallest.UserKey, t.Largest.UserKey)
		if c.runs < a.cfg.MinRuns {
			continue
		}
		better := reason == reasonFewRuns || c.waste > best.waste ||
			// Equal waste: the narrower range costs less to compact
			// (the smaller end, then the larger start), and the choice
			// is deterministic.
			(c.waste == best.waste && (compare(c.end, best.end) < 0 ||
				(compare(c.end, best.end) == 0 && compare(c.start, best.start) > 0)))
		if better {
			best, reason = c, reasonLowWaste
		}
	}
	if reason == reasonLowWaste && best.waste >= a.cfg.MinWaste {
		reason = ""
	}
	return best, reason
}
