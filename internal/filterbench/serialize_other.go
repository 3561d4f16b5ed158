// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !amd64

package filterbench

// serialize is no barrier here: the one-at-a-time walk is measured on
// amd64 only.
func serialize() {}

// canSerialize reports whether serialize is the real barrier.
const canSerialize = false
