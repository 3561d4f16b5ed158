// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package whatif estimates, from a DB's per-level statistics counted
// without a kind of filter, what that filter would have saved and cost,
// level by level: range filters of a budget (RangeFilters), and Bloom prefix
// filters where no prefix filter decided a seek (PrefixFilters). Each
// returns a Level per row with the loads avoided, those that must pass and
// the expected false positives, and the filters' memory; Total sums them
// and Table prints them. The inputs are a seekstats.Snapshot and the LSM's
// shape (ShapeOf, from DB.SSTables), which also gives pebblerf's filter
// planning the keys per level (pebble's DB.PointFilterLoads and
// DB.RangeFilterLoads).
//
// How the estimates are made, and where they are wrong, is said beside the
// code (whatif.go).
package whatif

import (
	"fmt"
	"math"
	"strings"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
)

// How the estimates are made. RangeFilters estimates, per level, what range
// filters of B bits per key would save on the workload counted without them.
// Its candidates are the bounded seeks' data loads whose table held no key
// the read found (DataBounded - NeededBounded, seekstats.LevelCounts.Needed):
// a found key lies within the bounds, and a range filter rules a table out
// only when the table holds nothing in the bounds. Needed, not USEFUL,
// because USEFUL waits for a Value call that key-only reads (existence and
// lock-table checks, key-only scans) never make: counted by USEFUL, every
// load of such a read would look avoidable. Two things decide how many of
// the candidates a filter would still let through, and neither can be read
// off the bounds alone: whether the table holds a key in the bounds that the
// read did not find (a shadowed older version: the filter must pass it), and ℓ,
// the number of values of the table's own key map the bounds cover, which
// sets the false-positive bound ℓ/2^(B-2) of a hashed filter
// (rangefilter.Config.FPRBound). Both are observed where the tables carry
// range filters, even when the DB reads with range filters off: while
// statistics are on (and not Config.FiltersOnly, which adds no filter of its
// own), each bounded iterator carries one more always-true block-property
// filter, under the range filter's name, and Pebble hands it each table's
// filter when it opens the table (seekstats.RangeLens). It maps the bounds
// through the table's key map and records, per row, a log2 histogram of ℓ,
// the checks whose bounds fall outside the map, and for filters that store
// their values exactly, whether the table holds a key in the bounds
// (seekstats.RangeLens). Every check is counted; the coverage, which costs
// about a filter query, is taken for every check up to 1024 per counter shard
// and row, then for one in 16, and the what-if uses only its shares. The
// what-if then takes the share of checks on tables that hold a key as loads
// that must pass (less the needed loads), and the sum of
// FPRBound(ℓ) over the hashed filters' checks as the false positives; the
// saving is what is left of the candidates. The bound counts every key of the
// table as a possible collision, but keys in the query's own hash block
// cannot collide with it, so where the keys span few blocks of r = n·2^(B-2)
// values (keys a little sparser than B bits store exactly) the filter does
// much better than its bound. The observer also sums each hashed filter's own
// expectation for the query (the bound scaled by the share of keys outside
// the query's blocks, seekstats.RangeLens.HashedFPRSum) and the budget it was
// written with; when that is the budget asked about, the what-if takes the
// filters' expectation instead of the bound. Where no table carries a range
// filter, ℓ is assumed (Options.RangeLen, by default 2: an empty range
// between two adjacent keys) and every candidate is taken to hold nothing in
// the bounds. The cost is given twice: the level's keys (point entries from
// the tables' properties, DB.SSTables) times B bits, plus a header per table,
// an upper bound; and the filters the tables carry, as written
// (rangefilter.Describe), with their bits per key. PrefixFilters does the
// same for Bloom prefix filters on levels where no prefix filter decided a
// seek (L6 with UseL6Filters off is the common case): candidates are the
// level's loads that were not needed, the rate a Bloom filter's expected one
// (bloomFPR).
//
// The estimates are wrong where their inputs are. A load is needed when the
// seek ended at a key of its table (or a value read after it came from
// there), by the attribution's rule (seekstats); a key-only scan's steps past
// the seek credit nothing, so the tables only they reach count as
// candidates; where the checks were observed, the loads on tables that hold
// a key in the bounds are taken off again. An exact
// filter says which tables those are; a hashed filter's "yes" mixes them with
// false positives, so its tables that hold a key are its "yes" answers less
// its own expected false positives, an estimate; and the false positives are
// summed over all its checks, including those on tables that hold a key (a
// slight overestimate). Checks are turned into loads by their shares, which
// assumes a check and a load go together (an iterator opened per seek: one
// check, at most one load per table); a long-lived iterator checks a table
// once for many seeks. The observed ℓ and exactness are those of the filters
// as written: at another budget B, a table stored exactly might hash, or the
// reverse, and the false positives are the bound. Values the fast attribution
// rule cannot place at a level (several tables loaded blocks for one seek, as
// over overlapping L0 tables) count in the unattributed row: where the
// levels' checks were observed, their loads are among the must-pass ones
// already; elsewhere the what-if takes them off the total, but which level's
// estimate they belong to is unknown, so the per-level figures are upper
// bounds by up to that count. Reads change shape once filters are on: an
// iterator that skips a table also stops the attribution ambiguity there, and
// a workload that adapts to latency may seek differently. The prefix estimate
// assumes the seeks were SeekPrefixGE (only those consult a prefix filter).

