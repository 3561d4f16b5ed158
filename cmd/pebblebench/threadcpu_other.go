// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !linux

package main

import "time"

// threadCPUTime is unavailable where there is no per-thread rusage.
func threadCPUTime() (time.Duration, bool) { return 0, false }
