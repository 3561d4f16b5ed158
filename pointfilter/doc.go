// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package pointfilter holds point filters for Pebble: table filters that
// answer "may this table hold key k?" in less space, or at a lower
// false-positive rate, than Pebble's built-in Bloom filter.
//
// It offers three pebble.FilterPolicy implementations (Bloom, Ribbon and
// Fuse; NewBloom and NewRibbon validate their parameter), per-level plans
// (Plan, with the presets Uniform and Progressive, and Optimal for a memory
// budget; Plan.Apply sets upstream Pebble's options), a Planner that
// re-plans while a DB runs, and Describe, which reads a filter's trailer
// for reports.
//
// A table filter is a small summary of a table's keys (in Pebble, the
// Comparer.Split prefixes of its point keys) that a read consults before it
// loads any data block: "no" means the table cannot hold the key and is
// skipped, "yes" means it may, and a wrong "yes" (a false positive) costs one
// wasted block read. The quality of a filter is the false-positive rate ε it
// reaches for the bits per key it spends. No filter can spend less than
// log2(1/ε) bits per key; a Bloom filter spends about 1.44 times that, and a
// cache-local Bloom filter a little more, in exchange for touching a single
// cache line per query. A Ribbon filter solves a banded linear system over
// GF(2) instead of setting bits, and comes within a few percent of the lower
// bound, for a costlier build. A binary fuse filter stores an 8-bit
// fingerprint per slot, about 1.13 slots per key, and answers from the XOR
// of three slots: a rate of 2^-8 in about 9 bits per key, built by
// github.com/FastFilter/xorfilter. The math of each filter is in its own
// file: bloom.go, ribbon.go (the query), ribbonbuild.go (the build) and
// fuse.go.
//
// Three pebble.FilterPolicy implementations are offered:
//
//   - Bloom(bitsPerKey): the cache-local Bloom filter, with fractional bits
//     per key and the probe count that minimises its false-positive rate
//     (lower than that of Pebble's built-in filter at the same bits per key).
//   - Ribbon(bloomEquivalentBitsPerKey): a Standard Ribbon filter sized to
//     the false-positive rate Bloom has at that many bits per key, as
//     RocksDB's NewRibbonFilterPolicy is: about 30% smaller for a build that
//     costs a few times more CPU and memory. It suits the tables that live
//     longest, the lower levels.
//   - Fuse(): the binary fuse filter, a fixed rate of 2^-8. It reads three
//     cache lines per query where the Bloom filters read one, but issues
//     the three loads together, from the key's hash and the filter's length
//     alone: in cache, and out of cache one check at a time (as a Get checks
//     successive tables), it costs about what Pebble's Bloom filter costs;
//     where many checks out of cache overlap, its three misses show
//     (docs/benchmarks.md has the figures).
//
// A Plan chooses each level's filter: Bloom above a chosen level and Ribbon
// from it down, or any filter and bits per level. Uniform and Progressive
// are Pebble's presets; Optimal spends a memory budget where lookups of
// absent keys gain the most from it (optimal.go has the math). A Planner
// holds a plan that can change while the DB runs: tables written after the
// change get the new plan, older ones keep their filters and stay readable.
// A Planner is what pebblerf's Plugins.Filters takes (a fixed plan is a
// planner never re-set), and its DB.PointFilterLoads gives Optimal the
// DB's current levels, measured by the per-level statistics when they are
// on; Plan.Apply serves programs that set upstream Pebble's options
// themselves.
//
// All policies write one self-describing format: the filter body and a
// 16-byte trailer with a check value, a format version, the filter kind and
// its parameters (trailer.go). Readers accept every format version written
// so far (Ribbon's layout changed in version 2, and version 1 Ribbon filters
// are still read, ribbon_v1.go). Each policy reads the others' filters, so
// the kind written for a table (a Ribbon policy writes Bloom for tables too
// small for Ribbon to pay off) never matters to readers. Pebble stores a
// filter under "fullfilter."+Name(); the names (BloomPolicyName,
// RibbonPolicyName, FusePolicyName, PlannedPolicyName) are stable and differ
// from Pebble's own, so a DB written with one policy and opened with another
// or none reads correctly, merely without the filters the reader does not
// know. Describe decodes a filter's
// trailer for reports.
//
// Bytes that do not decode (truncated, extended, damaged trailer) make
// MayContain answer "may contain": a bad filter costs reads, never results.
// A pebblerf DB counts such calls for the policies of its own options
// (DB.FilterCounters), so two DBs in one process count apart.
// MayContain does not allocate and is safe for concurrent use. Writers drop
// consecutive repeats of a key, since Pebble calls AddKey once per point key
// and keys sharing a prefix arrive together.
//
// Pebble consults table filters only in DB.Get and Iterator.SeekPrefixGE,
// and for L6 tables only when IterOptions.UseL6Filters is set (never in Get).
package pointfilter
