// Copyright 2026 The pebblerf Authors. All rights reserved.

package sortedruns

import (
	"cmp"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// Sublevels groups L0 tables into sublevels the way Pebble does (see the
// package comment): index 0 is the oldest sublevel, and each sublevel's
// tables are in key order. l0 is not modified.
//
// The key space is cut at every table bound into elementary pieces, and each
// piece remembers how many sublevels are stacked on it so far; a table goes
// on top of the highest stack among the pieces it covers. That costs the
// sort of the bounds plus, per table, the pieces it covers, instead of a
// comparison with every older table.
func Sublevels(compare pebble.Compare, l0 []Table) [][]Table {
	order := slices.Clone(l0)
	slices.SortFunc(order, olderFirst)
	bounds := make([]bound, 0, 2*len(order))
	for i := range order {
		bounds = append(bounds, startOf(&order[i]), endOf(&order[i]))
	}
	cmpBound := func(a, b bound) int { return a.compare(compare, b) }
	slices.SortFunc(bounds, cmpBound)
	bounds = slices.CompactFunc(bounds, func(a, b bound) bool { return cmpBound(a, b) == 0 })
	index := func(b bound) int {
		i, _ := slices.BinarySearchFunc(bounds, b, cmpBound)
		return i
	}
	// height[i] is the number of sublevels with a table covering the piece
	// [bounds[i], bounds[i+1]).
	height := make([]int, len(bounds))
	var subs [][]Table
	for _, t := range order {
		lo, hi := index(startOf(&t)), index(endOf(&t))
		s := 0
		for i := lo; i < hi; i++ {
			s = max(s, height[i])
		}
		for i := lo; i < hi; i++ {
			height[i] = s + 1
		}
		if s == len(subs) {
			subs = append(subs, nil)
		}
		subs[s] = append(subs[s], t)
	}
	for _, sub := range subs {
		sortByKey(compare, sub)
	}
	return subs
}

// olderFirst orders L0 tables by age as Pebble does: by largest seqnum, then
// smallest seqnum, then table number.
func olderFirst(a, b Table) int {
	if c := cmp.Compare(a.LargestSeqNum, b.LargestSeqNum); c != 0 {
		return c
	}
	if c := cmp.Compare(a.SmallestSeqNum, b.SmallestSeqNum); c != 0 {
		return c
	}
	return cmp.Compare(a.Num, b.Num)
}

// bound is a point between user keys: just before key, or just after it if
// after is set. A table spans the points from just before its smallest key
// to just after its largest (just before it if the largest is exclusive).
type bound struct {
	key   []byte
	after bool
}

func startOf(t *Table) bound { return bound{key: t.Smallest} }
func endOf(t *Table) bound   { return bound{key: t.Largest, after: !t.LargestExclusive} }

func (a bound) compare(compare pebble.Compare, b bound) int {
	if c := compare(a.key, b.key); c != 0 {
		return c
	}
	switch {
	case a.after == b.after:
		return 0
	case a.after:
		return +1
	default:
		return -1
	}
}
