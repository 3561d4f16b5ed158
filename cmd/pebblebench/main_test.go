// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/engineproc"
	"github.com/stretchr/testify/require"
)

// TestMain lets a test run this package's test binary as pebblebench itself,
// to observe real exit statuses and signals.
func TestMain(m *testing.M) {
	// The test binary is also each engine's process under -engine=both.
	engineproc.ServeIfChild()
	if os.Getenv("PEBBLEBENCH_AS_MAIN") == "1" {
		os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func pebblebenchCommand(t *testing.T, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "PEBBLEBENCH_AS_MAIN=1")
	return cmd
}

// jsonRuns runs pebblebench in-process with -json and returns its JSON
// objects by "benchmark/engine", and the human-readable output.
func jsonRuns(t *testing.T, args ...string) (map[string][]map[string]interface{}, string) {
	var stdout, stderr bytes.Buffer
	status := realMain(append(args, "-json"), &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	runs := map[string][]map[string]interface{}{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var obj map[string]interface{}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &obj), sc.Text())
		key := "config" // the first record, without benchmark and engine
		if obj["record"] != "config" {
			key = obj["benchmark"].(string) + "/" + obj["engine"].(string)
		}
		runs[key] = append(runs[key], obj)
	}
	return runs, stderr.String()
}

func TestEndToEndBothEngines(t *testing.T) {
	dir := t.TempDir()
	runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,readrandom,seekrandom,levelstats",
		"-num=2000", "-seed=7", "-db="+dir, "-statistics", "-histogram")

	for _, bench := range []string{"readrandom", "seekrandom"} {
		a, b := runs[bench+"/pebble"], runs[bench+"/pebblerf"]
		require.Len(t, a, 1)
		require.Len(t, b, 1)
		found := a[0]["found"].(float64)
		// fillrandom writes about 63% of the key space; the same seed makes
		// both engines hold the same keys and look up the same ones.
		require.Equal(t, found, b[0]["found"].(float64), bench)
		require.Greater(t, found, 0.0)
		require.Less(t, found, a[0]["reads"].(float64))
		require.Equal(t, 2000.0, a[0]["ops"].(float64))
		require.Contains(t, a[0], "histogram_micros")
		if runtime.GOOS == "linux" {
			require.Greater(t, a[0]["thread_cpu_micros_per_op"].(float64), 0.0)
			require.Greater(t, a[0]["process_cpu_micros_per_op"].(float64), 0.0)
		}
		require.Contains(t, a[0], "statistics")
		require.Contains(t, text, "ratio pebblerf/pebble "+bench+" :")
		ratios := runs[bench+"/pebblerf/pebble"]
		require.Len(t, ratios, 1)
		require.Equal(t, 1.0, ratios[0]["ratios"].(map[string]interface{})["found"])
	}
	for _, e := range []string{"pebble", "pebblerf"} {
		ls := runs["levelstats/"+e]
		require.Len(t, ls, 1)
		levels := ls[0]["data"].(map[string]interface{})["levels"].([]interface{})
		require.Len(t, levels, 7)
		require.DirExists(t, dir+"/"+e)
	}
	// pebblerf adds its own DB-wide tickers (DB.Statistics) to the
	// Metrics-derived tickers, and no per-level ones unless asked
	// (-pebblerf_statistics); upstream has only the latter.
	seeks := runs["seekrandom/pebblerf"][0]["statistics"].(map[string]interface{})
	require.Equal(t, 2000.0, seeks["pebblerf.dbwide.number.db.seek"])
	// A seek is found when it leaves the iterator valid, on a key equal to
	// the target (counted by "found") or past it.
	require.GreaterOrEqual(t, seeks["pebblerf.dbwide.number.db.seek.found"], runs["seekrandom/pebblerf"][0]["found"])
	require.LessOrEqual(t, seeks["pebblerf.dbwide.number.db.seek.found"], 2000.0)
	require.NotContains(t, seeks, "rocksdb.number.db.seek")
	require.NotContains(t, runs["seekrandom/pebble"][0]["statistics"], "pebblerf.dbwide.number.db.seek")
	require.Contains(t, text, "STATISTICS (pebble):\n")
	require.Contains(t, text, "pebblerf.dbwide.block.cache.hit COUNT : ")
	require.Contains(t, text, "STATISTICS (pebblerf):")
	require.Contains(t, text, "Microseconds per seek:")
}

