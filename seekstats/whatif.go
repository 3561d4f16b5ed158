// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"fmt"
	"math"
	"strings"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/rangefilter"
)

// The what-ifs: from the counts of a workload run without a kind of filter,
// what that filter would have saved and cost, per row. See the package doc's
// "What-if" section for how they are computed and when they are wrong.

// LevelShape is what a what-if needs to know of a level besides its counts:
// how many tables it has and how many keys they hold.
type LevelShape struct {
	Tables uint64
	// Keys is the point entries of the level's tables (tombstones and older
	// versions included). A filter holds the distinct Split prefixes, at
	// most this many, so a memory estimate from Keys is an upper bound.
	Keys uint64
	// Bytes is the tables' size on disk.
	Bytes uint64
}

// ShapeFromSSTables sums DB.SSTables(WithProperties()) per row. A table
// without properties counts as a table of no keys.
func ShapeFromSSTables(levels [][]upstream.SSTableInfo) [NumRows]LevelShape {
	var out [NumRows]LevelShape
	for l, tables := range levels {
		r := RowForLevel(l)
		for _, t := range tables {
			out[r].Tables++
			out[r].Bytes += t.Size
			if t.Properties != nil {
				out[r].Keys += t.Properties.NumEntries - min(t.Properties.NumRangeDeletions, t.Properties.NumEntries)
			}
		}
	}
	return out
}

// WhatIf configures a what-if.
type WhatIf struct {
	// BitsPerKey is the filter's budget.
	BitsPerKey float64
	// RangeLen is the number of key positions a bounded seek's range is
	// taken to cover in a table that holds none of its keys: the ℓ of the
	// range filter's bound ℓ/2^(B-2). The statistics do not observe it;
	// zero means DefaultWhatIfRangeLen. Prefix what-ifs ignore it.
	RangeLen int
	// Shape is each row's tables and keys, for the memory estimate.
	Shape [NumRows]LevelShape
}

// DefaultWhatIfRangeLen is the range length taken when WhatIf.RangeLen is
// zero: an empty range between two adjacent keys of a table, which the
// table's key map gives one or two positions.
const DefaultWhatIfRangeLen = 2

// rangeHeaderBytes is a range filter's fixed header, counted once per table.
const rangeHeaderBytes = 64

// LevelWhatIf is one row's what-if.
type LevelWhatIf struct {
	Row Row
	// Candidates are the data-block loads the filter would have been asked
	// about and that produced nothing: for a range filter, bounded seeks'
	// loads without a value (DataBounded - UsefulBounded); for a prefix
	// filter, loads without a value at a row no prefix filter decided.
	Candidates uint64
	// FPR is the filter's false-positive rate used: the range filter's bound
	// at WhatIf.RangeLen, or a Bloom filter's expected rate.
	FPR float64
	// FalsePositives is Candidates × FPR: loads the filter would let through.
	FalsePositives float64
	// Avoided is Candidates - FalsePositives: the loads the filter would save.
	Avoided float64
	// Loads is the row's data-block loads of the kind the filter judges
	// (bounded ones for a range filter, all for a prefix filter), so that
	// Avoided/Loads is the predicted reduction.
	Loads uint64
	// FilterBytes is the memory (and disk) the filters of the row's tables
	// would take: Keys × BitsPerKey / 8, plus a range filter's header per
	// table. An upper bound (see LevelShape.Keys; range filters store a
	// table's keys exactly in fewer bits when they can).
	FilterBytes uint64
	// Unplaced, in the unattributed row only, is the bounded seeks' values
	// the statistics could not place at a level (the fast attribution rule
	// gives up when several tables loaded blocks for one seek): each came
	// from some level's load, so it is taken off the total, as a negative
	// Avoided of this row. The other rows' estimates are upper bounds by up
	// to Unplaced between them.
	Unplaced uint64
}

// Reduction is Avoided/Loads, or ok=false without loads.
func (w LevelWhatIf) Reduction() (float64, bool) {
	if w.Loads == 0 {
		return 0, false
	}
	return w.Avoided / float64(w.Loads), true
}

// String is the row's what-if on one line.
func (w LevelWhatIf) String() string {
	name := w.Row.String()
	if w.Row == NumRows {
		name = "total"
	}
	if w.Row == RowUnattributed && w.Unplaced > 0 {
		return fmt.Sprintf("%s: %d values read at no known level: the levels above avoid %.2f loads fewer between them",
			name, w.Unplaced, -w.Avoided)
	}
	return fmt.Sprintf("%s: avoids %.2f of %d data loads (%s), %.3g expected false positives at FPR %.4f%%, %s of filters",
		name, w.Avoided, w.Loads, percent(w.Reduction()), w.FalsePositives, 100*w.FPR, formatBytes(w.FilterBytes))
}

