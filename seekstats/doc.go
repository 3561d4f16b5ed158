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
//     fires on the goroutine that then builds the writer (internal/handoff).
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
// (whatif.go). Its candidates are the bounded seeks' data loads that produced
// no value (DataBounded - UsefulBounded): a range filter rules a table out
// only when the table holds nothing in the bounds. Two things decide how many
// of them a filter would still let through, and neither can be read off the
// bounds alone: whether the table holds a key in the bounds (a shadowed older
// version, a value the caller did not read: the filter must pass it), and ℓ,
// the number of values of the table's own key map the bounds cover, which
// sets the false-positive bound ℓ/2^(B-2) of a hashed filter
// (rangefilter.Config.FPRBound). Both are observed where the tables carry
// range filters, even when the DB reads with range filters off: while
// statistics are on (and not Config.FiltersOnly, which adds no filter of its
// own), each bounded iterator carries one more always-true block-property
// filter, under the range filter's name, and Pebble hands it each table's
// filter when it opens the table (rangelen.go). It maps the bounds through
// the table's key map (rangequery.CoverageOf) and records, per row, a log2
// histogram of ℓ, the checks whose bounds fall outside the map, and for
// filters that store their values exactly, whether the table holds a key in
// the bounds (Snapshot.RangeLens). Every check is counted; the coverage,
// which costs about a filter query, is taken for every check up to 1024 per
// counter shard and row, then for one in 16, and the what-if uses only its
// shares. The what-if then takes the share of checks on tables that hold a
// key as loads that must pass (less the loads that produced a value), and the
// sum of FPRBound(ℓ) over the hashed filters' checks as the false positives;
// the saving is what is left of the candidates. The bound counts every key of
// the table as a possible collision, but keys in the query's own hash block
// cannot collide with it, so where the keys span few blocks of r = n·2^(B-2)
// values (keys a little sparser than B bits store exactly) the filter does
// much better than its bound. The observer also sums each hashed filter's own
// expectation for the query (the bound scaled by the share of keys outside
// the query's blocks, rangequery.Coverage.FPR) and the budget it was written
// with; when that is the budget asked about, the what-if takes the filters'
// expectation instead of the bound. Where no table carries a range filter, ℓ
// is assumed (WhatIf.RangeLen, by default 2: an empty range between two
// adjacent keys) and every candidate is taken to hold nothing in the bounds.
// The cost is given twice: the level's keys (point entries from the tables'
// properties, DB.SSTables) times B bits, plus a header per table, an upper
// bound; and the filters the tables carry, as written (rangefilter.Describe),
// with their bits per key. Snapshot.PrefixFilterWhatIf does the same for
// Bloom prefix filters on levels where no prefix filter decided a seek (L6
// with UseL6Filters off is the common case): candidates are the level's loads
// without a value, the rate a Bloom filter's expected one (BloomFPR).
//
// The estimates are wrong where their inputs are. A load "without a value"
// is one whose value the caller never read, so a workload that does not read
// values makes every load a candidate; where the checks were observed, the
// loads on tables that hold a key in the bounds are taken off again. An
// exact filter says which tables those are; a hashed filter's "yes" mixes
// them with false positives, so its tables that hold a key are its "yes"
// answers less its own expected false positives, an estimate; and the
// false positives are summed over all its checks, including those on
// tables that hold a key (a slight overestimate). Checks are turned into loads by
// their shares, which assumes a check and a load go together (an iterator
// opened per seek: one check, at most one load per table); a long-lived
// iterator checks a table once for many seeks. The observed ℓ and exactness
// are those of the filters as written: at another budget B, a table stored
// exactly might hash, or the reverse, and the false positives are the bound. Values the fast attribution rule
// cannot place at a level (several tables loaded blocks for one seek, as
// over overlapping L0 tables) count in the unattributed row: where the
// levels' checks were observed, their loads are among the must-pass ones
// already; elsewhere the what-if takes them off the total, but which level's
// estimate they belong to is unknown, so the per-level figures are upper
// bounds by up to that count. Reads change shape once filters are on: an
// iterator that skips a table also stops the attribution ambiguity there,
// and a workload that adapts to latency may seek differently. The prefix
// estimate assumes the seeks were SeekPrefixGE (only those consult a prefix
// filter).
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
// index shape. What is left depends on the tier.
//
// Two tiers. The full statistics (the zero Config) count everything above.
// Config.FiltersOnly counts filter checks per level (FILTERED,
// FILTER_MATCH, and the Bloom tickers of Gets), seeks and Gets, and range
// filters' rule-outs (as unattributed), but no data-block loads: DATA,
// DATA_USEFUL_* and their bounded shares stay zero, so there is no seek
// false-positive rate, no range-filter opportunity, no per-table waste for
// the compaction advisor, and nothing for the what-if estimates to start
// from. What the full tier costs on top is Pebble's block-property
// machinery, which an iterator with any block-property filter pays and no
// exported option avoids: for every table the iterator opens, a filterer
// from a pool, a lookup of the filter's name in the table's user properties
// and the filter's table-level call, all before the table's point filter is
// consulted (so also for tables that filter then rules out); and one more
// property decoded per data-block load. A program that opens an iterator per
// seek pays that set-up on every seek, for every table of every level the
// seek reaches; it is the larger part of the full tier's cost for such a
// program, and the reason FiltersOnly exists: it is the tier whose cost stays
// near statistics off for an iterator per seek. The full tier then also
// attributes data-block loads and values (mostly cache misses on the file
// map and the counter lines), and a bounded iterator carries the
// range-length observer, which Pebble asks once per table it opens that
// carries a range filter: a count, and for a sample of the checks a mapping
// of the bounds through the table's key map.
//
// Both tiers pay for attributing filter checks (a file-map lookup and a
// counter per check) and two counters per seek. The full tier also pays,
// per iterator, for readying and releasing the plug-in state: the root
// package's iterator keeps it, tracker included (InitIter), in its own
// pooled wrapper, so that an iterator costs one pool's Get and Put rather
// than one per plug-in; the fields every iterator touches share a few cache
// lines; and an iterator opened with nil options copies and clears no
// options. In the FiltersOnly tier an iterator of a reader without range
// filters (a DB without the range-filter plug-in, or an indexed batch), and
// without ExactAttribution, has nothing to attribute but its seeks, so it
// carries no plug-in state at all (Statistics.SeeksOnly): it reads as a
// plain iterator and counts its seeks where the DB-wide tickers count
// theirs. The tables of either tier carry the tags, so switching between
// them needs no rewrite. With statistics off, the wrappers cost a nil
// check. Pebble rebuilds an iterator on every SetOptions while the full
// statistics are on, since its options then carry a block-property filter.
// BenchmarkSeekPrefixStatistics in the root package measures the cost against upstream Pebble, and BenchmarkRangeLenObserver
// the observer's against its absence; docs/benchmarks.md gives the figures.
package seekstats
