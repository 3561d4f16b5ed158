// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/cockroachdb/errors"
)

// Per-level plans: which levels' tables get a range filter.
//
// A range filter is a table property, so it lives in the Go heap of every
// open table, outside the block cache's budget: at 16 bits per key that is
// 20 MB at ten million keys and gigabytes at billions. And it does not
// pay equally everywhere. A bounded read consults at most one table per
// sorted run. Below L0 each level is one run, and the bottom level holds
// about 90% of a leveled LSM's keys, so its filters cost about nine times
// those of all the levels above together, for at most one skipped table per
// read. Where sorted runs overlap, in L0's sublevels (and in the many-runs
// shape, whose runs are L0 sublevels), one bounded read consults a table in
// every run, and filters there save a load per empty run for a small share
// of the keys.
//
// A Plan says, per level, whether new tables get a range filter and at how
// many bits per key. Presets: AllLevels (every table, what a Policy without
// a plan writes), OverlappingRuns (L0 only), and ForBudget, which uses what
// the per-level statistics saw (the bounded reads' loads the filters
// skipped or, where none were written, the what-if's prediction of loads
// they would skip) to put filters on the levels that save the most loads
// per bit within a memory budget.
//
// An OnDemand plan (the preset OnDemand, what pebble.Recommended() uses)
// builds the filters its levels name only where bounded reads come: a
// table gets one while a bounded read came to its key region within
// DemandHorizon, and its level there is not known to gain nothing from them
// (usage.go). A DB that takes no bounded read then pays no build at all,
// and one that starts taking them gets filters in the tables it writes from
// then on, and sooner with Policy.Backfill.
//
// A plan acts when a table is written: the collector learns its table's
// output level from the flush or compaction that writes it
// (internal/handoff) and asks the plan current then. A table written
// without a range filter reads as "may intersect", as tables written before
// range filters were on always have; a move compaction hands a table down
// with whatever filter it has. So a plan may change at any time (SetPlan)
// and every table stays readable.

// PlanLevels is the number of LSM levels a plan covers (Pebble's 7).
const PlanLevels = 7

// Plan gives each LSM level's new tables a range filter, or none.
type Plan struct {
	// Levels[i] is the bits per key of level i's range filters (as
	// Config.BitsPerKey, in [4, 40]), or 0 for no range filter.
	Levels [PlanLevels]float64
	// OnDemand, if set, builds the filters Levels names only where bounded
	// reads come (see above).
	OnDemand bool
}

// AllLevels is the plan that gives every level's tables a filter of
// bitsPerKey (0 means DefaultBitsPerKey).
func AllLevels(bitsPerKey float64) Plan {
	var p Plan
	for i := range p.Levels {
		p.Levels[i] = orDefault(bitsPerKey)
	}
	return p
}

// OverlappingRuns is the plan that gives filters of bitsPerKey (0 means
// DefaultBitsPerKey) to L0 only, where sorted runs overlap and a bounded
// read consults a table in each of them.
func OverlappingRuns(bitsPerKey float64) Plan {
	var p Plan
	p.Levels[0] = orDefault(bitsPerKey)
	return p
}

// OnDemand is the plan that gives every level's tables a filter of
// bitsPerKey (0 means DefaultBitsPerKey) where bounded reads come: in the
// key regions bounded reads came to within DemandHorizon, on the levels
// whose filters there rule tables out.
func OnDemand(bitsPerKey float64) Plan {
	p := AllLevels(bitsPerKey)
	p.OnDemand = true
	return p
}

func orDefault(bits float64) float64 {
	if bits == 0 {
		return DefaultBitsPerKey
	}
	return bits
}

// Validate returns an error naming the first level whose bits per key are
// neither 0 nor valid for Config.
func (p Plan) Validate() error {
	for i, b := range p.Levels {
		if b == 0 {
			continue
		}
		if math.IsNaN(b) || (Config{BitsPerKey: b}).Validate() != nil {
			return errors.Newf("rangefilter: Plan.Levels[%d] = %g bits/key: must be 0 (no filter) or in [4, 40]", i, b)
		}
	}
	return nil
}