// LevelShape is what a what-if needs to know of a level besides its counts:
// how many tables it has and how many keys they hold.
type LevelShape struct {
	Tables uint64
	// Keys is the point entries of the level's tables (tombstones and older
	// versions included). A filter holds the distinct Split prefixes, at
	// most this many, so a memory estimate from Keys is an upper bound.
	Keys uint64
	// Bytes is the tables' size on disk, and FilterBytes the part of it
	// their point filters take.
	Bytes, FilterBytes uint64
	// RangeFilterTables are the tables that carry a range filter;
	// RangeFilterKeys and RangeFilterBytes the distinct prefixes their
	// filters hold and the filters' size, as rangefilter.Describe reads
	// them: the measured cost of the filters as they were written.
	RangeFilterTables, RangeFilterKeys, RangeFilterBytes uint64
}

// ShapeOf sums DB.SSTables(WithProperties()) per row (seekstats.Row). A
// table without properties counts as a table of no keys; a range filter
// that does not decode, or is universal, counts as none.
func ShapeOf(levels [][]upstream.SSTableInfo) [seekstats.NumRows]LevelShape {
	var out [seekstats.NumRows]LevelShape
	for l, tables := range levels {
		r := seekstats.RowForLevel(l)
		for _, t := range tables {
			out[r].Tables++
			out[r].Bytes += t.Size
			if t.Properties == nil {
				continue
			}
			out[r].Keys += t.Properties.NumEntries - min(t.Properties.NumRangeDeletions, t.Properties.NumEntries)
			out[r].FilterBytes += t.Properties.FilterSize
			if f, ok, err := rangefilter.FromUserProperties(t.Properties.UserProperties); ok && err == nil {
				if info, err := rangefilter.Describe(f); err == nil && !info.Universal {
					out[r].RangeFilterTables++
					out[r].RangeFilterKeys += info.Keys
					out[r].RangeFilterBytes += uint64(info.Size)
				}
			}
		}
	}
	return out
}

// measuredBitsPerKey is the range filters' size per distinct prefix, as
// written; ok is false when no table of the level carries one.
func (s LevelShape) measuredBitsPerKey() (float64, bool) {
	if s.RangeFilterKeys == 0 {
		return 0, false
	}
	return float64(8*s.RangeFilterBytes) / float64(s.RangeFilterKeys), true
}

