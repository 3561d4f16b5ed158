// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/driver"
	"github.com/pebblerf/pebble/internal/bench/runner"
	"github.com/stretchr/testify/require"
)

// runMain runs pebblebench in-process and returns its exit status and output.
func runMain(args ...string) (status int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	status = realMain(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

// fill runs a fill that must succeed.
func fill(t *testing.T, args ...string) {
	t.Helper()
	status, _, stderr := runMain(append([]string{"-num=500", "-seed=5"}, args...)...)
	require.Equal(t, exitOK, status, stderr)
}

// TestCLIErrors checks every user error: exit status 2, nothing on stdout
// (no header first), and one line on stderr, whose start is checked.
func TestCLIErrors(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	empty := filepath.Join(tmp, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	other := filepath.Join(tmp, "other")
	require.NoError(t, os.Mkdir(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "notes.txt"), []byte("keep me"), 0o644))

	// A DB with no keys: flush opens (so creates) the DB and writes nothing.
	noKeys := filepath.Join(tmp, "nokeys")
	fill(t, "-benchmarks=flush", "-db="+noKeys)
	// One engine's DB in the -engine=both layout, and in the single one.
	both := filepath.Join(tmp, "both")
	fill(t, "-benchmarks=fillrandom", "-db="+filepath.Join(both, "pebble"))
	single := filepath.Join(tmp, "single")
	fill(t, "-benchmarks=fillrandom", "-db="+single, "-key_stride=16")

	// An address something listens on already.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	busy := ln.Addr().String()

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-db=" + file}, "pebblebench: invalid -db: " + file + " is a file, not a directory"},
		{[]string{"-benchmarks=ycsb_g"}, `pebblebench: invalid -benchmarks: unknown benchmark "ycsb_g"`},
		{[]string{"-ycsb_record_count=0"}, "pebblebench: invalid -ycsb_record_count: 0 must be positive or -1"},
		{[]string{"-ycsb_value_size=0"}, "pebblebench: invalid -ycsb_value_size: 0 must be in [1, 1048576]"},
		{[]string{"-interleave=100"}, "pebblebench: invalid -interleave: takes turns between two engines; it needs -engine=both"},
		{[]string{"-engine=both", "-interleave=0"}, "pebblebench: invalid -interleave: 0 must be at least 1 (leave it out for whole runs)"},
		{[]string{"-engine=both", "-interleave=100", "-threads=2"}, "pebblebench: invalid -interleave: takes turns of one thread; it needs -threads=1, not 2"},
		{[]string{"-engine=both", "-interleave=100", "-duration=5"}, "pebblebench: invalid -interleave: counts operations; it cannot be combined with -duration"},
		{[]string{"-num=abc"}, `pebblebench: invalid value "abc" for flag -num: parse error (pebblebench -help lists the flags)`},
		{[]string{"-nosuchflag=1"}, "pebblebench: flag provided but not defined: -nosuchflag (pebblebench -help lists the flags)"},
		{[]string{"stray"}, `pebblebench: unexpected argument "stray"`},
		{[]string{"-engine=rocksdb"}, `pebblebench: invalid -engine: "rocksdb" is not one of`},

		// -use_existing_db needs a DB holding keys, in every engine's
		// directory.
		{[]string{"-use_existing_db", "-db=" + filepath.Join(tmp, "missing")}, "pebblebench: invalid -use_existing_db: " + filepath.Join(tmp, "missing") + " does not exist"},
		{[]string{"-use_existing_db", "-db=" + empty}, "pebblebench: invalid -use_existing_db: " + empty + " holds no Pebble DB"},
		{[]string{"-use_existing_db", "-db=" + noKeys}, "pebblebench: invalid -use_existing_db: the pebble DB in " + noKeys + " holds no keys"},
		{[]string{"-use_existing_db", "-engine=both", "-db=" + both}, "pebblebench: invalid -use_existing_db: " + filepath.Join(both, "pebblerf") + " does not exist"},
		// The old layout, <db>/<engine> with one engine, is refused with
		// the -db that reads it.
		{[]string{"-use_existing_db", "-db=" + both}, "pebblebench: invalid -db: " + both + " holds its DB in " + filepath.Join(both, "pebble") + " (the layout of -engine=both); pass -db=" + filepath.Join(both, "pebble")},
		{[]string{"-engine=both", "-db=" + single}, "pebblebench: invalid -db: " + single + " holds a single engine's DB"},
		// A fill replaces the DB directory, so one holding other files is
		// refused.
		{[]string{"-db=" + other}, "pebblebench: invalid -db: " + other + " is a non-empty directory without a Pebble DB"},
		// Reads with flags that make other keys than the fill wrote.
		{[]string{"-use_existing_db", "-db=" + single}, "pebblebench: invalid -key_stride: 1, but the DB in " + single + " was filled with -key_stride=16"},
		{[]string{"-use_existing_db", "-db=" + single, "-key_stride=16", "-num=1000"}, "pebblebench: invalid -num: 1000, but the DB in " + single + " was filled with -num=500"},

		// pebblerf's plug-ins under -engine=pebble.
		{[]string{"-explain"}, "pebblebench: invalid -explain: applies to pebblerf only"},
		{[]string{"-range_filter_bits=16"}, "pebblebench: invalid -range_filter_bits: applies to pebblerf only"},
		{[]string{"-get_l6_filters=on"}, "pebblebench: invalid -get_l6_filters: applies to pebblerf only"},
		{[]string{"-engine=pebblerf", "-get_l6_filters=yes"}, `pebblebench: invalid -get_l6_filters: "yes" is not one of off, on, auto`},
		{[]string{"-use_query_builder"}, "pebblebench: invalid -use_query_builder: applies to pebblerf only"},
		{[]string{"-query_plan=plain"}, "pebblebench: invalid -query_plan: applies to pebblerf only"},
		{[]string{"-compaction_advisor", "-pebblerf_statistics"}, "pebblebench: invalid -compaction_advisor: applies to pebblerf only"},
		{[]string{"-compaction_advisor_write_budget=0.5"}, "pebblebench: invalid -compaction_advisor_write_budget: applies to pebblerf only"},
		{[]string{"-pebblerf_statistics=false"}, "pebblebench: invalid -pebblerf_statistics: applies to pebblerf only"},
		{[]string{"-use_ribbon_filter"}, "pebblebench: invalid -use_ribbon_filter: applies to pebblerf only"},
		{[]string{"-metrics_addr=127.0.0.1:9100"}, "pebblebench: invalid -metrics_addr: applies to pebblerf only"},
		// -metrics_addr that cannot be served.
		{[]string{"-engine=pebblerf", "-metrics_addr=9100"}, `pebblebench: invalid -metrics_addr: "9100" is not HOST:PORT`},
		{[]string{"-engine=pebblerf", "-metrics_addr=:9100"}, `pebblebench: invalid -metrics_addr: ":9100" names no host`},
		{[]string{"-engine=pebblerf", "-metrics_addr=127.0.0.1:http"}, `pebblebench: invalid -metrics_addr: "127.0.0.1:http": port "http" is not a number`},
		{[]string{"-engine=both", "-metrics_addr=127.0.0.1:70000"}, `pebblebench: invalid -metrics_addr: "127.0.0.1:70000": port "70000" is not a number in [0, 65535]`},
		{[]string{"-engine=pebblerf", "-metrics_addr=" + busy}, "pebblebench: invalid -metrics_addr: listen tcp " + busy + ": bind: address already in use"},
		{[]string{"-benchmark_read_rate_limit=-1"}, "pebblebench: invalid -benchmark_read_rate_limit: -1 must not be negative"},
		// A plug-in's settings without the plug-in.
		{[]string{"-engine=pebblerf", "-query_plan=plain"}, "pebblebench: invalid -query_plan: has no effect without -use_query_builder"},
		{[]string{"-engine=both", "-compaction_advisor_log"}, "pebblebench: invalid -compaction_advisor_log: has no effect without -compaction_advisor"},
		// -empty_range_fraction that cannot be honoured.
		{[]string{"-empty_range_fraction=0.5"}, "pebblebench: invalid -empty_range_fraction: needs -seek_upper_bound_len > 0"},
		{[]string{"-empty_range_fraction=0.5", "-seek_upper_bound_len=8", "-key_stride=16", "-benchmarks=fillrandom,readrandom"},
			"pebblebench: invalid -empty_range_fraction: applies to seekrandom and seekrandomwhilewriting"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			status, stdout, stderr := runMain(tc.args...)
			require.Equal(t, exitUsage, status, stderr)
			require.Empty(t, stdout)
			require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			require.True(t, strings.HasPrefix(stderr, tc.want), "got %q\nwant %q...", stderr, tc.want)
		})
	}
	// Refused runs leave the directories as they were.
	b, err := os.ReadFile(filepath.Join(other, "notes.txt"))
	require.NoError(t, err)
	require.Equal(t, "keep me", string(b))
}

