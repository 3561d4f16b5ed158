// Copyright 2026 The pebblerf Authors. All rights reserved.

package config

import (
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestFilterPlanFlags checks -filter_plan's presets and what pebblerf's
// options get from them: a planner on every level, L6 left without a
// filter unless -use_l6_filters.
func TestFilterPlanFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		l6   bool
		want string
	}{
		{"uniform", false, "L0-L5 bloom(7) L6 none"},
		{"uniform", true, "L0-L6 bloom(7)"},
		{"progressive", false, "L0-L3 bloom(16) L4 bloom(14) L5 bloom(10) L6 none"},
		{"optimal", true, "L0-L6 bloom(7)"}, // before the first re-plan
	} {
		c := &Config{UseL6Filters: tc.l6, FilterPlanName: tc.name, FilterBudgetBits: 7}
		p, ok, err := c.PresetPlan()
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, tc.want, p.String(), "%s l6=%t", tc.name, tc.l6)
		var o upstream.Options
		planner, err := c.applyFilters(EnginePebbleRF, &o)
		require.NoError(t, err)
		require.Same(t, planner, c.PebbleRFPlugins(planner).Filters, "the planner goes in as Plugins.Filters")
		require.Equal(t, tc.want, planner.String())
		require.True(t, c.FiltersEnabled())
	}
	_, _, err := (&Config{FilterPlanName: "monkey"}).PresetPlan()
	require.ErrorContains(t, err, `-filter_plan "monkey"`)
	_, _, err = (&Config{FilterPlanName: "uniform", FilterBudgetBits: 0}).PresetPlan()
	require.ErrorContains(t, err, "-filter_budget_bits")
}
