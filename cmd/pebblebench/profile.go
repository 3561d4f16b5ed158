// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"os"
	"runtime/pprof"

	"github.com/cockroachdb/errors"
)

// startCPUProfile is -cpuprofile of one engine run in this process: a CPU
// profile of the whole invocation (under -engine=both each engine's
// process writes its own, package engineproc). Each sample of an engine's
// work carries the label engine=pebble or engine=pebblerf (engine.Labels),
// flushes and compactions included, so that `go tool pprof
// -tagfocus='engine=^pebblerf$'` finds it. The returned function stops the
// profile and closes the file.
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
