// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"fmt"
	"strings"

	"github.com/pebblerf/pebble/internal/attribution"
)

// LevelCounts are the per-row counters of one row or group of rows: RocksDB's
// five seek tickers, the share of FILTERED that range filters ruled out, the
// seeks of bounded iterators (the only ones a range filter can save), and the
// point lookups' filter checks.
type LevelCounts struct {
	// Filtered counts the tables a filter ruled a seek out of, whatever the
	// filter's kind, as RocksDB's FILTERED does; FilteredRange is the part
	// range filters ruled out, and Filtered-FilteredRange the prefix
	// filters' part.
	Filtered          uint64
	FilterMatch       uint64
	Data              uint64
	UsefulNoFilter    uint64
	UsefulFilterMatch uint64
	FilteredRange     uint64
	// DataBounded and UsefulBounded are Data and UsefulNoFilter plus
	// UsefulFilterMatch, for iterators with a lower or upper bound.
	DataBounded   uint64
	UsefulBounded uint64
	// Needed counts the DATA seeks that found a key in the table (the
	// table a seek ended at, or a value read after it came from; see the
	// package documentation): the loads no filter could have skipped.
	// Unlike the USEFUL kinds it does not wait for a Value call, so it
	// counts key-only reads too. NeededFilterMatch and NeededBounded are
	// its parts after a passed prefix filter and for bounded iterators.
	Needed            uint64
	NeededFilterMatch uint64
	NeededBounded     uint64
	// GetUseful, GetPositive and GetTruePositive are the point lookups'
	// filter checks of the row's tables (whole-key and prefix filters
	// alike): the filter ruled the Get out, did not, and did not because
	// the table held the key. Pebble's Get never checks L6 filters.
	GetUseful       uint64
	GetPositive     uint64
	GetTruePositive uint64
}

func (c *LevelCounts) get(k attribution.Kind) *uint64 {
	switch k {
	case attribution.Filtered:
		return &c.Filtered
	case attribution.FilterMatch:
		return &c.FilterMatch
	case attribution.Data:
		return &c.Data
	case attribution.DataUsefulNoFilter:
		return &c.UsefulNoFilter
	case attribution.DataUsefulFilterMatch:
		return &c.UsefulFilterMatch
	case attribution.FilteredRange:
		return &c.FilteredRange
	case attribution.DataBounded:
		return &c.DataBounded
	case attribution.UsefulBounded:
		return &c.UsefulBounded
	case attribution.DataNeeded:
		return &c.Needed
	case attribution.DataNeededFilterMatch:
		return &c.NeededFilterMatch
	case attribution.DataNeededBounded:
		return &c.NeededBounded
	case attribution.GetUseful:
		return &c.GetUseful
	case attribution.GetPositive:
		return &c.GetPositive
	default:
		return &c.GetTruePositive
	}
}

// Add returns c with every counter of o added, as the group rows (last,
// non-last) sum their levels.
func (c LevelCounts) Add(o LevelCounts) LevelCounts {
	for k := attribution.Kind(0); k < attribution.NumKinds; k++ {
		*c.get(k) += *o.get(k)
	}
	return c
}

// Snapshot is a copy of the statistics at one moment. Each counter is read
// atomically, but not all of them at one instant: under concurrent reads a
// derived figure can be off by the reads in flight.
type Snapshot struct {
	Rows [NumRows]LevelCounts
	// RangeLens are the rows' range lengths as the tables' range filters
	// would see them, for the range-filter what-if (package whatif).
	RangeLens [NumRows]RangeLens
	tickers   [attribution.NumTickers]uint64
}

// Last returns RocksDB's LAST_LEVEL group: L6.
func (sn *Snapshot) Last() LevelCounts { return sn.Rows[RowL6] }

// NonLast returns RocksDB's NON_LAST_LEVEL group: L0 to L5 and the
// unattributed row (RocksDB counts a table of unknown level as non-last).
// The memtables row is in neither group: RocksDB never counts memtables.
func (sn *Snapshot) NonLast() LevelCounts {
	var c LevelCounts
	for r := RowL0; r < NumRows; r++ {
		if !r.isLast() {
			c = c.Add(sn.Rows[r])
		}
	}
	return c
}

