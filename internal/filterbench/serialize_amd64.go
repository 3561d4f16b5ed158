// Copyright 2026 The pebblerf Authors. All rights reserved.

package filterbench

// serialize returns once every instruction before it has completed, loads
// included, and no instruction after it starts before then: MFENCE, which
// AMD documents as serializing, then LFENCE, which Intel documents as
// waiting for all earlier instructions (the pair the Go runtime uses before
// RDTSC for the same reason).
//
//go:noescape
func serialize()

// canSerialize reports whether serialize is the real barrier.
const canSerialize = true
