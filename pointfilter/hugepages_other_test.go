// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !linux

package pointfilter

// pointHugePages has no huge pages to offer outside Linux.
func pointHugePages(int) ([]byte, bool) { return nil, false }