// TestFoundCounts checks exact found counts where they are known: after
// fillseq every key of [0, num) exists, so plain lookups all find theirs and
// lookups made missing find none, through Get, SeekGE and SeekPrefixGE.
func TestFoundCounts(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		extra   []string
		missing string
		want    float64
	}{
		{nil, "0", 500},
		{nil, "1", 0},
		{[]string{"-prefix_size=8"}, "0", 500},
		{[]string{"-prefix_size=8"}, "1", 0},
		{[]string{"-prefix_size=8", "-use_l6_filters", "-use_tailing_iterator"}, "0", 500},
	} {
		args := append([]string{"-benchmarks=fillseq,readrandom,seekrandom,compact,readrandom",
			"-num=1000", "-reads=500", "-seed=3", "-db=" + dir, "-missing_fraction=" + tc.missing}, tc.extra...)
		runs, _ := jsonRuns(t, args...)
		require.Len(t, runs["readrandom/pebble"], 2)
		for _, r := range append(runs["readrandom/pebble"], runs["seekrandom/pebble"]...) {
			require.Equal(t, tc.want, r["found"].(float64), "%v %v", args, r)
		}
	}
}

func TestUseExistingDB(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-engine=both", "-num=1000", "-seed=11", "-db=" + dir}
	first, _ := jsonRuns(t, append(args, "-benchmarks=fillrandom,readrandom")...)
	second, text := jsonRuns(t, append(args, "-benchmarks=fillrandom,readrandom", "-use_existing_db")...)
	require.Contains(t, text, "fillrandom   : skipped (--use_existing_db is true)")
	require.Empty(t, second["fillrandom/pebble"])
	// A skipped run keeps its run number, so the second readrandom draws
	// the first one's keys.
	for _, e := range []string{"pebble", "pebblerf"} {
		require.Equal(t, first["readrandom/"+e][0]["found"], second["readrandom/"+e][0]["found"])
	}
}

func TestRepeatsPrintSummaries(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := realMain([]string{"-engine=both", "-benchmarks=fillseq,readrandom[X3-W1]", "-num=300", "-seed=5"}, &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	out := stdout.String()
	require.Contains(t, out, "Warming up benchmark by running 1 times\n")
	require.Contains(t, out, "Running benchmark for 3 times\n")
	require.Equal(t, 3, strings.Count(out, "readrandom/pebble :"))
	require.Equal(t, 3, strings.Count(out, "readrandom/pebblerf :"))
	require.Equal(t, 3, strings.Count(out, "ratio pebblerf/pebble readrandom :"))
	require.Contains(t, out, "readrandom/pebble [AVG 3 runs] : ")
	require.Contains(t, out, "readrandom/pebble [AVG    3 runs] : ")
	require.Contains(t, out, "readrandom/pebblerf [MEDIAN 3 runs] : ")
	require.Contains(t, out, "ratio pebblerf/pebble readrandom [MEDIAN 3 runs] : ")
}

// TestFailedRunExitStatus checks that a run that fails (here: its DB lost
// its MANIFEST, so it cannot be opened) ends with status 1 and a one-line
// error naming the DB directory. (A -db that is a regular file is a usage
// error now: TestCLIErrors.)
func TestFailedRunExitStatus(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, realMain([]string{"-benchmarks=fillseq", "-db=" + dir, "-num=10", "-seed=1"}, &stdout, &stderr), stderr.String())
	manifests, err := filepath.Glob(filepath.Join(dir, "MANIFEST-*"))
	require.NoError(t, err)
	require.NotEmpty(t, manifests)
	for _, m := range manifests {
		require.NoError(t, os.Remove(m))
	}
	stdout.Reset()
	stderr.Reset()
	status := realMain([]string{"-use_existing_db", "-benchmarks=readrandom", "-db=" + dir, "-num=10", "-seed=1"}, &stdout, &stderr)
	require.Equal(t, exitFailure, status)
	require.Contains(t, stderr.String(), dir)
	require.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
}

// TestExitStatusAndInterrupt runs the real process: a bad flag exits with
// status 2 and a message naming it; SIGINT during a benchmark ends it early,
// still prints its result line, and exits with status 130.
func TestExitStatusAndInterrupt(t *testing.T) {
	cmd := pebblebenchCommand(t, "-compression_type=lz4")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr)
	require.Equal(t, exitUsage, exitErr.ExitCode())
	require.Contains(t, string(out), "invalid -compression_type")

	// readrandom runs until interrupted (-reads is far more than the test
	// waits for).
	all := interruptRunning(t, "readrandom/pebble", "-benchmarks=fillrandom,readrandom,seekrandom", "-num=1000",
		"-reads=1000000000000", "-seed=1", "-statistics")
	require.Contains(t, all, "readrandom   : ")
	require.Contains(t, all, "readrandom   : interrupted")
	require.NotContains(t, all, "seekrandom   : ")
	require.Contains(t, all, "STATISTICS:")
}

