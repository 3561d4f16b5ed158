// Copyright 2026 The pebblerf Authors. All rights reserved.

// Command pebblebench is a db_bench-compatible benchmark for upstream Pebble
// and pebblerf.
//
// People who tune LSM trees know RocksDB's db_bench: its flag names, its key
// format, its result line. pebblebench keeps all three, so a db_bench
// command line and its output carry over, and adds what this project needs
// to make performance claims: -engine=both runs every benchmark on upstream
// Pebble and on pebblerf, each in a process of its own, over identical data
// (same seed, same keys in the same order, separate directories and
// caches), alternating the engines run by run (or, with -interleave, in
// turns of a few operations), and prints the ratio of each figure, the CPU
// of each engine's process, its flushes and compactions included, beside
// its benchmark threads'.
//
//	pebblebench -engine=both -benchmarks=fillrandom,readrandom[X3],levelstats -num=1000000
//
// pebblerf's plug-ins are flags too: -range_filter_bits, -use_query_builder
// with -query_plan and -explain, -compaction_advisor and -pebblerf_statistics
// apply to pebblerf alone, while -compaction_style (with -num_levels and
// -many_runs_slice_bytes) gives both engines the same LSM shape, so a shape
// is never what a ratio measures. Bounded seeks (-seek_upper_bound_len),
// seeks into empty ranges (-key_stride, -empty_range_fraction), targets
// beyond the filled range (-seek_target_range_multiplier) and a hot range
// (-seek_hot_fraction) make the reads those plug-ins are for; -lsm_sample_ms
// shows the shape over each run (sorted runs, write stalls, write-amp).
//
// With one engine -db is the DB directory itself, as in db_bench; a fill
// records its seed and key flags next to the DB, so a later -use_existing_db
// run can refuse flags that would read other keys, and reads draw their keys
// from other random streams than writes, so they never replay a fill.
// Output conventions: result lines, histograms, AVG and MEDIAN lines and
// STATISTICS on stdout; a progress line every few seconds on stderr; -json
// moves the human-readable output to stderr and prints one JSON object per
// run and engine on stdout, after a first record of the configuration. A
// user error is one line on stderr and exit status 2, found before anything
// else is printed; SIGINT ends the current benchmark early, still prints
// what it measured, and exits with status 130.
//
// This package is the command line: the flags (flags.go), their validation
// (validate.go, layout.go), -help (help.go), the scenarios' phases run one
// after the other (scenario.go), and the wiring of the parts, which live
// under internal/bench: config (the flags' values and what derives from
// them), engine (one DB behind one interface), benchmarks (the table of
// benchmarks and their loops), runner (one engine across a command line:
// its DB prepared, settled, timed), engineproc (an engine in a process of
// its own), driver (the benchmarks run on the engines and printed), result
// (what a run measured, and its lines), scenario (the scenarios as data,
// and their verdicts), and the parts that need no flag: dbbench, keyspace,
// values, hist, statistics, lsm, progress and report.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/driver"
	"github.com/pebblerf/pebble/internal/bench/engineproc"
)

func main() {
	// Under -engine=both this program runs each engine in a process of its
	// own: itself, started again as one.
	engineproc.ServeIfChild()
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// realMain runs pebblebench with args and returns the exit status.
//
// A user error (a bad flag or value, a -db that cannot be used) is found
// before anything is printed, and is one line on stderr with status 2.
func realMain(args []string, stdout, stderr io.Writer) int {
	stderr = shareable(stderr)
	if name, rest, ok := scenarioArg(args); ok {
		return runScenarios(name, rest, stdout, stderr)
	}
	c, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err == nil {
		err = checkDBLayout(c)
	}
	if err != nil {
		return reportError(stderr, err)
	}
	out, jsonOut := stdout, io.Writer(nil)
	if c.JSON {
		out, jsonOut = stderr, stdout
	}
	seedLine := ""
	if c.SeedDrawn {
		seedLine = fmt.Sprintf("Set seed to %d because --seed was 0\n", c.Seed)
	}

	root := c.DB
	if !c.DBGiven {
		if root, err = os.MkdirTemp("", "pebblebench-"); err != nil {
			return reportError(stderr, err)
		}
		defer os.RemoveAll(root)
	}

	stop, release := catchInterrupts(stderr)
	defer release()
	// One engine in this process is profiled here; under -engine=both each
	// engine's process writes its own profile.
	childProfile := ""
	if c.Engine == config.EngineBoth {
		childProfile = c.CPUProfile
	} else if c.CPUProfile != "" {
		stopProfile, err := startCPUProfile(c.CPUProfile)
		if err != nil {
			return reportError(stderr, err)
		}
		defer func() {
			if err := stopProfile(); err != nil {
				fmt.Fprintf(stderr, "pebblebench: -cpuprofile: %v\n", err)
			} else {
				fmt.Fprintf(out, "wrote the CPU profile %s\n", c.CPUProfile)
			}
		}()
	}
	engines, closeEngines, err := startEngines(c, stderr, stop, childProfile)
	if err != nil {
		return reportError(stderr, err)
	}
	d := driver.New(c, root, engines, out, jsonOut, stderr, stop)
	if err := d.Begin(); err != nil {
		return reportError(stderr, errors.CombineErrors(err, errors.CombineErrors(d.Finish(), closeEngines())))
	}
	fmt.Fprint(out, seedLine)
	d.PrintHeader(out)
	err = errors.CombineErrors(d.Run(), errors.CombineErrors(d.Finish(), closeEngines()))
	if err != nil {
		return reportError(stderr, err)
	}
	if childProfile != "" {
		// The engines' processes have exited, their profiles written.
		fmt.Fprintf(out, "wrote the CPU profiles %s\n", strings.Join(engineproc.ProfilePaths(childProfile, c.Engines()), ", "))
	}
	if stop.Load() {
		return exitInterrupted
	}
	return exitOK
}

// reportError prints err as one line on stderr and returns its exit status:
// 2 for a usage error, else 1. No stack trace: the message names what
// failed.
func reportError(stderr io.Writer, err error) int {
	msg := strings.ReplaceAll(err.Error(), "\n", "; ")
	var u *config.UsageError
	if !errors.As(err, &u) {
		fmt.Fprintf(stderr, "pebblebench: %s\n", msg)
		return exitFailure
	}
	if u.PointToHelp {
		msg += " (pebblebench -help lists the flags)"
	}
	fmt.Fprintf(stderr, "pebblebench: %s\n", msg)
	return exitUsage
}
