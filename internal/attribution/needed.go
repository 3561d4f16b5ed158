// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

// Needed loads. USEFUL (value.go) follows RocksDB (PR #11460): a table is
// credited when the caller reads a value after the seek, so a read that looks
// at keys only (an existence check, a lock-table check, a key-only scan)
// credits none, and every load it made would look avoidable. What a filter
// cannot skip does not depend on Value: a seek that ends valid is at a key
// within the iterator's bounds (and, for a prefix seek, with the seek key's
// prefix), and no range filter for those bounds, nor a prefix filter for that
// prefix, may rule out the table that holds it. So when a seek ends valid,
// the table that produced its key is credited NEEDED, by the rule values
// follow:
//
//   - The candidates are the tables that loaded a data block in this seek,
//     span the key and are not yet credited NEEDED.
//   - No candidate: the key came from a memtable or from a block loaded
//     before the seek; nothing is counted.
//   - One candidate: it is credited. Wrong only when the key came from
//     elsewhere and the candidate merely spans it.
//   - Several: in a prefix seek whose newest candidate passed its filter,
//     that candidate is credited; otherwise one NEEDED is counted for the
//     candidates' level if they are all of one (overlapping L0 tables, the
//     common case: the level is what the counts are kept by, and it is
//     known), else for the unattributed row. Either way the other
//     candidates are settled for the seek: none is credited NEEDED again in
//     it. USEFUL keeps RocksDB's rule, which does not look at levels.
//
// A value credited USEFUL also credits its table NEEDED if it was not yet
// (the key a Next reached came from a table that holds a key in the bounds
// too), and a value USEFUL could not place does so once for its candidates
// (for their level if they share one) if none was credited yet. So over
// all rows NEEDED is never below USEFUL, and a read that never calls Value
// still counts what it found. In exact mode the seek's key is located by
// the exact probe (exact.go) instead of the rule. A key-only read's steps
// past the seek credit nothing: the tables only they load stay counted as
// not needed, an overestimate of what a range filter would save by at most
// the loads made after the seek.

// seekFound credits NEEDED for the key a seek ended at.
func (t *IterTracker) seekFound(key []byte) {
	var cbuf [4]int
	cands := t.candidates(key, true /* needed */, cbuf[:0])
	if len(cands) == 0 {
		return
	}
	if t.s.cfg.ExactAttribution {
		if loc := t.s.probe(key); !loc.failed {
			for _, i := range cands {
				if loc.f != nil && t.pending[i].num == loc.f.num {
					t.markNeeded(i)
				}
			}
			return
		}
	}
	t.applyNeeded(cands)
}

// applyNeeded credits NEEDED among cands, uncredited tables that span the
// key, by the rule above.
func (t *IterTracker) applyNeeded(cands []int) {
	if len(cands) == 1 {
		t.markNeeded(cands[0])
		return
	}
	newest := t.newest(cands)
	filterUsed := true
	for _, i := range cands {
		filterUsed = filterUsed && t.pending[i].filterUsed
		if i != newest {
			t.pending[i].needed = true
		}
	}
	if newest >= 0 {
		t.markNeeded(newest)
		return
	}
	t.countNeeded(t.commonRow(cands), filterUsed)
}

// commonRow returns the row of the tables cands if they share one, and
// RowUnattributed otherwise.
func (t *IterTracker) commonRow(cands []int) int {
	row := -1
	for _, i := range cands {
		f := t.pending[i].f
		if f == nil || (row >= 0 && f.row() != row) {
			return RowUnattributed
		}
		row = f.row()
	}
	return row
}

// markNeeded credits table i NEEDED, once per seek.
func (t *IterTracker) markNeeded(i int) {
	st := &t.pending[i]
	if st.needed {
		return
	}
	st.needed = true
	row := RowUnattributed
	if st.f != nil {
		row = st.f.row()
	}
	t.countNeeded(row, st.filterUsed)
}

func (t *IterTracker) countNeeded(row int, filterUsed bool) {
	t.sh.AddRow(row, DataNeeded)
	if filterUsed {
		t.sh.AddRow(row, DataNeededFilterMatch)
	}
	if t.bounded {
		t.sh.AddRow(row, DataNeededBounded)
	}
}
