// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/tablewaste"
)

// Per-table waste. The tickers say how much read work a level wasted; the
// compaction advisor (compactionext.Advisor) needs to know where, so each
// table also counts the seeks that loaded one of its data blocks and then
// read no value from it. A seek's tables are charged when the next seek on
// the same iterator begins, or when the iterator is released: only then is
// it known that no value will be credited to them.
//
// A wasted seek is charged once: as a filter false positive if the table's
// filter was checked in that seek and matched (the block load that followed
// found nothing the caller read), otherwise as an empty load. It inherits
// the fast rule's approximation (value.go): a value credited to the wrong
// table makes one table look useful and another wasteful.

// tableWaste is one table's counts.
type tableWaste struct {
	emptyLoads, filterFalsePositives atomic.Uint64
}

// chargeWaste charges the tables of the seek that is ending, and clears
// their entries, so that a pooled tracker keeps no table alive.
func (t *IterTracker) chargeWaste() {
	for i := range t.pending {
		st := &t.pending[i]
		if !st.reported && st.f != nil {
			if st.filterUsed {
				st.f.waste.filterFalsePositives.Add(1)
			} else {
				st.f.waste.emptyLoads.Add(1)
			}
		}
		*st = seekTable{}
	}
}

// TableWaste appends the waste counts of the live tables that have any, for
// the compaction advisor: it makes Stats a compactionext.WasteSource.
func (s *Stats) TableWaste(dst []tablewaste.Counts) []tablewaste.Counts {
	if s == nil {
		return dst
	}
	cur := s.files.current.Load()
	for _, files := range cur.levels {
		for _, f := range files {
			empty, fp := f.waste.emptyLoads.Load(), f.waste.filterFalsePositives.Load()
			if empty+fp == 0 {
				continue
			}
			dst = append(dst, tablewaste.Counts{
				Table: pebble.TableNum(f.num), EmptyLoads: empty, FilterFalsePositives: fp,
			})
		}
	}
	return dst
}
