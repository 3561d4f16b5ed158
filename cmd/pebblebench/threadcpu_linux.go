// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which the syscall package does not
// name.
const rusageThread = 1

// threadCPUTime returns the CPU time (user and system) the calling OS thread
// has used, or false if it cannot be read. The caller must be locked to its
// thread (runtime.LockOSThread) for the difference of two readings to mean
// anything.
func threadCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
