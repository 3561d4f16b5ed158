// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble_test

import (
	"context"
	"fmt"
	"log"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
)

// Example_openWithPlugins opens a DB with plug-ins, writes a table, and makes
// a bounded read that the table's range filter rules out before any block of
// it is read.
func Example_openWithPlugins() {
	db, err := pebble.OpenWithPlugins("db", &pebble.Options{FS: vfs.NewMem()}, pebble.Plugins{
		Statistics: true, // per-level seek and filter tickers
		// Bloom above L3, Ribbon from it down; a planner, so it can be re-planned
		Filters:     pointfilter.MustNewPlanner(pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: 3}),
		RangeFilter: &rangefilter.Config{BitsPerKey: 16}, // bounded reads skip tables
	}) // pebble.Plugins{} is what Open uses
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 1000; i += 2 { // even keys only
		if err := db.Set(fmt.Appendf(nil, "key%04d", i), []byte("v"), nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		log.Fatal(err)
	}

	// [key0101, key0102) holds no key: the range filter says so.
	it, err := db.NewRangeQuery(&pebble.IterOptions{LowerBound: []byte("key0101"), UpperBound: []byte("key0102")}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("found:", it.First())
	if err := it.Close(); err != nil {
		log.Fatal(err)
	}
	// The DB-wide tickers are always kept; with Statistics, the per-level
	// ones too.
	fmt.Println("tables a range filter ruled out:", db.Statistics().Get("pebblerf.l0.seek.filtered.range"))
	// Output:
	// found: false
	// tables a range filter ruled out: 1
}

// Example_replan re-plans a DB's point filters from its own levels, after a
// compaction has moved all its data to L6, and shows that the tables flushed
// afterwards still rule absent keys out.
func Example_replan() {
	db, err := pebble.OpenWithPlugins("db", &pebble.Options{FS: vfs.NewMem()}, pebble.Plugins{
		Filters: pointfilter.MustNewPlanner(pointfilter.Uniform(10)),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 20000; i++ {
		if err := db.Set(fmt.Appendf(nil, "key%05d", i), []byte("v"), nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := db.Compact(context.Background(), []byte("key"), []byte("kez"), true); err != nil {
		log.Fatal(err)
	}

	// Re-plan from the DB's own levels: 10 bits/key on average, where they
	// save the most. DB.Get never reads L6 filters (false), so L6 gets none;
	// the levels above it are empty now, but flushes and compactions will
	// fill them, so the plan gives them filters.
	loads, err := db.PointFilterLoads(false)
	if err != nil {
		log.Fatal(err)
	}
	plan, err := pointfilter.Optimal(10, loads)
	if err != nil {
		log.Fatal(err)
	}
	if err := db.FilterPlanner().Set(plan); err != nil { // new tables follow it
		log.Fatal(err)
	}
	fmt.Println("plan:", plan)

	// A new L0 table over the same span, and lookups of keys absent from it.
	for i := 0; i < 20000; i += 10 {
		if err := db.Set(fmt.Appendf(nil, "key%05d", i), []byte("w"), nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		log.Fatal(err)
	}
	before := db.Metrics().Filter.Hits
	const lookups = 20000
	for i := 0; i < lookups; i++ {
		if _, _, err := db.Get(fmt.Appendf(nil, "key%05dx", i)); err != pebble.ErrNotFound {
			log.Fatalf("key%05dx: %v", i, err)
		}
	}
	ruledOut := db.Metrics().Filter.Hits - before
	fmt.Printf("absent keys ruled out by the new table's filter: %d of %d\n", ruledOut, lookups)
	// Output:
	// plan: L0-L5 ribbon(20.75) L6 none
	// absent keys ruled out by the new table's filter: 19989 of 20000
}
