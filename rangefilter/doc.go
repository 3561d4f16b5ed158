// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package rangefilter holds range filters for Pebble: per-table filters
// that answer "may this table hold any key in [lower, upper)?".
//
// It offers Policy (NewPolicy), which wires the filters into Pebble through
// its exported API (Collector and EventListener for the options,
// BoundsFilter and AttachBoundsFilter for iterators); Config, with ConfigFor
// and FPRBound; per-level plans (Plan: AllLevels, OverlappingRuns,
// ForBudget); and, on a filter's bytes, Builder, MayIntersect,
// FromUserProperties and Describe.
//
// A point filter can only say whether one key may be in a table; a bounded
// scan or seek has no single key to ask about, so Pebble reads every table
// whose key span overlaps its bounds, even when the table holds nothing in
// them. A range filter summarises a table's keys so that such a read can
// skip it, with no false negatives: "no" is always right, and a wrong "yes"
// costs the reads Pebble would have made anyway.
//
// The filter (range.go) is built per sstable over the Comparer.Split
// prefixes of all its point keys, tombstones included. A table-local,
// order-preserving key map (keymap.go, keymap_segments.go) turns keys into
// dense integers without zero padding; when those fit the budget they are
// stored exactly with Elias-Fano (eliasfano.go), otherwise they are reduced
// by a locality-preserving hash (range_hash.go) whose false-positive rate is
// at most L/2^(B-2) for a range of L key positions at B bits per key, for any
// keys and any query, including queries that start just after a key.
// MayIntersect answers on the encoded bytes without allocating; bytes that
// do not decode answer "may intersect". Builder builds one filter; Describe
// decodes a filter's header for reports.
//
// Policy wires filters into Pebble through its exported API: Collector for
// Options.BlockPropertyCollectors, which stores each table's filter as a
// table property, and BoundsFilter or AttachBoundsFilter for
// IterOptions.PointKeyFilters, which Pebble asks about each table before it
// reads any block of it. The bounds are baked into the filter: when they
// change, attach a new filter and call Iterator.SetOptions, never SetBounds.
//
// Not every level needs range filters, and they are not free: they live in
// the Go heap of every open table, and each costs its build at every flush
// and compaction. A Plan (plan.go) says which levels' tables get one and at
// how many bits per key; Policy.SetPlan changes it while the DB runs, and
// tables written without a filter read as "may intersect". An OnDemand
// plan builds them only where bounded reads come, and Policy.Backfill
// derives, from their keys, the filters of tables written before the
// reads came (usage.go, backfill.go).
//
// A filter pays only where spans miss tables; where every span holds keys
// in every table it overlaps, each query is pure cost. A bounds filter
// therefore tallies its answers, and the policy's gate (Policy.Admit,
// Policy.Report) leaves filters off new plain iterators of a key region
// while those of earlier ones there rule out almost nothing, all but a
// sample that keeps watching; it never costs a key, only skips the
// sampled-out iterators would have made.
//
// A Policy counts what its filters met: filters that did not decode and
// tables given a universal filter. pebblerf makes one Policy per DB and
// reports these counts per DB (DB.FilterCounters).
package rangefilter
