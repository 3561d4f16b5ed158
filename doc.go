// Package pebble is pebblerf's drop-in face: upstream Pebble v2 with
// range-filter plug-ins on top.
//
// It offers Open and OpenWithPlugins (Plugins chooses the plug-ins); DB,
// Iterator, Batch, Snapshot and EventuallyFileOnlySnapshot with upstream's
// methods; DB.Statistics, the DB-wide tickers and, with
// Plugins.Statistics, the per-level ones; planned range queries
// (DB.NewRangeQuery, DB.RangeQueries); the re-planning of a running DB's
// filters (DB.FilterPlanner and DB.PointFilterLoads, DB.RangeFilterPolicy
// and DB.RangeFilterLoads); the set of plug-ins to turn on blind
// (Recommended); DB.FilterCounters; and Pebble v1-style table properties
// (TablePropertyCollector, DecodeTableProperties). Everything else is upstream's, under its own name.
//
// A program written against github.com/cockroachdb/pebble/v2 switches by
// changing that import path to github.com/pebblerf/pebble; it compiles
// unchanged and reads and writes the same data. Everything upstream exports
// is re-exported here under the same name (see aliases_gen.go, generated
// from upstream's export data), except the handful of types through which
// reads flow: DB, Iterator, Batch, Snapshot and
// EventuallyFileOnlySnapshot. Those are thin wrappers that embed upstream's
// value, so every upstream method is still there with its upstream
// signature; the wrappers override only the methods that hand out one of the
// other wrapped types (NewIter returns this package's *Iterator, Apply takes
// this package's *Batch), and the methods plug-ins need to observe.
//
// The default path. Open installs no plug-in: a DB opened with it writes
// the files upstream Pebble writes (the same filter block names and bytes,
// the same index shape), reads what upstream wrote and what pebblerf wrote
// with plug-ins on, and costs what upstream costs. The statistics it keeps
// (DB.Statistics) are DB-wide tickers that need nothing on disk and nothing
// per read: Pebble's own metrics, and each iterator's stats summed when it
// is closed.
//
// Plug-ins are chosen in one visible call, OpenWithPlugins, and each field
// of Plugins says what it writes to disk and what it costs: per-level seek
// and filter statistics (package seekstats), point filter plans
// (pointfilter), range filters (rangefilter), LSM shapes and the compaction
// advisor (compactionext), and user table-property collectors. Options
// stay upstream's own type: the plug-ins are installed on a private copy,
// so the caller's Options are never changed and can be handed to upstream
// Pebble as they are.
//
// Why wrap at all: the plug-ins (statistics, range filters, the range-query
// planner) have to see reads as they happen, and Pebble has no hook for
// that.
//
// The embedded upstream value is reachable as a field (db.DB, it.Iterator,
// b.Batch, s.Snapshot) for code that must talk to upstream directly, for
// example to pass a *DB to an upstream-only library. Reads made through it
// bypass the plug-ins.
package pebble