// Options configure a what-if.
type Options struct {
	// BitsPerKey is the filter's budget.
	BitsPerKey float64
	// RangeLen is the number of key positions a bounded seek's range is
	// taken to cover in a table that holds none of its keys (the ℓ of the
	// range filter's bound ℓ/2^(B-2)) for rows whose ranges were not
	// observed (seekstats.Snapshot.RangeLens: their tables carry no range
	// filter); zero means DefaultRangeLen. Prefix what-ifs ignore it.
	RangeLen int
	// Shape is each row's tables and keys, for the memory estimate.
	Shape [seekstats.NumRows]LevelShape
}

// DefaultRangeLen is the range length taken when Options.RangeLen is
// zero: an empty range between two adjacent keys of a table, which the
// table's key map gives one or two positions.
const DefaultRangeLen = 2

// rangeHeaderBytes is a range filter's fixed header, counted once per table.
const rangeHeaderBytes = 64

// Level is one row's what-if.
type Level struct {
	Row seekstats.Row
	// Candidates are the data-block loads the filter would have been asked
	// about and whose table held no key the read found: for a range filter,
	// bounded seeks' loads not needed (DataBounded - NeededBounded); for a
	// prefix filter, loads not needed at a row no prefix filter decided.
	Candidates uint64
	// Checks, for a range what-if, are the row's observed range-filter
	// checks (seekstats.RangeLens.Checks). Zero means none were observed (the row's
	// tables carry no range filter) and the estimate takes every candidate's
	// range as Options.RangeLen positions long.
	Checks uint64
	// MustPass, for a range what-if with Checks, are the candidates on
	// tables that hold a key in the bounds, which any range filter passes
	// (older versions shadowed by a newer level): the share of checks on
	// tables that hold a key (see observedPasses), times the loads, less the
	// needed loads.
	MustPass float64
	// FPR is the filter's false-positive rate used: for a range filter with
	// Checks, the expected false positives per observed check (the bound at
	// the observed lengths, or the filters' own expectation, see
	// FromWritten); otherwise the bound at Options.RangeLen, or a Bloom
	// filter's expected rate.
	FPR float64
	// FalsePositives are the candidates the filter would let through although
	// their table holds nothing in the bounds.
	FalsePositives float64
	// FalsePositivesBound, for a range what-if with Checks, are the false
	// positives at FPRBound of the observed lengths; FalsePositives are the
	// same unless FromWritten.
	FalsePositivesBound float64
	// FromWritten is set when FalsePositives are the expectation of the
	// range filters the tables carry (recorded as seekstats.RangeLens.HashedFPRSum), which is
	// taken when they were written with the what-if's budget: sharper than
	// the bound where their keys span few hash blocks.
	FromWritten bool
	// FalsePositivesAssumed, for a range what-if, are the false positives at
	// AssumedLen instead of the observed lengths, for comparison.
	FalsePositivesAssumed float64
	// AssumedLen is the range length taken where none was observed
	// (Options.RangeLen, or DefaultRangeLen).
	AssumedLen int
	// Avoided is Candidates - MustPass - FalsePositives: the loads the filter
	// would save.
	Avoided float64
	// Loads is the row's data-block loads of the kind the filter judges
	// (bounded ones for a range filter, all for a prefix filter), so that
	// Avoided/Loads is the predicted reduction.
	Loads uint64
	// FilterBytes is the memory (and disk) the filters of the row's tables
	// would take at the budget: Keys × BitsPerKey / 8, plus a range filter's
	// header per table. An upper bound (see LevelShape.Keys; range filters
	// store a table's keys exactly in fewer bits when they can).
	FilterBytes uint64
	// MeasuredFilterBytes and MeasuredBitsPerKey are the range filters the
	// row's tables carry, as written (LevelShape.RangeFilterBytes), and
	// their size per distinct prefix; zero without such filters.
	MeasuredFilterBytes uint64
	MeasuredBitsPerKey  float64
	// HashedShare is the share of the observed checks whose table's filter
	// hashes (its false positives follow FPRBound); the others store their
	// keys exactly or fall outside the map.
	HashedShare float64
	// LenP50 and LenP90 bound the median and 90th percentile of the
	// observed ranges' lengths in key positions (lenQuantile);
	// zero without observed ranges of non-zero length.
	LenP50, LenP90 uint64
	// Unplaced, in the unattributed row only, is the bounded seeks' needed
	// loads the statistics could not place at a level (the fast attribution
	// rule gives up when several tables that loaded blocks for one seek span
	// the key it found): each is some level's load, so it is taken off the
	// total, as a negative Avoided of this row. The other rows' estimates
	// are upper bounds by up to Unplaced between them.
	Unplaced uint64
}

