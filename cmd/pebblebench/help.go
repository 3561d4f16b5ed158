// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pebblerf/pebble/internal/attribution"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/scenario"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/seekstats"
)

// -help prints the flags in groups, the benchmarks, the scenarios and two
// examples. Go's flag.PrintDefaults would list every flag alphabetically,
// where the LSM shape, the filters and pebblerf's plug-ins are hard to tell
// apart.

// flagGroup is one group of the -help text.
type flagGroup struct {
	title string
	names []string
}

// flagGroups orders the flags of -help. A flag missing from every group is
// listed under "Other", so a new flag is never hidden.
var flagGroups = []flagGroup{
	{"Workload", []string{"scenario", "benchmarks", "engine", "db", "use_existing_db", "num", "writes", "reads", "duration",
		"threads", "interleave", "batch_size", "seed", "ycsb_record_count", "ycsb_value_size", "key_size", "value_size", "prefix_size", "keys_per_prefix", "missing_fraction",
		"seek_nexts", "total_order_seek", "use_tailing_iterator", "benchmark_read_rate_limit", "benchmark_write_rate_limit", "key_stride",
		"seek_upper_bound_len", "empty_range_fraction", "seek_target_range_multiplier", "seek_hot_fraction",
		"seek_hot_range", "seek_hot_start", "fillseq_overwrite_window",
		"key_format", "versions_per_key", "mvcc_compact_rounds", "mvcc_scan_keys"}},
	{"LSM shape and options (both engines)", []string{"compaction_style", "num_levels", "many_runs_slice_bytes",
		"level0_file_num_compaction_trigger", "level0_stop_writes_trigger", "compression_type", "compression_ratio", "cache_size", "write_buffer_size", "disable_wal", "sync"}},
	{"Object storage (both engines)", []string{"remote", "remote_levels", "secondary_cache_size", "write_cache_size"}},
	{"Filters", []string{"bloom_bits", "use_ribbon_filter", "bloom_before_level", "use_l6_filters", "filter_plan", "filter_budget_bits"}},
	{"pebblerf plug-ins (refused under -engine=pebble)", []string{"pebblerf_recommended", "range_filter_bits", "range_filter_plan", "range_filter_budget_bits",
		"use_query_builder", "query_plan", "explain", "compaction_advisor", "compaction_advisor_log", "compaction_advisor_interval_ms",
		"compaction_advisor_write_budget", "pebblerf_statistics", "get_l6_filters"}},
	{"Output", []string{"statistics", "range_filter_whatif_bits", "prefix_filter_whatif_bits", "histogram", "json", "lsm_sample_ms", "report_interval_seconds", "report_file", "report_html", "metrics_addr", "cpuprofile"}},
}

// pebblerfOnlyFlags are the flags upstream Pebble has no counterpart for:
// given with -engine=pebble they would change nothing, so they are refused.
var pebblerfOnlyFlags = []string{"use_ribbon_filter", "bloom_before_level", "range_filter_bits",
	"range_filter_plan", "range_filter_budget_bits", "use_query_builder",
	"query_plan", "explain", "compaction_advisor", "compaction_advisor_log", "compaction_advisor_interval_ms",
	"compaction_advisor_write_budget", "pebblerf_statistics", "metrics_addr", "get_l6_filters", "pebblerf_recommended"}

const helpIntro = `pebblebench runs db_bench's benchmarks on upstream Pebble and on pebblerf, alone or side by side.
Result lines keep db_bench's format; -engine=both adds ratio lines, pebblerf over pebble.

Usage: pebblebench [-flag=value ...]

Examples:
  # point reads and seeks on both engines over the same 1M keys, 3 runs each
  pebblebench -engine=both -benchmarks=fillrandom,readrandom[X3],seekrandom[X3] -num=1000000 -bloom_bits=10

  # fill once, then read the same DB in a second invocation
  pebblebench -engine=pebblerf -db=/tmp/db -benchmarks=fillrandom -num=1000000 -seed=1
  pebblebench -engine=pebblerf -db=/tmp/db -benchmarks=seekrandom -num=1000000 -use_existing_db
`

