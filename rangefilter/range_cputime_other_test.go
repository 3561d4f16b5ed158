// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !linux

package rangefilter

import "time"

var rangeStart = time.Now()

// rangeThreadCPU falls back to wall-clock time where thread CPU time is not
// available.
func rangeThreadCPU() time.Duration { return time.Since(rangeStart) }

func rangeLockThread() func() { return func() {} }
