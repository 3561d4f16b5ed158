// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"slices"
	"sort"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/sortedruns"
)

// l0Unit is the smallest part of L0 a manual compaction can take: a group of
// L0 tables whose key ranges overlap, directly or through each other, and
// overlap no table outside the group. DB.Compact of any key range inside a
// unit takes the whole unit (Pebble widens an L0 compaction until no older
// overlapping table is left behind, or a newer version of a key could end
// up below an older one), so units, not key ranges, are what the drivers
// choose between.
type l0Unit struct {
	// Smallest and Largest bound the unit's user keys, both inclusive.
	Smallest, Largest []byte
	// Depth is the number of sublevels the unit's tables form: the sorted
	// runs a read of a key in the unit consults in L0.
	Depth int
	// Tables is the number of tables in the unit; Bytes their size.
	Tables int
	Bytes  uint64
}

// l0Units splits L0's tables into units, in key order.
func l0Units(l0 []pebble.SSTableInfo, compare pebble.Compare) []l0Unit {
	sorted := slices.Clone(l0)
	slices.SortFunc(sorted, func(a, b pebble.SSTableInfo) int {
		return compare(a.Smallest.UserKey, b.Smallest.UserKey)
	})
	var units []l0Unit
	var group []pebble.SSTableInfo
	var largest []byte
	closeGroup := func() {
		if len(group) == 0 {
			return
		}
		u := l0Unit{Smallest: group[0].Smallest.UserKey, Largest: largest, Tables: len(group)}
		tables := make([]sortedruns.Table, len(group))
		for i := range group {
			tables[i] = sortedruns.TableOf(&group[i])
			u.Bytes += group[i].Size
		}
		u.Depth = len(sortedruns.Sublevels(compare, tables))
		units = append(units, u)
		group = group[:0]
	}
	for _, t := range sorted {
		// Sorted by smallest key, a table starting past the group's
		// largest key overlaps nothing in the group, nor in any later
		// table's group.
		if len(group) > 0 && compare(t.Smallest.UserKey, largest) > 0 {
			closeGroup()
		}
		if len(group) == 0 || compare(t.Largest.UserKey, largest) > 0 {
			largest = t.Largest.UserKey
		}
		group = append(group, t)
	}
	closeGroup()
	return units
}

// unitDepthsOver is the depth of the deepest of units (in key order, as
// l0Units returns them) overlapping [smallest, largest], among those that
// overlap [start, end] (inside) and those that do not (outside); 0 where none
// does.
func unitDepthsOver(units []l0Unit, smallest, largest, start, end []byte, compare pebble.Compare) (inside, outside int) {
	for i := unitEndingAtOrAfter(units, smallest, compare); i < len(units) && compare(units[i].Smallest, largest) <= 0; i++ {
		u := units[i]
		if compare(u.Smallest, end) <= 0 && compare(start, u.Largest) <= 0 {
			inside = max(inside, u.Depth)
		} else {
			outside = max(outside, u.Depth)
		}
	}
	return inside, outside
}

// unitEndingAtOrAfter is the index of the first of units (in key order, as
// l0Units returns them) whose largest key is at or after key: the unit
// holding key, if one does, else the first after it; len(units) if none.
// The units are disjoint, so their largest keys are in order too.
func unitEndingAtOrAfter(units []l0Unit, key []byte, compare pebble.Compare) int {
	return sort.Search(len(units), func(i int) bool { return compare(units[i].Largest, key) >= 0 })
}
