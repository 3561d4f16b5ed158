// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !linux

package filterbench

import "github.com/cockroachdb/errors"

// hugePageMemory has no huge pages to offer outside Linux.
func hugePageMemory(int) ([]byte, func(), error) {
	return nil, nil, errors.Mark(errors.New("filterbench: huge pages are measured on Linux only"), ErrNoHugePages)
}
