// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"fmt"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/redact"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
)

// Re-planning a running DB's filters. The plans live in the plug-ins
// (pointfilter.Planner, rangefilter.Policy); what only the DB can give them
// is its current shape and what its statistics saw, which these methods read:
//
//	loads, _ := db.PointFilterLoads(false)
//	plan, _ := pointfilter.Optimal(10, loads)
//	_ = db.FilterPlanner().Set(plan)
//
//	rl, _ := db.RangeFilterLoads()
//	rplan, _ := rangefilter.ForBudget(16, 2, rl)
//	_ = db.RangeFilterPolicy().SetPlan(rplan)
//
// New tables follow the new plans; tables already written keep their
// filters until a compaction rewrites them, and stay readable.

// FilterPlanner returns the planner of the DB's point filters
// (Plugins.Filters), or nil if the DB uses the options' own filters.
func (d *DB) FilterPlanner() *pointfilter.Planner { return d.planner }

// RangeFilterPolicy returns the DB's range-filter policy, whose SetPlan
// re-plans which levels get range filters, or nil if range filters are off.
func (d *DB) RangeFilterPolicy() *rangefilter.Policy { return d.rangeFilter }

// PointFilterLoads returns, per level, what pointfilter.Optimal needs: the
// keys and tables of the level's tables now, and how often a lookup of an
// absent key consults the level's filters. With statistics on and point
// lookups counted, that is measured: the level's filter checks that said no
// plus those that passed and found nothing (Gets, and seeks of iterators
// that consulted prefix filters), divided by the count of the busiest level
// below L0, which every lookup that gets that far consults once. Otherwise
// it is the uniform assumption (pointfilter.UniformLoads): once per level,
// once per L0 sublevel, and L6 only if l6Consulted (DB.Get never reads L6
// filters; iterators with IterOptions.UseL6Filters do). A level that holds
// no tables now keeps the uniform assumption either way: nothing was
// measured there, and its future tables will be consulted (Optimal plans
// it for the keys it will hold).
func (d *DB) PointFilterLoads(l6Consulted bool) ([]pointfilter.LevelLoad, error) {
	tables, err := d.DB.SSTables(WithProperties())
	if err != nil {
		return nil, errors.Wrap(err, "pebble: PointFilterLoads")
	}
	shape := whatif.ShapeOf(tables)
	var keys, count [pointfilter.PlanLevels]float64
	for i := range keys {
		s := shape[seekstats.RowForLevel(i)]
		keys[i], count[i] = float64(s.Keys), float64(s.Tables)
	}
	loads := pointfilter.UniformLoads(keys, count, int(d.DB.Metrics().Levels[0].Sublevels), l6Consulted)
	if d.statistics.perLevel == nil {
		return loads, nil
	}
	sn := d.statistics.perLevel.Snapshot()
	checks, ok := sn.AbsentKeyChecks()
	if !ok {
		return loads, nil // nothing counted yet: the uniform assumption
	}
	for i := range loads {
		if loads[i].Keys > 0 {
			loads[i].Checks = checks[i]
		}
	}
	return loads, nil
}

// RangeFilterLoads returns, per level, what rangefilter.ForBudget needs: the
// keys of the level's tables now, and the bounded reads' data-block loads
// that range filters skipped on the level (seekstats' FilteredRange) or,
// on a level where no range filter skipped anything (none was written
// there, or none was asked), the loads the what-if predicts filters of
// RangeFilter.BitsPerKey would skip (whatif.RangeFilters).
// It needs the per-level statistics (Plugins.Statistics), and counts what
// they saw since they were last reset.
func (d *DB) RangeFilterLoads() ([]rangefilter.LevelLoad, error) {
	if d.statistics.perLevel == nil {
		return nil, errors.New("pebble: RangeFilterLoads needs Plugins.Statistics")
	}
	tables, err := d.DB.SSTables(WithProperties())
	if err != nil {
		return nil, errors.Wrap(err, "pebble: RangeFilterLoads")
	}
	shape := whatif.ShapeOf(tables)
	bits := float64(rangefilter.DefaultBitsPerKey)
	if d.rangeFilter != nil {
		bits = d.rangeFilter.Config().BitsPerKey
		if bits == 0 {
			bits = rangefilter.DefaultBitsPerKey
		}
	}
	sn := d.statistics.perLevel.Snapshot()
	loads := make([]rangefilter.LevelLoad, rangefilter.PlanLevels)
	for i := range loads {
		r := seekstats.RowForLevel(i)
		loads[i] = rangefilter.LevelLoad{Keys: float64(shape[r].Keys), Skipped: float64(sn.Rows[r].FilteredRange)}
	}
	for _, w := range whatif.RangeFilters(&sn, whatif.Options{BitsPerKey: bits}) {
		if l := int(w.Row - seekstats.RowL0); l >= 0 && l < len(loads) && loads[l].Skipped == 0 && w.Avoided > 0 {
			loads[l].Skipped += w.Avoided
		}
	}
	return loads, nil
}

// levelFilters names each level's filters under the DB's current plans, for
// Explain.
func (d *DB) levelFilters() []querybuilder.LevelFilters {
	out := make([]querybuilder.LevelFilters, pointfilter.PlanLevels)
	var rplan rangefilter.Plan
	if d.rangeFilter != nil {
		rplan = d.rangeFilter.Plan()
	}
	for i := range out {
		out[i].Level = i
		if d.planner != nil {
			out[i].Point = redact.SafeString(d.planner.Level(i).String())
		}
		if d.rangeFilter != nil {
			out[i].Range = "none"
			if b := rplan.Levels[i]; b != 0 {
				out[i].Range = redact.SafeString(fmt.Sprintf("%g bits/key", b))
			}
		}
	}
	return out
}
