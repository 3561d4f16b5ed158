// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build unix

package runner

import "syscall"

// syncFilesystems asks the kernel to write back dirty pages, so the
// write-back of one engine's unsynced WAL and table writes does not run
// during the other engine's measurement.
func syncFilesystems() { syscall.Sync() }
