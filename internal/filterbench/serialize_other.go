// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !amd64

package filterbench

// serialize is no barrier here: the one-at-a-time walk is measured on
// amd64 only.
func serialize() {}

// CanSerialize reports whether the OneAtATime walk is measured here (its
// barrier exists on amd64 only).
const CanSerialize = false
