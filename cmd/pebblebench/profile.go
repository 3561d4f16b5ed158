// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"os"
	"runtime/pprof"

	"github.com/cockroachdb/errors"
)

// startCPUProfile is -cpuprofile: a CPU profile of the whole invocation,
// both engines included, so that a ratio can be taken apart where the run
// that measured it happened. Each sample of an engine's work carries the
// label engine=pebble or engine=pebblerf (engineLabels), so that
// `go tool pprof -tagfocus='engine=^pebblerf$'` separates them (the
// value is a regular expression, and pebble is a prefix of pebblerf), their flushes
// and compactions included. The returned function stops the profile and
// closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, errors.Wrap(err, "-cpuprofile")
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, errors.CombineErrors(errors.Wrap(err, "-cpuprofile"), f.Close())
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
