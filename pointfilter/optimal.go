// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"math"

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
// It buys no bit per key (over the whole DB) that saves less than
// planMinSaving false positives per lookup, so a budget larger than the
// consulted levels can use well is left unspent.
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
	// level's filters, on average.
	Checks float64
}

// UniformLoads returns the uniform assumption for a leveled DB: every
// non-empty level's filter is consulted once per lookup, L0 once per
// sublevel, and L6 only if l6Consulted (DB.Get never reads L6 filters;
// iterators do with IterOptions.UseL6Filters).
func UniformLoads(keys, tables [planLevels]float64, l0Sublevels int, l6Consulted bool) []LevelLoad {
	out := make([]LevelLoad, planLevels)
	for i := range out {
		out[i] = LevelLoad{Keys: keys[i], Tables: tables[i]}
		switch {
		case keys[i] == 0:
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
	opts = append(opts, planOption{filter: LevelFilter{Kind: KindFuse}, bitsPerKey: fuseBitsPerKey(keysPerTable), fpr: FuseFPR})
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
// budgetBitsPerKey bits per key averaged over all the levels' keys (see the
// math above). loads has one entry per level, L0 first (seven). A level
// with no keys costs nothing now and gets the filter of its nearest
// consulted neighbour, for the tables written there before the next plan.
func Optimal(budgetBitsPerKey float64, loads []LevelLoad) (Plan, error) {
	if len(loads) != planLevels {
		return Plan{}, errors.Newf("pointfilter: Optimal needs %d levels, not %d", planLevels, len(loads))
	}
	if math.IsNaN(budgetBitsPerKey) || budgetBitsPerKey < 0 || budgetBitsPerKey > pointMaxBitsPerKey {
		return Plan{}, errors.Newf("pointfilter: budget %v bits/key is outside [0, %d]", budgetBitsPerKey, pointMaxBitsPerKey)
	}
	var total float64
	options := make([][]planOption, planLevels)
	for i, l := range loads {
		if l.Keys < 0 || l.Checks < 0 || math.IsNaN(l.Keys) || math.IsNaN(l.Checks) {
			return Plan{}, errors.Newf("pointfilter: level %d has a negative or NaN load", i)
		}
		total += l.Keys
		options[i] = planOptions(l.Keys / max(l.Tables, 1))
	}
	budget := budgetBitsPerKey * total
	// lambdaMin prices a bit at its least (see planMinSaving).
	lambdaMin := planMinSaving / max(total, 1)
	// pick returns each level's option index minimising the Lagrangian.
	pick := func(lambda float64) ([]int, float64) {
		choice := make([]int, planLevels)
		var spent float64
		for i, l := range loads {
			best, bestCost := 0, math.Inf(1)
			for j, o := range options[i] {
				cost := l.Checks*o.fpr + lambda*l.Keys*o.bitsPerKey
				if cost < bestCost {
					best, bestCost = j, cost
				}
			}
			choice[i] = best
			spent += l.Keys * options[i][best].bitsPerKey
		}
		return choice, spent
	}
	// Bisect log λ: a large λ spends nothing, a small one everything.
	lo, hi := math.Log2(lambdaMin), 10.0 // log2 λ; at hi no level buys a filter
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
	for i, l := range loads {
		spent += l.Keys * options[i][choice[i]].bitsPerKey
	}
	for {
		bestI, bestJ, bestGain := -1, 0, 0.0
		for i, l := range loads {
			cur := options[i][choice[i]]
			for j, o := range options[i] {
				extra := l.Keys * (o.bitsPerKey - cur.bitsPerKey)
				saved := l.Checks * (cur.fpr - o.fpr)
				if saved <= 0 || spent+extra > budget {
					continue
				}
				gain := saved / max(extra, 1e-9)
				if gain > bestGain && gain >= lambdaMin {
					bestI, bestJ, bestGain = i, j, gain
				}
			}
		}
		if bestI < 0 {
			break
		}
		spent += loads[bestI].Keys * (options[bestI][bestJ].bitsPerKey - options[bestI][choice[bestI]].bitsPerKey)
		choice[bestI] = bestJ
	}
	plan := Plan{Levels: make([]LevelFilter, planLevels)}
	for i := range plan.Levels {
		plan.Levels[i] = options[i][choice[i]].filter
	}
	fillEmptyLevels(&plan, loads)
	return plan, nil
}

// fillEmptyLevels gives each level that holds no keys the filter of the
// nearest level that holds keys and is consulted, looking first at the
// levels above (whose tables compactions move down into it), then below.
// An empty level costs nothing today, so the optimisation leaves it without
// a filter; but the plan stays in force until the next re-plan, and an
// empty L0 is the common case between flushes: the tables written there in
// the meantime would have no filter at all.
func fillEmptyLevels(p *Plan, loads []LevelLoad) {
	// A donor holds keys, so no level filled here is read as a donor.
	for i := range p.Levels {
		if loads[i].Keys > 0 {
			continue
		}
		donor := LevelFilter{}
		for _, j := range nearestFirst(i) {
			if loads[j].Keys > 0 && loads[j].Checks > 0 && p.Levels[j].Kind != KindNone {
				donor = p.Levels[j]
				break
			}
		}
		p.Levels[i] = donor
	}
}

// nearestFirst lists the levels other than i, those above it nearest
// first, then those below it nearest first.
func nearestFirst(i int) []int {
	out := make([]int, 0, planLevels-1)
	for j := i - 1; j >= 0; j-- {
		out = append(out, j)
	}
	for j := i + 1; j < planLevels; j++ {
		out = append(out, j)
	}
	return out
}

// planMinSaving is the least saving Optimal buys with a bit per key over
// the whole DB: 10^-5 block loads per lookup. Past it a budget larger than
// the consulted levels can use well (when L6, most of the keys, is never
// consulted) is left unspent rather than spent on rates of 10^-12.
const planMinSaving = 1e-5

// ExpectedCost returns what Optimal minimises for plan p under loads: the
// expected false positives per absent-key lookup, and the bits per key the
// plan spends averaged over all keys. The estimate uses each filter's
// stated math, as Optimal does.
func ExpectedCost(p Plan, loads []LevelLoad) (falsePositives, bitsPerKey float64, err error) {
	filters, err := p.Filters()
	if err != nil {
		return 0, 0, err
	}
	if len(loads) != planLevels {
		return 0, 0, errors.Newf("pointfilter: ExpectedCost needs %d levels, not %d", planLevels, len(loads))
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
		return planOption{filter: f, bitsPerKey: fuseBitsPerKey(keysPerTable), fpr: FuseFPR}
	}
	return planOption{filter: f, fpr: 1}
}
