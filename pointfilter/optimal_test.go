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
	policies, err := Progressive().Policies()
	require.NoError(t, err)
	require.Same(t, policies[0], policies[3], "equal levels share a policy")
	require.Equal(t, 14.0, policies[4].(*BloomPolicy).BitsPerKey())
	fuse := Plan{Levels: []LevelFilter{{Kind: KindFuse}, {}, {}, {}, {}, {Kind: KindRibbon, Bits: 12}, {}}}
	require.Equal(t, "L0 fuse L1-L4 none L5 ribbon(12) L6 none", fuse.String())
	_, err = Plan{Levels: make([]LevelFilter, 3)}.Policies()
	require.ErrorContains(t, err, "3 levels")
	_, err = Plan{Levels: []LevelFilter{{Kind: KindBloom, Bits: 0.5}, {}, {}, {}, {}, {}, {}}}.Policies()
	require.ErrorContains(t, err, "Levels[0]")
}

// TestOptimalFillsEmptyLevels checks that a level holding no keys when the
// plan is made (an empty L0 between flushes, a level not yet reached) gets
// the filter of its nearest consulted neighbour, looking up first, so the
// tables written there before the next re-plan are filtered; and that it
// gets none when no consulted level has one.
func TestOptimalFillsEmptyLevels(t *testing.T) {
	keys := [planLevels]float64{0, 0, 0, 1e5, 1e6, 1e7, 1e8}
	tables := [planLevels]float64{0, 0, 0, 2, 16, 150, 1500}
	loads := UniformLoads(keys, tables, 0, false)
	p, err := Optimal(10, loads)
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		require.Equal(t, p.Levels[3], p.Levels[i], "L%d in %s", i, p)
	}
	require.NotEqual(t, KindNone, p.Levels[0].Kind, "%s", p)
	// The empty levels cost nothing: the plan's expected cost is the same
	// as without them filled.
	_, spent, err := ExpectedCost(p, loads)
	require.NoError(t, err)
	require.LessOrEqual(t, spent, 10*(1+1e-9))

	// An empty level between two consulted ones takes the one above.
	keys = [planLevels]float64{3e5, 0, 0, 1e5, 1e6, 1e7, 1e8}
	p, err = Optimal(10, UniformLoads(keys, tables, 3, false))
	require.NoError(t, err)
	require.Equal(t, p.Levels[0], p.Levels[1], "%s", p)

	// No budget: no level has a filter to lend.
	p, err = Optimal(0, loads)
	require.NoError(t, err)
	for i, f := range p.Levels {
		require.Equal(t, KindNone, f.Kind, "L%d in %s", i, p)
	}
}
