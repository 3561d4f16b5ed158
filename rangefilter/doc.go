// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package rangefilter holds the filters pebblerf adds to Pebble: point
// filters that answer "may this table hold key k?" in less space than
// Pebble's built-in Bloom filter, and range filters that answer "may this
// table hold any key in [lower, upper)?".
//
// # Point filters
//
// A table filter is a small summary of a table's keys (in Pebble, the
// Comparer.Split prefixes of its point keys) that a read consults before it
// loads any data block: "no" means the table cannot hold the key and is
// skipped, "yes" means it may, and a wrong "yes" (a false positive) costs one
// wasted block read. The quality of a filter is the false-positive rate ε it
// reaches for the bits per key it spends. No filter can spend less than
// log2(1/ε) bits per key; a Bloom filter spends about 1.44 times that, and a
// cache-local Bloom filter a little more, in exchange for touching a single
// cache line per query.
//
// Two pebble.FilterPolicy implementations are offered:
//
//   - Bloom(bitsPerKey): a cache-local Bloom filter (bloom.go) with fractional
//     bits per key and the probe count that minimises its false-positive
//     rate. At 10 bits/key it gives about 0.95% false positives, where
//     Pebble's built-in bloom.FilterPolicy(10) gives 1.14%.
//   - Ribbon(bloomEquivalentBitsPerKey): a Standard Ribbon filter
//     (ribbon.go, ribbonbuild.go) sized to the false-positive rate Bloom has at
//     that many bits per key, as RocksDB's NewRibbonFilterPolicy is: about
//     30% smaller (Ribbon(10) uses about 7 bits per key for 0.95%) for a
//     build that costs a few times more CPU and memory. It suits the tables
//     that live longest, the lower levels; compactionext.FilterPlan applies
//     Bloom above a chosen level and Ribbon from it down.
//
// Both policies write the same self-describing format: the filter body and a
// 16-byte trailer with a check value, a format version, the filter kind and
// its parameters (filtertrailer.go); readers accept every format version
// written so far (Ribbon's layout changed in version 2, and version 1 Ribbon
// filters are still read). Each policy reads the other's filters, so the
// kind written for a table (a Ribbon policy writes Bloom for tables too small
// for Ribbon to pay off) never matters to readers. Filters are stored by
// Pebble under "fullfilter."+Name(); the names, BloomPolicyName and
// RibbonPolicyName, are stable and differ from Pebble's own, so a DB written
// with one policy and opened with another or none reads correctly, merely
// without the filters the reader does not know.
//
// Bytes that do not decode (truncated, extended, damaged trailer) make
// MayContain answer "may contain": a bad filter costs reads, never results.
// Such calls are counted, per policy by CorruptFilters methods and in total
// by the package-level CorruptFilters. MayContain does not allocate and is
// safe for concurrent use. Writers drop consecutive repeats of a key, since
// Pebble calls AddKey once per point key and keys sharing a prefix arrive
// together.
//
// Pebble consults table filters only in DB.Get and Iterator.SeekPrefixGE,
// and for L6 tables only when IterOptions.UseL6Filters is set (never in Get).
//
// # Range filters
//
// A range filter summarises a table's keys so that a bounded scan or seek can
// skip tables and data blocks holding nothing in its bounds, which Pebble's
// point filters cannot do. They are written as block properties and read as
// IterOptions.PointKeyFilters; see the range filter files of this package.
//
// The range filter (range.go) is built per sstable over the Comparer.Split
// prefixes of all its point keys, tombstones included. A table-local,
// order-preserving key map (keymap.go, keymap_segments.go) turns keys into
// dense integers without zero padding; when those fit the budget they are
// stored exactly with Elias-Fano (eliasfano.go), otherwise they are reduced
// by a locality-preserving hash (range_hash.go) whose false-positive rate is
// at most L/2^(B-2) for a range of L key positions at B bits per key, for any
// keys and any query, including queries that start just after a key.
// RangeMayIntersect answers on the encoded bytes without allocating; bytes
// that do not decode answer "may intersect" and are counted
// (CorruptRangeFilters).
//
// RangeFilterPolicy wires it into Pebble: Collector for
// Options.BlockPropertyCollectors (built on TableProperties, a Pebble v1-style
// TablePropertyCollector adapted onto v2's BlockPropertyCollector), and
// BoundsFilter or AttachBoundsFilter for IterOptions.PointKeyFilters. The
// bounds are baked into the filter: when they change, attach a new filter
// and call Iterator.SetOptions, never SetBounds.
package rangefilter
