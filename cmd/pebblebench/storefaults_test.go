// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/scenario"
	"github.com/stretchr/testify/require"
)

// requireStoreError runs pebblebench with args in a process of its own (a
// store that is down leaves Pebble retrying until the process ends) and
// checks that it ends as a failed run on a failing store must: exit status
// 1, no panic (an iterator left open makes closing the DB panic), and a
// last line that names the store's error.
func requireStoreError(t *testing.T, args ...string) string {
	t.Helper()
	cmd := pebblebenchCommand(t, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "%q succeeded:\n%s", args, stdout.String())
	require.Equal(t, exitFailure, exitErr.ExitCode(), "%q:\n%s", args, stderr.String())
	for _, out := range []string{stdout.String(), stderr.String()} {
		require.NotContains(t, out, "panic")
		require.NotContains(t, out, "goroutine ")
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	last := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(last, "pebblebench: "), "%q: %s", args, last)
	require.Contains(t, last, "objstore: sim: ", "%q: %s", args, last)
	require.Contains(t, last, "injected fault", "%q: %s", args, last)
	return last
}

// TestStoreFaults runs every benchmark at a tiny scale on a simulated
// store whose requests fail, and each ends with the store's error. A
// benchmark that reads meets it itself: half of the GETs fail, which the
// DB's own flushes and table loads outlast by retrying, while an operation
// that fails is the run's error (an iterator it leaves open would make
// closing the DB panic). A fill meets PUTs that all fail: its writes wait
// for flushes that never succeed, and the run ends when the DB's flushes
// have failed too often in a row. Writes that follow a fill (overwrite,
// flush) end the same way, at the fill. The meta benchmarks (stats,
// levelstats) make no request of their own, and are not run.
func TestStoreFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per benchmark")
	}
	for _, name := range benchmarks.Names() {
		b, _ := benchmarks.ByName(name)
		if b.Meta != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fill := "fillrandom"
			// No compactions: the reads, not a compaction, meet the store.
			args := []string{"-num=2000", "-reads=300", "-seed=1", "-write_buffer_size=65536", "-compaction_style=3",
				"-db=" + t.TempDir()}
			switch {
			case b.MVCC:
				fill = "fillmvcc"
				args = append(args, "-key_format=mvcc", "-num=500", "-versions_per_key=2", "-duration=1")
			case strings.HasPrefix(name, "ycsb"):
				fill = "ycsb_load"
				args = append(args, "-ycsb_record_count=500", "-ycsb_value_size=100")
			}
			list, faults, failing := fill+","+name, "get_error=0.5", name
			switch {
			case b.Fresh:
				list, faults = name, "put_error=1"
			case !b.Reads && name != "compact":
				faults, failing = "put_error=1", fill
			}
			last := requireStoreError(t, append(args, "-benchmarks="+list, "-remote=sim://?"+faults+"&seed=1")...)
			require.Contains(t, last, "pebblebench: "+failing+" on pebble: ")
		})
	}
}

// TestScenarioStoreFaults runs every scenario at a tiny scale, both
// engines in processes of their own, on simulated stores whose GETs and
// PUTs all fail: each ends at its first phase with the store's error.
func TestScenarioStoreFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes per scenario")
	}
	for _, s := range scenario.All() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			_ = requireStoreError(t, "-scenario="+s.Name, "-db="+t.TempDir(), "-num=2000", "-reads=100",
				"-ycsb_record_count=500", "-write_buffer_size=65536", "-remote=sim://?get_error=1&put_error=1&seed=1")
		})
	}
}