// TestSingleEngineDBIsTheDirectory checks that one engine's DB is -db
// itself, and that its fill is recorded with it.
func TestSingleEngineDBIsTheDirectory(t *testing.T) {
	dir := t.TempDir()
	fill(t, "-benchmarks=fillseq", "-db="+dir, "-engine=pebblerf")
	require.True(t, runner.HasDB(dir))
	require.NoDirExists(t, filepath.Join(dir, "pebblerf"))
	r, err := runner.ReadFillRecord(dir)
	require.NoError(t, err)
	require.Equal(t, &runner.FillRecord{Benchmark: "fillseq", Engine: "pebblerf", Seed: 5, Num: 500, Writes: 500, KeySize: 16, KeyStride: 1}, r)

	status, stdout, stderr := runMain("-engine=pebblerf", "-db="+dir, "-use_existing_db", "-benchmarks=readrandom", "-num=500", "-seed=9")
	require.Equal(t, exitOK, status, stderr)
	require.Contains(t, stdout, "Filled by:  fillseq -seed=5 -num=500 ")
	require.Contains(t, stdout, "(500 of 500 found)")
}

// TestReadsDoNotReplayTheFill checks that a read run over an existing DB,
// with the seed of its fill, does not look up the keys the fill wrote in
// the order it wrote them: after fillrandom, which writes about 63% of the
// key space, a uniform read finds about 63%, where a replay finds all.
func TestReadsDoNotReplayTheFill(t *testing.T) {
	dir := t.TempDir()
	fill(t, "-benchmarks=fillrandom", "-db="+dir, "-num=4000")
	for _, threads := range []string{"1", "2"} {
		for _, bench := range []string{"readrandom", "seekrandom"} {
			runs, _ := jsonRuns(t, "-db="+dir, "-use_existing_db", "-benchmarks="+bench, "-num=4000", "-seed=5", "-threads="+threads)
			r := runs[bench+"/pebble"][0]
			found := r["found"].(float64) / r["reads"].(float64)
			require.InDelta(t, 0.632, found, 0.05, "%s with %s threads", bench, threads)
		}
	}
}

