// Package pebble is pebblerf's drop-in face: upstream Pebble v2 with
// range-filter plug-ins on top.
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
// Why wrap at all: the plug-ins (seek statistics, point and range filters,
// the range-query planner) have to see reads as they happen, and Pebble has
// no hook for that. Options, on the other hand, are upstream's own type: Open
// installs the plug-ins on a private copy, so the caller's Options are never
// changed and can be handed to upstream Pebble as they are.
//
// The embedded upstream value is reachable as a field (db.DB, it.Iterator,
// b.Batch, s.Snapshot) for code that must talk to upstream directly, for
// example to pass a *DB to an upstream-only library. Reads made through it
// bypass the plug-ins.
package pebble