// String describes the plan level by level, e.g. "L0 16 L1-L6 none", with
// " on demand" after an OnDemand plan.
func (p Plan) String() string {
	name := func(b float64) string {
		if b == 0 {
			return "none"
		}
		return fmt.Sprintf("%g", b)
	}
	var parts []string
	for start := 0; start < PlanLevels; {
		end := start
		for end+1 < PlanLevels && p.Levels[end+1] == p.Levels[start] {
			end++
		}
		levels := fmt.Sprintf("L%d", start)
		if end > start {
			levels += fmt.Sprintf("-L%d", end)
		}
		parts = append(parts, levels+" "+name(p.Levels[start]))
		start = end + 1
	}
	if p.OnDemand {
		parts = append(parts, "on demand")
	}
	return strings.Join(parts, " ")
}

// LevelLoad is what ForBudget needs to know about one level.
type LevelLoad struct {
	// Keys is the number of keys in the level's tables, which its filters'
	// memory is proportional to.
	Keys float64
	// Skipped is how many data-block loads of bounded reads range filters
	// on the level skipped, or would skip, over the period the statistics
	// cover (seekstats: FilteredRange where the level has filters, plus the
	// what-if's Avoided, whatif.RangeFilters, for the loads they did
	// not judge).
	Skipped float64
}

// ForBudget returns the plan that gives filters of bitsPerKey to the levels
// that skip the most loads per bit spent, as long as the filters' memory
// stays within budgetBitsPerKey averaged over all the levels' keys (a budget
// of bitsPerKey or more allows every level). Levels that skip nothing get no
// filter whatever the budget: a filter there costs memory and saves nothing.
//
// Assumptions: a level's skips scale with its filters' presence, not their
// size (at 16 bits per key the false-positive rate of a short range is
// under 0.1%, so more bits buy almost nothing); and the workload the counts
// come from is the one to plan for.
func ForBudget(bitsPerKey, budgetBitsPerKey float64, loads []LevelLoad) (Plan, error) {
	bitsPerKey = orDefault(bitsPerKey)
	if err := (Config{BitsPerKey: bitsPerKey}).Validate(); err != nil || math.IsNaN(bitsPerKey) {
		return Plan{}, errors.Newf("rangefilter: ForBudget: %g bits/key outside [4, 40]", bitsPerKey)
	}
	if !(budgetBitsPerKey >= 0) {
		return Plan{}, errors.Newf("rangefilter: ForBudget: budget %g bits/key is negative or not a number", budgetBitsPerKey)
	}
	if len(loads) != PlanLevels {
		return Plan{}, errors.Newf("rangefilter: ForBudget needs %d levels, not %d", PlanLevels, len(loads))
	}
	var total float64
	order := make([]int, 0, PlanLevels)
	for i, l := range loads {
		if !(l.Keys >= 0) || !(l.Skipped >= 0) {
			return Plan{}, errors.Newf("rangefilter: ForBudget: level %d has a negative or NaN load", i)
		}
		total += l.Keys
		if l.Skipped > 0 {
			order = append(order, i)
		}
	}
	// Most skips per key first; a level of no keys costs nothing.
	perKey := func(i int) float64 { return loads[i].Skipped / max(loads[i].Keys, 1) }
	sort.SliceStable(order, func(a, b int) bool { return perKey(order[a]) > perKey(order[b]) })
	var p Plan
	budget, spent := budgetBitsPerKey*total, 0.0
	for _, i := range order {
		cost := loads[i].Keys * bitsPerKey
		if spent+cost > budget && cost > 0 {
			continue
		}
		spent += cost
		p.Levels[i] = bitsPerKey
	}
	return p, nil
}