// TestHelp checks -help: exit 0, the groups, every flag and benchmark, the
// examples, and help strings of at most two short lines.
func TestHelp(t *testing.T) {
	status, stdout, stderr := runMain("-help")
	require.Equal(t, exitOK, status)
	require.Empty(t, stderr)
	for _, s := range []string{"Examples:", "Benchmarks (-benchmarks=", "\nWorkload:\n", "\nLSM shape and options (both engines):\n",
		"\nFilters:\n", "\npebblerf plug-ins (refused under -engine=pebble):\n", "\nOutput:\n"} {
		require.Contains(t, stdout, s)
	}
	require.NotContains(t, stdout, "\nOther:\n", "every flag belongs to a group")
	require.Equal(t, 2, strings.Count(stdout, "\n  # "), "two examples, each under a comment")
	for _, name := range benchmarks.Names() {
		b, _ := benchmarks.ByName(name)
		require.NotEmpty(t, b.Help, name)
		require.Contains(t, stdout, "  "+name+" ")
	}
	fs := newFlagSet(&config.Config{})
	fs.VisitAll(func(f *flag.Flag) {
		require.Contains(t, stdout, "\n  -"+f.Name+"=")
		lines := strings.Split(f.Usage, "\n")
		require.LessOrEqual(t, len(lines), 2, f.Name)
		for _, l := range lines {
			require.LessOrEqual(t, len(l), 130, "-%s: %q", f.Name, l)
		}
	})
	for _, name := range pebblerfOnlyFlags {
		require.NotNil(t, fs.Lookup(name), name)
	}
}

// TestJSONRecords checks -json: a first record with the configuration and
// the seed drawn for -seed=0, then records whose keys are all snake_case.
func TestJSONRecords(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := realMain([]string{"-engine=both", "-benchmarks=fillseq,readrandom[X2],levelstats", "-num=300", "-histogram", "-json"}, &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	sc := bufio.NewScanner(&stdout)
	var records []map[string]interface{}
	for sc.Scan() {
		var obj map[string]interface{}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &obj), sc.Text())
		records = append(records, obj)
	}
	require.NotEmpty(t, records)
	cfg := records[0]
	require.Equal(t, "config", cfg["record"])
	seed := cfg["seed"].(float64)
	require.NotZero(t, seed, "the seed drawn for -seed=0")
	require.Equal(t, seed, cfg["flags"].(map[string]interface{})["seed"])
	require.Equal(t, 300.0, cfg["flags"].(map[string]interface{})["num"])
	require.Contains(t, stderr.String(), "Set seed to ")

	kinds := map[string]int{}
	for _, r := range records {
		kinds[r["record"].(string)]++
		checkSnakeKeys(t, r)
	}
	require.Equal(t, map[string]int{"config": 1, "result": 6, "ratio": 3, "meta": 2}, kinds)
}

