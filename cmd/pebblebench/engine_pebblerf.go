// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"

	upstream "github.com/cockroachdb/pebble/v2"
	pebblerf "github.com/pebblerf/pebble"
)

// openPebbleRF opens dir with pebblerf's OpenWithPlugins and the plug-ins
// the flags select (plugins.go): by default none, as pebblerf's Open.
func openPebbleRF(dir string, opts *pebblerf.Options, c *config) (engine, error) {
	plugins := c.pebblerfPlugins()
	stalls := &stallClock{}
	stalls.attach(opts)
	db, err := pebblerf.OpenWithPlugins(dir, opts, plugins)
	if err != nil {
		return nil, err
	}
	a := &adapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch]{name: enginePebbleRF, db: db, stalls: stalls}
	plan, _ := c.plan() // validated
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
	// -pebblerf_statistics.
	a.extra = func() []ticker {
		out := db.Statistics().Tickers()
		if plugins.Advisor != nil {
			out = append(out, ticker{Name: advisorCompactionsTicker, Count: c.advisorCompactions.Load()})
		}
		return out
	}
	if plugins.Statistics {
		a.levelTable = func() string { return db.Statistics().PerLevel().Snapshot().LevelTable() + whatIfLines(db, c) }
	}
	return a, nil
}
