// Copyright 2026 The pebblerf Authors. All rights reserved.

package dbbench

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestDBBenchFilterPlan prints the plan each combination of db_bench's filter
// flags maps to (testdata/filter_flags).
func TestDBBenchFilterPlan(t *testing.T) {
	datadriven.RunTest(t, "testdata/filter_flags", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "dbbench" {
			return fmt.Sprintf("unknown command %q", d.Cmd)
		}
		var bits float64
		var ribbon, l6 bool
		var before int
		d.ScanArgs(t, "bloom_bits", &bits)
		d.MaybeScanArgs(t, "use_ribbon_filter", &ribbon)
		d.MaybeScanArgs(t, "bloom_before_level", &before)
		d.MaybeScanArgs(t, "use_l6_filters", &l6)
		p, err := FilterPlan(bits, ribbon, before, l6)
		if err != nil {
			return err.Error() + "\n"
		}
		return fmt.Sprintf("%s\nUseL6Filters: %t\n", p, p.UseL6Filters())
	})
}
