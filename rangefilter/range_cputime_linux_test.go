// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build linux

package rangefilter

import (
	"runtime"
	"syscall"
	"time"
)

// rangeThreadCPU returns the CPU time of the calling thread, so that a
// measurement on a shared, loaded machine counts the time the thread ran,
// not the time it waited for a core. Callers lock the goroutine to its
// thread.
func rangeThreadCPU() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func rangeLockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
