// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "sort"

// pick chooses the units [i, j) to merge; i == j means none. It looks at the
// units in key order from the one after the cursor, wrapping around; restart
// reports that it began the sweep again at the first key instead.
//
// In the first sweep over the keys (warming up) it takes as many as make
// every unit merged once per Runs-1 flushes (flushes counts those since the
// last merge, none if the only one is the flush that merge forced), which
// staggers the units' ages from the start; units right after those that are
// Runs-1 deep are taken too. After that, see pickDue.
func (p *ManyRuns) pick(units []l0Unit, sliceCount int, flushes int64) (i, j int, restart bool) {
	deep := p.Runs - 1
	if p.cursor != nil {
		// A unit that reaches past the cursor counts as after it: new
		// tables may have joined a merged range to the unit after it.
		i = sort.Search(len(units), func(k int) bool {
			return p.comparer.Compare(units[k].Largest, p.cursor) > 0
		})
	}
	if i == len(units) {
		i = 0
	}
	if p.warm {
		i, j = pickDue(units, i, sliceCount, deep)
		return i, j, false
	}
	if i > 0 && !p.fromFirst {
		// The first sweep to find units before the cursor starts at the
		// first key. The merges of a sequential load take the units
		// after the cursor (the newest keys) and never wrap; begun where
		// they left it, the sweep would leave the units before it
		// unstaggered, one age, and the count would dip when they were
		// merged.
		i, restart = 0, true
	}
	want := (int64(len(units))*flushes + int64(deep) - 1) / int64(deep)
	for j = i; j < len(units) && (int64(j-i) < want || deepSoon(units[j:], deep)); j++ {
	}
	return i, j, restart
}

// pickDue chooses the units to merge once the ages are staggered, looking
// from units[from] on. It merges only when a unit is due (deep: Runs-1
// sublevels, the oldest in a staggered L0), and then:
//
//   - It starts at the first due unit from units[from], or at the deepest
//     unit if one is past due (the sweep passed it by: its tables joined a
//     merged range only after the merge).
//   - It takes the due units from there up to a quota: the units the
//     flushes since the first came due have made due in a staggered L0,
//     rounded down (every flush, forced ones included, deepens every unit
//     once, so each makes sliceCount/(Runs-1) of them due): at least one,
//     sliceCount·(1+p)/(Runs-1) when the first is p flushes past due. Units
//     more than a flush past due are taken whatever the quota, and count
//     towards it.
//   - It leaves a unit at least deep-2 deep, so that the count does not dip
//     below Runs-2: it takes fewer units, or waits for the next flush if
//     even the first alone would leave none, unless that one is more than a
//     flush past due.
//
// The quota is what keeps the ages staggered. Units merged together stay the
// same age and come due together; taking all that were due (as an earlier
// version did) kept such a clump for good, and after it was merged the count
// fell to the next clump's depth, for a sawtooth from Runs+1 down to Runs-4
// in the seed scenario. Taking a clump a unit or two per flush spreads its
// ages from then on, at the cost of a count a flush or two over Runs while
// it does; rounding the quota down keeps the merges from running ahead of the
// flushes, which would leave flushes in which nothing is due (a dip).
func pickDue(units []l0Unit, from, sliceCount, deep int) (i, j int) {
	k := 0
	for ; k < len(units) && units[(from+k)%len(units)].Depth < deep; k++ {
	}
	if k == len(units) {
		return 0, 0
	}
	i = (from + k) % len(units)
	// The deepest past due, the nearest in sweep order among equals.
	for k := range units {
		if u := units[(from+k)%len(units)]; u.Depth > max(deep, units[i].Depth) {
			i = (from + k) % len(units)
		}
	}
	quota := max(sliceCount*(1+units[i].Depth-deep)/deep, 1)
	taken := 0
	for j = i; j < len(units); j++ {
		if units[j].Depth <= deep+1 && (taken >= quota || !deepSoon(units[j:], deep)) {
			break
		}
		if units[j].Depth >= deep {
			taken++
		}
	}
	for ; j > i; j-- {
		if deepestOutside(units, i, j) >= deep-2 {
			return i, j
		}
		if j == i+1 || units[j-1].Depth > deep+1 {
			break
		}
	}
	if units[i].Depth > deep+1 {
		return i, j
	}
	return 0, 0
}

// deepestOutside is the depth of the deepest unit outside units[i:j].
func deepestOutside(units []l0Unit, i, j int) int {
	d := 0
	for k, u := range units {
		if k < i || k >= j {
			d = max(d, u.Depth)
		}
	}
	return d
}

// overdue reports whether a unit is deeper than deep: a merge that waited
// too long.
func overdue(units []l0Unit, deep int) bool {
	for _, u := range units {
		if u.Depth > deep {
			return true
		}
	}
	return false
}

// deepSoon reports whether units[0], or one of the two after it, is deep.
// Between the slices, keys written where no L6 table lies form small units
// of their own, never deep; a merge steps over them rather than stop.
func deepSoon(units []l0Unit, deep int) bool {
	for k := 0; k < min(len(units), 3); k++ {
		if units[k].Depth >= deep {
			return true
		}
	}
	return false
}
