// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/sortedruns"
)

// runIndex answers the drivers' questions about the sorted runs on disk:
// it holds the runs of an sortedruns.View and the tables' metadata by number.
type runIndex struct {
	compare pebble.Compare
	tables  map[pebble.TableNum]pebble.SSTableInfo
	// runs are the view's runs: the L0 sublevels, newest first, then the
	// levels.
	runs []sortedruns.Run
	// sublevels is the number of runs that are L0 sublevels.
	sublevels int
}

func newRunIndex(levels [][]pebble.SSTableInfo, compare pebble.Compare) runIndex {
	v := sortedruns.FromSSTables(compare, levels)
	ix := runIndex{compare: compare, tables: make(map[pebble.TableNum]pebble.SSTableInfo),
		runs: v.Runs, sublevels: v.Sublevels()}
	for _, tables := range levels {
		for _, t := range tables {
			ix.tables[t.FileNum] = t
		}
	}
	return ix
}

func (ix runIndex) overlaps(t *sortedruns.Table, start, end []byte) bool {
	return ix.compare(t.Smallest, end) <= 0 && ix.compare(start, t.Largest) <= 0
}

// runsFaced counts the runs an unbounded seek to key pays for: each run
// with a table ending at or after key. A run's level iterator opens the
// first such table and loads a block of it even when the table starts past
// key (Pebble's levelIter.SeekGE loads whatever findFileGE returns), so a
// run with nothing at key but something after it costs that seek as much as
// one holding key.
func (ix runIndex) runsFaced(key []byte) int {
	n := 0
	for _, run := range ix.runs {
		for _, t := range run.Tables {
			if ix.compare(t.Largest, key) >= 0 {
				n++
				break
			}
		}
	}
	return n
}

// runsPast counts the runs with a table starting after key: what a seek at
// or before key still pays for once everything up to key is one run.
func (ix runIndex) runsPast(key []byte) int { return ix.countPast(ix.runs, key) }

// runsAfterMerge counts the runs a seek to a key at or before end would
// face once everything up to end is merged into the bottom level: that run,
// and every other run with a table starting after end.
func (ix runIndex) runsAfterMerge(end []byte) int {
	runs := ix.runs
	if n := len(runs); n > ix.sublevels {
		runs = runs[:n-1] // the bottom level, counted as the one merged into
	}
	return 1 + ix.countPast(runs, end)
}

// countPast counts the runs among runs with a table starting after key.
func (ix runIndex) countPast(runs []sortedruns.Run, key []byte) int {
	n := 0
	for _, run := range runs {
		for _, t := range run.Tables {
			if ix.compare(t.Smallest, key) > 0 {
				n++
				break
			}
		}
	}
	return n
}

// overlapping calls fn with each table overlapping [start, end], saying
// whether it is in L0.
func (ix runIndex) overlapping(start, end []byte, fn func(t pebble.SSTableInfo, inL0 bool)) {
	for i := range ix.runs {
		for j := range ix.runs[i].Tables {
			if t := &ix.runs[i].Tables[j]; ix.overlaps(t, start, end) {
				fn(ix.tables[t.Num], i < ix.sublevels)
			}
		}
	}
}

// belowL0Bytes is the size of the tables below L0.
func (ix runIndex) belowL0Bytes() uint64 {
	var n uint64
	for _, run := range ix.runs[ix.sublevels:] {
		n += run.Bytes()
	}
	return n
}