// checkSnakeKeys checks the keys of a JSON object and the objects in it,
// except the statistics, keyed by RocksDB's ticker names, and the flags,
// keyed by flag names.
func checkSnakeKeys(t *testing.T, v interface{}) {
	switch v := v.(type) {
	case map[string]interface{}:
		for k, x := range v {
			for _, r := range k {
				require.True(t, r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9', "key %q", k)
			}
			if k != "statistics" && k != "flags" {
				checkSnakeKeys(t, x)
			}
		}
	case []interface{}:
		for _, x := range v {
			checkSnakeKeys(t, x)
		}
	}
}

// TestProgressByDefault checks that a run longer than the progress interval
// prints progress lines on stderr without -report_interval_seconds, and
// none on stdout.
func TestProgressByDefault(t *testing.T) {
	defer func(d time.Duration) { driver.DefaultProgressInterval = d }(driver.DefaultProgressInterval)
	driver.DefaultProgressInterval = time.Millisecond
	status, stdout, stderr := runMain("-benchmarks=fillseq", "-num=20000", "-seed=1")
	require.Equal(t, exitOK, status, stderr)
	require.Contains(t, stderr, "... fillseq/pebble: ")
	require.Contains(t, stderr, " of 20000)")
	require.NotContains(t, stdout, "... ")
	require.Contains(t, stdout, "fillseq      : ")
}

// TestEmptyRangeShortfall checks that a key set too dense for
// -empty_range_fraction says so after the result line: every position of
// [0, 1000) is written, so no range of 8 positions is empty.
func TestEmptyRangeShortfall(t *testing.T) {
	status, stdout, stderr := runMain("-benchmarks=fillrandom,seekrandom", "-num=1000", "-writes=20000",
		"-seek_upper_bound_len=8", "-empty_range_fraction=0.5", "-seed=1")
	require.Equal(t, exitOK, status, stderr)
	require.Contains(t, stdout, "seekrandom   : only 0.0% of the ranges were empty, not -empty_range_fraction=0.5")

	// With room between the keys the ranges are empty as asked, and
	// nothing is said.
	status, stdout, stderr = runMain("-benchmarks=fillrandom,seekrandom", "-num=1000", "-key_stride=16",
		"-seek_upper_bound_len=8", "-empty_range_fraction=0.5", "-seed=1")
	require.Equal(t, exitOK, status, stderr)
	require.NotContains(t, stdout, "of the ranges were empty")
}

// TestHelpDefinesPrintedTickers: every ticker a -statistics run prints,
// with pebblerf's per-level statistics on, is defined under -help's
// "Tickers", by its own name or by its per-level pattern.
func TestHelpDefinesPrintedTickers(t *testing.T) {
	status, help, _ := runMain("-help")
	require.Equal(t, exitOK, status)
	_, tickers, found := strings.Cut(help, "\nTickers")
	require.True(t, found, "-help has no Tickers section")
	defined := map[string]bool{}
	for _, line := range strings.Split(tickers, "\n") {
		if !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "      ") {
			continue
		}
		for _, name := range strings.Split(strings.TrimSpace(line), ", ") {
			defined[name] = true
		}
	}

	status, stdout, stderr := runMain("-engine=both", "-benchmarks=fillrandom,readrandom,seekrandom",
		"-num=2000", "-seed=7", "-db="+t.TempDir(), "-bloom_bits=10", "-pebblerf_statistics", "-statistics")
	require.Equal(t, exitOK, status, stderr)
	printed := 0
	for _, line := range strings.Split(stdout, "\n") {
		name, _, ok := strings.Cut(line, " COUNT : ")
		if !ok {
			continue
		}
		printed++
		pattern := name
		if parts := strings.SplitN(name, ".", 3); len(parts) == 3 && parts[0] == "pebblerf" {
			pattern = "pebblerf.<level>." + parts[2]
		}
		require.True(t, defined[name] || defined[pattern], "-statistics printed %s, which -help does not define", name)
	}
	require.Greater(t, printed, 10, "the run printed too few tickers to check:\n%s", stdout)
}
