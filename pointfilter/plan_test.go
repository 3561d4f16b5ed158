// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestPlan prints plans (testdata/plan).
func TestPlan(t *testing.T) {
	datadriven.RunTest(t, "testdata/plan", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "plan":
			var p Plan
			d.ScanArgs(t, "bits", &p.BitsPerKey)
			if d.HasArg("ribbon-from") {
				d.ScanArgs(t, "ribbon-from", &p.RibbonFromLevel)
			} else {
				p.RibbonFromLevel = NoRibbon
			}
			d.MaybeScanArgs(t, "l6", &p.L6Filters)
			return filterPlanApplied(p)
		}
		return fmt.Sprintf("unknown command %q", d.Cmd)
	})
}

// filterPlanApplied applies p to fresh options and prints what each level
// got, as Pebble will see it.
func filterPlanApplied(p Plan) string {
	var opts pebble.Options
	if err := p.Apply(&opts); err != nil {
		return err.Error() + "\n"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\n", p)
	for i, l := range opts.Levels {
		fmt.Fprintf(&sb, "L%d: %s", i, l.FilterPolicy.Name())
		if b, ok := l.FilterPolicy.(*BloomPolicy); ok {
			fmt.Fprintf(&sb, " %g bits/key", b.BitsPerKey())
		}
		if r, ok := l.FilterPolicy.(*RibbonPolicy); ok {
			fmt.Fprintf(&sb, " %g bloom-equivalent bits/key", r.bloomEquivalentBitsPerKey())
		}
		sb.WriteString("\n")
	}
	fmt.Fprintf(&sb, "UseL6Filters: %t\n", p.UseL6Filters())
	return sb.String()
}

// TestPlanInPebble opens a DB with a plan and checks which filter
// each level's tables were written with, as recorded in their properties.
func TestPlanInPebble(t *testing.T) {
	for _, tc := range []struct {
		plan   Plan
		l0, l6 string
	}{
		{Plan{BitsPerKey: 10, RibbonFromLevel: 1, L6Filters: true}, BloomPolicyName, RibbonPolicyName},
		{Plan{BitsPerKey: 10, RibbonFromLevel: 0, L6Filters: false}, RibbonPolicyName, ""},
		{Plan{BitsPerKey: 8, RibbonFromLevel: NoRibbon, L6Filters: true}, BloomPolicyName, BloomPolicyName},
		{Plan{}, "", ""},
	} {
		t.Run(tc.plan.String(), func(t *testing.T) {
			opts := &pebble.Options{FS: vfs.NewMem(), Logger: filterPlanQuietLogger{}}
			require.NoError(t, tc.plan.Apply(opts))
			db, err := pebble.Open("db", opts)
			require.NoError(t, err)
			defer func() { require.NoError(t, db.Close()) }()
			write := func(from, to int) {
				for i := from; i < to; i++ {
					require.NoError(t, db.Set([]byte(fmt.Sprintf("k%05d", i)), []byte("v"), pebble.NoSync))
				}
				require.NoError(t, db.Flush())
			}
			// Two overlapping flushes, so that the compaction to L6 merges
			// and rewrites them (a lone table would merely be moved, keeping
			// the filter it was written with).
			write(0, 2000)
			write(0, 2000)
			require.NoError(t, db.Compact(t.Context(), []byte("k"), []byte("l"), true))
			write(2000, 3000)

			tables, err := db.SSTables(pebble.WithProperties())
			require.NoError(t, err)
			require.NotEmpty(t, tables[0], "a flushed table in L0")
			require.NotEmpty(t, tables[6], "compacted tables in L6")
			for level, want := range map[int]string{0: tc.l0, 6: tc.l6} {
				for _, tbl := range tables[level] {
					require.Equal(t, want, tbl.Properties.FilterPolicyName, "L%d table %s", level, tbl.FileNum)
					require.Equal(t, want == "", tbl.Properties.FilterSize == 0)
				}
			}
		})
	}
}

func TestPlanErrors(t *testing.T) {
	for _, tc := range []struct {
		plan Plan
		want string
	}{
		{Plan{BitsPerKey: 0.5}, "Plan.BitsPerKey 0.5 (0 means no filters)"},
		{Plan{BitsPerKey: -3}, "Plan.BitsPerKey -3"},
		{Plan{BitsPerKey: 101}, "Plan.BitsPerKey 101"},
		{Plan{BitsPerKey: 10, RibbonFromLevel: -1}, "Plan.RibbonFromLevel -1 is negative"},
	} {
		var opts pebble.Options
		require.ErrorContains(t, tc.plan.Apply(&opts), tc.want)
		require.Nil(t, opts.Levels[0].FilterPolicy, "a failed Apply changes nothing")
	}
}

type filterPlanQuietLogger struct{}

func (filterPlanQuietLogger) Infof(string, ...interface{})  {}
func (filterPlanQuietLogger) Errorf(string, ...interface{}) {}
func (filterPlanQuietLogger) Fatalf(f string, args ...interface{}) {
	panic(fmt.Sprintf(f, args...))
}
