// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package readctx tells the object-store requests an operation waited on
// from the ones flushes and compactions made at the same time.
//
// Pebble hands an iterator's context (DB.NewIterWithContext) down to the
// table opens and block reads the iterator makes, and so to the remote
// store's ReadAt. A program that wants to count its own reads' requests
// puts a Counter in the contexts of its iterators; objstore's meter adds
// every GET made under such a context to that Counter, on top of its
// per-kind counts. Requests without a Counter (Pebble's flushes,
// compactions, table-stat loads, and DB.Get, which takes no context) are
// counted by the meter alone. A table open is counted for the read that
// triggered it, as that read waited on it.
package readctx

import (
	"context"
	"sync/atomic"
	"time"
)

// Counter counts the GETs made under the contexts it was attached to. It is
// safe for concurrent use.
type Counter struct {
	requests, errors, bytes, wait atomic.Int64
}

// Counts is a copy of a Counter's counts.
type Counts struct {
	Requests, Errors, Bytes int64
	Wait                    time.Duration
}

// Sub returns the counts accumulated between o and c (c - o).
func (c Counts) Sub(o Counts) Counts {
	return Counts{c.Requests - o.Requests, c.Errors - o.Errors, c.Bytes - o.Bytes, c.Wait - o.Wait}
}

// Add counts one GET of n bytes that took wait and returned err.
func (c *Counter) Add(n int64, wait time.Duration, err error) {
	c.requests.Add(1)
	if err != nil {
		c.errors.Add(1)
	}
	c.bytes.Add(n)
	c.wait.Add(int64(wait))
}

// Load returns the counts so far.
func (c *Counter) Load() Counts {
	return Counts{c.requests.Load(), c.errors.Load(), c.bytes.Load(), time.Duration(c.wait.Load())}
}

type counterKey struct{}

// With returns ctx carrying c: the GETs made under it count in c.
func With(ctx context.Context, c *Counter) context.Context {
	return context.WithValue(ctx, counterKey{}, c)
}

// From returns the Counter ctx carries, nil if none.
func From(ctx context.Context) *Counter {
	c, _ := ctx.Value(counterKey{}).(*Counter)
	return c
}
