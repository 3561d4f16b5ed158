// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/config"
)

// parseFlags parses args (without the program name) into a config, which
// nothing changes afterwards: what a run changes as it goes (the sparse
// fill's key set, the filter planner, the advisor's count) belongs to the
// engines and the driver. Defaults that depend on other flags are resolved
// here (-writes and -reads of -1 become -num, -seed=0 a seed drawn from the
// clock). Errors are usage errors, except flag.ErrHelp after -help, whose
// text goes to output.
func parseFlags(args []string, output io.Writer) (*config.Config, error) {
	c := &config.Config{}
	fs := newFlagSet(c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(output, fs)
			return nil, err
		}
		return nil, &config.UsageError{Msg: err.Error(), PointToHelp: true}
	}
	if fs.NArg() > 0 {
		return nil, &config.UsageError{Msg: fmt.Sprintf("unexpected argument %q (flags are -name=value)", fs.Arg(0)), PointToHelp: true}
	}
	c.Given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.Given[f.Name] = true })
	c.DBGiven = c.Given["db"]
	c.NumLevelsGiven = c.Given["num_levels"]
	if c.Recommended {
		recommendedFlags(c)
	}
	if err := validate(c); err != nil {
		return nil, err
	}
	if c.Seed == 0 {
		c.Seed = time.Now().UnixNano() & (1<<62 - 1)
		c.SeedDrawn = true
	}
	c.FlagValues = map[string]any{}
	fs.VisitAll(func(f *flag.Flag) { c.FlagValues[f.Name] = f.Value.(flag.Getter).Get() })
	return c, nil
}

