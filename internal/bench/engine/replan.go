// Copyright 2026 The pebblerf Authors. All rights reserved.

package engine

import (
	"time"

	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
)

// Re-planning an open pebblerf DB's filters from what it holds and what its
// statistics saw: the run-time side of -filter_plan=optimal (filters.go)
// and -range_filter_plan=stats (rangeplan.go).

// startReplanning re-plans e's filters every replanEvery, from the first
// call on, under -filter_plan=optimal (its point filters) and
// -range_filter_plan=stats (its range filters); it returns the function
// that stops it. For other engines and plans it does nothing.
func StartReplanning(c *config.Config, e DB) (stop func()) {
	db, ok := PebbleRF(e)
	if !ok {
		return func() {}
	}
	pl := db.FilterPlanner()
	points := pl != nil && c.FilterPlanName == config.FilterPlanOptimal
	ranges := c.RangeFilterPlanName == config.RangePlanStats
	if !points && !ranges {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	replan := func() {
		if !points {
			replanRanges(c, db)
			return
		}
		if loads, err := db.PointFilterLoads(c.WriteL6Filters()); err == nil {
			if p, err := pointfilter.Optimal(c.FilterBudgetBits, loads); err == nil {
				_ = pl.Set(p)
			}
		}
		if ranges {
			replanRanges(c, db)
		}
	}
	replan()
	go func() {
		defer close(finished)
		t := time.NewTicker(config.ReplanEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				replan()
			}
		}
	}()
	return func() { close(done); <-finished }
}

// replanRanges re-plans the open DB's range filters under
// -range_filter_plan=stats; a DB whose statistics saw no bounded read keeps
// its plan.
func replanRanges(c *config.Config, db *pebblerf.DB) {
	loads, err := db.RangeFilterLoads()
	if err != nil {
		return
	}
	var skipped float64
	for _, l := range loads {
		skipped += l.Skipped
	}
	if skipped == 0 {
		return
	}
	if p, err := rangefilter.ForBudget(c.RangeFilterBits, c.RangeFilterBudgetBits, loads); err == nil {
		_ = db.RangeFilterPolicy().SetPlan(p)
	}
}
