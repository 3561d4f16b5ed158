// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// planTestLoads is a leveled LSM with a 10x fanout and a busy L0.
func planTestLoads(l6Consulted bool) []LevelLoad {
	keys := [planLevels]float64{3e5, 0, 0, 1e5, 1e6, 1e7, 1e8}
	tables := [planLevels]float64{6, 0, 0, 2, 16, 150, 1500}
	return UniformLoads(keys, tables, 3, l6Consulted)
}

// TestOptimalBeatsPresets checks, at the memory each preset spends, that
// the optimal plan respects that budget and expects fewer false positives
// per absent-key lookup than the preset, whether L6 filters are consulted
// or not.
func TestOptimalBeatsPresets(t *testing.T) {
	for _, l6 := range []bool{false, true} {
		loads := planTestLoads(l6)
		for _, preset := range []Plan{Uniform(10), Progressive()} {
			presetFP, budget, err := ExpectedCost(preset, loads)
			require.NoError(t, err)
			opt, err := Optimal(budget, loads)
			require.NoError(t, err)
			fp, spent, err := ExpectedCost(opt, loads)
			require.NoError(t, err)
			require.LessOrEqual(t, spent, budget*(1+1e-9), "l6=%t %s: %s overspends", l6, preset, opt)
			if l6 {
				// Without L6 the levels consulted may be too small to
				// spend it all (at most 100 bits/key each).
				require.Greater(t, spent, 0.98*budget, "l6=%t %s: %s leaves budget unspent", l6, preset, opt)
			}
			require.Less(t, fp, presetFP, "l6=%t %s: %s", l6, preset, opt)
			t.Logf("l6=%t budget %.2f: %s %.4g FP/lookup; optimal %s %.4g", l6, budget, preset, presetFP, opt, fp)
			if !l6 {
				// Nothing is gained by filtering a level no lookup consults.
				require.Equal(t, KindNone, opt.Levels[planLevels-1].Kind, "%s", opt)
			}
		}
	}
}

// TestOptimalRespectsBudget checks small, zero and large budgets, and
// that a larger budget never expects more false positives.
func TestOptimalRespectsBudget(t *testing.T) {
	loads := planTestLoads(true)
	prev := 1e18
	for _, budget := range []float64{0, 0.5, 2, 5, 8, 12, 20, 40} {
		p, err := Optimal(budget, loads)
		require.NoError(t, err)
		fp, spent, err := ExpectedCost(p, loads)
		require.NoError(t, err)
		require.LessOrEqual(t, spent, budget*(1+1e-9), "budget %g: %s", budget, p)
		require.LessOrEqual(t, fp, prev, "budget %g: %s", budget, p)
		prev = fp
		if budget == 0 {
			require.Equal(t, "L0-L6 none", p.String())
		}
	}
	_, err := Optimal(10, loads[:3])
	require.ErrorContains(t, err, "needs 7 levels")
	_, err = Optimal(-1, loads)
	require.ErrorContains(t, err, "outside")
}

// TestPresets checks the presets' levels.
func TestPresets(t *testing.T) {
	require.Equal(t, "L0-L3 bloom(16) L4 bloom(14) L5 bloom(10) L6 bloom(8)", Progressive().String())
	require.Equal(t, "L0-L6 bloom(10)", Uniform(10).String())
	require.True(t, Progressive().UseL6Filters())
	policies, err := Progressive().policies()
	require.NoError(t, err)
	require.Same(t, policies[0], policies[3], "equal levels share a policy")
	require.Equal(t, 14.0, policies[4].(*BloomPolicy).BitsPerKey())
	fuse := Plan{Levels: []LevelFilter{{Kind: KindFuse}, {}, {}, {}, {}, {Kind: KindRibbon, Bits: 12}, {}}}
	require.Equal(t, "L0 fuse L1-L4 none L5 ribbon(12) L6 none", fuse.String())
	_, err = Plan{Levels: make([]LevelFilter, 3)}.policies()
	require.ErrorContains(t, err, "3 levels")
	_, err = Plan{Levels: []LevelFilter{{Kind: KindBloom, Bits: 0.5}, {}, {}, {}, {}, {}, {}}}.policies()
	require.ErrorContains(t, err, "Levels[0]")
}

// TestOptimalPlansEmptyLevels checks that a level holding no keys when the
// plan is made (an empty L0 between flushes, a level not yet reached, every
// level but L6 after a full compaction) gets a filter if lookups consult it,
// so the tables written there before the next re-plan are filtered: one at
// least as strong as the level below it, which the growth rules make ten
// times larger; and that a level no lookup consults gets none.
func TestOptimalPlansEmptyLevels(t *testing.T) {
	tables := [planLevels]float64{0, 0, 0, 2, 16, 150, 1500}
	for _, tc := range []struct {
		name string
		keys [planLevels]float64
	}{
		{"L0-L2 empty", [planLevels]float64{0, 0, 0, 1e5, 1e6, 1e7, 1e8}},
		{"all in L6", [planLevels]float64{0, 0, 0, 0, 0, 0, 1e8}},
		{"empty DB", [planLevels]float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loads := UniformLoads(tc.keys, tables, 0, false)
			p, err := Optimal(10, loads)
			require.NoError(t, err)
			for i := 0; i < planLevels-1; i++ {
				require.NotEqual(t, KindNone, p.Levels[i].Kind, "L%d in %s", i, p)
				require.LessOrEqual(t, optionFor(p.Levels[i], 1e4).fpr, floorFPR(10), "L%d in %s", i, p)
				if i > 0 && tc.keys[i-1] == 0 {
					require.LessOrEqual(t, optionFor(p.Levels[i-1], 1e4).fpr, optionFor(p.Levels[i], 1e4).fpr,
						"L%d against L%d in %s", i-1, i, p)
				}
			}
			require.Equal(t, KindNone, p.Levels[planLevels-1].Kind, "L6 is not consulted: %s", p)
			_, spent, err := ExpectedCost(p, loads)
			require.NoError(t, err)
			require.LessOrEqual(t, spent, 10*(1+1e-9))

			// No budget: no filters.
			p, err = Optimal(0, loads)
			require.NoError(t, err)
			require.Equal(t, "L0-L6 none", p.String())
		})
	}
}

// TestOptimalFloor checks that a small budget over a DB whose L6 holds
// nearly every key and is rarely consulted (most lookups, measured, end
// above it) still gives L6 at least the floor, where the optimum alone
// would leave it bare, and stays within the budget.
func TestOptimalFloor(t *testing.T) {
	keys := [planLevels]float64{1e3, 0, 0, 0, 0, 1e5, 1e8}
	tables := [planLevels]float64{1, 0, 0, 0, 0, 2, 1500}
	loads := UniformLoads(keys, tables, 1, true)
	loads[6].Checks = 1e-5
	for _, budget := range []float64{2, 4, 6, 10} {
		p, err := Optimal(budget, loads)
		require.NoError(t, err)
		for i, f := range p.Levels {
			require.NotEqual(t, KindNone, f.Kind, "budget %g: L%d in %s", budget, i, p)
			require.LessOrEqual(t, optionFor(f, keys[i]/max(tables[i], 1)).fpr, floorFPR(budget), "budget %g: L%d in %s", budget, i, p)
		}
		_, spent, err := ExpectedCost(p, loads)
		require.NoError(t, err)
		require.LessOrEqual(t, spent, budget*(1+1e-9), "budget %g: %s", budget, p)
	}
	require.Equal(t, 1.0, floorFPR(1), "half a bit per key buys no filter: no floor")
}
