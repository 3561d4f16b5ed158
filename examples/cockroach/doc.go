// Copyright 2026 The pebblerf Authors. All rights reserved.

// Command cockroach opens pebblerf the way CockroachDB opens Pebble, and
// upstream Pebble beside it with the same options, writes the same MVCC
// data and lock table into both, and makes the reads a CockroachDB-style
// storage layer makes: point gets, short MVCC scans, lock-table span checks
// and time-bound (incremental) scans. It checks that both engines returned
// the same, prints what the reads returned, then per kind of read the block
// bytes each engine loaded and their ratio, an explain of one scan, and
// pebblerf's per-level seek statistics with a legend of their columns.
//
// Both engines' compactions run; each is read once they have settled, so
// the figures repeat from run to run. Block bytes are what the iterators
// loaded from the block cache or from disk: on a local disk with a warm
// page cache they cost microseconds, on object storage a request each.
//
// # The configuration
//
// The options are CockroachDB's, from DefaultPebbleOptions in its
// pkg/storage/pebble.go; package crdb, in this directory, holds them and
// the lock-table keys, and its documentation says where each option comes
// from. Time-bound iteration, as CockroachDB's incremental iterator does
// it, is SkipPoint plus a time-interval entry in IterOptions.PointKeyFilters.
// A KV read checks the lock table (a local key span of replicated locks,
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
// crdb is a package of this example, not of pebblerf: the options are
// CockroachDB's choices, which it changes between releases, and a program
// that wants them copies the few lines it needs. pebblebench's
// -key_format=mvcc gives both of its engines the same package's keys and
// LSM options (crdb.Apply; memtables and filters come from its flags), so
// its figures are for this configuration.
//
// Run it with
//
//	go run ./examples/cockroach [-dir DIR] [-keys N]
package main