// BloomFPR is a standard Bloom filter's expected false-positive rate at bits
// bits per key with k = round(bits·ln 2) probes: (1 - e^(-k/bits))^k.
// Pebble's cache-local Bloom filter does slightly worse.
func BloomFPR(bits float64) float64 {
	if bits <= 0 {
		return 1
	}
	k := max(1, math.Round(bits*math.Ln2))
	return math.Pow(1-math.Exp(-k/bits), k)
}

// RangeFilterWhatIf estimates, per LSM level (L0 to L6), what range filters
// of w.BitsPerKey bits per key would save on the counted workload: the
// bounded seeks' data loads that produced no value, less the filter's
// expected false positives at w.RangeLen; and what they would cost. Levels
// without bounded loads are left out (a filter there would save nothing);
// the unattributed row appears when it holds values (see
// LevelWhatIf.Unplaced). Rows
// where range filters already judged seeks are estimated all the same
// (their remaining empty loads are the filters' false positives and
// overlaps, which a bigger budget may cut).
func (sn *Snapshot) RangeFilterWhatIf(w WhatIf) []LevelWhatIf {
	rl := w.RangeLen
	if rl <= 0 {
		rl = DefaultWhatIfRangeLen
	}
	fpr := rangefilter.Config{BitsPerKey: w.BitsPerKey}.FPRBound(rl)
	var out []LevelWhatIf
	for r := RowL0; r <= RowUnattributed; r++ {
		c, sh := sn.Rows[r], w.Shape[r]
		if c.DataBounded == 0 && (r != RowUnattributed || c.UsefulBounded == 0) {
			continue
		}
		useful := min(c.UsefulBounded, c.DataBounded)
		cand := c.DataBounded - useful
		fp := float64(cand) * fpr
		lw := LevelWhatIf{
			Row: r, Candidates: cand, FPR: fpr, FalsePositives: fp,
			Avoided: float64(cand) - fp, Loads: c.DataBounded,
			FilterBytes: filterBytes(sh.Keys, w.BitsPerKey) + sh.Tables*rangeHeaderBytes,
		}
		if r == RowUnattributed {
			lw.Unplaced = c.UsefulBounded - useful
			lw.Avoided -= float64(lw.Unplaced) * (1 - fpr)
		}
		out = append(out, lw)
	}
	return out
}

// PrefixFilterWhatIf estimates, per LSM level that loaded data blocks with
// no prefix filter deciding a seek there (L6 with UseL6Filters off is the
// common case), what prefix (Bloom) filters of w.BitsPerKey bits per key
// would save: the level's loads that produced no value, less the Bloom
// filter's expected false positives; and what the filters would cost.
// It assumes the level's seeks were SeekPrefixGE (only those consult a
// prefix filter) and that no value-less load found the prefix in the table.
func (sn *Snapshot) PrefixFilterWhatIf(w WhatIf) []LevelWhatIf {
	fpr := BloomFPR(w.BitsPerKey)
	var out []LevelWhatIf
	for r := RowL0; r <= RowL6; r++ {
		c, sh := sn.Rows[r], w.Shape[r]
		prefixDecided := c.Filtered - min(c.FilteredRange, c.Filtered) + c.FilterMatch
		if c.Data == 0 || prefixDecided > 0 {
			continue
		}
		useful := min(c.UsefulNoFilter+c.UsefulFilterMatch, c.Data)
		cand := c.Data - useful
		fp := float64(cand) * fpr
		out = append(out, LevelWhatIf{
			Row: r, Candidates: cand, FPR: fpr, FalsePositives: fp,
			Avoided: float64(cand) - fp, Loads: c.Data,
			FilterBytes: filterBytes(sh.Keys, w.BitsPerKey),
		})
	}
	return out
}

// Total sums a what-if's rows into one, whose Row is NumRows; its
// Reduction is the predicted reduction of the data loads the filter judges,
// over all levels.
func Total(ws []LevelWhatIf) LevelWhatIf {
	t := LevelWhatIf{Row: NumRows}
	for _, w := range ws {
		t.Candidates += w.Candidates
		t.FalsePositives += w.FalsePositives
		t.Avoided += w.Avoided
		t.Loads += w.Loads
		t.FilterBytes += w.FilterBytes
		t.Unplaced += w.Unplaced
		t.FPR = w.FPR
	}
	return t
}

func filterBytes(keys uint64, bits float64) uint64 {
	return uint64(math.Ceil(float64(keys) * bits / 8))
}

func formatBytes(n uint64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// WhatIfTable prints one "what-if" line per row of ws under a title, then
// their total.
func WhatIfTable(title string, ws []LevelWhatIf) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "what-if %s %s\n", title, w)
	}
	if len(ws) > 0 {
		fmt.Fprintf(&b, "what-if %s %s\n", title, Total(ws))
	}
	return b.String()
}
