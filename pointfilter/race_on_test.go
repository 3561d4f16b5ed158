// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build race

package pointfilter

// pointRaceEnabled lets the slowest tests shrink or skip under -race, which
// runs them 10-20 times slower without finding anything new in them.
const pointRaceEnabled = true
