// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCPUProfile: -cpuprofile leaves a complete (gzip-framed pprof) profile
// behind, one per engine process under -engine=both, named with the
// engine before the extension, and a path that cannot be created fails the
// run naming the flag.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	_, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,seekrandom", "-num=2000", "-seed=3", "-cpuprofile="+filepath.Join(dir, "cpu.pprof"))
	// Under -json the human-readable lines, the announcement of the files
	// written among them, go to stderr.
	require.Contains(t, text, "wrote the CPU profiles "+filepath.Join(dir, "cpu-pebble.pprof")+", "+filepath.Join(dir, "cpu-pebblerf.pprof"))
	requireProfile := func(path string) {
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		z, err := gzip.NewReader(f)
		require.NoError(t, err)
		body, err := io.ReadAll(z)
		require.NoError(t, err, "the profile must be complete")
		require.NotEmpty(t, body)
	}
	requireProfile(filepath.Join(dir, "cpu-pebble.pprof"))
	requireProfile(filepath.Join(dir, "cpu-pebblerf.pprof"))
	require.NoFileExists(t, filepath.Join(dir, "cpu.pprof"), "the parent runs no engine")

	path := filepath.Join(dir, "one.pprof")
	_, text = jsonRuns(t, "-engine=pebblerf", "-benchmarks=fillrandom", "-num=2000", "-seed=3", "-cpuprofile="+path)
	requireProfile(path)
	require.Contains(t, text, "wrote the CPU profile "+path)

	var stderr bytes.Buffer
	status := realMain([]string{"-benchmarks=fillrandom", "-num=10",
		"-cpuprofile=" + filepath.Join(t.TempDir(), "missing", "cpu.pprof")}, io.Discard, &stderr)
	require.Equal(t, exitFailure, status)
	require.Contains(t, stderr.String(), "-cpuprofile")
}
