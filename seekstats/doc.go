// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package seekstats counts where a Pebble DB's reads are wasted, per LSM
// level, with RocksDB's seek and filter tickers under RocksDB's names (the
// statistics of RocksDB PR #11460, "Much better stats for seeks and prefix
// filtering").
//
// It is the read side of pebblerf's per-level statistics, which a DB
// counts with Plugins.Statistics: Statistics, one DB's live counters
// (DB.Statistics().PerLevel()), read by name (Get, Pop) or all at once as a
// Snapshot; LevelCounts, one row's counts, with the false-positive rates and
// the range-filter opportunity derived from them; Ticker and WriteTickers,
// db_bench's STATISTICS format; Config, the two tiers of collection; and
// RewriteForUpstream, the way back to upstream's format. What filters a
// workload lacks would have saved, estimated from a Snapshot, is package
// whatif.
//
// The idea: every per-table seek either was ruled out by the table's filter
// (FILTERED), passed it (FILTER_MATCH), loaded a data block (DATA), and then
// did or did not produce a value the caller read (DATA_USEFUL_*). A seek that
// loaded a block and produced no value is the read a better filter could have
// saved, so the counts give the false-positive rate of prefix filters and the
// opportunity for range filters. Point lookups get the Bloom tickers
// (useful, positive, true positive) for whole-key and prefix filters.
//
// # Rows and tickers
//
// The counts are kept per Row: the memtables, L0 to L6, and the
// unattributed row, which holds what happened in tables whose level or tag
// is unknown (tables written without the statistics' tags, by upstream
// Pebble or ingested, and tables no longer in the DB's file map) and values
// the attribution could not give one table. Like RocksDB's level -1 it
// counts as non-last; L6 is RocksDB's last level.
//
// Each row counts, under "pebblerf.<row>.<kind>" (rows memtable, l0 to l6,
// unattributed), and summed over L6 ("rocksdb.last.level.<kind>") and over
// the other table rows ("rocksdb.non.last.level.<kind>"; "pebblerf." for the
// kinds RocksDB has no ticker for):
//
//   - seek.filtered: a filter showed the seek cannot find anything in the
//     table, so no index or data block was read for it. Like RocksDB's
//     FILTERED it counts every kind of filter: the table's prefix filter,
//     and range filters, whose share is seek.filtered.range (a range filter
//     ruled the table out for the iterator's bounds when Pebble opened it).
//   - seek.filter.match: a prefix filter was checked and did not rule the
//     seek out.
//   - seek.data: at least one data block of the table was loaded for the
//     seek; seek.data.bounded, the part of those of iterators with a lower
//     or upper bound, the only seeks a range filter can save.
//   - seek.data.useful.no.filter and seek.data.useful.filter.match: after a
//     DATA seek that checked no filter, or passed the table's filter, the
//     caller read at least one value the table produced;
//     seek.data.useful.bounded, both kinds for bounded iterators. These are
//     RocksDB's (PR #11460): they wait for a Value call.
//   - seek.data.needed: a DATA seek found a key in the table: the seek
//     (SeekGE, SeekPrefixGE, SeekLT, First, Last) ended at a key the table
//     produced, or the caller read a value it produced; value read or not.
//     A seek's key lies within the iterator's bounds (and has the seek's
//     prefix), so no range or prefix filter could have skipped that load;
//     seek.data.needed.filter.match and seek.data.needed.bounded are its
//     parts after a passed prefix filter and for bounded iterators. Reads
//     that look at keys only (existence and lock-table checks, key-only
//     scans) count here and not in USEFUL, so the figures that ask whether
//     a table held what the read wanted (SeekFalsePositiveRate,
//     RangeFilterOpportunity, the what-ifs of package whatif) use NEEDED.
//   - get.filter.useful, get.filter.positive, get.filter.true.positive: a
//     Get's filter check of the row's tables (whole-key and prefix filters
//     alike) ruled it out, did not, and did not because the table held the
//     key. Pebble's Get never checks L6 filters.
//
// As in RocksDB, a table counts DATA at most once per seek, and a seek
// served from a block loaded earlier counts neither DATA nor USEFUL.
// The tickers that are not per row:
//
//   - rocksdb.bloom.filter.useful, .full.positive, .full.true.positive: a
//     whole-key filter ruled a Get out of a table, did not, and did not
//     because the table held the key.
//   - rocksdb.bloom.filter.prefix.checked, .prefix.useful,
//     .prefix.true.positive: a prefix filter (the Comparer's Split gave a
//     proper prefix of the key) was checked for a Get, ruled it out, and
//     passed and the table held the key itself.
//   - rocksdb.number.db.seek and .seek.found: the seeks made through the
//     DB's iterators and range queries (SeekGE, SeekPrefixGE, SeekLT, their
//     WithLimit forms, First and Last), and those that left the iterator
//     valid.
//   - pebblerf.bloom.filter.true.positive.uncertain: Get true positives
//     credited although the key might have come from a table below whose
//     filter Get does not consult (any L6 table, or one without a filter):
//     the bound on the true-positive tickers' error.
//   - pebblerf.seek.data.useful.ambiguous: values several tables that loaded
//     a block since the seek could have produced, credited once to the
//     unattributed row; pebblerf.seek.data.useful.newest: values of prefix
//     seeks credited to the newest such table because its filter matched
//     the prefix.
//   - pebblerf.filter.check.unclassified: filter checks made while more Gets
//     ran than can be told apart from seeks, counted in neither;
//     pebblerf.get.shared.key: Gets that ran concurrently with a Get of the
//     very same key slice, whose checks are counted but whose true positive
//     is not, as it cannot be told whose it was.
//   - pebblerf.filter.tag.corrupt and pebblerf.block.tag.corrupt: a filter's
//     or a data block's table tag that did not decode (the filter answered
//     as if untagged or "may contain", the block was read, its load counted
//     as unattributed); pebblerf.filter.corrupt: filters the wrapped policies
//     of package pointfilter could not decode and answered "may contain"
//     (DB.FilterCounters counts them too).
//   - pebblerf.verify.*, with Config.ExactAttribution only: for every value
//     and Get the fast rules below attributed, whether an exact probe agreed
//     (value.agree, get.agree) and if not, why: the value came from another
//     source (value.other.source), the rule found several candidates and
//     credited none (value.ambiguous), it credited the newest and the value
//     came from elsewhere (value.newest.wrong), the Get was flagged
//     uncertain (get.uncertain) or ended in a tombstone (get.tombstone);
//     value.unexpected and get.unexpected are bugs if ever non-zero;
//     probe.failed counts probes Pebble's ScanInternal could not run (a
//     merge operand or single delete as the key's newest entry), which fall
//     back to the fast rule.
//
// # What is exact, and what is not
//
// Pebble exposes no hook that names the table a read touched, so tables are
// tagged as they are written and the tags read back at read time, through
// Pebble's exported API only. Filter checks, with their answers, and
// data-block loads are then exact per table. What is inferred:
//
//   - Values: Pebble does not say which level produced the iterator's
//     current key. A value is credited to the one table that loaded a block
//     since the seek and spans the key; where several do, to the newest if
//     the seek was a prefix seek that passed its filter (the .newest
//     ticker), and otherwise to the unattributed row (the .ambiguous
//     ticker). The rule is exact where only one table can have produced the
//     value; exact mode (Config.ExactAttribution) asks DB.ScanInternal and
//     counts the rule's disagreements.
//   - Needed loads: the key a seek ended at is credited by the same rule,
//     except that several candidates of one level (overlapping L0 tables)
//     credit that level rather than the unattributed row; exact mode
//     locates the key instead. Keys a key-only scan steps to after the seek
//     credit nothing, so a table only they reached counts as not needed.
//   - Get true positives: the last positive check is credited when the Get
//     found its key, which is wrong when the key came from a table checked
//     without a filter after it (the .uncertain ticker bounds that). A Get
//     that ends in a point tombstone reports ErrNotFound: its positives
//     count as false, where RocksDB and exact mode count the tombstone's
//     table as a true positive.
//   - Tables written without the tags are counted in the unattributed row,
//     never guessed, and their data-block loads are not seen at all (Pebble
//     consults block-property filters only for tables that carry the
//     property).
//   - A Snapshot reads each counter atomically, but not all of them at one
//     instant: under concurrent reads a derived figure can be off by the
//     reads in flight.
//
// The derived figures are given only where they mean what they say: the
// seek false-positive rate only where data-block loads were counted (it
// takes NEEDED, not USEFUL, as the true positives, so reads without Value
// calls get a rate too), and the range-filter opportunity over bounded
// iterators' seeks only (a range filter cannot help an unbounded one).
//
// # Compatibility
//
// Filters written with statistics on are stored under the name
// "pebblerf.tagged.<inner name>". pebblerf reads them whether statistics
// are on or off; upstream Pebble does not know the name and reads such
// tables without their filters (correct, but slower) until compactions
// rewrite them. RewriteForUpstream is the one-call rollback: it copies a DB
// into a new directory written by upstream Pebble, whose filters upstream
// reads. Keeping the inner policy's name and bytes and identifying the
// table another way was weighed: a filter check carries only the filter's
// bytes and the key, Gets consult no block-property filter that could name
// the table first, and tables with identical keys have identical filters,
// so no exact attribution is left without the tag.
//
// # Cost
//
// Statistics cost CPU on every seek and Get, in two tiers. The full
// statistics (the zero Config) count everything above; to see data-block
// loads they give every iterator a block-property filter, and Pebble's
// block-property machinery, which an iterator with any such filter pays and
// no exported option avoids, sets up a filterer for every table the
// iterator opens, before the table's point filter is consulted. A program
// that opens an iterator per seek pays that on every seek, and it is the
// larger part of the full tier's cost there. Config.FiltersOnly counts
// filter checks per level (FILTERED, FILTER_MATCH and the Gets' Bloom
// tickers), seeks, Gets and range filters' rule-outs (as unattributed), but
// no data-block loads: DATA, DATA_USEFUL_*, NEEDED and their bounded
// shares stay zero, so there is no seek false-positive rate, no
// range-filter opportunity, no per-table waste for the compaction advisor,
// and nothing for the what-ifs to start from. The full tier's NEEDED costs
// a valid seek that loaded blocks two key comparisons per such table. The tables of either tier carry the tags,
// so switching between them needs no rewrite. Pebble rebuilds an iterator
// on every SetOptions while the full statistics are on, since its options
// then carry a block-property filter. The data-block tag adds a few bytes
// to every index entry; the index block size is widened by the tag's
// share, so tables keep upstream's index shape. docs/benchmarks.md
// ("Per-level statistics") measures both tiers against upstream Pebble.
package seekstats
