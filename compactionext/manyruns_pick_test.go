// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
)

// TestPickDue runs testdata/many_runs_pick: the many-runs driver's choice of
// units once the ages are staggered, on L0s given by their units' depths, so
// that each rule of pickDue shows on its own.
//
//	units runs=N               L0's units, by depth in key order (the input);
//	                           a merge is due at depth N-1
//	pick [slices=S] [from=I]   what pickDue merges, looking from unit I on,
//	                           with S slices (default: the number of units);
//	                           merged units leave L0 (depth 0)
//	flush                      every unit one deeper, merged ones back in L0
func TestPickDue(t *testing.T) {
	var depths []int
	var runs, from int
	show := func() string {
		return fmt.Sprintf("runs=%d (deepest unit %d)", maxDepth(depths)+1, maxDepth(depths))
	}
	datadriven.RunTest(t, "testdata/many_runs_pick", func(t *testing.T, td *datadriven.TestData) string {
		switch td.Cmd {
		case "units":
			td.ScanArgs(t, "runs", &runs)
			depths, from = nil, 0
			for _, f := range strings.Fields(td.Input) {
				d, err := strconv.Atoi(f)
				require.NoError(t, err)
				depths = append(depths, d)
			}
			return show()
		case "flush":
			for k := range depths {
				depths[k]++
			}
			return fmt.Sprintf("%v %s", depths, show())
		case "pick":
			slices := len(depths)
			if td.HasArg("slices") {
				td.ScanArgs(t, "slices", &slices)
			}
			if td.HasArg("from") {
				td.ScanArgs(t, "from", &from)
			}
			units := make([]l0Unit, len(depths))
			for k, d := range depths {
				units[k] = l0Unit{Smallest: keyOf(2 * k), Largest: keyOf(2*k + 1), Depth: d}
			}
			i, j := pickDue(units, from, slices, runs-1)
			if i == j {
				return "wait: " + show()
			}
			taken := fmt.Sprint(depths[i:j])
			for k := i; k < j; k++ {
				depths[k] = 0
			}
			from = j % len(depths)
			return fmt.Sprintf("merge units %d-%d, depths %s; %s", i, j-1, taken, show())
		default:
			return "unknown command " + td.Cmd
		}
	})
}

func maxDepth(depths []int) int {
	d := 0
	for _, x := range depths {
		d = max(d, x)
	}
	return d
}