// Passed is MustPass + FalsePositives: the loads not needed that the filter
// would leave, comparable with a run with filters on (its DataBounded -
// NeededBounded).
func (w Level) Passed() float64 { return w.MustPass + w.FalsePositives }

// Reduction is Avoided/Loads, or ok=false without loads.
func (w Level) Reduction() (float64, bool) {
	if w.Loads == 0 {
		return 0, false
	}
	return w.Avoided / float64(w.Loads), true
}

// String is the row's what-if on one line.
func (w Level) String() string {
	name := w.Row.String()
	if w.Row == seekstats.NumRows {
		name = "total"
	}
	if w.Row == seekstats.RowUnattributed && w.Unplaced > 0 && w.Avoided > -0.005 {
		return fmt.Sprintf("%s: %d needed loads at no known level, which the levels' observed checks already count as must-pass",
			name, w.Unplaced)
	}
	if w.Row == seekstats.RowUnattributed && w.Unplaced > 0 {
		return fmt.Sprintf("%s: %d needed loads at no known level: the levels above avoid %.2f loads fewer between them",
			name, w.Unplaced, -w.Avoided)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: avoids %.2f of %d data loads (%s)", name, w.Avoided, w.Loads, percent(w.Reduction()))
	if w.Checks > 0 {
		source := "at the FPR bound"
		if w.FromWritten {
			source = "as the filters written at this budget expect"
		}
		fmt.Fprintf(&b, ", %.2f must pass, %.3g expected false positives (%s, FPR %.4f%%) over %d observed checks (%.0f%% hashed",
			w.MustPass, w.FalsePositives, source, 100*w.FPR, w.Checks, 100*w.HashedShare)
		if w.LenP50 > 0 {
			fmt.Fprintf(&b, "; range len p50 <= %d, p90 <= %d", w.LenP50, w.LenP90)
		}
		b.WriteString(")")
		if w.FromWritten {
			fmt.Fprintf(&b, ", %.3g at the bound", w.FalsePositivesBound)
		}
		fmt.Fprintf(&b, ", %.3g at an assumed len of %d", w.FalsePositivesAssumed, w.AssumedLen)
	} else {
		fmt.Fprintf(&b, ", %.3g expected false positives at FPR %.4f%%", w.FalsePositives, 100*w.FPR)
	}
	fmt.Fprintf(&b, ", %s of filters", formatBytes(w.FilterBytes))
	if w.MeasuredFilterBytes > 0 {
		fmt.Fprintf(&b, " (%s as written, %.1f bits/key)", formatBytes(w.MeasuredFilterBytes), w.MeasuredBitsPerKey)
	}
	return b.String()
}

// bloomFPR is a standard Bloom filter's expected false-positive rate at bits
// bits per key with k = round(bits·ln 2) probes: (1 - e^(-k/bits))^k.
// Pebble's cache-local Bloom filter does slightly worse.
func bloomFPR(bits float64) float64 {
	if bits <= 0 {
		return 1
	}
	k := max(1, math.Round(bits*math.Ln2))
	return math.Pow(1-math.Exp(-k/bits), k)
}

// RangeFilters estimates, per LSM level (L0 to L6), what range filters of
// w.BitsPerKey bits per key would save on the counted workload: the
// bounded seeks' data loads that were not needed, less those on tables
// that hold a key in the bounds and the filter's expected false positives;
// and what they would cost. Where the row's range-filter checks were
// observed (seekstats.Snapshot.RangeLens), both come from them: the exact filters'
// verdicts, and the false-positive bound at each observed range length;
// elsewhere every candidate is taken to hold nothing in the bounds and to
// cover w.RangeLen positions. Levels without bounded loads are left out (a
// filter there would save nothing); the unattributed row appears when it
// holds needed loads (see Level.Unplaced). Rows where range filters already
// judged seeks are estimated all the same (their remaining empty loads are
// the filters' false positives and overlaps, which a bigger budget may cut).
func RangeFilters(sn *seekstats.Snapshot, w Options) []Level {
	rl := w.RangeLen
	if rl <= 0 {
		rl = DefaultRangeLen
	}
	cfg := rangefilter.Config{BitsPerKey: w.BitsPerKey}
	assumed := cfg.FPRBound(rl)
	var out []Level
	for r := seekstats.RowL0; r <= seekstats.RowUnattributed; r++ {
		c, sh, lens := sn.Rows[r], w.Shape[r], &sn.RangeLens[r]
		if c.DataBounded == 0 && (r != seekstats.RowUnattributed || c.NeededBounded == 0) {
			continue
		}
		needed := min(c.NeededBounded, c.DataBounded)
		cand := c.DataBounded - needed
		lw := Level{
			Row: r, Candidates: cand, Loads: c.DataBounded, Checks: lens.Checks,
			FPR: assumed, FalsePositivesAssumed: float64(cand) * assumed, AssumedLen: rl,
			FilterBytes:         filterBytes(sh.Keys, w.BitsPerKey) + sh.Tables*rangeHeaderBytes,
			MeasuredFilterBytes: sh.RangeFilterBytes,
		}
		lw.MeasuredBitsPerKey, _ = sh.measuredBitsPerKey()
		lw.LenP50, _ = lenQuantile(lens, 0.5)
		lw.LenP90, _ = lenQuantile(lens, 0.9)
		if n := sampled(lens); n > 0 {
			lw.HashedShare = float64(hashed(lens)) / float64(n)
		}
		if sampled(lens) == 0 {
			lw.Checks = 0
			lw.FalsePositives = lw.FalsePositivesAssumed
		} else {
			o := observedPasses(lens, cfg, c.DataBounded, needed, cand, min(c.FilteredRange, lens.Checks))
			lw.MustPass, lw.FalsePositives, lw.FPR = o.mustPass, o.fp, o.fpr
			lw.FalsePositivesBound, lw.FromWritten = o.fpBound, o.fromWritten
		}
		lw.Avoided = float64(cand) - lw.MustPass - lw.FalsePositives
		if r == seekstats.RowUnattributed {
			lw.Unplaced = c.NeededBounded - needed
			// An unplaced needed load is one some level counted as a
			// candidate. Where that level's checks were observed, the load
			// is also among its MustPass (its table held the key), so the
			// two cancel; elsewhere it is taken off, in the share of the
			// candidates the unobserved levels hold.
			lw.Avoided -= float64(lw.Unplaced) * (1 - assumed) * unobservedShare(out)
		}
		out = append(out, lw)
	}
	return out
}

// unobservedShare is the share of the candidates of ws held by rows whose
// range-filter checks were not observed (1 when ws have no candidates).
func unobservedShare(ws []Level) float64 {
	var all, unobserved uint64
	for _, w := range ws {
		all += w.Candidates
		if w.Checks == 0 {
			unobserved += w.Candidates
		}
	}
	if all == 0 {
		return 1
	}
	return float64(unobserved) / float64(all)
}

// observed is what observedPasses derives from a row's observed checks.
type observed struct {
	mustPass, fp, fpr, fpBound float64
	fromWritten                bool
}

// observedPasses turns a row's observed checks into loads. Checks and
// loads are not one to one (a check may end without a load, a long-lived
// iterator checks a table once for several seeks, and where range filters
// are on, the filtered checks loaded nothing), so the sampled checks'
// shares are applied to the checks that went on to the table (all but the
// filtered) and those to the loads: the checks on tables that hold a key
// (exact filters' "yes", hashed filters' "yes" less their expected false
// positives), less the needed loads (each on a table that holds a key), are
// the candidates that must pass; the hashed checks' expected false
// positives, per check, give the false positives among the rest. Those are the filters' own
// expectation where they were written with the budget asked about, and the
// bound FPRBound otherwise.
func observedPasses(l *seekstats.RangeLens, cfg rangefilter.Config, loads, needed, cand, filtered uint64) observed {
	var o observed
	sampled := float64(sampled(l))
	if sampled == 0 {
		return o
	}
	perLoad := float64(loads) / max(1, float64(l.Checks)-float64(filtered))
	// Hashed filters' "may intersect" answers mix tables that hold a key
	// with false positives; less their expected number, they are the rest
	// of the tables that hold one.
	holdChecks := float64(l.ExactHolds) + max(0, float64(l.HashedHolds)-l.HashedFPRSum)
	holds := holdChecks/sampled*float64(l.Checks)*perLoad - float64(needed)
	o.mustPass = min(max(0, holds), float64(cand))
	toLoads := func(perSample float64) float64 {
		return min(float64(cand)-o.mustPass, perSample*float64(l.Checks)*perLoad)
	}
	o.fpr = expectedFalsePositives(l, cfg) / sampled
	o.fpBound = toLoads(o.fpr)
	o.fp = o.fpBound
	if wb, ok := writtenBitsPerKey(l); ok && math.Abs(wb-cfg.BitsPerKey) < 0.05 {
		o.fromWritten = true
		o.fpr = l.HashedFPRSum / sampled
		o.fp = toLoads(o.fpr)
	}
	return o
}

// PrefixFilters estimates, per LSM level that loaded data blocks with
// no prefix filter deciding a seek there (L6 with UseL6Filters off is the
// common case), what prefix (Bloom) filters of w.BitsPerKey bits per key
// would save: the level's loads that were not needed, less the Bloom
// filter's expected false positives; and what the filters would cost.
// It assumes the level's seeks were SeekPrefixGE (only those consult a
// prefix filter) and that no load that was not needed found the prefix in
// the table.
func PrefixFilters(sn *seekstats.Snapshot, w Options) []Level {
	fpr := bloomFPR(w.BitsPerKey)
	var out []Level
	for r := seekstats.RowL0; r <= seekstats.RowL6; r++ {
		c, sh := sn.Rows[r], w.Shape[r]
		prefixDecided := c.Filtered - min(c.FilteredRange, c.Filtered) + c.FilterMatch
		if c.Data == 0 || prefixDecided > 0 {
			continue
		}
		needed := min(c.Needed, c.Data)
		cand := c.Data - needed
		fp := float64(cand) * fpr
		out = append(out, Level{
			Row: r, Candidates: cand, FPR: fpr, FalsePositives: fp,
			Avoided: float64(cand) - fp, Loads: c.Data,
			FilterBytes: filterBytes(sh.Keys, w.BitsPerKey),
		})
	}
	return out
}

// Total sums a what-if's rows into one, whose Row is seekstats.NumRows; its
// Reduction is the predicted reduction of the data loads the filter judges,
// over all levels.
func Total(ws []Level) Level {
	t := Level{Row: seekstats.NumRows}
	var measuredKeys, hashedChecks float64
	for _, w := range ws {
		t.Candidates += w.Candidates
		t.Checks += w.Checks
		t.MustPass += w.MustPass
		t.FalsePositives += w.FalsePositives
		t.FalsePositivesAssumed += w.FalsePositivesAssumed
		t.FalsePositivesBound += w.FalsePositivesBound
		t.FromWritten = t.FromWritten || w.FromWritten
		t.Avoided += w.Avoided
		t.Loads += w.Loads
		t.FilterBytes += w.FilterBytes
		t.MeasuredFilterBytes += w.MeasuredFilterBytes
		if w.MeasuredBitsPerKey > 0 {
			measuredKeys += float64(8*w.MeasuredFilterBytes) / w.MeasuredBitsPerKey
		}
		t.Unplaced += w.Unplaced
		t.FPR, t.AssumedLen = w.FPR, w.AssumedLen
		t.LenP50, t.LenP90 = max(t.LenP50, w.LenP50), max(t.LenP90, w.LenP90)
		hashedChecks += w.HashedShare * float64(w.Checks)
	}
	if t.Checks > 0 {
		t.HashedShare = hashedChecks / float64(t.Checks)
	}
	if measuredKeys > 0 {
		t.MeasuredBitsPerKey = float64(8*t.MeasuredFilterBytes) / measuredKeys
	}
	// The total's rate is its false positives per candidate left to judge.
	if t.Checks > 0 {
		t.FPR = 0
		if rest := float64(t.Candidates) - t.MustPass; rest > 0 {
			t.FPR = t.FalsePositives / rest
		}
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

// Table prints one "what-if" line per row of ws under a title, then their
// total.
func Table(title string, ws []Level) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "what-if %s %s\n", title, w)
	}
	if len(ws) > 0 {
		fmt.Fprintf(&b, "what-if %s %s\n", title, Total(ws))
	}
	return b.String()
}

