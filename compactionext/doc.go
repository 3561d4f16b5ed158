// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package compactionext shapes an LSM and compacts where reads are wasted,
// on top of upstream Pebble's exported API.
//
// It offers Profiles (Leveled, NoCompaction and ManyRuns: options applied
// before Open, and a driver started on the open DB) and AdvisorConfig, the
// configuration of the compaction advisor pebblerf runs with
// Plugins.Advisor.
//
// Where a flushed table lands, and when tables are merged, decides how many
// sorted runs a read must consult: each memtable, each L0 sublevel and each
// non-empty level is one run, and Pebble's merging iterator always holds all
// of them. Pebble's compaction picker is not pluggable, so shapes other than
// its leveled default are built from its knobs and from manual compactions
// (DB.Compact) issued by a small background driver. A Profile is such a
// recipe: Leveled is Pebble's default; ManyRuns keeps many sorted runs the way
// RocksDB's universal compaction does, for the workloads (and benchmarks) that
// have them.
//
// The statistics (package seekstats) tell where reads are wasted: a data
// block loaded that returned no value, a filter that said "maybe" and found
// nothing. The advisor (Plugins.Advisor, configured by AdvisorConfig) reads
// those counts per table, finds key ranges where waste concentrates across
// many runs, and compacts those ranges (reaching right over the runs an
// unbounded seek into them still pays for), one at a time, rate-limited,
// within a write budget earned by the DB's own writes, never while writes are
// stalled, logging each decision. Compactions merge runs but never change
// what a read returns.
//
// The package knows nothing of how the statistics are kept: the root
// package (pebble.OpenWithPlugins) applies a profile, makes the advisor
// with the statistics' per-table counts as its source, and starts both once
// the DB is open.
package compactionext
