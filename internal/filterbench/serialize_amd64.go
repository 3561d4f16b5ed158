// Copyright 2026 The pebblerf Authors. All rights reserved.

package filterbench

// serialize returns once every instruction before it has completed, loads
// included, and no instruction after it starts before then. LFENCE does
// that on Intel, and on AMD where the kernel makes it dispatch-serializing,
// as Linux does since Spectre; MFENCE before it orders every earlier load
// and store. It is the pair the Go runtime issues before RDTSC, where it
// needs the same guarantee without knowing the vendor.
func serialize()

// CanSerialize reports whether the OneAtATime walk is measured here (its
// barrier exists on amd64 only).
const CanSerialize = true
