// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package rangefilter holds range filters for Pebble: per-table filters
// that answer "may this table hold any key in [lower, upper)?".
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
// MayIntersect answers on the encoded bytes without allocating; bytes
// that do not decode answer "may intersect" and are counted
// (CorruptRangeFilters).
//
// Policy wires it into Pebble: Collector for
// Options.BlockPropertyCollectors (built on TableProperties, a Pebble v1-style
// TablePropertyCollector adapted onto v2's BlockPropertyCollector), and
// BoundsFilter or AttachBoundsFilter for IterOptions.PointKeyFilters. The
// bounds are baked into the filter: when they change, attach a new filter
// and call Iterator.SetOptions, never SetBounds.
package rangefilter
