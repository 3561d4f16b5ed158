// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"testing"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

func TestRangeFilterPlanFlags(t *testing.T) {
	c := &config.Config{RangeFilterBits: 12}
	require.NoError(t, validateRangeFilterPlan(c))
	require.Nil(t, c.PebbleRFPlugins(nil).RangeFilterLevels, "no flag: every level, the policy's default")

	c.RangeFilterPlanName = config.RangePlanL0
	require.NoError(t, validateRangeFilterPlan(c))
	require.Equal(t, rangefilter.OverlappingRuns(12), *c.PebbleRFPlugins(nil).RangeFilterLevels)

	c.RangeFilterPlanName = config.RangePlanStats
	require.ErrorContains(t, validateRangeFilterPlan(c), "needs -pebblerf_statistics")
	c.PebbleRFStatistics = true
	require.NoError(t, validateRangeFilterPlan(c))
	c.RangeFilterBudgetBits = -1
	require.ErrorContains(t, validateRangeFilterPlan(c), "-range_filter_budget_bits")

	c.RangeFilterPlanName = "L6"
	require.ErrorContains(t, validateRangeFilterPlan(c), `"L6" is not all, demand, l0 or stats`)
	c = &config.Config{}
	c.RangeFilterPlanName = config.RangePlanL0
	require.ErrorContains(t, validateRangeFilterPlan(c), "needs -range_filter_bits")
}

// TestRangeFilterPlanEndToEnd: under -range_filter_plan=l0 the flushed
// tables get range filters and the compaction's L6 output does not;
// levelstats says so, and bounded seeks find what upstream finds. Two
// overlapping flushes make the compaction rewrite them: a lone L0 table
// would be moved to L6 unchanged, with its filter.
func TestRangeFilterPlanEndToEnd(t *testing.T) {
	runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,flush,overwrite,flush,compact,overwrite,flush,seekrandom,levelstats",
		"-num=5000", "-writes=3000", "-seed=3", "-seek_upper_bound_len=8", "-empty_range_fraction=0.5",
		"-range_filter_bits=16", "-range_filter_plan=l0", "-compaction_style=3", "-db="+t.TempDir())
	requireSameFound(t, runs, "seekrandom")
	levels := runs["levelstats/pebblerf"][0]["data"].(map[string]interface{})["levels"].([]interface{})
	l0, l6 := levels[0].(map[string]interface{}), levels[6].(map[string]interface{})
	require.Greater(t, l0["range_filter_bytes"], 0.0, text)
	require.Nil(t, l6["range_filter_bytes"], "omitted: no range filter in L6")
	require.Greater(t, l6["files"], 0.0)
	require.Equal(t, "16 bits/key", l0["range_filter"])
	require.Equal(t, "none", l6["range_filter"])
}
