// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !linux

package cputime

import "time"

var programStart = time.Now()

// wallSinceStart is the fallback clock.
func wallSinceStart() time.Duration { return time.Since(programStart) }

// Supported reports whether Thread and Process read CPU clocks.
const Supported = false

// ClockName names what Thread and Process measure, for benchmark metrics.
const ClockName = "wall"

// Thread returns wall time since the program started: no thread CPU clock
// is read here.
func Thread() time.Duration { return wallSinceStart() }

// Process returns wall time since the program started.
func Process() time.Duration { return wallSinceStart() }