// newFlagSet registers every flag of pebblebench into c, with its default
// and its usage text. The flag package prints nothing: a bad flag is one
// line from realMain, and -help is printHelp's grouped text, not
// PrintDefaults.
func newFlagSet(c *config.Config) *flag.FlagSet {
	fs := flag.NewFlagSet("pebblebench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}

	fs.StringVar(&c.Benchmarks, "benchmarks", "fillrandom,readrandom,seekrandom",
		"comma-separated benchmarks (listed above); name[X3] runs one 3 times with AVG and MEDIAN lines, name[W1] adds a warm-up run")
	fs.StringVar(&c.Engine, "engine", "pebble", "pebble (upstream), pebblerf, or both: each benchmark on both engines over identical data, with ratio lines")
	fs.StringVar(&c.DB, "db", "", "DB directory (default: a temporary one, removed at exit); with -engine=both the DBs are <db>/pebble and <db>/pebblerf")

	fs.Int64Var(&c.Num, "num", 1000000, "number of key/values to place in the DB; keys are drawn from [0, num)")
	fs.Int64Var(&c.Writes, "writes", -1, "writes per thread of fillrandom and overwrite (-1: -num); below -num the key space is sparse and\nthe written keys are recorded, so bounded seeks can start at written keys or in empty ranges")
	fs.Int64Var(&c.Reads, "reads", -1, "reads (or seeks) per thread; -1 means -num")
	fs.Int64Var(&c.YCSBRecordCount, "ycsb_record_count", -1, "records ycsb_load writes and the ycsb_a..ycsb_f workloads read (YCSB's recordcount; -1: -num)")
	fs.IntVar(&c.YCSBValueSize, "ycsb_value_size", 1024, "bytes of each YCSB record's value (YCSB's 10 fields of 100 bytes, about 1 KiB)")
	fs.IntVar(&c.Duration, "duration", 0, "seconds to run each benchmark instead of a count of operations (0: use the counts); fillseq ignores it")
	fs.IntVar(&c.Threads, "threads", 1, "concurrent threads; each does -writes writes or -reads reads")
	fs.Int64Var(&c.Interleave, "interleave", 0, "with -engine=both and -threads=1: the engines run each benchmark at once, in turns of this many operations, so the\nmachine's drift falls on both alike (0: whole runs one after the other, as db_bench); *whilewriting runs stay whole")
	fs.IntVar(&c.BatchSize, "batch_size", 1, "keys per write batch in the fill and while-writing benchmarks")
	fs.Int64Var(&c.Seed, "seed", 0, "seed of the key generators (0: from the clock, printed); reads draw from other streams than writes,\nso a read run never replays a fill's keys, even over a DB filled with the same seed")

	fs.IntVar(&c.KeySize, "key_size", 16, "size of each key in bytes")
	fs.IntVar(&c.ValueSize, "value_size", 100, "size of each value in bytes")
	fs.Float64Var(&c.CompressionRatio, "compression_ratio", 0.5, "values compress to about this fraction of their size")
	fs.StringVar(&c.CompressionType, "compression_type", "snappy", "block compression: none, snappy, zstd or minlz")
	fs.IntVar(&c.PrefixSize, "prefix_size", 0, "if nonzero, a key's first prefix_size bytes are its prefix (Comparer.Split):\nfilters are built on prefixes and seekrandom uses SeekPrefixGE")
	fs.IntVar(&c.KeysPerPrefix, "keys_per_prefix", 0, "if nonzero, keys share num/keys_per_prefix prefixes, written in the first min(prefix_size, 8) bytes")
	fs.IntVar(&c.SeekNexts, "seek_nexts", 0, "Next calls after each seek of seekrandom")
	fs.Float64Var(&c.MissingFraction, "missing_fraction", 0, "fraction of readrandom and seekrandom targets made absent (a '1' in the first padding byte; needs key_size > 8 + prefix)")

	fs.BoolVar(&c.TotalOrderSeek, "total_order_seek", false, "with -prefix_size, seek with SeekGE instead of SeekPrefixGE")
	fs.BoolVar(&c.UseTailingIterator, "use_tailing_iterator", false, "seekrandom, mvccscan, locktablescan, lockedscan and mvcctimebound reuse one iterator per thread (which does not see later writes)")
	fs.Int64Var(&c.WriteRateLimit, "benchmark_write_rate_limit", 0, "bytes per second of the writer of the *whilewriting benchmarks; 0 = unlimited")
	fs.Int64Var(&c.ReadRateLimit, "benchmark_read_rate_limit", 0, "operations per second of a reading benchmark, over all its threads (the writer of *whilewriting apart); 0 = unlimited")

	fs.Float64Var(&c.BloomBits, "bloom_bits", -1, "bits per key of the table filters; below 0.5 = none, else clamped to [1, 100];\nupstream gets its Bloom filter (whole bits), pebblerf too without plug-ins, else pebblerf's Bloom or Ribbon")
	fs.BoolVar(&c.UseRibbonFilter, "use_ribbon_filter", false, "pebblerf: Ribbon filters with the false-positive rate of a Bloom filter of -bloom_bits")
	fs.IntVar(&c.BloomBeforeLevel, "bloom_before_level", 0, "pebblerf, with -use_ribbon_filter: levels before this one use Bloom; 0 = Bloom on L0 only, -1 = Ribbon everywhere")
	fs.BoolVar(&c.UseL6Filters, "use_l6_filters", false, "write and read filters on L6 too (IterOptions.UseL6Filters), on both engines")
	registerFilterPlanFlags(fs, c)
	registerRemoteFlags(fs, c)

	fs.Int64Var(&c.CacheSize, "cache_size", 8<<20, "block cache bytes per engine")
	fs.Int64Var(&c.WriteBufferSize, "write_buffer_size", 64<<20, "memtable bytes (Options.MemTableSize)")
	fs.BoolVar(&c.UseExistingDB, "use_existing_db", false, "read the DB in -db, which must exist and hold keys; fill benchmarks are skipped.\nKey flags must match the fill's (recorded with the DB); -num may be smaller")
	fs.BoolVar(&c.DisableWAL, "disable_wal", false, "write without the write-ahead log")
	fs.BoolVar(&c.Sync, "sync", false, "sync every write")

	fs.Int64Var(&c.KeyStride, "key_stride", 1, "fills write only key numbers that are multiples of this, leaving gaps for -empty_range_fraction;\n-num stays the number of keys written")
	fs.Int64Var(&c.SeekUpperBoundLen, "seek_upper_bound_len", 0, "if nonzero, each seek of seekrandom gets an upper bound this many key positions after its target")
	fs.Float64Var(&c.EmptyRangeFraction, "empty_range_fraction", 0, "fraction of bounded seeks placed in a gap between written keys, so their range holds no key;\nneeds -seek_upper_bound_len and -key_stride > seek_upper_bound_len (or -writes)")
	fs.Int64Var(&c.SeekTargetRangeMultiplier, "seek_target_range_multiplier", 1, "seekrandom draws targets from this many times the filled key range (those past it find nothing)")
	fs.Int64Var(&c.FillSeqOverwriteWindow, "fillseq_overwrite_window", 0, "if nonzero, fillseq follows each new key with an overwrite of one of the last this many,\nso successive flushes overlap a little and form staggered sorted runs")

	fs.StringVar(&c.KeyFormat, "key_format", config.KeyFormatDBBench, "dbbench (db_bench's keys) or mvcc: CockroachDB engine keys with MVCC timestamps, written by fillmvcc and read by\nmvccget, mvccscan, locktablescan, lockedscan and mvcctimebound, with CockroachDB's Pebble options on both engines")
	fs.IntVar(&c.VersionsPerKey, "versions_per_key", 4, "with -key_format=mvcc, the versions (rounds, each flushed) fillmvcc writes of every key")
	fs.IntVar(&c.MVCCCompactRounds, "mvcc_compact_rounds", 0, "with -key_format=mvcc, fillmvcc compacts the whole DB after this many rounds (0: never), so that\nthe older versions lie in L6 and the later rounds in L0 sublevels above them")
	fs.IntVar(&c.MVCCScanKeys, "mvcc_scan_keys", 10, "with -key_format=mvcc, the roach keys a scan of mvccscan, locktablescan, lockedscan or mvcctimebound spans")
	fs.Float64Var(&c.RangeFilterBits, "range_filter_bits", 0, "pebblerf: bits per key of per-table range filters (4 to 40), which let bounded seeks skip tables; 0 = off")
	fs.BoolVar(&c.UseQueryBuilder, "use_query_builder", false, "pebblerf: seekrandom seeks through planned range queries (DB.NewRangeQuery); upstream keeps plain iterators")
	fs.StringVar(&c.QueryPlan, "query_plan", "auto", "pebblerf, with -use_query_builder: the plan of every query: auto, plain, stepped or prefix")
	fs.BoolVar(&c.Explain, "explain", false, "pebblerf: after the benchmarks, print the Explain of one sample seekrandom query")
	fs.IntVar(&c.L0Trigger, "level0_file_num_compaction_trigger", 0, "both engines: L0 read amplification (sublevels, as Pebble counts it, not files) that starts an L0 compaction\n(Options.L0CompactionThreshold); 0 = Pebble's default, 4")
	fs.IntVar(&c.L0Stop, "level0_stop_writes_trigger", 0, "both engines: L0 read amplification that stops writes (Options.L0StopWritesThreshold); 0 = Pebble's default, 12,\nor twice -level0_file_num_compaction_trigger if that is larger")
	fs.IntVar(&c.CompactionStyle, "compaction_style", 0, "LSM shape of both engines: 0 level (Pebble's compactions), 1 universal (many sorted runs, see -num_levels),\n3 none (no compactions)")
	fs.IntVar(&c.NumLevels, "num_levels", 7, "with -compaction_style=1, the sorted runs the many-runs profile keeps (when not given: compactionext.DefaultRuns)")
	fs.BoolVar(&c.CompactionAdvisor, "compaction_advisor", false, "pebblerf: run the compaction advisor, which compacts key ranges where seeks cross many sorted runs")
	fs.BoolVar(&c.AdvisorLog, "compaction_advisor_log", false, "pebblerf, with -compaction_advisor: print each of the advisor's looks on stderr")
	fs.IntVar(&c.AdvisorIntervalMs, "compaction_advisor_interval_ms", 0, "pebblerf, with -compaction_advisor: least milliseconds between two of its compactions; 0 = its default")
	fs.Float64Var(&c.AdvisorBudget, "compaction_advisor_write_budget", 0, "pebblerf, with -compaction_advisor: its extra writes as a fraction of the DB's own (AdvisorConfig.WriteBudget);\n0 = its default, negative = no bound")
	fs.Int64Var(&c.SliceBytes, "many_runs_slice_bytes", 0, "with -compaction_style=1, bytes of the key slices the many-runs profile merges at a time; 0 = -write_buffer_size/2")
	fs.IntVar(&c.LSMSampleMs, "lsm_sample_ms", 0, "if nonzero, sample the sorted-run count this often and print its min/mean/max, stalls and write-amp per run")
	fs.Float64Var(&c.SeekHotFraction, "seek_hot_fraction", 0, "fraction of seekrandom targets drawn from a hot range (-seek_hot_start, -seek_hot_range) instead of all keys")
	fs.Float64Var(&c.SeekHotRange, "seek_hot_range", 0.1, "with -seek_hot_fraction, the hot range as a fraction of the filled key range")
	fs.Float64Var(&c.SeekHotStart, "seek_hot_start", 0, "with -seek_hot_fraction, where the hot range starts, as a fraction of the filled key range")
	fs.BoolVar(&c.PebbleRFStatistics, "pebblerf_statistics", false, "pebblerf: collect per-level seek statistics (printed by -statistics); they tag the tables written and cost CPU per seek.\nOff (the default), pebblerf is opened as pebble.Open opens it: no plug-in, as upstream")

	fs.BoolVar(&c.Recommended, "pebblerf_recommended", false, "pebblerf: open with pebble.Recommended(), the plug-ins to turn on blind: range filters where bounded reads\ncome (-range_filter_bits=16 -range_filter_plan=demand) and -get_l6_filters=auto; a flag given replaces its part of the set")
	fs.StringVar(&c.GetL6Filters, "get_l6_filters", config.GetL6Off, "pebblerf: Gets consult L6 filters (Plugins.GetL6Filters), which upstream's DB.Get never reads: off, on, or auto\n(decided per DB from what its Gets find); not off, both engines write L6 filters, as Pebble does with a filter on every level")
	fs.Float64Var(&c.RangeWhatIfBits, "range_filter_whatif_bits", 0, "pebblerf, with -pebblerf_statistics -statistics: estimate per level what range filters of this many bits per key\nwould save and cost; 0 = 16 when -range_filter_bits is off, else none; negative = none")
	fs.Float64Var(&c.PrefixWhatIfBits, "prefix_filter_whatif_bits", 0, "pebblerf, with -pebblerf_statistics -statistics -prefix_size: estimate what Bloom prefix filters of this many bits/key\nwould save and cost on levels no prefix filter decided (L6 without -use_l6_filters); 0 = -bloom_bits, or 10; <0 none")
	fs.BoolVar(&c.Statistics, "statistics", false, "print STATISTICS (tickers from Pebble's metrics) after the benchmarks, per engine")
	fs.BoolVar(&c.Histogram, "histogram", false, "print a latency histogram for each benchmark")
	fs.BoolVar(&c.JSON, "json", false, "print JSON records on stdout (the configuration first, then one per run and engine); the text goes to stderr")
	fs.IntVar(&c.ReportIntervalSeconds, "report_interval_seconds", 0, "if nonzero, every this many seconds append a row to -report_file and print progress on stderr\n(progress is printed every 5 s without it)")
	fs.StringVar(&c.ReportHTML, "report_html", "", "after the benchmarks, write one self-contained HTML file here: funnels, what-ifs, LSM shape, each run against upstream\nand MEDIAN (-engine=both); under -scenario each phase writes its own, -<scenario>-<phase> before the extension")
	fs.StringVar(&c.ReportFile, "report_file", "report.csv", "CSV file of -report_interval_seconds")
	fs.StringVar(&c.MetricsAddr, "metrics_addr", "", "pebblerf: during the run, serve http://HOST:PORT/metrics for Prometheus (docs/prometheus.md): DB-wide counters and\nper-level LSM gauges always, per-level counters with -pebblerf_statistics, the store's requests by kind with -remote")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write a CPU profile (pprof) of the invocation to this file; with -engine=both one per engine process,\n<name>-pebble<ext> and <name>-pebblerf<ext> (cpu.pprof: cpu-pebble.pprof, cpu-pebblerf.pprof)")
	fs.StringVar(&c.Scenario, "scenario", "", "run a named scenario (listed above) on both engines, ending with a verdict line;\nlist describes them, demo runs make demo's")

	return fs
}
