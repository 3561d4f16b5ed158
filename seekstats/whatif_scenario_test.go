// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
	"github.com/stretchr/testify/require"
)

// runWhatIf prints, for each row the what-if covers, the inputs it read
// (the shape from DB.SSTables and the counts) and then its line, so that a
// script can check the arithmetic by hand.
func runWhatIf(t *testing.T, d *testDB, td *datadriven.TestData) string {
	require.NotEmpty(t, td.CmdArgs)
	kind := td.CmdArgs[0].Key
	var w whatif.Options
	td.ScanArgs(t, "bits", &w.BitsPerKey)
	td.MaybeScanArgs(t, "range-len", &w.RangeLen)
	levels, err := d.db.SSTables(upstream.WithProperties())
	require.NoError(t, err)
	w.Shape = whatif.ShapeOf(levels)
	sn := d.stats.Snapshot()
	var ws []whatif.Level
	switch kind {
	case "range":
		ws = whatif.RangeFilters(&sn, w)
	case "prefix":
		ws = whatif.PrefixFilters(&sn, w)
	default:
		t.Fatalf("unknown what-if %q", kind)
	}
	var b strings.Builder
	for _, lw := range ws {
		sh, c := w.Shape[lw.Row], sn.Rows[lw.Row]
		fmt.Fprintf(&b, "%s: tables=%d keys=%d data=%d useful=%d needed=%d bounded=%d useful.bounded=%d needed.bounded=%d\n",
			lw.Row, sh.Tables, sh.Keys, c.Data, c.UsefulNoFilter+c.UsefulFilterMatch, c.Needed,
			c.DataBounded, c.UsefulBounded, c.NeededBounded)
	}
	b.WriteString(whatif.Table(kind, ws))
	return b.String()
}

// rangeLensTable prints each row's observed range lengths: the checks, the
// map's and the exact filters' verdicts, and the non-empty buckets of ℓ
// (bucket b holds 2^(b-1) <= ℓ < 2^b) with the hashed tables' count and sum.
func rangeLensTable(sn seekstats.Snapshot) string {
	var b strings.Builder
	for r, l := range sn.RangeLens {
		if l.Checks == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s: checks=%d outside=%d exact.holds=%d exact.empty=%d hashed.holds=%d",
			seekstats.Row(r), l.Checks, l.Outside, l.ExactHolds, l.ExactEmpty, l.HashedHolds)
		var hashed uint64
		for _, c := range l.HashedLens {
			hashed += c
		}
		if hashed > 0 {
			bits := l.HashedBitsSum / float64(hashed)
			fmt.Fprintf(&b, " hashed.fpr.sum=%.4g written.bits=%.2f", l.HashedFPRSum, bits)
		}
		for i, n := range l.Lens {
			if n > 0 {
				fmt.Fprintf(&b, " len<%d:%d", uint64(1)<<i, n)
				if l.HashedLens[i] > 0 {
					fmt.Fprintf(&b, "(hashed %d, sum %d)", l.HashedLens[i], l.HashedLenSum[i])
				}
			}
		}
		b.WriteString("\n")
	}
	if b.Len() == 0 {
		return "(none)\n"
	}
	return b.String()
}