// interruptRunning runs pebblebench with args, sends it SIGINT once the
// progress line of label shows the run has started, and returns its
// stdout once it has exited with status 130.
func interruptRunning(t *testing.T, label string, args ...string) string {
	cmd := pebblebenchCommand(t, append(args, "-report_interval_seconds=1", "-report_file="+t.TempDir()+"/report.csv")...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stderr)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "... "+label+": ") {
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	for sc.Scan() {
	}
	err = cmd.Wait()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr)
	require.Equal(t, exitInterrupted, exitErr.ExitCode())
	return stdout.String()
}

// readseq reads -reads entries in key order, starting over at the end: both
// engines read the same entries.
func TestReadSeq(t *testing.T) {
	runs, _ := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,readseq", "-num=500", "-reads=2000",
		"-seed=3", "-db="+t.TempDir())
	a, b := runs["readseq/pebble"], runs["readseq/pebblerf"]
	require.Len(t, a, 1)
	require.Len(t, b, 1)
	// 500 random writes leave fewer than 500 distinct keys, so 2000 reads
	// wrap around the DB several times and every one finds an entry.
	require.Equal(t, 2000.0, a[0]["found"].(float64))
	require.Equal(t, a[0]["found"], b[0]["found"])
	require.Equal(t, a[0]["ops"], b[0]["ops"])
}

// The YCSB workloads make the same operations on both engines: the same
// counts found. Every read of workload C (read only) and F (read-modify-
// write) is of a loaded record, so each finds it.
func TestYCSB(t *testing.T) {
	runs, _ := jsonRuns(t, "-engine=both", "-benchmarks=ycsb_load,ycsb_a,ycsb_b,ycsb_c,ycsb_d,ycsb_e,ycsb_f",
		"-ycsb_record_count=2000", "-ycsb_value_size=100", "-reads=500", "-threads=2", "-seed=5", "-db="+t.TempDir())
	load := runs["ycsb_load/pebble"]
	require.Len(t, load, 1)
	require.Equal(t, 2000.0, load[0]["ops"].(float64))
	for _, w := range []string{"a", "b", "c", "d", "e", "f"} {
		a, b := runs["ycsb_"+w+"/pebble"], runs["ycsb_"+w+"/pebblerf"]
		require.Len(t, a, 1, w)
		require.Len(t, b, 1, w)
		require.Equal(t, 1000.0, a[0]["ops"].(float64), w)
		require.Equal(t, a[0]["ops"], b[0]["ops"], w)
		require.Equal(t, a[0]["found"], b[0]["found"], w)
		require.Positive(t, a[0]["found"].(float64), w)
	}
	require.Equal(t, 1000.0, runs["ycsb_c/pebble"][0]["found"].(float64))
	require.Equal(t, 1000.0, runs["ycsb_f/pebble"][0]["found"].(float64))
}

// TestProcessCPUCountsBackgroundWork: a compaction runs on Pebble's
// goroutines while the benchmark's thread waits for it, so its CPU is in
// each engine's process CPU and not in the thread's; a fill's flushes and
// compactions likewise. Each engine runs in a process of its own, so each
// process CPU is that engine's work, whichever ran when.
func TestProcessCPUCountsBackgroundWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is read on Linux only")
	}
	runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,compact", "-num=20000", "-seed=2",
		"-write_buffer_size=65536", "-db="+t.TempDir())
	for _, bench := range []string{"fillrandom", "compact"} {
		for _, e := range []string{"pebble", "pebblerf"} {
			r := runs[bench+"/"+e]
			require.Len(t, r, 1, text)
			thread, process := r[0]["thread_cpu_micros_per_op"].(float64), r[0]["process_cpu_micros_per_op"].(float64)
			require.Greater(t, process, thread, "%s on %s: %s", bench, e, text)
		}
	}
	require.Contains(t, text, "ratio pebblerf/pebble compact : micros/op ")
	require.Regexp(t, `compact/pebblerf : .* thread-cpu-micros/op [0-9.]+ process-cpu-micros/op [0-9.]+`, text)
}

// TestInterruptBothEngines: under -engine=both SIGINT reaches the engines'
// processes through pebblebench: the run in progress ends early, its line
// is still printed, the engines' processes exit, and so does pebblebench,
// with status 130.
func TestInterruptBothEngines(t *testing.T) {
	out := interruptRunning(t, "readrandom/pebble", "-engine=both", "-benchmarks=fillrandom,readrandom,seekrandom", "-num=1000",
		"-reads=1000000000000", "-seed=1")
	require.Contains(t, out, "readrandom/pebble : ")
	require.Contains(t, out, "readrandom/pebble : interrupted")
	require.NotContains(t, out, "seekrandom/")
}
