package querybuilder

import (
	"sort"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/sortedruns"
)

// layout is a snapshot of the LSM's file metadata, prepared for planning:
// the sorted runs (newest first, as Pebble merges them) and, across all of
// them, the sorted distinct file starts and the union of the files' spans.
// A layout is immutable and shared by every query planned on it. The
// planner takes a table's Largest as inclusive even where it is a range
// deletion's exclusive end, which can only make a run look wider than it
// is.
type layout struct {
	cmp   pebble.Compare
	split pebble.Split
	// Runs lists the L0 sublevels from newest to oldest, then L1-L6; empty
	// levels are left out.
	Runs []sortedruns.Run
	// stepStarts holds the distinct Split prefixes of all file starts, in
	// order. A step bound is always a bare prefix so that Pebble keeps
	// allowing NextPrefix under it (Iterator.SetBounds refuses NextPrefix
	// under a versioned upper bound).
	stepStarts [][]byte
	// cover is the union of all file spans, as disjoint inclusive intervals
	// in order.
	cover []span
	// Deferrable estimates how many sorted runs a forward seek defers: runs
	// that hold no file containing the seek key but have a file after it,
	// averaged over seek keys spread through the key space. It is what the
	// auto plan weighs.
	Deferrable float64
}

type span struct{ start, end []byte }

// maxDeferrableSamples bounds the work of estimating Deferrable (see
// deferrable.go).
const maxDeferrableSamples = 512

// layoutOfLevels prepares levels (index 0 = L0, as DB.SSTables returns them) for
// planning. L0 files are grouped into sublevels by Pebble's rule (see
// sortedruns.Sublevels).
func layoutOfLevels(cmp *pebble.Comparer, levels [][]sortedruns.Table) *layout {
	return newLayout(cmp, sortedruns.New(cmp.Compare, levels))
}

func newLayout(cmp *pebble.Comparer, v sortedruns.View) *layout {
	l := &layout{cmp: cmp.Compare, split: cmp.Split, Runs: v.Runs}
	l.index()
	l.Deferrable = l.estimateDeferrable()
	return l
}

// index builds stepStarts and cover.
func (l *layout) index() {
	var all []span
	for _, r := range l.Runs {
		for _, f := range r.Tables {
			all = append(all, span{f.Smallest, f.Largest})
		}
	}
	sort.Slice(all, func(a, b int) bool { return l.cmp(all[a].start, all[b].start) < 0 })
	for _, s := range all {
		p := s.start[:l.split(s.start)]
		if n := len(l.stepStarts); n == 0 || l.cmp(l.stepStarts[n-1], p) < 0 {
			l.stepStarts = append(l.stepStarts, p)
		}
		if n := len(l.cover); n > 0 && l.cmp(s.start, l.cover[n-1].end) <= 0 {
			if l.cmp(s.end, l.cover[n-1].end) > 0 {
				l.cover[n-1].end = s.end
			}
			continue
		}
		l.cover = append(l.cover, s)
	}
}

// covered reports whether some file's span contains k.
func (l *layout) covered(k []byte) bool {
	if k == nil {
		return false
	}
	i := sort.Search(len(l.cover), func(i int) bool { return l.cmp(l.cover[i].start, k) > 0 })
	return i > 0 && l.cmp(k, l.cover[i-1].end) <= 0
}

// stepAfter returns the upper bound of the first step for a forward seek to
// k (nil k: from the start of the key space), or nil if stepping would not
// narrow anything. The bound is the first file start above k; if no file
// contains k, the answer most likely lies in the file starting next, so the
// step also takes that file in and ends at the start after it. The bound is
// always greater than k, which is all correctness needs.
func (l *layout) stepAfter(k []byte) []byte {
	i := 0
	if k != nil {
		i = sort.Search(len(l.stepStarts), func(i int) bool { return l.cmp(l.stepStarts[i], k) > 0 })
	}
	if !l.covered(k) {
		i++
	}
	if i >= len(l.stepStarts) {
		return nil
	}
	return l.stepStarts[i]
}

// deferredRuns counts the runs a stepped seek to k defers: runs with no file
// containing k but with a file starting after k (a plain seek opens that
// file; the step bound, the first start above k, excludes it).
func (l *layout) deferredRuns(k []byte) int {
	n := 0
	for _, r := range l.Runs {
		i := sort.Search(len(r.Tables), func(i int) bool { return l.cmp(r.Tables[i].Largest, k) >= 0 })
		if i < len(r.Tables) && l.cmp(r.Tables[i].Smallest, k) > 0 {
			n++
		}
	}
	return n
}

// filesIn counts the run's files that overlap [lower, upper) (nil: open).
func (l *layout) filesIn(r *sortedruns.Run, lower, upper []byte) int {
	n := 0
	for _, f := range r.Tables {
		if (lower == nil || l.cmp(f.Largest, lower) >= 0) && (upper == nil || l.cmp(f.Smallest, upper) < 0) {
			n++
		}
	}
	return n
}

// layoutFromSSTables converts DB.SSTables output into a layout.
func layoutFromSSTables(cmp *pebble.Comparer, tables [][]pebble.SSTableInfo) *layout {
	return newLayout(cmp, sortedruns.FromSSTables(cmp.Compare, tables))
}
