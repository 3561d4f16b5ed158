// Copyright 2026 The pebblerf Authors. All rights reserved.

package engine

import (
	"fmt"
	"strings"
	"sync/atomic"

	upstream "github.com/cockroachdb/pebble/v2"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/whatif"
)

// advisorCompactionsTicker counts the compactions pebblerf's compaction
// advisor made (-compaction_advisor).
const AdvisorCompactionsTicker = "pebblerf.advisor.compactions"

// openPebbleRF opens dir with pebblerf's OpenWithPlugins and the plug-ins
// the flags select (config.options): by default none, as pebblerf's Open.
// What the open DB counts and plans lives with it, in the adapter's
// closures: the advisor's compactions, its query builder and, through the
// DB, its filter planner (DB.FilterPlanner).
func openPebbleRF(dir string, opts *pebblerf.Options, plugins pebblerf.Plugins, c *config.Config) (DB, error) {
	// The advisor's compactions are counted for this DB, nil without it.
	var advisorCompactions *atomic.Int64
	if plugins.Advisor != nil {
		advisorCompactions = new(atomic.Int64)
		advisor := *plugins.Advisor
		report := advisor.OnDecision
		advisor.OnDecision = func(d compactionext.Decision) {
			advisorCompactions.Add(1)
			report(d)
		}
		plugins.Advisor = &advisor
	}
	stalls := &lsm.StallClock{}
	stalls.Attach(opts)
	db, err := pebblerf.OpenWithPlugins(dir, opts, plugins)
	if err != nil {
		return nil, err
	}
	a := newAdapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch](config.EnginePebbleRF, db, stalls)
	plan, _ := c.Plan() // validated
	// One builder per open DB: it caches the LSM's layout across queries.
	queries := db.RangeQueries(pebblerf.RangeQueryOptions{Plan: plan})
	a.newQuery = func(o *upstream.IterOptions) (Iterator, error) {
		it, err := queries.NewIter(o)
		if err != nil {
			return nil, err
		}
		return it, nil
	}
	a.explain = func(o *upstream.IterOptions, seek []byte, nexts int) (fmt.Stringer, error) {
		e, err := queries.Explain(o, seek, nexts)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
	// The DB-wide tickers are kept in any case, and the per-level ones with
	// -pebblerf_statistics (pebblerfTickers, below).
	a.extra = func() []statistics.Ticker { return pebblerfTickers(db, advisorCompactions) }
	if plugins.Statistics {
		a.levelTable = func() string { return levelTable(db, c) }
	}
	return a, nil
}

// pebblerfDB returns e's pebblerf DB, if e is pebblerf's.
func PebbleRF(e DB) (*pebblerf.DB, bool) {
	a, ok := e.(*adapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch])
	if !ok {
		return nil, false
	}
	return a.db, true
}

// pebblerfTickers are db's tickers for STATISTICS, with the advisor's
// compactions when the advisor runs (advisorCompactions non-nil).
func pebblerfTickers(db *pebblerf.DB, advisorCompactions *atomic.Int64) []statistics.Ticker {
	out := db.Statistics().Tickers()
	if advisorCompactions != nil {
		out = append(out, statistics.Ticker{Name: AdvisorCompactionsTicker, Count: advisorCompactions.Load()})
	}
	return out
}

// levelTable is the per-level seek statistics table printed by
// -statistics, with the what-if lines under it.
func levelTable(db *pebblerf.DB, c *config.Config) string {
	return db.Statistics().PerLevel().Snapshot().LevelTable() + whatIfLines(db, c)
}

// whatIfs computes the what-ifs the flags ask for on db's statistics and
// its current LSM shape.
func WhatIfs(db *pebblerf.DB, c *config.Config) (rng, prefix []whatif.Level, w whatif.Options, err error) {
	levels, err := db.SSTables(upstream.WithProperties())
	if err != nil {
		return nil, nil, w, err
	}
	w.Shape = whatif.ShapeOf(levels)
	sn := db.Statistics().PerLevel().Snapshot()
	rb, pb := c.WhatIfBits()
	if rb > 0 {
		w.BitsPerKey = rb
		rng = whatif.RangeFilters(&sn, w)
	}
	if pb > 0 {
		w.BitsPerKey = pb
		prefix = whatif.PrefixFilters(&sn, w)
	}
	return rng, prefix, w, nil
}

// whatIfLines are the "what-if" lines printed under the per-level table:
// per level, what range filters of -range_filter_whatif_bits and prefix
// filters of -prefix_filter_whatif_bits would save and cost on the
// workload counted (whatif.RangeFilters and whatif.PrefixFilters).
func whatIfLines(db *pebblerf.DB, c *config.Config) string {
	rng, prefix, _, err := WhatIfs(db, c)
	if err != nil {
		return fmt.Sprintf("what-if: %v\n", err)
	}
	rb, pb := c.WhatIfBits()
	var b strings.Builder
	if len(rng) > 0 {
		fmt.Fprintf(&b, "what-if range filters of %g bits/key (FPR bound at the range lengths observed in the tables' range filters,"+
			" else at %d key positions; filter bytes at the budget are an upper bound, those as written are measured;"+
			" candidates are the bounded loads not needed, whose table held no key the seek found, value read or not):\n",
			rb, whatif.DefaultRangeLen)
		b.WriteString(whatif.Table("range", rng))
	}
	if len(prefix) > 0 {
		fmt.Fprintf(&b, "what-if prefix filters of %g bits/key on levels no prefix filter decided (assumes SeekPrefixGE seeks):\n", pb)
		b.WriteString(whatif.Table("prefix", prefix))
	}
	return b.String()
}
