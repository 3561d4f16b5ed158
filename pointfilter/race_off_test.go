// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !race

package pointfilter

const pointRaceEnabled = false
