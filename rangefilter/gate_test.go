// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/rangegate"
	"github.com/stretchr/testify/require"
)

// TestGateCountsFilterAnswers checks that a bounds filter counts the
// table-level answers it gives from a filter (and nothing else), that a
// filter slot reused for new bounds starts counting afresh, and that the
// gate closes on filters that rule nothing out and reopens on filters that
// do.
func TestGateCountsFilterAnswers(t *testing.T) {
	p, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	// A table of keys k0000, k0002, ..., k1998: odd keys are absent.
	c := p.Collector()()
	for i := 0; i < 2000; i += 2 {
		k := []byte(fmt.Sprintf("k%04d", i))
		require.NoError(t, c.AddPointKey(pebble.MakeInternalKey(k, 1, pebble.InternalKeyKindSet), nil))
	}
	prop, err := c.FinishTable(nil)
	require.NoError(t, err)

	var slot boundsFilterSlot
	ask := func(lower, upper string) []pebble.BlockPropertyFilter {
		o := pebble.IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)}
		p.attachOwned(&o, &slot)
		for range 3 {
			_, err := o.PointKeyFilters[0].Intersects(prop)
			require.NoError(t, err)
		}
		// Block-level calls and tables without a filter are not counted.
		_, err := o.PointKeyFilters[0].Intersects(nil)
		require.NoError(t, err)
		return append(o.PointKeyFilters, rangeOtherFilter{})
	}
	var g rangegate.Gate
	reports := 0
	for !g.Closed([]byte("k")) {
		i := 2 * (reports % 900)
		f := ask(fmt.Sprintf("k%04d", i), fmt.Sprintf("k%04d", i+1))
		require.Equal(t, uint64(3), slot.f.tally.Load(), "three checks, none ruled out")
		g.Report(f)
		reports++
		require.LessOrEqual(t, reports, rangegate.Window/3+1, "the gate must close after a window of checks")
	}
	require.Equal(t, (rangegate.Window+2)/3, reports)

	reports = 0
	for g.Closed([]byte("k")) {
		i := 2*(reports%900) + 1
		f := ask(fmt.Sprintf("k%04d", i), fmt.Sprintf("k%04d", i+1))
		require.Equal(t, uint64(3|3<<32), slot.f.tally.Load(), "three checks, all ruled out")
		g.Report(f)
		reports++
		require.LessOrEqual(t, reports, rangegate.Window/rangegate.SampleEvery/3+1, "the gate must reopen after a closed window of checks")
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
	c := p.Collector()()
	for _, k := range []string{"a1", "a3", "a5", "z1"} {
		require.NoError(t, c.AddPointKey(pebble.MakeInternalKey([]byte(k), 1, pebble.InternalKeyKindSet), nil))
	}
	prop, err := c.FinishTable(nil)
	require.NoError(t, err)
	check := func(lower, upper []byte) []pebble.BlockPropertyFilter {
		f := p.BoundsFilter(lower, upper)
		_, err := f.Intersects(prop)
		require.NoError(t, err)
		return []pebble.BlockPropertyFilter{f}
	}
	var g rangegate.Gate
	for range rangegate.Window {
		g.Report(check([]byte("a1"), []byte("a2")))
	}
	require.True(t, g.Closed([]byte("a")), "spans holding keys close their region's gate")
	require.False(t, g.Closed([]byte("y")), "and no other region's")
	require.True(t, g.Admit([]byte("y"), []byte("y9")))
	admitted := 0
	for range rangegate.SampleEvery {
		if g.Admit([]byte("a4"), []byte("a5")) {
			admitted++
		}
	}
	require.Equal(t, 1, admitted, "a closed region admits its samples only")
	admitted = 0
	for range rangegate.SampleEvery {
		if g.Admit(nil, []byte("a9")) {
			admitted++
		}
	}
	require.Equal(t, 1, admitted, "without a lower bound the upper bound's region decides")

	for range rangegate.Window {
		g.Report(check([]byte("y1"), []byte("y2")))
	}
	require.False(t, g.Closed([]byte("y")), "empty spans keep their region's gate open")
	require.True(t, g.Closed([]byte("a")))
}
