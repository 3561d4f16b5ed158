// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// runWhatIf prints, for each row the what-if covers, the inputs it read
// (the shape from DB.SSTables and the counts) and then its line, so that a
// script can check the arithmetic by hand.
func runWhatIf(t *testing.T, d *testDB, td *datadriven.TestData) string {
	require.NotEmpty(t, td.CmdArgs)
	kind := td.CmdArgs[0].Key
	var w seekstats.WhatIf
	td.ScanArgs(t, "bits", &w.BitsPerKey)
	td.MaybeScanArgs(t, "range-len", &w.RangeLen)
	levels, err := d.db.SSTables(upstream.WithProperties())
	require.NoError(t, err)
	w.Shape = seekstats.ShapeFromSSTables(levels)
	sn := d.stats.Snapshot()
	var ws []seekstats.LevelWhatIf
	switch kind {
	case "range":
		ws = sn.RangeFilterWhatIf(w)
	case "prefix":
		ws = sn.PrefixFilterWhatIf(w)
	default:
		t.Fatalf("unknown what-if %q", kind)
	}
	var b strings.Builder
	for _, lw := range ws {
		sh, c := w.Shape[lw.Row], sn.Rows[lw.Row]
		fmt.Fprintf(&b, "%s: tables=%d keys=%d data=%d useful=%d bounded=%d useful.bounded=%d\n",
			lw.Row, sh.Tables, sh.Keys, c.Data, c.UsefulNoFilter+c.UsefulFilterMatch, c.DataBounded, c.UsefulBounded)
	}
	b.WriteString(seekstats.WhatIfTable(kind, ws))
	return b.String()
}

// TestWhatIfArithmetic checks the what-ifs against counts set by hand,
// independently of any DB.
func TestWhatIfArithmetic(t *testing.T) {
	var sn seekstats.Snapshot
	sn.Rows[seekstats.RowL0] = seekstats.LevelCounts{Data: 100, DataBounded: 80, UsefulBounded: 20, UsefulNoFilter: 30}
	sn.Rows[seekstats.RowL6] = seekstats.LevelCounts{Data: 50, UsefulNoFilter: 10}
	// L5 had a prefix filter decide its seeks: no prefix what-if there.
	sn.Rows[seekstats.RowL5] = seekstats.LevelCounts{Data: 10, FilterMatch: 10}
	var w seekstats.WhatIf
	w.BitsPerKey = 12
	w.RangeLen = 4
	w.Shape[seekstats.RowL0] = seekstats.LevelShape{Tables: 2, Keys: 1000}
	w.Shape[seekstats.RowL6] = seekstats.LevelShape{Tables: 1, Keys: 8000}

	r := sn.RangeFilterWhatIf(w)
	require.Len(t, r, 1) // L0 only: L6 and L5 had no bounded loads.
	l0 := r[0]
	require.Equal(t, seekstats.RowL0, l0.Row)
	require.EqualValues(t, 60, l0.Candidates)
	require.InDelta(t, 4.0/1024, l0.FPR, 1e-12) // ℓ/2^(B-2) = 4/2^10
	require.InDelta(t, 60*4.0/1024, l0.FalsePositives, 1e-9)
	require.InDelta(t, 60-60*4.0/1024, l0.Avoided, 1e-9)
	require.EqualValues(t, 1000*12/8+2*64, l0.FilterBytes)
	red, ok := l0.Reduction()
	require.True(t, ok)
	require.InDelta(t, (60-60*4.0/1024)/80, red, 1e-9)
	_, ok = seekstats.LevelWhatIf{}.Reduction()
	require.False(t, ok)

	// Values no level could be given come off the total: 30 of them, from
	// loads of L0 (whose 60 empty loads were really 30).
	sn.Rows[seekstats.RowUnattributed] = seekstats.LevelCounts{UsefulBounded: 30}
	r = sn.RangeFilterWhatIf(w)
	require.Len(t, r, 2)
	u := r[1]
	require.Equal(t, seekstats.RowUnattributed, u.Row)
	require.EqualValues(t, 30, u.Unplaced)
	require.Zero(t, u.Loads)
	total := seekstats.Total(r)
	require.EqualValues(t, 80, total.Loads)
	require.InDelta(t, 30*(1-4.0/1024), total.Avoided, 1e-9)
	require.EqualValues(t, 1000*12/8+2*64, total.FilterBytes)
	sn.Rows[seekstats.RowUnattributed] = seekstats.LevelCounts{}

	p := sn.PrefixFilterWhatIf(w)
	require.Len(t, p, 2) // L0 and L6; L5's seeks met a prefix filter.
	l6 := p[1]
	require.Equal(t, seekstats.RowL6, l6.Row)
	require.EqualValues(t, 40, l6.Candidates)
	require.EqualValues(t, 50, l6.Loads)
	require.InDelta(t, seekstats.BloomFPR(12), l6.FPR, 0)
	require.InDelta(t, 40*(1-seekstats.BloomFPR(12)), l6.Avoided, 1e-9)
	require.EqualValues(t, 8000*12/8, l6.FilterBytes)
}

// TestBloomFPR pins the Bloom formula at known points: 10 bits per key
// with 7 probes is about 0.82%, and more bits never raise the rate.
func TestBloomFPR(t *testing.T) {
	require.InDelta(t, 0.0082, seekstats.BloomFPR(10), 0.0002)
	prev := 1.0
	for b := 1.0; b <= 30; b++ {
		f := seekstats.BloomFPR(b)
		require.LessOrEqual(t, f, prev, "bits %g", b)
		prev = f
	}
	require.Equal(t, 1.0, seekstats.BloomFPR(0))
}
