package querybuilder

import (
	"fmt"
	"github.com/pebblerf/pebble/internal/sortedruns"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestDeferrableWeighsByData checks that Deferrable averages over where the
// data lies. Runs that each span the whole key space but start a few keys
// apart defer nothing for almost every seek, although at most of their
// file starts the other runs have not started yet; staggered runs over
// consecutive key ranges defer about half of the runs anywhere.
func TestDeferrableWeighsByData(t *testing.T) {
	key := func(i int) []byte { return fmt.Appendf(nil, "k%06d", i) }
	var whole [][]sortedruns.Table
	whole = append(whole, nil) // L0
	for r, start := range []int{1, 2, 6, 210} {
		whole[0] = append(whole[0], sortedruns.Table{Num: pebble.TableNum(r + 1), Size: 1 << 20,
			Smallest: key(start), Largest: key(120_000), LargestSeqNum: pebble.SeqNum(r + 1)})
	}
	l := layoutOfLevels(pebble.DefaultComparer, whole)
	require.Len(t, l.Runs, 4)
	require.Less(t, l.Deferrable, 0.1)
	plan, _ := choosePlan(PlanAuto, pebble.DefaultComparer, &pebble.IterOptions{}, l, defaultMinDeferrable)
	require.Equal(t, PlanPlain, plan)

	const runs = 12
	staggered := [][]sortedruns.Table{nil}
	for r := 0; r < runs; r++ {
		staggered[0] = append(staggered[0], sortedruns.Table{Num: pebble.TableNum(r + 1), Size: 1 << 20,
			Smallest: key(r * 10_000), Largest: key(r*10_000 + 10_500), LargestSeqNum: pebble.SeqNum(r + 1)})
	}
	l = layoutOfLevels(pebble.DefaultComparer, staggered)
	require.Greater(t, l.Deferrable, float64(runs)/2-2)
	plan, _ = choosePlan(PlanAuto, pebble.DefaultComparer, &pebble.IterOptions{}, l, defaultMinDeferrable)
	require.Equal(t, PlanStepped, plan)
}