// percent formats a share, or "-" without one.
func percent(f float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}

// expectedFalsePositives is the sum over l's sampled hashed checks of
// cfg.FPRBound(ℓ): the false positives that filters of cfg's budget would
// be expected to give on them, if none of those tables held a key in the
// bounds (those that do pass anyway, so this is an upper bound). Checks of
// exactly stored tables, and those outside the map, give none.
func expectedFalsePositives(l *seekstats.RangeLens, cfg rangefilter.Config) float64 {
	perPosition := cfg.FPRBound(1)
	var fp float64
	for b := range l.HashedLens {
		// FPRBound is linear in ℓ up to its cap of 1 per check; a bucket's
		// checks are summed as one, which is exact unless the cap falls
		// inside the bucket.
		fp += min(float64(l.HashedLens[b]), float64(l.HashedLenSum[b])*perPosition)
	}
	return fp
}

// sampled returns the checks whose coverage was taken: the denominator of
// the other counts' shares.
func sampled(l *seekstats.RangeLens) uint64 {
	n := l.Outside
	for _, c := range l.Lens {
		n += c
	}
	return n
}

// hashed returns the checks of tables whose filter hashes.
func hashed(l *seekstats.RangeLens) uint64 {
	var n uint64
	for _, c := range l.HashedLens {
		n += c
	}
	return n
}

// writtenBitsPerKey is the mean budget the hashed checks' filters were
// written with; ok is false without hashed checks.
func writtenBitsPerKey(l *seekstats.RangeLens) (float64, bool) {
	n := hashed(l)
	if n == 0 {
		return 0, false
	}
	return l.HashedBitsSum / float64(n), true
}

// lenQuantile returns an upper bound of the q-quantile (0 < q <= 1) of ℓ over
// the checks with ℓ > 0: 2^b - 1 for the bucket b it falls in; ok is false
// without such checks.
func lenQuantile(l *seekstats.RangeLens, q float64) (uint64, bool) {
	var n uint64
	for _, c := range l.Lens {
		n += c
	}
	if n == 0 {
		return 0, false
	}
	want := uint64(math.Ceil(q * float64(n)))
	var seen uint64
	for b, c := range l.Lens {
		seen += c
		if seen >= max(want, 1) {
			if b == seekstats.LenBuckets-1 {
				break
			}
			return 1<<b - 1, true
		}
	}
	return math.MaxUint64, true
}
