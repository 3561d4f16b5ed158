// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package sortedruns models the sorted runs of a Pebble LSM as a read merges
// them: the memtables, the L0 sublevels from the newest down, then the
// non-empty levels L1-L6. It is the one model the planner (querybuilder),
// the shape reports and drivers (compactionext) and the statistics' exact
// attribution (internal/attribution) share, so that they agree on which run a
// table is in.
//
// Pebble's exported API lists tables per level (DB.SSTables) but does not
// say which L0 sublevel a table is in. Sublevels recomputes it with Pebble's
// rule, so that a view's L0 runs are the sublevels Pebble's read path and
// ScanInternal number: L0 tables are taken oldest first (by largest seqnum,
// then smallest seqnum, then table number), and each goes one sublevel above
// the highest sublevel holding an older table whose key range overlaps its
// own. Two ranges overlap unless one ends before the other starts, where a
// table whose largest key is the exclusive end of a range deletion or range
// key ends just before that key: a table ending exclusively at k does not
// overlap one starting at k. The tests check the rule against Pebble's own
// sublevels on random LSMs.
//
// A View is a snapshot: it reads the DB's current version and is not
// updated.
package sortedruns
