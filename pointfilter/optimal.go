// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"math"
	"slices"

	"github.com/cockroachdb/errors"
)

// Optimal plans: where a fixed amount of filter memory saves the most reads.
//
// A lookup for a key the DB does not hold consults, level by level, the
// filter of each table whose key range covers the key, and every "may
// contain" it gets is a data block loaded for nothing. If level i's filter is
// consulted c_i times per such lookup (about once per level below L0, once
// per L0 sublevel, never for L6 in DB.Get, which does not read L6 filters)
// and has false-positive rate ε_i, the expected wasted block loads per
// lookup are
//
//	W = Σ_i c_i·ε_i.
//
// Level i holds n_i keys; a filter of kind k at bits b spends n_i·m_k(b)
// bits, where m_k is the kind's bits per key (b for Bloom, about 0.7·b for
// Ribbon at Bloom's rate, 9 to 11 for binary fuse, depending on the keys
// per table), and the budget is B bits per key over the DB: Σ n_i·m_i ≤
// B·Σ n_i. Since every ε falls roughly exponentially with the bits spent
// (ε ≈ 2^(−m/o) for a kind whose space is o times the lower bound), the
// marginal saving of a bit is proportional to c_i·ε_i/n_i, and at the
// optimum it is equal on every level that gets a filter: small levels
// that are consulted as often as large ones get more bits per key, their
// rate is lower in proportion to their size. That is Monkey's argument
// (Dayan, Athanassoulis and Idreos, SIGMOD 2017); Pebble's progressive
// preset is a fixed approximation of it.
//
// Optimal solves the discrete version: each level picks one option (no
// filter; Bloom or Ribbon at bits in steps of a quarter bit; binary fuse),
// minimising W subject to the budget. It minimises the Lagrangian
// c_i·ε + λ·n_i·m per level for a multiplier λ found by bisection so that
// the plan spends as much of the budget as it may, then spends what is left
// by upgrading, greedily, the level whose next option saves most per bit.
// It buys no bit per key on a level that saves less than planMinSaving
// false positives per lookup, so a budget larger than the consulted levels
// can use well is left unspent.
//
// A plan governs the tables written after it is made, not those that exist,
// so Optimal plans for the shape the DB is growing into, not only the one it
// has. Three rules make that shape:
//
//   - Where new tables land: every flush writes L0, and compactions carry
//     tables down level by level, so a level that is empty now but that
//     lookups consult (Checks > 0) will hold tables before the next plan.
//     Leaving it without a filter because it costs nothing today would
//     leave those tables unfiltered: the common case is an empty L0 between
//     flushes, or L0 to L5 empty after a full compaction into L6.
//   - How the levels grow: a leveled LSM keeps each level about ten times
//     the size of the one above it (Pebble's default
//     Options.LevelMultiplier, growthFactor here). An empty consulted level
//     is planned as holding the keys of the nearest level below it that
//     holds any, divided by ten for each level between; with no level below
//     holding keys, as holding those of the nearest above it (its tables are
//     moved down into it); in an empty DB, as the textbook shape, 10^i keys
//     on level i. Its tables are sized as that level's are. The budget is
//     averaged over these planned keys and the keys the levels hold now.
//   - A floor per consulted level: no level that lookups consult gets a
//     filter with a higher false-positive rate than Bloom at half the
//     budget's bits per key (when that is at least the one bit a filter
//     needs). The optimum rarely comes near it; it keeps a small budget
//     from being spent on a few levels while another is left bare. A floor
//     of half the budget on every level is always affordable.
//
// Assumptions: keys absent from the DB fall anywhere in the key space, so
// each level's filter is consulted c_i times whatever its size (the uniform
// assumption; per-level statistics can supply measured c_i); filters' rates
// are those their math states (bloom.go, ribbon.go, fuse.go), independent
// across levels; a false positive costs one block load whatever the level;
// build CPU is not counted, which favours Ribbon on large levels exactly as
// it should only when compactions can afford it; nor is probe CPU, which
// differs by kind (Ribbon's probe is the costliest; docs/benchmarks.md).

