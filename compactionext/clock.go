// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "time"

// clock is the time source of the background drivers. Tests pass a fake one
// so that rate limits are checked without sleeping.
type clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// realClock is the wall clock.
type realClock struct{}

// Now implements clock.
func (realClock) Now() time.Time { return time.Now() }

// After implements clock.
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
