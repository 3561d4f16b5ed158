// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

// Values. Pebble does not say which level produced the iterator's current
// key, so USEFUL is attributed by the following rule, applied when the caller
// reads a value (Value, ValueAndErr or LazyValue) and some table that loaded
// a data block since the last seek has not been credited yet:
//
//   - The candidates are those tables whose key bounds span the current key.
//   - No candidate: the key came from a memtable, from a block loaded before
//     the seek, or from a table already credited; as in RocksDB, nothing is
//     counted. This is always right.
//   - One candidate: it is credited USEFUL (FILTER_MATCH if its filter was
//     checked in the seek, NO_FILTER otherwise). This is wrong only when the
//     key really came from a memtable, or from a table that loaded no block
//     since the seek (or was already credited), while the candidate merely
//     spans the key without holding it.
//   - Several candidates (overlapping tables, typically L0 over lower
//     levels). In a prefix seek, if the newest candidate (the smallest level
//     number; in L0 the table with the largest sequence number) passed its filter, it
//     is credited and counted in SeekUsefulNewest: the merge returns the
//     newest version of a key, and the filter says that table holds the
//     prefix. This is wrong when that table's filter match was a false
//     positive, or when the prefix covers several keys and that table holds
//     another of them. Otherwise (a SeekGE, or a newest candidate without a
//     checked filter) the value is credited once to RowUnattributed and
//     counted in SeekUsefulAmbiguous. Either way, the other candidates are
//     not credited again in this seek.
//
// Once every table that loaded a block is credited, a value costs one
// comparison. In exact mode each value instead asks ScanInternal where the
// key lives (exact.go), credits that table (or, once per seek, the
// memtables row), and counts in the Verify* tickers what the rule above
// would have done.

// OnValue is called by the wrapped iterator when its caller reads the value
// of the current key.
func (t *IterTracker) OnValue(key []byte) {
	if t.unreported == 0 && (!t.s.cfg.ExactAttribution || t.memtableReported) {
		return
	}
	var cbuf [4]int
	cands := t.candidates(key, false /* needed */, cbuf[:0])
	if !t.s.cfg.ExactAttribution {
		t.apply(cands)
		return
	}
	decided := t.unreported > 0
	loc := t.s.probe(key)
	if loc.failed {
		t.apply(cands)
		return
	}
	exact := -1
	if loc.f != nil {
		for i := range t.pending {
			if !t.pending[i].reported && t.pending[i].num == loc.f.num {
				exact = i
			}
		}
	}
	if decided {
		newest := -1
		if len(cands) > 1 {
			newest = t.newest(cands)
		}
		switch {
		case len(cands) > 1 && newest < 0:
			t.sh.AddTicker(VerifyValueAmbiguous, 1)
		case len(cands) > 1 && newest == exact:
			t.sh.AddTicker(VerifyValueAgree, 1)
		case len(cands) > 1:
			t.sh.AddTicker(VerifyValueNewestWrong, 1)
		case len(cands) == 1 && cands[0] == exact, len(cands) == 0 && exact < 0:
			t.sh.AddTicker(VerifyValueAgree, 1)
		case len(cands) == 1 && exact < 0:
			t.sh.AddTicker(VerifyValueOtherSource, 1)
		default:
			t.sh.AddTicker(VerifyValueUnexpected, 1)
		}
	}
	if loc.memtable && !t.memtableReported {
		t.memtableReported = true
		t.sh.AddRow(RowMemtables, DataUsefulNoFilter)
	}
	if exact >= 0 {
		t.credit(exact)
	}
}

// candidates returns the tables of this seek that span key and are not yet
// credited USEFUL, or NEEDED if needed; a table missing from the file map
// has unknown bounds and is always one.
func (t *IterTracker) candidates(key []byte, needed bool, dst []int) []int {
	for i := range t.pending {
		st := &t.pending[i]
		credited := st.reported
		if needed {
			credited = st.needed
		}
		if !credited && (st.f == nil || st.f.contains(t.s.cmp, key)) {
			dst = append(dst, i)
		}
	}
	return dst
}

func (t *IterTracker) apply(cands []int) {
	switch len(cands) {
	case 0:
	case 1:
		t.credit(cands[0])
	default:
		newest := t.newest(cands)
		filterUsed, anyNeeded := true, false
		for _, i := range cands {
			filterUsed = filterUsed && t.pending[i].filterUsed
			anyNeeded = anyNeeded || t.pending[i].needed
			if i != newest {
				t.pending[i].reported = true
				t.unreported--
			}
		}
		if newest >= 0 {
			t.sh.AddTicker(SeekUsefulNewest, 1)
			t.credit(newest)
			return
		}
		t.sh.AddTicker(SeekUsefulAmbiguous, 1)
		t.sh.AddRow(RowUnattributed, usefulKind(filterUsed))
		if t.bounded {
			t.sh.AddRow(RowUnattributed, UsefulBounded)
		}
		if !anyNeeded {
			// The value came from one of them: NEEDED once, for their level
			// if they share one (needed.go).
			for _, i := range cands {
				t.pending[i].needed = true
			}
			t.countNeeded(t.commonRow(cands), filterUsed)
		}
	}
}

// newest returns the candidate that holds the newest data, if the seek is a
// prefix seek and that candidate passed its filter; -1 otherwise.
func (t *IterTracker) newest(cands []int) int {
	if !t.prefixSeek {
		return -1
	}
	best := -1
	for _, i := range cands {
		f := t.pending[i].f
		if f == nil {
			return -1 // an unknown table might be the newest
		}
		if best < 0 {
			best = i
			continue
		}
		b := t.pending[best].f
		if f.level < b.level || (f.level == b.level && f.largestSeqNum > b.largestSeqNum) {
			best = i
		}
	}
	if !t.pending[best].filterUsed {
		return -1
	}
	return best
}

func (t *IterTracker) credit(i int) {
	st := &t.pending[i]
	st.reported = true
	t.unreported--
	row := RowUnattributed
	if st.f != nil {
		row = st.f.row()
	}
	t.sh.AddRow(row, usefulKind(st.filterUsed))
	if t.bounded {
		t.sh.AddRow(row, UsefulBounded)
	}
	t.markNeeded(i)
}

func usefulKind(filterUsed bool) Kind {
	if filterUsed {
		return DataUsefulFilterMatch
	}
	return DataUsefulNoFilter
}