// Tickers returns every ticker by name, in the order String prints them:
// RocksDB's point-lookup and seek tickers first, then pebblerf's per-row
// seek tickers, then pebblerf's extras.
func (sn *Snapshot) Tickers() []Ticker {
	out := make([]Ticker, 0, attribution.NumCounters+2*int(attribution.NumKinds))
	add := func(name string, n uint64) { out = append(out, Ticker{Name: name, Count: int64(n)}) }
	for t := attribution.BloomFilterUseful; t <= attribution.NumberDBSeekFound; t++ {
		add(attribution.TickerNames[t], sn.tickers[t])
	}
	for _, last := range []bool{true, false} {
		group := sn.NonLast()
		if last {
			group = sn.Last()
		}
		for k := attribution.Kind(0); k < attribution.NumKinds; k++ {
			add(attribution.GroupTickerName(last, k), *group.get(k))
		}
	}
	for r := Row(0); r < NumRows; r++ {
		for k := attribution.Kind(0); k < attribution.NumKinds; k++ {
			add(attribution.RowTickerName(int(r), k), *sn.Rows[r].get(k))
		}
	}
	for t := attribution.TruePositiveUncertain; t < attribution.NumTickers; t++ {
		add(attribution.TickerNames[t], sn.tickers[t])
	}
	return out
}

// Get returns the named ticker, as Statistics.Get does.
func (sn *Snapshot) Get(name string) uint64 {
	for _, t := range sn.Tickers() {
		if t.Name == name {
			return uint64(t.Count)
		}
	}
	return 0
}

// sinceOpen is the heading's note on the counters' span: they live in
// memory, so they start from zero when the DB is opened.
const sinceOpen = "since open or the last Reset"

// String prints the tickers that are not zero, one "<name> COUNT : <n>"
// line each as db_bench's Statistics::ToString does, under a heading that
// says they count since the DB was opened, then the per-level table.
func (sn Snapshot) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seek and filter statistics (%s), non-zero tickers:\n", sinceOpen)
	zero := WriteTickers(&b, sn.Tickers(), false)
	fmt.Fprintf(&b, "(%d tickers are zero; Tickers lists them all)\n", zero)
	fmt.Fprintf(&b, "per level (%s):\n", sinceOpen)
	b.WriteString(sn.LevelTable())
	return b.String()
}

// dump prints every ticker, zeros included, one "<name> COUNT : <n>" line
// each, as db_bench's Statistics::ToString does.
func (sn Snapshot) dump() string {
	var b strings.Builder
	WriteTickers(&b, sn.Tickers(), true)
	return b.String()
}

// LevelTable prints one line per row that counted anything, then the two
// groups, then what the derived columns mean. Columns:
//
//	filtered   tables a filter ruled a seek out of (FILTERED), and of
//	  range      these, those a range filter ruled out
//	match      seeks that passed a prefix filter (FILTER_MATCH)
//	data       seeks that loaded a data block (DATA), and of
//	  bounded    these, those of iterators with bounds
//	useful     DATA seeks whose value the caller read (both USEFUL kinds)
//	needed     DATA seeks that found a key in the table, value read or not
//	seekFPR    SeekFalsePositiveRate, or why it is absent
//	rangeOpp   RangeFilterOpportunity (bounded seeks only)
//	get.*      Gets' filter checks: ruled out, passed, passed and found,
//	           and GetFalsePositiveRate
//
// "-" marks a figure without a denominator.
func (sn Snapshot) LevelTable() string {
	var b strings.Builder
	const head = "%-12s %9s %9s %9s %9s %9s %9s %9s %8s %8s %9s %9s %9s %8s\n"
	const row = "%-12s %9d %9d %9d %9d %9d %9d %9d %8s %8s %9d %9d %9d %8s\n"
	fmt.Fprintf(&b, head, "level", "filtered", "range", "match", "data", "bounded", "useful", "needed",
		"seekFPR", "rangeOpp", "get.usef", "get.pos", "get.tp", "getFPR")
	noLoads := false
	line := func(name string, c LevelCounts) {
		fpr := percent(c.SeekFalsePositiveRate())
		if why := c.SeekFalsePositiveAbsence(); why == noLoadCounted {
			fpr, noLoads = "no-load", true
		}
		fmt.Fprintf(&b, row, name,
			c.Filtered, c.FilteredRange, c.FilterMatch, c.Data, c.DataBounded,
			c.UsefulNoFilter+c.UsefulFilterMatch, c.Needed, fpr, percent(c.RangeFilterOpportunity()),
			c.GetUseful, c.GetPositive, c.GetTruePositive, percent(c.GetFalsePositiveRate()))
	}
	for r := Row(0); r < NumRows; r++ {
		if sn.Rows[r] != (LevelCounts{}) {
			line(r.String(), sn.Rows[r])
		}
	}
	line("non.last", sn.NonLast())
	line("last", sn.Last())
	b.WriteString("useful: a value was read (RocksDB's USEFUL); needed: the seek found a key in the table, " +
		"which no filter could skip; seekFPR and rangeOpp count the matches and bounded loads not needed\n")
	if noLoads {
		b.WriteString("no-load: no data-block load was counted at the level (FiltersOnly counts none), " +
			"so seekFPR is not defined\n")
	}
	return b.String()
}

func percent(f float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}
