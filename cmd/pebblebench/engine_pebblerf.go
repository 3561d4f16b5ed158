// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"sync/atomic"

	upstream "github.com/cockroachdb/pebble/v2"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// advisorCompactionsTicker counts the compactions pebblerf's compaction
// advisor made (-compaction_advisor).
const advisorCompactionsTicker = "pebblerf.advisor.compactions"

// openPebbleRF opens dir with pebblerf's OpenWithPlugins and the plug-ins
// the flags select (config.options): by default none, as pebblerf's Open.
// What the open DB counts and plans lives with it, in the adapter's
// closures: the advisor's compactions, its query builder and, through the
// DB, its filter planner (DB.FilterPlanner).
func openPebbleRF(dir string, opts *pebblerf.Options, plugins pebblerf.Plugins, c *config.Config) (engine, error) {
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
	a.newQuery = func(o *upstream.IterOptions) (iterator, error) {
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
	// -pebblerf_statistics (pebblerf_statistics.go).
	a.extra = func() []statistics.Ticker { return pebblerfTickers(db, advisorCompactions) }
	if plugins.Statistics {
		a.levelTable = func() string { return levelTable(db, c) }
	}
	return a, nil
}

// pebblerfDB returns e's pebblerf DB, if e is pebblerf's.
func pebblerfDB(e engine) (*pebblerf.DB, bool) {
	a, ok := e.(*adapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch])
	if !ok {
		return nil, false
	}
	return a.db, true
}
