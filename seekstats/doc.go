// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package seekstats counts where a Pebble DB's reads are wasted, per LSM
// level, with RocksDB's seek and filter tickers under RocksDB's names (the
// change known as "much better stats for seeks and prefix filtering").
//
// The idea: every per-table seek either was ruled out by the table's filter
// (FILTERED), passed it (FILTER_MATCH), loaded a data block (DATA), and then
// did or did not produce a value the caller read (DATA_USEFUL_*). A seek that
// loaded a block and produced no value is the read a better filter could have
// saved, so the counts give the false-positive rate of prefix filters and the
// opportunity for range filters. Point lookups get the Bloom tickers
// (useful, positive, true positive) for whole-key and prefix filters.
//
// Pebble exposes no hook that names the table a read touched, so the
// instrumentation tags tables as they are written and learns the tags back at
// read time, through Pebble's exported API only:
//
//   - Filter checks: the configured FilterPolicy is wrapped in a tagging policy
//     (filter.go) whose filters end in the table's file number; MayContain strips
//     the tag, asks the inner policy and counts the answer for that table. The
//     writer learns the file number from the TableCreated event, which Pebble
//     fires on the goroutine that then builds the writer (handoff.go).
//   - Data-block loads: a block-property collector (collector.go) stores the
//     file number in every data block's property, and each wrapped iterator
//     carries an always-true block-property filter that Pebble consults before
//     every data-block load (iter.go).
//   - Levels: a file-to-level map (filemap.go) kept current from flush,
//     compaction (including moves), ingest and deletion events and seeded from
//     DB.SSTables when the DB is opened.
//   - Values: the wrapping iterator reports Value, ValueAndErr and LazyValue
//     calls; which table produced the value is inferred by the rule in
//     value.go, which is exact in the common cases and says when it is not.
//     An exact mode (Config.ExactAttribution) asks DB.ScanInternal for the level
//     of each value instead; tests use it to check the fast rule.
//   - Point lookups: a Get through the wrapper registers its key; a filter
//     check whose key is that very slice belongs to it (get.go), and is
//     counted for the table's level as well as in the statistics' Bloom totals.
//   - Range filters: the tracker's filter comes first among an iterator's
//     block-property filters, so its table-level call names the table just
//     before a range filter judges it; a wrapper around the range filter
//     (CountRangeFilter) counts a "no" there as a FILTERED seek of that
//     table, in a range share of its own (rangecount.go).
//
// The derived figures are printed only where they mean what they say: the
// seek false-positive rate only where values were read (without Value calls
// every match would count as false), and the range-filter opportunity over
// bounded iterators' seeks only (a range filter cannot help an unbounded
// one).
//
// Tables written without the tags (by upstream Pebble, or built outside and
// ingested) are counted in the "unattributed" row, never guessed; bytes that
// do not decode fail open and are counted. Their data-block loads are not
// seen at all (Pebble consults block-property filters only for tables that
// carry the property).
//
// What-if. Snapshot.RangeFilterWhatIf estimates, per level, what range
// filters of B bits per key would save on the workload counted without them
// (whatif.go). Its candidates are the bounded seeks' data loads that
// produced no value (DataBounded - UsefulBounded): a range filter rules a
// table out only when the table holds nothing in the bounds, and a load of
// such a table produces nothing. The filter would let a share of them
// through, its false positives, taken at package rangefilter's own bound
// ℓ/2^(B-2) (rangefilter.Config.FPRBound) for a range of ℓ key positions.
// The statistics do not see ℓ, the positions an empty range covers in the
// table's key map; WhatIf.RangeLen states it, DefaultWhatIfRangeLen (an
// empty range between two adjacent keys) when not given. Avoided is
// candidates less false positives. The cost is the level's keys (point
// entries from the tables' properties, DB.SSTables) times B bits, plus a
// header per table: an upper bound, since a filter holds distinct Split
// prefixes only and stores them exactly in fewer bits when it can.
// Snapshot.PrefixFilterWhatIf does the same for Bloom prefix filters on
// levels where no prefix filter decided a seek (L6 with UseL6Filters off is
// the common case): candidates are the level's loads without a value, the
// rate a Bloom filter's expected one (BloomFPR).
//
// The estimates are wrong where their counts are. A load "without a value"
// is one whose value the caller never read, so a workload that does not read
// values makes every load a candidate, and shadowed keys, tombstones and
// abandoned iterators count as empty too (the table held something the
// filter must pass). Values the fast attribution rule cannot place at a
// level (several tables loaded blocks for one seek, as over overlapping L0
// tables) count in the unattributed row: the what-if takes them off the
// total, but which level's estimate they belong to is unknown, so the
// per-level figures are upper bounds by up to that count. Reads change shape
// once filters are on: an iterator that skips a table also stops the
// attribution ambiguity there, and a workload that adapts to latency may
// seek differently. The range estimate holds for workloads whose empty
// ranges are short against the key map; long empty ranges over hashed
// filters pass more than the default ℓ says. The prefix estimate assumes
// the seeks were SeekPrefixGE (only those consult a prefix filter).
//
// Compatibility. Filters written with statistics on are stored under the
// name "pebblerf.tagged.<inner name>". pebblerf reads them whether
// statistics are on or off; upstream Pebble does not know the name and
// reads such tables without their filters (correct, but slower) until
// compactions rewrite them. RewriteForUpstream is the one-call rollback: it
// copies a DB into a new directory written by upstream Pebble, whose
// filters upstream reads. (Keeping the inner policy's name and bytes and
// identifying the table another way was weighed: a filter check carries
// only the filter's bytes and the key, Gets consult no block-property
// filter that could name the table first, and tables with identical keys
// have identical filters, so no exact attribution is left without the tag.)
//
// Cost. Statistics cost CPU on every seek, and not all of it is counting.
// The data-block tag adds a few bytes to every index entry; left alone, that
// would push a small table's index past IndexBlockSize and make it
// two-level, one more index block per seek, so Install widens the index
// block size by the tag's share (indexshape.go) and tables keep upstream's
// index shape. What is left is in two about equal parts. One is Pebble's
// block-property machinery, which an iterator with any block-property
// filter pays and no exported option avoids: for every table the iterator
// opens, a filterer from a pool, a lookup of the filter's name in the
// table's user properties and the filter's table-level call, all before the
// table's point filter is consulted (so also for tables that filter then
// rules out); and one more property decoded per data-block load. A program
// that opens an iterator per seek pays the set-up on every seek, for every
// table of every level the seek reaches. The other part is ours:
// attributing filter checks, data-block loads and values (mostly cache
// misses on the file map and the counter lines), and, per iterator, taking
// and returning the plug-in state. Config.FiltersOnly drops the
// block-property filter, and with it Pebble's part and the data-block
// attribution (its tables still carry the tags). With statistics
// off, the wrappers cost a nil check. Pebble rebuilds an iterator on every
// SetOptions while statistics are on, since its options then carry a
// block-property filter. BenchmarkSeekPrefixStatistics in the root package
// measures the cost against upstream Pebble; docs/benchmarks.md gives the
// figures.
package seekstats
