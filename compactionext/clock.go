// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "time"

// Clock is the time source of the background drivers. Tests pass a fake one
// so that rate limits are checked without sleeping.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now implements Clock.
func (RealClock) Now() time.Time { return time.Now() }

// After implements Clock.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
