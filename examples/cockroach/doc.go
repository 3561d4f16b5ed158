// Copyright 2026 The pebblerf Authors. All rights reserved.

// Command cockroach opens pebblerf the way CockroachDB opens Pebble, writes
// MVCC data and a lock table, and makes the reads a CockroachDB-style
// storage layer makes: point gets, short MVCC scans, lock-table span checks
// and time-bound (incremental) scans. It prints what each read returned and
// the per-level seek statistics.
//
// # The configuration and where it comes from
//
// CockroachDB builds its Pebble options in DefaultPebbleOptions, in
// pkg/storage/pebble.go of github.com/cockroachdb/cockroach (read at commit
// 836ab71eb0ac3a1136a6b4d973514408bce4e8fa; also summarised in this
// project's research notes, "How CockroachDB configures Pebble"). The
// options this program takes from there:
//
//   - the engine-key Comparer and the columnar KeySchema (CockroachDB's
//     EngineComparer and DefaultKeySchema; Pebble v2.1.7 exports them as
//     cockroachkvs.Comparer and cockroachkvs.KeySchema);
//   - the MVCC time-interval block-property collector
//     (PebbleBlockPropertyCollectors there; cockroachkvs.BlockPropertyCollectors
//     here), which is what cockroachkvs.NewMVCCTimeIntervalFilter reads;
//   - on every one of the seven levels: 32 KiB data blocks, 256 KiB index
//     blocks, a Bloom filter of 10 bits per key, table filters;
//   - L0CompactionThreshold 2, L0StopWritesThreshold 1000, LBaseMaxBytes
//     64 MiB, 64 MiB memtables with MemTableStopWritesThreshold 4, and no
//     multi-level compactions.
//
// Options that only make sense inside CockroachDB (its merger, logger,
// cluster-setting closures, shared storage) are left at Pebble's defaults.
// Time-bound iteration, as CockroachDB's incremental iterator does it, is
// SkipPoint plus a time-interval entry in IterOptions.PointKeyFilters. A
// KV read checks the lock table (a local key span of replicated locks,
// mostly empty) before it reads MVCC data, and because both are written
// together, flushed tables span both key spaces.
//
// # What pebblerf adds
//
// OpenWithPlugins turns on, over those options: seek statistics, a point
// filter plan that keeps 10 bits per key of Bloom on the upper levels and
// puts Ribbon (the same false-positive rate in less space) on the lower
// ones, a range filter in every table, and the compaction advisor. The point
// filters act on Split prefixes, which for engine keys are the roach key
// without its timestamp, exactly what CockroachDB's Bloom filters hold. The
// range filter joins, never replaces, a caller's PointKeyFilters, so the
// time-interval filter of a time-bound scan still applies. Results are
// identical to upstream Pebble's with the same options (the test checks
// it); what changes is how many tables and blocks a read opens.
//
// The options are built by a function of this program, not exported by
// pebblerf: they are CockroachDB's choices, which it changes between
// releases, and a program that wants them copies the few lines it needs.
//
// Run it with
//
//	go run ./examples/cockroach [-dir DIR] [-keys N]
package main
