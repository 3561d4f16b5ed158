// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build unix

package runner

import (
	"syscall"
	"time"
)

// processCPU is the CPU time, user and system, that every thread of this
// process has used, as getrusage(RUSAGE_SELF) counts it: exactly, not by
// sampling, threads that have ended included. ok is false where it cannot
// be read.
func processCPU() (cpu time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
