// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build linux

package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

// Supported reports whether Thread and Process read CPU clocks.
const Supported = true

// ClockName names what Thread and Process measure, for benchmark metrics.
const ClockName = "cpu"

// Thread returns the CPU time (user and system) the calling OS thread has
// used.
func Thread() time.Duration { return read(unix.CLOCK_THREAD_CPUTIME_ID) }

// Process returns the CPU time all threads of the process have used.
func Process() time.Duration { return read(unix.CLOCK_PROCESS_CPUTIME_ID) }

func read(clock int32) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(clock, &ts); err != nil {
		// The CPU clocks exist on every Linux the Go runtime supports.
		panic(err)
	}
	return time.Duration(ts.Nano())
}
