// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"fmt"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/handoff"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/stretchr/testify/require"
)

// TestVerdictWindow checks a window's rule: no verdict before it is full
// (Window checks, Window/SampleEvery once judged useless); a full window
// with fewer than one check in MinRuledOut ruling its table out is useless,
// one at that rate is not.
func TestVerdictWindow(t *testing.T) {
	var w verdictWindow
	w.add(Window-1, 0, false)
	require.False(t, w.judged.Load(), "no verdict before the window is full")
	w.add(1, 0, false)
	require.True(t, w.judged.Load())
	require.True(t, w.useless.Load(), "a window with nothing ruled out is useless")

	w.add(Window/SampleEvery, Window/SampleEvery/MinRuledOut, false)
	require.False(t, w.useless.Load(), "at the threshold it is not")
	w.add(Window, Window/MinRuledOut-1, false)
	require.True(t, w.useless.Load(), "just below the threshold it is")
	w.add(3*Window/SampleEvery, 0, false)
	require.True(t, w.useless.Load(), "a report larger than the window is judged whole")
	w.add(0, 0, false)
	require.True(t, w.useless.Load(), "an empty report changes nothing")
	w.add(Window/SampleEvery-1, 0, false)
	w.add(1, 1, false)
	require.False(t, w.useless.Load(), "judged useless, the window is SampleEvery times shorter")
	w.add(Window/SampleEvery, 0, false)
	require.False(t, w.useless.Load(), "judged useful, the window is Window checks again")
}

// tableProp writes a table of keys through p's collector, as a table of
// level written with file number num, and returns its property.
func writeTable(t *testing.T, p *Policy, level int, num uint64, keys ...string) []byte {
	t.Helper()
	p.handoff.Put(handoff.Table{Num: num, Level: level})
	c := p.Collector()()
	for _, k := range keys {
		require.NoError(t, c.AddPointKey(pebble.MakeInternalKey([]byte(k), 1, pebble.InternalKeyKindSet), nil))
	}
	prop, err := c.FinishTable(nil)
	require.NoError(t, err)
	return prop
}

func evenKeys(prefix string, n int) []string {
	var keys []string
	for i := 0; i < n; i += 2 {
		keys = append(keys, fmt.Sprintf("%s%04d", prefix, i))
	}
	return keys
}

// TestGateCountsFilterAnswers checks that a bounds filter counts the
// table-level answers it gives from a filter (and nothing else), per level
// that wrote the table, that a filter slot reused for new bounds starts
// counting afresh, and that the gate closes on filters that rule nothing out
// and reopens on filters that do.
func TestGateCountsFilterAnswers(t *testing.T) {
	p, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	// A table of L3 of keys k0000, k0002, ..., k1998: odd keys are absent.
	prop := writeTable(t, p, 3, 7, evenKeys("k", 2000)...)

	var slot boundsFilterSlot
	ask := func(lower, upper string) []pebble.BlockPropertyFilter {
		o := pebble.IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)}
		p.attachOwned(&o, &slot)
		for range 3 {
			_, err := o.PointKeyFilters[0].Intersects(prop)
			require.NoError(t, err)
		}
		// Block-level calls are not counted.
		_, err := o.PointKeyFilters[0].Intersects(nil)
		require.NoError(t, err)
		return append(o.PointKeyFilters, rangeOtherFilter{})
	}
	closed := func() bool { return p.usage.regions['k'].gate.useless.Load() }
	reports := 0
	for !closed() {
		i := 2 * (reports % 900)
		f := ask(fmt.Sprintf("k%04d", i), fmt.Sprintf("k%04d", i+1))
		require.Equal(t, uint64(3), slot.f.tally[3].Load(), "three checks of L3's table, none ruled out")
		p.Report(f)
		reports++
		require.LessOrEqual(t, reports, Window/3+1, "the gate must close after a window of checks")
	}
	require.Equal(t, (Window+2)/3, reports)
	require.True(t, p.usage.useless(3, 'k'), "L3 of the region is judged with the gate")
	require.False(t, p.usage.judged(4, 'k'), "and no other level")

	reports = 0
	for closed() {
		i := 2*(reports%900) + 1
		f := ask(fmt.Sprintf("k%04d", i), fmt.Sprintf("k%04d", i+1))
		require.Equal(t, uint64(3|3<<32), slot.f.tally[3].Load(), "three checks, all ruled out")
		p.Report(f)
		reports++
		require.LessOrEqual(t, reports, Window/SampleEvery/3+1, "the gate must reopen after a closed window of checks")
	}
}

// TestGateRegions checks that the gate judges key regions apart: spans that
// rule nothing out close the gate of their region only, so that empty spans
// of another region (a lock table beside the data, say) keep their filters,
// and a span's region is its lower bound's first byte, its upper bound's
// without a lower one.
func TestGateRegions(t *testing.T) {
	p, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	prop := writeTable(t, p, 6, 9, "a1", "a3", "a5", "z1")
	check := func(lower, upper []byte) []pebble.BlockPropertyFilter {
		f := p.BoundsFilter(lower, upper)
		_, err := f.Intersects(prop)
		require.NoError(t, err)
		return []pebble.BlockPropertyFilter{f}
	}
	closed := func(r byte) bool { return p.usage.regions[r].gate.useless.Load() }
	for range Window {
		p.Report(check([]byte("a1"), []byte("a2")))
	}
	require.True(t, closed('a'), "spans holding keys close their region's gate")
	require.False(t, closed('y'), "and no other region's")
	require.True(t, p.Admit([]byte("y"), []byte("y9")))
	require.False(t, p.Admit(nil, nil), "an unbounded iterator has nothing to filter")
	admitted := 0
	for range SampleEvery {
		if p.Admit([]byte("a4"), []byte("a5")) {
			admitted++
		}
	}
	require.Equal(t, 1, admitted, "a closed region admits its samples only")
	admitted = 0
	for range SampleEvery {
		if p.Admit(nil, []byte("a9")) {
			admitted++
		}
	}
	require.Equal(t, 1, admitted, "without a lower bound the upper bound's region decides")

	for range Window {
		p.Report(check([]byte("y1"), []byte("y2")))
	}
	require.False(t, closed('y'), "empty spans keep their region's gate open")
	require.True(t, closed('a'))

	other, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	for range Window {
		other.Report(check([]byte("y1"), []byte("y2")))
	}
	require.False(t, other.usage.levels[6]['y'].judged.Load(), "a policy ignores another's filters")
}

