// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package attribution is the machinery behind the per-level statistics
// (package seekstats says what they count and what is exact): it
// attributes filter checks, data-block loads and values to tables and
// levels, and counts them into a Store (counters.go, lenstore.go), whose
// read-only view is seekstats.Statistics. The root package installs a Stats on a DB's
// options (Install), attaches it to the open DB (Attach), gives every
// iterator a tracker (NewIter, InitIter, InitSeeksOnly), registers each Get
// (BeginGet) and wraps range filters (CountRangeFilter); the compaction
// advisor reads its per-table waste (TableWaste).
//
// Pebble exposes no hook that names the table a read touched, so the
// instrumentation tags tables as they are written and learns the tags back
// at read time, through Pebble's exported API only:
//
//   - Filter checks: the configured FilterPolicy is wrapped in a tagging
//     policy (filter.go) whose filters end in the table's file number
//     (filtertag.go); MayContain strips the tag, asks the inner policy
//     and counts the answer for that table. The writer learns the file
//     number from the TableCreated event, which Pebble fires on the
//     goroutine that then builds the writer (internal/handoff).
//   - Data-block loads: a block-property collector (collector.go) stores the
//     file number in every data block's property, and each tracked iterator
//     carries an always-true block-property filter that Pebble consults
//     before every data-block load (iter.go).
//   - Levels: a file-to-level map (filemap.go) kept current from flush,
//     compaction (including moves), ingest and deletion events and seeded
//     from DB.SSTables when the DB is opened.
//   - Values: the iterator reports Value, ValueAndErr and LazyValue calls;
//     which table produced the value is inferred by the rule in value.go,
//     which is exact in the common cases and says when it is not. Exact mode
//     (seekstats.Config.ExactAttribution) asks DB.ScanInternal for the level
//     of each value instead (exact.go); tests use it to check the fast rule.
//   - Needed loads: the iterator reports the key each seek ended at; the
//     table that produced it is credited by value.go's rule (needed.go), so
//     reads that never call Value still say which loads found a key.
//   - Point lookups: a Get through the root package's wrapper registers its
//     key; a filter check whose key is that very slice belongs to it
//     (get.go), and is counted for the table's level as well as in the Bloom
//     totals.
//   - Range filters: the tracker's filter comes first among an iterator's
//     block-property filters, so its table-level call names the table just
//     before a range filter judges it; a wrapper around the range filter
//     (CountRangeFilter) counts a "no" there as a FILTERED seek of that
//     table, in a range share of its own (rangecount.go).
//   - Range lengths: each bounded iterator of the full tier carries one more
//     always-true filter, under the range filter's name, which Pebble hands
//     each table's range filter when it opens the table; it records how the
//     bounds look to the table's key map, for the what-if (rangelen.go).
//   - Waste: each table counts the seeks that loaded one of its data blocks
//     and then read no value from it, for the compaction advisor (waste.go).
//
// What each part costs is said beside it. Per iterator, the root package's
// wrapper keeps the tracker in its own pooled memory (InitIter), so that an
// iterator costs one pool's Get and Put rather than one per plug-in; and in
// the FiltersOnly tier an iterator of a reader without range filters, and
// without exact attribution, has nothing to attribute but its seeks, so it
// carries no plug-in state at all (SeeksOnly, InitSeeksOnly): it reads as a
// plain iterator and counts its seeks where the DB-wide tickers count
// theirs.
package attribution
