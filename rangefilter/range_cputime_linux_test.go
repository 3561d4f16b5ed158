// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build linux

package rangefilter

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// rangeThreadCPU returns the CPU time of the calling thread, so that a
// measurement on a shared, loaded machine counts the time the thread ran,
// not the time it waited for a core. Callers lock the goroutine to its
// thread.
//
// CLOCK_THREAD_CPUTIME_ID, not getrusage(RUSAGE_THREAD): the latter only
// advances at scheduler ticks for a running thread (4 ms here), which
// rounded a 50k-query pass of ~250 ns queries to multiples of ~80 ns.
func rangeThreadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

func rangeLockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