// LevelLoad is what Optimal needs to know about one level.
type LevelLoad struct {
	// Keys is the number of distinct keys (Split prefixes) in the level.
	Keys float64
	// Tables is the number of tables the keys are spread over; it sets
	// the keys per filter, which Ribbon's and binary fuse's space depends
	// on. 0 is taken as 1.
	Tables float64
	// Checks is how many times a lookup of an absent key consults the
	// level's filters, on average: those of the tables it holds now and of
	// those written to it later. A level that holds no keys now has
	// Checks too if lookups will consult it once it does; 0 means lookups
	// never consult it (L6 in DB.Get).
	Checks float64
}

// UniformLoads returns the uniform assumption for a leveled DB: every
// level's filter is consulted once per lookup, whether or not the level holds
// keys now (its future tables will be), L0 once per sublevel (at least once:
// every flush lands there), and L6 only if l6Consulted (DB.Get never reads
// L6 filters; iterators do with IterOptions.UseL6Filters).
func UniformLoads(keys, tables [planLevels]float64, l0Sublevels int, l6Consulted bool) []LevelLoad {
	out := make([]LevelLoad, planLevels)
	for i := range out {
		out[i] = LevelLoad{Keys: keys[i], Tables: tables[i]}
		switch {
		case i == 0:
			out[i].Checks = float64(max(l0Sublevels, 1))
		case i == planLevels-1 && !l6Consulted:
		default:
			out[i].Checks = 1
		}
	}
	return out
}

// planOption is one filter a level may get: its bits per key and rate.
type planOption struct {
	filter     LevelFilter
	bitsPerKey float64
	fpr        float64
}

// planOptionStep is the bits/key step of the Bloom and Ribbon options.
const planOptionStep = 0.25

// planOptions lists the options for a level with keysPerTable keys per
// filter, sorted by nothing in particular.
func planOptions(keysPerTable float64) []planOption {
	opts := []planOption{{filter: LevelFilter{Kind: KindNone}, fpr: 1}}
	for b := float64(pointMinBitsPerKey); b <= pointMaxBitsPerKey; b += planOptionStep {
		fpr := BloomExpectedFPR(b)
		opts = append(opts, planOption{filter: LevelFilter{Kind: KindBloom, Bits: b}, bitsPerKey: b, fpr: fpr})
		if rb, ok := ribbonBitsPerKey(keysPerTable, b); ok {
			opts = append(opts, planOption{filter: LevelFilter{Kind: KindRibbon, Bits: b}, bitsPerKey: rb, fpr: fpr})
		}
	}
	opts = append(opts, planOption{filter: LevelFilter{Kind: KindFuse}, bitsPerKey: fuseBitsPerKey(keysPerTable), fpr: fuseFPR})
	return opts
}

// ribbonBitsPerKey is the space a Ribbon filter of n keys at Bloom-equivalent
// bits b spends per key: (1+ε_m(n))·(r−p) bits, r result bits of which the
// fraction p of starts miss one (ribbon.go); ok is false where Ribbon falls
// back to Bloom (it would be no smaller).
func ribbonBitsPerKey(n, b float64) (float64, bool) {
	r, p := ribbonParams(b)
	bits := (1 + ribbonOverhead(int(max(n, 2)))) * (float64(r) - p)
	return bits, bits < b
}

