// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"cmp"
	"slices"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
)

// RunKind says what a sorted run is made of.
type RunKind int8

const (
	// Memtables stands for all memtables, flushed or not: Metrics gives only
	// their count and size, so they are reported as one entry whose Files
	// field is the number of memtables.
	Memtables RunKind = iota
	// Sublevel is one L0 sublevel.
	Sublevel
	// Level is one non-empty level below L0.
	Level
)

// Run is one sorted run of the LSM: a set of tables with disjoint key ranges
// that a read consults through one level iterator.
type Run struct {
	Kind RunKind
	// Level is the LSM level (0 for sublevels); Sublevel is the L0 sublevel,
	// 0 the oldest. Both are 0 for Memtables.
	Level, Sublevel int
	Files           int
	Bytes           uint64
	// Smallest and Largest are the run's user-key bounds (nil for
	// Memtables).
	Smallest, Largest []byte
	// Tables are the run's tables in key order (nil for Memtables).
	Tables []pebble.TableNum
}

// SafeFormat implements redact.SafeFormatter.
func (r Run) SafeFormat(w redact.SafePrinter, _ rune) {
	switch r.Kind {
	case Memtables:
		w.Printf("memtables: %d, %s", redact.Safe(r.Files), redact.Safe(humanBytes(r.Bytes)))
		return
	case Sublevel:
		w.Printf("L0.%d", redact.Safe(r.Sublevel))
	default:
		w.Printf("L%d", redact.Safe(r.Level))
	}
	w.Printf(": %d files, %s, [%s, %s]", redact.Safe(r.Files), redact.Safe(humanBytes(r.Bytes)),
		r.Smallest, r.Largest)
}

// String implements fmt.Stringer.
func (r Run) String() string { return redact.StringWithoutMarkers(r) }

// LSMShape lists the sorted runs of a DB, newest first: the memtables, the
// L0 sublevels from the highest (newest) down, then the levels.
type LSMShape struct {
	Runs []Run
}

// SortedRuns is the number of runs on disk: L0 sublevels plus non-empty
// levels. It equals Metrics.ReadAmp when the sublevels are computed the way
// Pebble computes them (see Shape).
func (s LSMShape) SortedRuns() int {
	n := 0
	for _, r := range s.Runs {
		if r.Kind != Memtables {
			n++
		}
	}
	return n
}

// Sublevels is the number of L0 sublevels.
func (s LSMShape) Sublevels() int {
	n := 0
	for _, r := range s.Runs {
		if r.Kind == Sublevel {
			n++
		}
	}
	return n
}

// SafeFormat implements redact.SafeFormatter: one run a line.
func (s LSMShape) SafeFormat(w redact.SafePrinter, _ rune) {
	w.Printf("%d sorted runs\n", redact.Safe(s.SortedRuns()))
	for _, r := range s.Runs {
		w.Printf("  %v\n", r)
	}
}

// String implements fmt.Stringer.
func (s LSMShape) String() string { return redact.StringWithoutMarkers(s) }

// Shape describes the sorted runs of db now. cmp orders user keys (nil means
// bytewise order, Pebble's default comparer).
//
// L0 sublevels are recomputed from DB.SSTables the way Pebble assigns them:
// tables in seqnum order, each one sublevel above the highest older table its
// key range overlaps. Pebble does this on key intervals whose ends may be
// exclusive (a range deletion's end key); here bounds are taken as inclusive,
// so a table that only touches another at such an end is placed one sublevel
// higher than Pebble would place it. The tests check that the count agrees
// with Metrics for point-key loads.
func Shape(db DB, cmp pebble.Compare) (LSMShape, error) {
	if cmp == nil {
		cmp = pebble.DefaultComparer.Compare
	}
	m := db.Metrics()
	tables, err := db.SSTables()
	if err != nil {
		return LSMShape{}, errors.Wrap(err, "compactionext: listing sstables")
	}
	shape := LSMShape{Runs: []Run{{
		Kind: Memtables, Files: int(m.MemTable.Count), Bytes: m.MemTable.Size,
	}}}
	if len(tables) > 0 {
		subs := l0Sublevels(tables[0], cmp)
		for i := len(subs) - 1; i >= 0; i-- {
			r := newRun(subs[i], cmp)
			r.Kind, r.Sublevel = Sublevel, i
			shape.Runs = append(shape.Runs, r)
		}
	}
	for level := 1; level < len(tables); level++ {
		if len(tables[level]) == 0 {
			continue
		}
		r := newRun(tables[level], cmp)
		r.Kind, r.Level = Level, level
		shape.Runs = append(shape.Runs, r)
	}
	return shape, nil
}

// newRun summarises tables that form one run.
func newRun(tables []pebble.SSTableInfo, cmp pebble.Compare) Run {
	slices.SortFunc(tables, func(a, b pebble.SSTableInfo) int {
		return cmp(a.Smallest.UserKey, b.Smallest.UserKey)
	})
	r := Run{Files: len(tables)}
	for _, t := range tables {
		r.Bytes += t.Size
		r.Tables = append(r.Tables, t.FileNum)
		if r.Smallest == nil || cmp(t.Smallest.UserKey, r.Smallest) < 0 {
			r.Smallest = t.Smallest.UserKey
		}
		if r.Largest == nil || cmp(t.Largest.UserKey, r.Largest) > 0 {
			r.Largest = t.Largest.UserKey
		}
	}
	return r
}

// l0Sublevels groups L0 tables into sublevels, index 0 the oldest. It is
// quadratic in the number of L0 tables, which stays in the hundreds at most
// because Pebble stops writes long before.
func l0Sublevels(l0 []pebble.SSTableInfo, compare pebble.Compare) [][]pebble.SSTableInfo {
	sorted := slices.Clone(l0)
	slices.SortFunc(sorted, func(a, b pebble.SSTableInfo) int {
		if c := cmp.Compare(a.LargestSeqNum, b.LargestSeqNum); c != 0 {
			return c
		}
		if c := cmp.Compare(a.SmallestSeqNum, b.SmallestSeqNum); c != 0 {
			return c
		}
		return cmp.Compare(a.FileNum, b.FileNum)
	})
	levels := make([]int, len(sorted))
	var subs [][]pebble.SSTableInfo
	for i, t := range sorted {
		for j := 0; j < i; j++ {
			o := sorted[j]
			if compare(t.Smallest.UserKey, o.Largest.UserKey) <= 0 &&
				compare(o.Smallest.UserKey, t.Largest.UserKey) <= 0 {
				levels[i] = max(levels[i], levels[j]+1)
			}
		}
		if levels[i] == len(subs) {
			subs = append(subs, nil)
		}
		subs[levels[i]] = append(subs[levels[i]], t)
	}
	return subs
}
