// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package cputime reads the CPU clocks the project's benchmarks measure
// with. On a machine shared with other work, wall time counts the time a
// thread waited for a core; the CPU time of the thread (or process) doing
// the work does not, so ratios of CPU times stay steady where wall-time
// ratios swing.
//
// The clocks are clock_gettime's CLOCK_THREAD_CPUTIME_ID and
// CLOCK_PROCESS_CPUTIME_ID, which are exact. getrusage is not: Linux
// advances its figures in scheduler ticks (a tick is 4 ms at 250 Hz), too
// coarse for rounds of a few milliseconds.
//
// Thread time means something only for a goroutine locked to its OS thread
// (runtime.LockOSThread) between two readings. Where the clocks are not
// read (Supported is false), both functions return wall time since the
// program started, so differences still measure something and ClockName
// says which.
package cputime