// Optimal returns the per-level plan that minimises the expected false
// positives per absent-key lookup, Σ Checks·FPR, spending at most
// budgetBitsPerKey bits per key averaged over the keys the plan is made for
// (see the math and the growth rules above). loads has one entry per level,
// L0 first (seven). Every level that lookups consult gets at least the
// floor; a level no lookup consults gets a filter only if it holds keys and
// the budget has nothing better to buy.
func Optimal(budgetBitsPerKey float64, loads []LevelLoad) (Plan, error) {
	shape, err := plannedShape(loads)
	if err != nil {
		return Plan{}, err
	}
	if math.IsNaN(budgetBitsPerKey) || budgetBitsPerKey < 0 || budgetBitsPerKey > pointMaxBitsPerKey {
		return Plan{}, errors.Newf("pointfilter: budget %v bits/key is outside [0, %d]", budgetBitsPerKey, pointMaxBitsPerKey)
	}
	var total float64
	options := make([][]planOption, planLevels)
	floor := floorFPR(budgetBitsPerKey)
	for i, l := range shape {
		total += l.Keys
		options[i] = planOptions(l.Keys / max(l.Tables, 1))
		if l.Checks > 0 {
			options[i] = slices.DeleteFunc(options[i], func(o planOption) bool { return o.fpr > floor })
		}
	}
	budget := budgetBitsPerKey * total
	// minPrice is what a bit costs on each level at the least (see
	// planMinSaving); lambdaMin, the least of them.
	var minPrice [planLevels]float64
	lambdaMin := math.Inf(1)
	for i, l := range shape {
		if l.Keys > 0 {
			minPrice[i] = planMinSaving / l.Keys
			lambdaMin = min(lambdaMin, minPrice[i])
		}
	}
	if math.IsInf(lambdaMin, 1) {
		lambdaMin = planMinSaving // no keys anywhere: any price buys nothing
	}
	// pick returns each level's option index minimising the Lagrangian.
	pick := func(lambda float64) ([]int, float64) {
		choice := make([]int, planLevels)
		var spent float64
		for i, l := range shape {
			best, bestCost := 0, math.Inf(1)
			price := max(lambda, minPrice[i])
			for j, o := range options[i] {
				cost := l.Checks*o.fpr + price*l.Keys*o.bitsPerKey
				if cost < bestCost {
					best, bestCost = j, cost
				}
			}
			choice[i] = best
			spent += l.Keys * options[i][best].bitsPerKey
		}
		return choice, spent
	}
	// Bisect log λ: a large λ spends nothing beyond the floor, a small one
	// everything.
	lo, hi := math.Log2(lambdaMin), 10.0 // log2 λ; at hi no level buys more than the floor
	choice, spent := pick(math.Exp2(lo))
	if spent > budget {
		choice, _ = pick(math.Exp2(hi))
	} else {
		hi = lo // the budget buys all that is worth buying
	}
	for range 80 {
		if hi <= lo {
			break
		}
		mid := (lo + hi) / 2
		c, spent := pick(math.Exp2(mid))
		if spent <= budget {
			choice, hi = c, mid
		} else {
			lo = mid
		}
	}
	// Spend the rest greedily, the largest saving per bit first.
	spent = 0
	for i, l := range shape {
		spent += l.Keys * options[i][choice[i]].bitsPerKey
	}
	for {
		bestI, bestJ, bestGain := -1, 0, 0.0
		for i, l := range shape {
			cur := options[i][choice[i]]
			for j, o := range options[i] {
				extra := l.Keys * (o.bitsPerKey - cur.bitsPerKey)
				saved := l.Checks * (cur.fpr - o.fpr)
				if saved <= 0 || spent+extra > budget {
					continue
				}
				gain := saved / max(extra, 1e-9)
				if gain > bestGain && gain >= minPrice[i] {
					bestI, bestJ, bestGain = i, j, gain
				}
			}
		}
		if bestI < 0 {
			break
		}
		spent += shape[bestI].Keys * (options[bestI][bestJ].bitsPerKey - options[bestI][choice[bestI]].bitsPerKey)
		choice[bestI] = bestJ
	}
	plan := Plan{Levels: make([]LevelFilter, planLevels)}
	for i := range plan.Levels {
		plan.Levels[i] = options[i][choice[i]].filter
	}
	return plan, nil
}

// growthFactor is how much larger each level of a leveled LSM is than the
// one above it: Pebble's default Options.LevelMultiplier.
const growthFactor = 10

