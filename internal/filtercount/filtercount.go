// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package filtercount holds one DB's counts of the filter events that cost
// reads but never results: filters fail open, so each event made a read look
// at a table it might have skipped. The root package reports them
// (DB.FilterCounters).
//
// The point and range filter packages count into these types, but a count
// is the DB's, not a policy's: one policy is often shared by several DBs.
// So the root package binds each DB's point filter policies to the DB's own
// Point (BindPoint) and reads the DB's range filter policy's Range
// (RangeOf). Those two are set by pointfilter and rangefilter when they are
// initialised: this package sits below both, so it cannot name their types,
// and keeping the binding here keeps it out of their public API.
package filtercount

import (
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// Point counts what the point filter policies bound to it met while
// reading. The zero value is ready to use; it is safe for concurrent use.
type Point struct {
	corrupt atomic.Uint64
}

// AddCorrupt counts a MayContain call that met a filter whose bytes did not
// decode and answered "may contain".
func (c *Point) AddCorrupt() { c.corrupt.Add(1) }

// Corrupt returns how many MayContain calls of the bound policies met a
// filter whose bytes did not decode (truncated, overwritten, or from an
// unknown format version).
func (c *Point) Corrupt() uint64 { return c.corrupt.Load() }

// Range counts what one range filter policy met. The zero value is ready to
// use; it is safe for concurrent use.
type Range struct {
	corrupt, universal atomic.Uint64
}

// AddCorrupt counts a range-filter check that met a table property that did
// not decode and answered "may intersect".
func (c *Range) AddCorrupt() { c.corrupt.Add(1) }

// AddUniversal counts a table written with a range filter that answers
// "may intersect" to everything.
func (c *Range) AddUniversal() { c.universal.Add(1) }

// Corrupt returns the checks AddCorrupt counted.
func (c *Range) Corrupt() uint64 { return c.corrupt.Load() }

// Universal returns the tables AddUniversal counted.
func (c *Range) Universal() uint64 { return c.universal.Load() }

// BindPoint returns a policy that writes and reads exactly as p does, under
// the same Name, and counts what it meets in c, and true; or p and false if
// p is not a policy of package pointfilter. The bound policy is a new
// instance; p is not changed. Set by package pointfilter.
var BindPoint func(p pebble.FilterPolicy, c *Point) (pebble.FilterPolicy, bool)

// PointOf returns the counters p was bound to, or nil. Set by package
// pointfilter.
var PointOf func(p pebble.FilterPolicy) *Point

// RangeOf returns the counters of a *rangefilter.Policy. Set by package
// rangefilter.
var RangeOf func(policy any) *Range
