// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/internal/bench/scenario"
	"github.com/stretchr/testify/require"
)

// Every phase of every scenario, at full and at demo scale, is a command
// line that parses and validates; the first phase builds a fresh DB and
// the later ones read it.
func TestScenarioPhasesParse(t *testing.T) {
	require.NotEmpty(t, scenario.All())
	for _, s := range scenario.All() {
		for _, demo := range []bool{false, true} {
			for i := range s.Phases {
				c, err := parseFlags(s.PhaseArgs(i, demo, nil), io.Discard)
				require.NoError(t, err, "%s phase %d demo %t", s.Name, i, demo)
				require.Equal(t, config.EngineBoth, c.Engine, s.Name)
				// A phase builds a DB from empty, the first always, or
				// reads the one the phases before it built.
				builds := !c.UseExistingDB
				require.True(t, i > 0 || builds, "%s phase 0 builds", s.Name)
				specs, err := dbbench.ParseBenchmarks(c.Benchmarks)
				require.NoError(t, err)
				for j, spec := range specs {
					b, _ := benchmarks.ByName(spec.Name)
					if builds && j == 0 {
						require.True(t, b.Fresh, "%s phase %d starts from an empty DB", s.Name, i)
					}
					if !builds {
						require.False(t, b.Fresh, "%s phase %d reads the shape before it, yet runs %s", s.Name, i, spec.Name)
					}
				}
			}
		}
	}
}

// The flags given with -scenario override the scenario's own, its demo
// scale's too, in every phase.
func TestScenarioFlagsOverride(t *testing.T) {
	s, ok := scenario.ByName("range-filters")
	require.True(t, ok)
	for _, demo := range []bool{false, true} {
		for i := range s.Phases {
			c, err := parseFlags(s.PhaseArgs(i, demo, []string{"-num=5000", "-writes=300", "-reads=77", "-range_filter_bits=8"}), io.Discard)
			require.NoError(t, err)
			require.EqualValues(t, 5000, c.Num)
			require.EqualValues(t, 300, c.Writes)
			require.EqualValues(t, 77, c.Reads)
			require.EqualValues(t, 8, c.RangeFilterBits)
		}
	}
	// The user's flags, in any form the flag package takes, reach the
	// phases once each, with the last value given.
	user, err := scenarioOverrides([]string{"-num", "5000", "-reads=1", "--reads=77", "-use_query_builder"})
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"-num=5000", "-reads=77", "-use_query_builder=true"}, user)
	for _, sc := range scenario.All() {
		for _, demo := range []bool{false, true} {
			for i := range sc.Phases {
				args := sc.PhaseArgs(i, demo, user)
				seen := map[string]string{}
				for _, a := range args {
					name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
					require.NotContains(t, seen, name, "%s phase %d demo %t: %s and %s", sc.Name, i, demo, seen[name], a)
					seen[name] = a
				}
				require.Equal(t, "-num=5000", seen["num"])
				require.Equal(t, "-reads=77", seen["reads"])
			}
		}
	}
	_, err = scenarioOverrides([]string{"-num", "many"})
	require.ErrorContains(t, err, "-num")

	// Without overrides, the demo's scale replaces the full one.
	c, err := parseFlags(s.PhaseArgs(1, true, nil), io.Discard)
	require.NoError(t, err)
	full, err := parseFlags(s.PhaseArgs(1, false, nil), io.Discard)
	require.NoError(t, err)
	require.Less(t, c.Num, full.Num)
}

func TestScenarioArg(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		value string
		rest  []string
		ok    bool
	}{
		{[]string{"-num=5"}, "", []string{"-num=5"}, false},
		{[]string{"-scenario=range-filters", "-num=5"}, "range-filters", []string{"-num=5"}, true},
		{[]string{"-num", "5", "--scenario", "list"}, "list", []string{"-num", "5"}, true},
		{[]string{"-reads=3", "--", "-scenario=x"}, "", []string{"-reads=3", "--", "-scenario=x"}, false},
	} {
		value, rest, ok := scenarioArg(tc.args)
		require.Equal(t, tc.ok, ok, "%q", tc.args)
		require.Equal(t, tc.value, value, "%q", tc.args)
		require.Equal(t, tc.rest, rest, "%q", tc.args)
	}
}

