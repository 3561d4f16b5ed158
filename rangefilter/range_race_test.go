// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build race

package rangefilter

// rangeRace scales test sizes down under the race detector, which slows
// Pebble by an order of magnitude; the full sizes run without it.
const rangeRace = true
