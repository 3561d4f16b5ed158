// Copyright 2026 The pebblerf Authors. All rights reserved.

package engine

import (
	"fmt"

	"github.com/pebblerf/pebble/internal/bench/config"
)

// levelFilterOf returns the filter pebblerf's plan gives level i now, for
// levelstats: the planner's under -filter_plan, else the fixed plan's; on
// the default path, upstream's Bloom, which pebblerf is then given.
func LevelFilter(c *config.Config, e DB, i int) string {
	if e.Name() != config.EnginePebbleRF || !c.FiltersEnabled() {
		return "-"
	}
	if c.UpstreamFilters() {
		if i == 6 && !c.WriteL6Filters() {
			return "-"
		}
		return fmt.Sprintf("pebble-bloom(%d)", c.UpstreamBloomBits())
	}
	if db, ok := PebbleRF(e); ok && db.FilterPlanner() != nil && c.FilterPlanName != "" {
		return db.FilterPlanner().Level(i).String()
	}
	plan, _ := c.FilterPlan()
	filters, err := plan.Filters()
	if err != nil {
		return "-"
	}
	return filters[i].String()
}

// levelRangeFilterOf returns the range filter pebblerf's plan gives level i
// now, for levelstats.
func LevelRangeFilter(c *config.Config, e DB, i int) string {
	db, ok := PebbleRF(e)
	if !ok || db.RangeFilterPolicy() == nil {
		return "-"
	}
	if bits := db.RangeFilterPolicy().Plan().Levels[i]; bits != 0 {
		return fmt.Sprintf("%g bits/key", bits)
	}
	return "none"
}