// A bad scenario name, a refused flag or a bad override is a usage error
// reported before anything runs.
func TestScenarioUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-scenario=nope"}, `unknown scenario "nope"`},
		{[]string{"-scenario="}, "no scenario named"},
		{[]string{"-scenario=list,range-filters"}, "list cannot be combined"},
		{[]string{"-scenario=range-filters", "-benchmarks=fillseq"}, "invalid -benchmarks"},
		{[]string{"-scenario=range-filters", "-use_existing_db"}, "invalid -use_existing_db"},
		{[]string{"-scenario=absent-keys", "-missing_fraction=2"}, "invalid -missing_fraction"},
		{[]string{"-scenario=demo", "-no_such_flag"}, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		status := realMain(tc.args, &stdout, &stderr)
		require.Equal(t, exitUsage, status, "%q: %s", tc.args, stderr.String())
		require.Contains(t, stderr.String(), tc.msg, "%q", tc.args)
		require.Empty(t, stdout.String(), "%q", tc.args)
	}
}

func TestScenarioList(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, realMain([]string{"-scenario=list"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	for _, s := range scenario.All() {
		require.Contains(t, out, "\n"+s.Name+"\n")
		require.Contains(t, out, s.Models)
		require.Contains(t, out, s.Plugins)
		for i := range s.Phases {
			require.Contains(t, out, "pebblebench "+strings.Join(s.PhaseArgs(i, false, nil), " "))
		}
	}
	require.Contains(t, out, "\ndemo\n")
}

// A scenario runs end to end at a tiny scale in the directory -db names,
// and ends with its verdict line.
func TestScenarioEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two small DBs")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	status := realMain([]string{"-scenario=range-filters", "-db=" + dir,
		"-num=40000", "-writes=2000", "-reads=300", "-cache_size=1048576"}, &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	out := stdout.String()
	require.Contains(t, out, "=== scenario range-filters, phase 2/2 (read)")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(last, "range-filters: pebblerf "), last)
	require.Contains(t, last, "block bytes")
	// Under -json, stdout holds only JSON records, the verdict last.
	var jsonOut bytes.Buffer
	status = realMain([]string{"-scenario=range-filters", "-db=" + t.TempDir(), "-json",
		"-num=40000", "-writes=2000", "-reads=300", "-cache_size=1048576"}, &jsonOut, io.Discard)
	require.Equal(t, exitOK, status)
	records := strings.Split(strings.TrimSpace(jsonOut.String()), "\n")
	var verdictRecord map[string]string
	for _, r := range records {
		require.True(t, strings.HasPrefix(r, "{"), r)
	}
	require.NoError(t, json.Unmarshal([]byte(records[len(records)-1]), &verdictRecord))
	require.Equal(t, "verdict", verdictRecord["record"])
	require.Equal(t, "range-filters", verdictRecord["scenario"])
	require.True(t, strings.HasPrefix(verdictRecord["verdict"], "range-filters: pebblerf "), verdictRecord["verdict"])

	// Both engines' DBs were left in -db for a later look.
	for _, e := range []string{config.EnginePebble, config.EnginePebbleRF} {
		_, err := os.Stat(filepath.Join(dir, e))
		require.NoError(t, err)
	}
}

// The README's table of scenario.All() names every scenario -scenario=list
// prints, and no other, in the same order.
func TestReadmeScenarioTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	section := string(readme)
	start := strings.Index(section, "\n## Scenarios\n")
	require.NotEqual(t, -1, start, "README.md has no Scenarios section")
	section = section[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	var inReadme []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			inReadme = append(inReadme, name)
		}
	}
	var listed []string
	for _, s := range scenario.All() {
		listed = append(listed, s.Name)
	}
	listed = append(listed, "demo")
	require.Equal(t, listed, inReadme)
}

// The matrix end to end, at a tiny scale: one row per workload and shape,
// the YCSB workloads and db_bench's, and a verdict computed from them.
func TestMatrixEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four small DBs per engine")
	}
	var stdout, stderr bytes.Buffer
	status := realMain([]string{"-scenario=matrix", "-num=4000", "-ycsb_record_count=1000", "-reads=300",
		"-writes=-1", "-cache_size=1048576"}, &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	out := stdout.String()
	table := out[strings.Index(out, "\nworkload "):]
	for _, row := range []string{"fillrandom ", "readrandom ", "seekrandom ", "readseq ", "seekrandom, bounded ",
		"overwrite ", "ycsb_load ", "ycsb_a ", "ycsb_b ", "ycsb_c ", "ycsb_d ", "ycsb_e ", "ycsb_f "} {
		require.Contains(t, table, "\n"+row, row)
	}
	require.Contains(t, table, "l0-burst (L0 ")
	require.NotContains(t, table, "\ncompact ", "a build's compaction is not a workload")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.True(t, strings.HasPrefix(lines[len(lines)-1], "matrix: "), lines[len(lines)-1])
	// A loss points at the control run; a clean matrix does not.
	const control = "the same command with -pebblerf_recommended=false"
	if strings.Contains(out, "matrix: loss: ") {
		require.Contains(t, lines[len(lines)-1], control)
	} else {
		require.NotContains(t, out, control)
	}
}