// printHelp writes the -help text.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, helpIntro)
	fmt.Fprintln(w, "\nBenchmarks (-benchmarks=a,b[X3-W1]):")
	for _, name := range benchmarks.Names() {
		b, _ := benchmarks.ByName(name)
		fmt.Fprintf(w, "  %-24s %s\n", name, b.Help)
	}
	fmt.Fprintln(w, "\nScenarios (-scenario=NAME; flags given on the command line override the scenario's):")
	for _, line := range scenario.HelpLines() {
		fmt.Fprintf(w, "  %s\n", line)
	}
	listed := map[string]bool{}
	for _, g := range flagGroups {
		var flags []*flag.Flag
		for _, name := range g.names {
			if f := fs.Lookup(name); f != nil {
				flags = append(flags, f)
				listed[name] = true
			}
		}
		printFlagGroup(w, g.title, flags)
	}
	var other []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !listed[f.Name] {
			other = append(other, f)
		}
	})
	printFlagGroup(w, "Other", other)
	printTickerHelp(w)
	fmt.Fprint(w, cpuHelp)
}

// cpuHelp defines the two CPU figures of the result lines, the ratio lines
// and -json, so that neither is read as the other.
const cpuHelp = `
CPU figures (result lines, ratio lines; -json: thread_cpu_micros_per_op, process_cpu_micros_per_op):
  thread-cpu-micros/op
      CPU time of the benchmark's threads over its operations (CLOCK_THREAD_CPUTIME_ID, Linux), summed: the
      reads and writes themselves, not the flushes, compactions or garbage collection they cause on other threads
  process-cpu-micros/op
      CPU time of the engine's whole process (getrusage RUSAGE_SELF, user and system) from the run's start until the
      flushes and compactions it caused are done (untimed): the threads', the background work's and the garbage
      collector's. With -engine=both each engine runs in a process of its own, so it is that engine's alone; with
      one engine it is pebblebench's process. Under -interleave neither counts the other engine's turns
`

// printTickerHelp defines every ticker -statistics can print, so that no
// printed count goes unexplained: the DB-wide ones, pebblerf's per-level
// kinds (one line per kind, for every level and for RocksDB's last and
// non-last sums), the other statistics tickers and pebblebench's own.
func printTickerHelp(w io.Writer) {
	fmt.Fprintln(w, "\nTickers (-statistics prints those that are not zero, as \"<name> COUNT : <n>\"):")
	for _, name := range seekstats.DBWideNames() {
		help, _ := seekstats.DBWideHelp(name)
		fmt.Fprintf(w, "  %s\n      %s\n", name, help)
	}
	for k := attribution.Kind(0); k < attribution.NumKinds; k++ {
		fmt.Fprintf(w, "  pebblerf.<level>.%s, %s, %s\n      %s\n", attribution.KindSuffixes[k],
			attribution.GroupTickerName(false, k), attribution.GroupTickerName(true, k), attribution.KindHelp[k])
	}
	fmt.Fprintf(w, "      (<level>: %s; last.level is L6, non.last.level every other row but the memtable;\n"+
		"      unattributed is what happened in tables of unknown level or tag, and values no single table can be credited with)\n",
		strings.Join(attribution.RowKeys[:], ", "))
	for t := attribution.Ticker(0); t < attribution.NumTickers; t++ {
		fmt.Fprintf(w, "  %s\n      %s\n", attribution.TickerNames[t], attribution.TickerHelp[t])
	}
	for _, h := range statistics.MetricsHelp {
		fmt.Fprintf(w, "  %s\n      %s\n", h.Name, h.Help)
	}
	fmt.Fprintf(w, "  %s\n      %s\n", benchmarks.SeekBlockBytesTicker,
		"bytes of the blocks the seek benchmarks' iterators loaded (Pebble's IteratorStats.BlockBytes), on both engines")
}

func printFlagGroup(w io.Writer, title string, flags []*flag.Flag) {
	if len(flags) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, f := range flags {
		def := f.DefValue
		if def == "" {
			def = `""`
		}
		fmt.Fprintf(w, "  -%s=%s\n", f.Name, def)
		for _, line := range strings.Split(f.Usage, "\n") {
			fmt.Fprintf(w, "      %s\n", line)
		}
	}
}
