package querybuilder

import (
	"sort"

	"github.com/cockroachdb/pebble/v2"
)

// File is the part of an sstable's metadata the planner uses: its number,
// size and user-key bounds. End is inclusive; a file whose largest key is an
// exclusive range-deletion sentinel is treated as if it held that key, which
// can only make a run look wider than it is.
type File struct {
	Num        uint64
	Size       uint64
	Start, End []byte
	// LargestSeqNum orders L0 files into sublevels.
	LargestSeqNum uint64
}

// Run is one sorted run: an L0 sublevel or a level L1-L6. Files are sorted by
// Start and do not overlap.
type Run struct {
	// Level is 0-6. Sublevel is the L0 sublevel, 0 the oldest; -1 for L1-L6.
	Level, Sublevel int
	Files           []File
}

// Layout is a snapshot of the LSM's file metadata, prepared for planning:
// the sorted runs (newest first, as Pebble merges them) and, across all of
// them, the sorted distinct file starts and the union of the files' spans.
// A Layout is immutable and shared by every query planned on it.
type Layout struct {
	cmp   pebble.Compare
	split pebble.Split
	// Runs lists the L0 sublevels from newest to oldest, then L1-L6; empty
	// levels are left out.
	Runs []Run
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

// NewLayout prepares levels (index 0 = L0, as DB.SSTables returns them) for
// planning. L0 files are grouped into sublevels the way Pebble does it: in
// order of their largest sequence number, each file goes one sublevel above
// the highest sublevel it overlaps.
func NewLayout(cmp *pebble.Comparer, levels [][]File) *Layout {
	l := &Layout{cmp: cmp.Compare, split: cmp.Split}
	if len(levels) > 0 {
		subs := l.sublevels(levels[0])
		for s := len(subs) - 1; s >= 0; s-- {
			l.Runs = append(l.Runs, Run{Level: 0, Sublevel: s, Files: subs[s]})
		}
	}
	for level := 1; level < len(levels); level++ {
		if len(levels[level]) == 0 {
			continue
		}
		files := append([]File(nil), levels[level]...)
		sort.Slice(files, func(a, b int) bool { return l.cmp(files[a].Start, files[b].Start) < 0 })
		l.Runs = append(l.Runs, Run{Level: level, Sublevel: -1, Files: files})
	}
	l.index()
	l.Deferrable = l.estimateDeferrable()
	return l
}

func (l *Layout) sublevels(files []File) [][]File {
	order := append([]File(nil), files...)
	sort.SliceStable(order, func(a, b int) bool { return order[a].LargestSeqNum < order[b].LargestSeqNum })
	var subs [][]File
	for _, f := range order {
		s := 0
		for i := len(subs) - 1; i >= 0; i-- {
			if l.runOverlaps(subs[i], f.Start, f.End) {
				s = i + 1
				break
			}
		}
		if s == len(subs) {
			subs = append(subs, nil)
		}
		subs[s] = append(subs[s], f)
	}
	for _, sub := range subs {
		sort.Slice(sub, func(a, b int) bool { return l.cmp(sub[a].Start, sub[b].Start) < 0 })
	}
	return subs
}

func (l *Layout) runOverlaps(files []File, start, end []byte) bool {
	for _, f := range files {
		if l.cmp(f.Start, end) <= 0 && l.cmp(start, f.End) <= 0 {
			return true
		}
	}
	return false
}

// index builds stepStarts and cover.
func (l *Layout) index() {
	var all []span
	for _, r := range l.Runs {
		for _, f := range r.Files {
			all = append(all, span{f.Start, f.End})
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
func (l *Layout) covered(k []byte) bool {
	if k == nil {
		return false
	}
	i := sort.Search(len(l.cover), func(i int) bool { return l.cmp(l.cover[i].start, k) > 0 })
	return i > 0 && l.cmp(k, l.cover[i-1].end) <= 0
}

// StepAfter returns the upper bound of the first step for a forward seek to
// k (nil k: from the start of the key space), or nil if stepping would not
// narrow anything. The bound is the first file start above k; if no file
// contains k, the answer most likely lies in the file starting next, so the
// step also takes that file in and ends at the start after it. The bound is
// always greater than k, which is all correctness needs.
func (l *Layout) StepAfter(k []byte) []byte {
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
func (l *Layout) deferredRuns(k []byte) int {
	n := 0
	for _, r := range l.Runs {
		i := sort.Search(len(r.Files), func(i int) bool { return l.cmp(r.Files[i].End, k) >= 0 })
		if i < len(r.Files) && l.cmp(r.Files[i].Start, k) > 0 {
			n++
		}
	}
	return n
}

// filesIn counts the run's files that overlap [lower, upper) (nil: open).
func (l *Layout) filesIn(r *Run, lower, upper []byte) int {
	n := 0
	for _, f := range r.Files {
		if (lower == nil || l.cmp(f.End, lower) >= 0) && (upper == nil || l.cmp(f.Start, upper) < 0) {
			n++
		}
	}
	return n
}

// LayoutFromSSTables converts DB.SSTables output into a Layout.
func LayoutFromSSTables(cmp *pebble.Comparer, tables [][]pebble.SSTableInfo) *Layout {
	levels := make([][]File, len(tables))
	for i, lvl := range tables {
		levels[i] = make([]File, len(lvl))
		for j := range lvl {
			t := &lvl[j]
			levels[i][j] = File{
				Num:           uint64(t.FileNum),
				Size:          t.Size,
				Start:         t.Smallest.UserKey,
				End:           t.Largest.UserKey,
				LargestSeqNum: uint64(t.LargestSeqNum),
			}
		}
	}
	return NewLayout(cmp, levels)
}