// hasFilter reports whether a table's property holds a filter, and its
// written record.
func hasFilter(t *testing.T, prop []byte) (bool, tableProp) {
	t.Helper()
	tp, ok := parseTableProp(prop)
	require.True(t, ok)
	return tp.hasFilter, tp
}

// TestOnDemand checks which tables an OnDemand plan gives a filter: only
// those of a key region a bounded read came to within DemandHorizon, not
// those of a level judged useless there but for one in SampleEvery; every
// table records the level and number it was written with.
func TestOnDemand(t *testing.T) {
	p, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	require.NoError(t, p.SetPlan(OnDemand(0)))
	require.Equal(t, "L0-L6 16 on demand", p.Plan().String())
	now := time.Unix(1000, 0)
	p.usage.now = func() time.Time { return now }

	built, tp := hasFilter(t, writeTable(t, p, 6, 11, evenKeys("k", 100)...))
	require.False(t, built, "no bounded read yet: no filter")
	require.Equal(t, 6, tp.level)
	require.EqualValues(t, 11, tp.num)

	p.BoundsFilter([]byte("k0001"), []byte("k0002"))
	built, _ = hasFilter(t, writeTable(t, p, 6, 12, evenKeys("k", 100)...))
	require.True(t, built, "a bounded read came to the region")
	built, _ = hasFilter(t, writeTable(t, p, 6, 13, evenKeys("m", 100)...))
	require.False(t, built, "and to no other region")
	built, _ = hasFilter(t, writeTable(t, p, -1, 0, evenKeys("k", 100)...))
	require.True(t, built, "a table of unknown level follows its region")

	now = now.Add(DemandHorizon - time.Second)
	built, _ = hasFilter(t, writeTable(t, p, 6, 14, evenKeys("k", 100)...))
	require.True(t, built, "within the horizon")
	now = now.Add(2 * time.Second)
	built, _ = hasFilter(t, writeTable(t, p, 6, 15, evenKeys("k", 100)...))
	require.False(t, built, "past the horizon")

	// Judged useless at L6 of the region, one new table in SampleEvery
	// there keeps a filter; L5 is not judged and gets one every time.
	p.Admit([]byte("k"), []byte("l"))
	p.usage.levels[6]['k'].add(Window, 0, true)
	require.True(t, p.usage.useless(6, 'k'))
	filtered := 0
	for i := range 4 * SampleEvery {
		if built, _ := hasFilter(t, writeTable(t, p, 6, uint64(100+i), "k1", "k2")); built {
			filtered++
		}
	}
	require.Equal(t, 4, filtered)
	built, _ = hasFilter(t, writeTable(t, p, 5, 200, "k1", "k2"))
	require.True(t, built)

	// A plan without OnDemand builds where its levels say, read or not.
	require.NoError(t, p.SetPlan(AllLevels(0)))
	built, _ = hasFilter(t, writeTable(t, p, 6, 201, "q1", "q2"))
	require.True(t, built)
}

// TestUnfilteredTablesNoted checks that a bounded read that meets a table
// without a filter notes its number for the backfill, and wakes it.
func TestUnfilteredTablesNoted(t *testing.T) {
	p, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	require.NoError(t, p.SetPlan(OnDemand(0)))
	bare := writeTable(t, p, 6, 42, "a1", "a2")
	f := p.BoundsFilter([]byte("a"), []byte("b"))
	ok, err := f.Intersects(bare)
	require.NoError(t, err)
	require.True(t, ok, "a table without a filter may intersect")
	select {
	case <-p.usage.noted:
	default:
		t.Fatal("the backfill was not woken")
	}
	require.Equal(t, []uint64{42}, p.usage.takeUnfiltered(nil))
	require.Empty(t, p.usage.takeUnfiltered(nil), "taken once")

	// A table of unknown number (an ingested one) is not noted.
	unknown := writeTable(t, p, -1, 0, "a1", "a2")
	_, err = f.Intersects(unknown)
	require.NoError(t, err)
	require.Empty(t, p.usage.takeUnfiltered(nil))
}

// TestWrittenRecordCorrupt checks that a table whose written record does
// not decode reads as "may intersect" and is counted, like a bad filter.
func TestWrittenRecordCorrupt(t *testing.T) {
	p, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	f := p.BoundsFilter([]byte("a"), []byte("b"))
	for _, bad := range []string{"", "\x09\x01", "\x01", "\x01\x80", "\x01\x01\x00"} {
		prop := tableprops.Append(nil, map[string]string{writtenProp: bad})
		ok, err := f.Intersects(prop)
		require.NoError(t, err)
		require.True(t, ok, "%q", bad)
	}
	require.EqualValues(t, 5, p.Counts().Corrupt)
}
