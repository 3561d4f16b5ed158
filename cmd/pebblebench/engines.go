// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"sync/atomic"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/driver"
	"github.com/pebblerf/pebble/internal/bench/runner"
)

// startEngines returns the engines of c (-engine), in the order they
// alternate; stop is set on SIGINT. They live across the command lines of
// a scenario's phases.
func startEngines(c *config.Config, stop *atomic.Bool) []driver.Engine {
	stores := runner.NewStores()
	var engines []driver.Engine
	for _, name := range c.Engines() {
		engines = append(engines, runner.New(name, stores, stop))
	}
	return engines
}
