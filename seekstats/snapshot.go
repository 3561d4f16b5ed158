// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"fmt"
	"strings"
)

// LevelCounts are the five seek tickers of one row or group of rows.
type LevelCounts struct {
	Filtered          uint64
	FilterMatch       uint64
	Data              uint64
	UsefulNoFilter    uint64
	UsefulFilterMatch uint64
}

func (c *LevelCounts) get(k SeekKind) *uint64 {
	switch k {
	case SeekFiltered:
		return &c.Filtered
	case SeekFilterMatch:
		return &c.FilterMatch
	case SeekData:
		return &c.Data
	case SeekDataUsefulNoFilter:
		return &c.UsefulNoFilter
	default:
		return &c.UsefulFilterMatch
	}
}

func (c LevelCounts) add(o LevelCounts) LevelCounts {
	for k := SeekKind(0); k < numSeekKinds; k++ {
		*c.get(k) += *o.get(k)
	}
	return c
}

// Snapshot is a copy of the statistics at one moment. Each counter is read
// atomically, but not all of them at one instant: under concurrent reads a
// derived figure can be off by the reads in flight.
type Snapshot struct {
	Rows    [NumRows]LevelCounts
	tickers [numTickers]uint64
}

// Snapshot returns the current counts; zero for a nil *Statistics.
func (s *Statistics) Snapshot() Snapshot {
	var sn Snapshot
	if s == nil {
		return sn
	}
	for r := Row(0); r < NumRows; r++ {
		for k := SeekKind(0); k < numSeekKinds; k++ {
			*sn.Rows[r].get(k) = s.c.load(rowIndex(r, k))
		}
	}
	for t := Ticker(0); t < numTickers; t++ {
		if t == InnerFilterCorrupt {
			sn.tickers[t] = s.innerCorruptTotal() - s.innerCorruptBase.Load()
			continue
		}
		sn.tickers[t] = s.c.load(tickerIndex(t))
	}
	return sn
}

// String returns the tickers in db_bench's STATISTICS format.
func (s *Statistics) String() string {
	sn := s.Snapshot()
	return sn.String()
}

// Ticker returns one non-level ticker.
func (sn *Snapshot) Ticker(t Ticker) uint64 { return sn.tickers[t] }

// Last returns RocksDB's LAST_LEVEL group: L6.
func (sn *Snapshot) Last() LevelCounts { return sn.Rows[RowL6] }

// NonLast returns RocksDB's NON_LAST_LEVEL group: L0 to L5 and the
// unattributed row (RocksDB counts a table of unknown level as non-last).
// The memtables row is in neither group: RocksDB never counts memtables.
func (sn *Snapshot) NonLast() LevelCounts {
	var c LevelCounts
	for r := RowL0; r < NumRows; r++ {
		if !r.isLast() {
			c = c.add(sn.Rows[r])
		}
	}
	return c
}

// NamedCount is one ticker with its name.
type NamedCount struct {
	Name  string
	Count uint64
}

// Tickers returns every ticker by name, in the order String prints them:
// RocksDB's point-lookup and seek tickers first, then pebblerf's per-row
// seek tickers, then pebblerf's extras.
func (sn *Snapshot) Tickers() []NamedCount {
	out := make([]NamedCount, 0, numCounters+2*int(numSeekKinds))
	for t := BloomFilterUseful; t <= NumberDBSeekFound; t++ {
		out = append(out, NamedCount{tickerNames[t], sn.tickers[t]})
	}
	for _, last := range []bool{true, false} {
		group := sn.NonLast()
		if last {
			group = sn.Last()
		}
		for k := SeekKind(0); k < numSeekKinds; k++ {
			out = append(out, NamedCount{groupTickerName(last, k), *group.get(k)})
		}
	}
	for r := Row(0); r < NumRows; r++ {
		for k := SeekKind(0); k < numSeekKinds; k++ {
			out = append(out, NamedCount{rowTickerName(r, k), *sn.Rows[r].get(k)})
		}
	}
	for t := TruePositiveUncertain; t < numTickers; t++ {
		out = append(out, NamedCount{tickerNames[t], sn.tickers[t]})
	}
	return out
}

// Get returns the named ticker, as Statistics.Get does.
func (sn *Snapshot) Get(name string) uint64 {
	for _, t := range sn.Tickers() {
		if t.Name == name {
			return t.Count
		}
	}
	return 0
}

// String prints every ticker as db_bench's Statistics::ToString does, one
// "<name> COUNT : <n>" line each.
func (sn Snapshot) String() string {
	var b strings.Builder
	for _, t := range sn.Tickers() {
		fmt.Fprintf(&b, "%s COUNT : %d\n", t.Name, t.Count)
	}
	return b.String()
}

// LevelTable prints one line per row with the seek tickers and the derived
// figures ("-" where a figure has no denominator), plus the two groups.
func (sn Snapshot) LevelTable() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %10s %10s %10s %10s %10s %8s %8s\n",
		"level", "filtered", "match", "data", "useful.nf", "useful.fm", "seekFPR", "rangeOpp")
	line := func(name string, c LevelCounts) {
		fmt.Fprintf(&b, "%-12s %10d %10d %10d %10d %10d %8s %8s\n", name,
			c.Filtered, c.FilterMatch, c.Data, c.UsefulNoFilter, c.UsefulFilterMatch,
			percent(c.SeekFalsePositiveRate()), percent(c.RangeFilterOpportunity()))
	}
	for r := Row(0); r < NumRows; r++ {
		line(r.String(), sn.Rows[r])
	}
	line("non.last", sn.NonLast())
	line("last", sn.Last())
	return b.String()
}

func percent(f float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}
