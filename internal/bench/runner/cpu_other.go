// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !unix

package runner

import "time"

// processCPU cannot be read where there is no getrusage.
func processCPU() (cpu time.Duration, ok bool) { return 0, false }