// plannedShape returns loads with each empty level that lookups consult
// given the keys and tables the growth rules above plan it for; the other
// levels are as given. It checks loads.
func plannedShape(loads []LevelLoad) ([]LevelLoad, error) {
	if len(loads) != planLevels {
		return nil, errors.Newf("pointfilter: a plan needs %d levels of loads, not %d", planLevels, len(loads))
	}
	for i, l := range loads {
		if l.Keys < 0 || l.Checks < 0 || l.Tables < 0 || math.IsNaN(l.Keys) || math.IsNaN(l.Checks) || math.IsNaN(l.Tables) {
			return nil, errors.Newf("pointfilter: level %d has a negative or NaN load", i)
		}
	}
	shape := slices.Clone(loads)
	for i, l := range loads {
		if l.Keys > 0 || l.Checks == 0 {
			continue
		}
		donor, scale := -1, 1.0
		for j := i + 1; j < planLevels && donor < 0; j++ {
			scale /= growthFactor
			if loads[j].Keys > 0 {
				donor = j
			}
		}
		for j := i - 1; j >= 0 && donor < 0; j-- {
			if loads[j].Keys > 0 {
				donor, scale = j, 1
			}
		}
		if donor < 0 {
			// An empty DB: the textbook shape, one table a level.
			shape[i].Keys, shape[i].Tables = math.Pow(growthFactor, float64(i)), 1
			continue
		}
		d := loads[donor]
		shape[i].Keys = d.Keys * scale
		shape[i].Tables = max(d.Tables*scale, 1)
	}
	return shape, nil
}

// floorFPR is the highest false-positive rate Optimal gives a consulted
// level under budget bits per key: Bloom's at half the budget, or 1 (no
// floor) when that is below the one bit a filter needs.
func floorFPR(budget float64) float64 {
	if budget/2 < pointMinBitsPerKey {
		return 1
	}
	return BloomExpectedFPR(budget / 2)
}

// planMinSaving is the least saving Optimal buys with a bit per key on a
// level: 10^-4 block loads per lookup. Past it a budget larger than the
// consulted levels can use well (when L6, most of the keys, is never
// consulted) is left unspent rather than spent on rates of 10^-12: a
// Bloom filter's bit saves about 0.4·c·ε, so the levels stop near ε of
// 2.5·10^-4, about the 16 bits per key Pebble's progressive preset gives
// its small levels.
const planMinSaving = 1e-4

// expectedCost returns what Optimal minimises for plan p under loads: the
// expected false positives per absent-key lookup, and the bits per key the
// plan spends averaged over the keys a plan is made for (the levels' keys
// now, and those the growth rules plan for the empty levels lookups
// consult). The estimate uses each filter's stated math, as Optimal does.
func expectedCost(p Plan, loads []LevelLoad) (falsePositives, bitsPerKey float64, err error) {
	filters, err := p.Filters()
	if err != nil {
		return 0, 0, err
	}
	loads, err = plannedShape(loads)
	if err != nil {
		return 0, 0, err
	}
	var keys, bits float64
	for i, f := range filters {
		o := optionFor(f, loads[i].Keys/max(loads[i].Tables, 1))
		falsePositives += loads[i].Checks * o.fpr
		bits += loads[i].Keys * o.bitsPerKey
		keys += loads[i].Keys
	}
	if keys > 0 {
		bitsPerKey = bits / keys
	}
	return falsePositives, bitsPerKey, nil
}

// optionFor prices filter f for a level with keysPerTable keys per filter.
func optionFor(f LevelFilter, keysPerTable float64) planOption {
	switch f.Kind {
	case KindBloom:
		return planOption{filter: f, bitsPerKey: f.Bits, fpr: BloomExpectedFPR(f.Bits)}
	case KindRibbon:
		if rb, ok := ribbonBitsPerKey(keysPerTable, f.Bits); ok {
			return planOption{filter: f, bitsPerKey: rb, fpr: BloomExpectedFPR(f.Bits)}
		}
		return planOption{filter: f, bitsPerKey: f.Bits, fpr: BloomExpectedFPR(f.Bits)}
	case KindFuse:
		return planOption{filter: f, bitsPerKey: fuseBitsPerKey(keysPerTable), fpr: fuseFPR}
	}
	return planOption{filter: f, fpr: 1}
}
