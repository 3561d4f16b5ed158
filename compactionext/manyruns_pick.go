// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"sort"

	"github.com/cockroachdb/pebble/v2"
)

// pick chooses the units [i, j) to merge; i == j means none. It looks at the
// units in key order from the one after the cursor, wrapping around; restart
// reports that it began the sweep again at the first key instead.
//
// In the first sweep over the keys (warming up) it takes the units
// pickWarmUp chooses; after that, see pickDue. bottom is the bottom level's
// tables, the slices, in key order. pick ends a first sweep (p.warm,
// p.cursor) that waits for L0 to reach the keys ahead of it once a unit is
// due.
func (p *ManyRuns) pick(units []l0Unit, bottom []pebble.SSTableInfo, flushes int64) (i, j int, restart bool) {
	deep := p.mergeDepth()
	if p.cursor != nil {
		// A unit that reaches past the cursor counts as after it: new
		// tables may have joined a merged range to the unit after it.
		i = sort.Search(len(units), func(k int) bool {
			return p.comparer.Compare(units[k].Largest, p.cursor) > 0
		})
	}
	if i == len(units) {
		if !p.warm && p.fromFirst && p.cursor != nil && startsAfter(bottom, p.cursor, p.comparer.Compare) {
			// The first sweep has keys ahead that L0 holds nothing of
			// yet (e.g. a merge outside the sweep took them): it waits
			// for the flushes to reach them rather than end early, but
			// only until a unit is due, since writes may never come
			// there. (A sweep not yet begun at the first key starts
			// there instead, below.)
			if !overdue(units, deep-1) {
				return 0, 0, false
			}
			p.endSweep()
		}
		i = 0
	}
	if p.warm {
		sliceCount := len(bottom)
		if sliceCount == 0 {
			sliceCount = len(units)
		}
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
	return i, pickWarmUp(units, i, bottom, flushes, deep, p.comparer.Compare), restart
}

// pickWarmUp chooses the units [from, j) that the first sweep over the keys
// merges after flushes flushes: as much of the key space as makes the sweep
// cover all of it once per deep flushes (flushes counts those since the
// last merge, none if the only one is the flush that merge forced), which
// staggers the ages from the start. Units right after those that are deep
// already are taken too.
//
// The sweep's pace is measured in slices, the bottom level's tables, where
// it can be, not in units: the part the sweep merged has many small units
// within each slice, the old part ahead of it few wide ones (the units of a
// deepening slice join). Counting units made each merge take too much of the
// old part, the sweep ended flushes early, and the ages it left were bunched:
// after a fill the count overshot Runs and then fell far below it.
//
// A unit counts as the slices that start after the unit before it and within
// it, at least one (the first unit also counts the slices before it); the
// part behind the sweep counts as the slices it holds, the part past the last
// unit as the slices there. So where the bottom level has no table (past its
// last key, or in a new DB before its first merge) a unit counts as a slice:
// a sequential load's flushes lie there side by side, and each merge takes
// its share of them. And small units within one slice count one each, so
// where L0 has several in a slice a merge takes fewer keys than its share of
// slices. Counting those as nothing, so that a merge takes whole slices, held
// the count in band less well.
func pickWarmUp(units []l0Unit, from int, bottom []pebble.SSTableInfo, flushes int64, deep int, compare func(a, b []byte) int) int {
	// startsUpTo is the number of bottom tables that start at or before key.
	startsUpTo := func(key []byte) int {
		return sort.Search(len(bottom), func(x int) bool {
			return compare(bottom[x].Smallest.UserKey, key) > 0
		})
	}
	// The units are disjoint and in key order: prev is the slice starts
	// up to the unit before the one measured.
	prev := 0
	if from > 0 {
		prev = startsUpTo(units[from-1].Largest)
	}
	total := int64(prev)
	if len(bottom) == 0 {
		total = int64(from) // no slices: a unit is one
	}
	width := make([]int64, len(units))
	for k := from; k < len(units); k++ {
		upTo := startsUpTo(units[k].Largest)
		width[k] = int64(max(upTo-prev, 1))
		total += width[k]
		prev = upTo
	}
	total += int64(len(bottom) - prev)
	want := (total*flushes + int64(deep) - 1) / int64(deep)
	j, got := from, int64(0)
	for ; j < len(units) && (got < want || deepSoon(units[j:], deep)); j++ {
		got += width[j]
	}
	return j
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
// fell to the next clump's depth, for a sawtooth from above Runs to well
// below it. Taking a clump a unit or two per flush spreads its
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

// startsAfter reports whether a bottom table starts after key.
func startsAfter(bottom []pebble.SSTableInfo, key []byte, compare func(a, b []byte) int) bool {
	return len(bottom) > 0 && compare(bottom[len(bottom)-1].Smallest.UserKey, key) > 0
}

// unslicedUnit returns the first of L0's units whose tables that overlap no
// bottom table hold more than two slices' bytes, or -1. l0 is L0's tables,
// units the units they form.
//
// Such a unit is what a sequential load leaves when random writes follow it:
// the load's newest tables, one or two deep and each its own unit, lie past the
// bottom level's last key, and the first flush of the random writes, which
// finds no bottom table there to cut its output at, joins them all into one
// unit (with the flushed table that starts in the last bottom table and runs on
// past its end). A merge takes a unit whole, so the sweep could only merge it
// in one go, and it would come due in one go each time after, taking the count
// from above Runs to a few runs at once. The driver merges such a unit as soon
// as it sees it, outside the sweep; the bottom level's new tables then slice
// its keys, and the flushes after are cut at them. In a new DB, with no bottom
// level yet, any unit over two slices' bytes qualifies, and is merged whole at
// once.
func unslicedUnit(units []l0Unit, l0, bottom []pebble.SSTableInfo, sliceBytes int64, compare func(a, b []byte) int) int {
	unsliced := make([]int64, len(units))
	for _, t := range l0 {
		b := sort.Search(len(bottom), func(x int) bool {
			return compare(bottom[x].Largest.UserKey, t.Smallest.UserKey) >= 0
		})
		if b < len(bottom) && compare(bottom[b].Smallest.UserKey, t.Largest.UserKey) <= 0 {
			continue // it overlaps bottom[b]
		}
		// t lies within one unit.
		if k := unitEndingAtOrAfter(units, t.Smallest.UserKey, compare); k < len(units) {
			unsliced[k] += int64(t.Size)
		}
	}
	for k, bytes := range unsliced {
		if bytes > 2*sliceBytes {
			return k
		}
	}
	return -1
}
