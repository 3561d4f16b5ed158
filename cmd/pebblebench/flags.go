// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
)

// config holds every flag. The names, defaults and meanings are db_bench's
// (tools/db_bench_tool.cc) wherever db_bench has the flag, so a db_bench
// command line runs here unchanged; flags db_bench lacks say so in their
// usage text.
//
// A config is immutable once parseFlags returns it, and its methods only
// derive values from the flags (a plan, a key format, options). What
// changes while benchmarks run is held elsewhere: the driver (driver.go)
// has the sparse fill's key set and the results, each engineState
// (dbstate.go) its open DB, cache and summed tickers, and each open DB's
// adapter (engine.go, engine_pebblerf.go) its stall clock, query builder,
// filter planner and the advisor's count.
type config struct {
	benchmarks string
	engine     string
	db         string
	dbGiven    bool

	num    int64
	writes int64
	reads  int64
	// ycsbRecordCount and ycsbValueSize shape the YCSB benchmarks'
	// records (benchmarks_ycsb.go).
	ycsbRecordCount int64
	ycsbValueSize   int
	duration        int
	threads         int
	interleave      int64
	batchSize       int
	seed            int64
	// seedDrawn is set when -seed was 0 and parseFlags drew seed from the
	// clock, which the header then says.
	seedDrawn bool

	keySize          int
	valueSize        int
	compressionRatio float64
	compressionType  string
	prefixSize       int
	keysPerPrefix    int
	seekNexts        int
	missingFraction  float64

	totalOrderSeek     bool
	useTailingIterator bool
	writeRateLimit     int64
	readRateLimit      int64

	bloomBits        float64
	useRibbonFilter  bool
	bloomBeforeLevel int
	useL6Filters     bool
	filterPlanFlags
	// remoteFlags are -remote, -remote_levels and -secondary_cache_size
	// (remote.go).
	remoteFlags

	cacheSize       int64
	writeBufferSize int64
	useExistingDB   bool
	disableWAL      bool
	sync            bool

	keyStride int64
	// sparseFill is set by -writes: fills write fewer keys than the key
	// space holds, and record them (newWrittenSet).
	sparseFill                bool
	seekUpperBoundLen         int64
	emptyRangeFraction        float64
	seekTargetRangeMultiplier int64
	fillSeqOverwriteWindow    int64
	// keyFormat, versionsPerKey, mvccScanKeys and mvccCompactRounds are
	// -key_format, -versions_per_key, -mvcc_scan_keys and
	// -mvcc_compact_rounds (mvcc_keys.go).
	keyFormat         string
	versionsPerKey    int
	mvccScanKeys      int
	mvccCompactRounds int

	rangeFilterBits    float64
	useQueryBuilder    bool
	queryPlan          string
	explain            bool
	compactionStyle    int
	numLevels          int
	numLevelsGiven     bool
	compactionAdvisor  bool
	pebblerfStatistics bool
	// recommended is -pebblerf_recommended: pebblerf opens with
	// pebble.Recommended(), which parseFlags turns into the flags of its
	// plug-ins (recommendedFlags).
	recommended bool
	// l0Trigger and l0Stop are -level0_file_num_compaction_trigger and
	// -level0_stop_writes_trigger, 0 for Pebble's defaults.
	l0Trigger, l0Stop int
	// getL6Filters is -get_l6_filters: off, on or auto (Plugins.GetL6Filters).
	getL6Filters string
	// rangeWhatIfBits and prefixWhatIfBits: -range_filter_whatif_bits and
	// -prefix_filter_whatif_bits (pebblerf_statistics.go).
	rangeWhatIfBits  float64
	prefixWhatIfBits float64
	// advisorLog, advisorIntervalMs, advisorBudget: -compaction_advisor_log,
	// -compaction_advisor_interval_ms and -compaction_advisor_write_budget.
	advisorLog        bool
	advisorIntervalMs int
	advisorBudget     float64
	lsmSampleMs       int
	sliceBytes        int64
	seekHotFraction   float64
	seekHotRange      float64
	seekHotStart      float64

	statistics            bool
	histogram             bool
	json                  bool
	reportIntervalSeconds int
	reportFile            string
	cpuProfile            string
	// reportHTML is -report_html (internal/bench/report).
	reportHTML string
	// metricsAddr is -metrics_addr (metrics.go).
	metricsAddr string
	// scenario is -scenario, which realMain handles before parsing (see
	// scenario.go); it is registered here to be listed by -help.
	scenario string

	// flags is the parsed flag set, for the -json configuration record;
	// given holds the names of the flags on the command line.
	flags *flag.FlagSet
	given map[string]bool
}

// usageError is a bad flag or value: main prints it and exits with status 2,
// as the flag package does for unknown flags.
type usageError struct {
	msg string
	// pointToHelp adds a pointer to -help: the flag package's own errors
	// (an unknown flag, a value of the wrong type) do not say what is valid.
	pointToHelp bool
}

func (e *usageError) Error() string { return e.msg }

func badFlag(name, format string, args ...interface{}) error {
	return &usageError{msg: fmt.Sprintf("invalid -%s: %s", name, fmt.Sprintf(format, args...))}
}

// isUsageError reports whether err should end the program with status 2.
func isUsageError(err error) bool {
	var u *usageError
	return errors.As(err, &u)
}

// parseFlags parses args (without the program name) into a config, which
// nothing changes afterwards: what a run changes as it goes (the sparse
// fill's key set, the filter planner, the advisor's count) belongs to the
// driver and the open DBs. Defaults that depend on other flags are resolved
// here (-writes and -reads of -1 become -num, -seed=0 a seed drawn from the
// clock). Errors are usage errors, except flag.ErrHelp after -help, whose
// text goes to output.
func parseFlags(args []string, output io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("pebblebench", flag.ContinueOnError)
	fs.SetOutput(output)

	fs.StringVar(&c.benchmarks, "benchmarks", "fillrandom,readrandom,seekrandom",
		"comma-separated benchmarks (listed above); name[X3] runs one 3 times with AVG and MEDIAN lines, name[W1] adds a warm-up run")
	fs.StringVar(&c.engine, "engine", "pebble", "pebble (upstream), pebblerf, or both: each benchmark on both engines over identical data, with ratio lines")
	fs.StringVar(&c.db, "db", "", "DB directory (default: a temporary one, removed at exit); with -engine=both the DBs are <db>/pebble and <db>/pebblerf")

	fs.Int64Var(&c.num, "num", 1000000, "number of key/values to place in the DB; keys are drawn from [0, num)")
	fs.Int64Var(&c.writes, "writes", -1, "writes per thread of fillrandom and overwrite (-1: -num); below -num the key space is sparse and\nthe written keys are recorded, so bounded seeks can start at written keys or in empty ranges")
	fs.Int64Var(&c.reads, "reads", -1, "reads (or seeks) per thread; -1 means -num")
	fs.Int64Var(&c.ycsbRecordCount, "ycsb_record_count", -1, "records ycsb_load writes and the ycsb_a..ycsb_f workloads read (YCSB's recordcount; -1: -num)")
	fs.IntVar(&c.ycsbValueSize, "ycsb_value_size", 1024, "bytes of each YCSB record's value (YCSB's 10 fields of 100 bytes, about 1 KiB)")
	fs.IntVar(&c.duration, "duration", 0, "seconds to run each benchmark instead of a count of operations (0: use the counts); fillseq ignores it")
	fs.IntVar(&c.threads, "threads", 1, "concurrent threads; each does -writes writes or -reads reads")
	fs.Int64Var(&c.interleave, "interleave", 0, "with -engine=both and -threads=1: the engines run each benchmark at once, in turns of this many operations, so the\nmachine's drift falls on both alike (0: whole runs one after the other, as db_bench); *whilewriting runs stay whole")
	fs.IntVar(&c.batchSize, "batch_size", 1, "keys per write batch in the fill and while-writing benchmarks")
	fs.Int64Var(&c.seed, "seed", 0, "seed of the key generators (0: from the clock, printed); reads draw from other streams than writes,\nso a read run never replays a fill's keys, even over a DB filled with the same seed")

	fs.IntVar(&c.keySize, "key_size", 16, "size of each key in bytes")
	fs.IntVar(&c.valueSize, "value_size", 100, "size of each value in bytes")
	fs.Float64Var(&c.compressionRatio, "compression_ratio", 0.5, "values compress to about this fraction of their size")
	fs.StringVar(&c.compressionType, "compression_type", "snappy", "block compression: none, snappy, zstd or minlz")
	fs.IntVar(&c.prefixSize, "prefix_size", 0, "if nonzero, a key's first prefix_size bytes are its prefix (Comparer.Split):\nfilters are built on prefixes and seekrandom uses SeekPrefixGE")
	fs.IntVar(&c.keysPerPrefix, "keys_per_prefix", 0, "if nonzero, keys share num/keys_per_prefix prefixes, written in the first min(prefix_size, 8) bytes")
	fs.IntVar(&c.seekNexts, "seek_nexts", 0, "Next calls after each seek of seekrandom")
	fs.Float64Var(&c.missingFraction, "missing_fraction", 0, "fraction of readrandom and seekrandom targets made absent (a '1' in the first padding byte; needs key_size > 8 + prefix)")

	fs.BoolVar(&c.totalOrderSeek, "total_order_seek", false, "with -prefix_size, seek with SeekGE instead of SeekPrefixGE")
	fs.BoolVar(&c.useTailingIterator, "use_tailing_iterator", false, "seekrandom, mvccscan, locktablescan, lockedscan and mvcctimebound reuse one iterator per thread (which does not see later writes)")
	fs.Int64Var(&c.writeRateLimit, "benchmark_write_rate_limit", 0, "bytes per second of the writer of the *whilewriting benchmarks; 0 = unlimited")
	fs.Int64Var(&c.readRateLimit, "benchmark_read_rate_limit", 0, "operations per second of a reading benchmark, over all its threads (the writer of *whilewriting apart); 0 = unlimited")

	fs.Float64Var(&c.bloomBits, "bloom_bits", -1, "bits per key of the table filters; below 0.5 = none, else clamped to [1, 100];\nupstream gets its Bloom filter (whole bits), pebblerf too without plug-ins, else pebblerf's Bloom or Ribbon")
	fs.BoolVar(&c.useRibbonFilter, "use_ribbon_filter", false, "pebblerf: Ribbon filters with the false-positive rate of a Bloom filter of -bloom_bits")
	fs.IntVar(&c.bloomBeforeLevel, "bloom_before_level", 0, "pebblerf, with -use_ribbon_filter: levels before this one use Bloom; 0 = Bloom on L0 only, -1 = Ribbon everywhere")
	fs.BoolVar(&c.useL6Filters, "use_l6_filters", false, "write and read filters on L6 too (IterOptions.UseL6Filters), on both engines")
	c.registerFilterPlanFlags(fs)
	c.registerRemoteFlags(fs)

	fs.Int64Var(&c.cacheSize, "cache_size", 8<<20, "block cache bytes per engine")
	fs.Int64Var(&c.writeBufferSize, "write_buffer_size", 64<<20, "memtable bytes (Options.MemTableSize)")
	fs.BoolVar(&c.useExistingDB, "use_existing_db", false, "read the DB in -db, which must exist and hold keys; fill benchmarks are skipped.\nKey flags must match the fill's (recorded with the DB); -num may be smaller")
	fs.BoolVar(&c.disableWAL, "disable_wal", false, "write without the write-ahead log")
	fs.BoolVar(&c.sync, "sync", false, "sync every write")

	fs.Int64Var(&c.keyStride, "key_stride", 1, "fills write only key numbers that are multiples of this, leaving gaps for -empty_range_fraction;\n-num stays the number of keys written")
	fs.Int64Var(&c.seekUpperBoundLen, "seek_upper_bound_len", 0, "if nonzero, each seek of seekrandom gets an upper bound this many key positions after its target")
	fs.Float64Var(&c.emptyRangeFraction, "empty_range_fraction", 0, "fraction of bounded seeks placed in a gap between written keys, so their range holds no key;\nneeds -seek_upper_bound_len and -key_stride > seek_upper_bound_len (or -writes)")
	fs.Int64Var(&c.seekTargetRangeMultiplier, "seek_target_range_multiplier", 1, "seekrandom draws targets from this many times the filled key range (those past it find nothing)")
	fs.Int64Var(&c.fillSeqOverwriteWindow, "fillseq_overwrite_window", 0, "if nonzero, fillseq follows each new key with an overwrite of one of the last this many,\nso successive flushes overlap a little and form staggered sorted runs")

	fs.StringVar(&c.keyFormat, "key_format", keyFormatDBBench, "dbbench (db_bench's keys) or mvcc: CockroachDB engine keys with MVCC timestamps, written by fillmvcc and read by\nmvccget, mvccscan, locktablescan, lockedscan and mvcctimebound, with CockroachDB's Pebble options on both engines")
	fs.IntVar(&c.versionsPerKey, "versions_per_key", 4, "with -key_format=mvcc, the versions (rounds, each flushed) fillmvcc writes of every key")
	fs.IntVar(&c.mvccCompactRounds, "mvcc_compact_rounds", 0, "with -key_format=mvcc, fillmvcc compacts the whole DB after this many rounds (0: never), so that\nthe older versions lie in L6 and the later rounds in L0 sublevels above them")
	fs.IntVar(&c.mvccScanKeys, "mvcc_scan_keys", 10, "with -key_format=mvcc, the roach keys a scan of mvccscan, locktablescan, lockedscan or mvcctimebound spans")
	fs.Float64Var(&c.rangeFilterBits, "range_filter_bits", 0, "pebblerf: bits per key of per-table range filters (4 to 40), which let bounded seeks skip tables; 0 = off")
	fs.BoolVar(&c.useQueryBuilder, "use_query_builder", false, "pebblerf: seekrandom seeks through planned range queries (DB.NewRangeQuery); upstream keeps plain iterators")
	fs.StringVar(&c.queryPlan, "query_plan", "auto", "pebblerf, with -use_query_builder: the plan of every query: auto, plain, stepped or prefix")
	fs.BoolVar(&c.explain, "explain", false, "pebblerf: after the benchmarks, print the Explain of one sample seekrandom query")
	fs.IntVar(&c.l0Trigger, "level0_file_num_compaction_trigger", 0, "both engines: L0 read amplification (sublevels, as Pebble counts it, not files) that starts an L0 compaction\n(Options.L0CompactionThreshold); 0 = Pebble's default, 4")
	fs.IntVar(&c.l0Stop, "level0_stop_writes_trigger", 0, "both engines: L0 read amplification that stops writes (Options.L0StopWritesThreshold); 0 = Pebble's default, 12,\nor twice -level0_file_num_compaction_trigger if that is larger")
	fs.IntVar(&c.compactionStyle, "compaction_style", 0, "LSM shape of both engines: 0 level (Pebble's compactions), 1 universal (many sorted runs, see -num_levels),\n3 none (no compactions)")
	fs.IntVar(&c.numLevels, "num_levels", 7, "with -compaction_style=1, the sorted runs the many-runs profile keeps (when not given: compactionext.DefaultRuns)")
	fs.BoolVar(&c.compactionAdvisor, "compaction_advisor", false, "pebblerf: run the compaction advisor, which compacts key ranges where seeks cross many sorted runs")
	fs.BoolVar(&c.advisorLog, "compaction_advisor_log", false, "pebblerf, with -compaction_advisor: print each of the advisor's looks on stderr")
	fs.IntVar(&c.advisorIntervalMs, "compaction_advisor_interval_ms", 0, "pebblerf, with -compaction_advisor: least milliseconds between two of its compactions; 0 = its default")
	fs.Float64Var(&c.advisorBudget, "compaction_advisor_write_budget", 0, "pebblerf, with -compaction_advisor: its extra writes as a fraction of the DB's own (AdvisorConfig.WriteBudget);\n0 = its default, negative = no bound")
	fs.Int64Var(&c.sliceBytes, "many_runs_slice_bytes", 0, "with -compaction_style=1, bytes of the key slices the many-runs profile merges at a time; 0 = -write_buffer_size/2")
	fs.IntVar(&c.lsmSampleMs, "lsm_sample_ms", 0, "if nonzero, sample the sorted-run count this often and print its min/mean/max, stalls and write-amp per run")
	fs.Float64Var(&c.seekHotFraction, "seek_hot_fraction", 0, "fraction of seekrandom targets drawn from a hot range (-seek_hot_start, -seek_hot_range) instead of all keys")
	fs.Float64Var(&c.seekHotRange, "seek_hot_range", 0.1, "with -seek_hot_fraction, the hot range as a fraction of the filled key range")
	fs.Float64Var(&c.seekHotStart, "seek_hot_start", 0, "with -seek_hot_fraction, where the hot range starts, as a fraction of the filled key range")
	fs.BoolVar(&c.pebblerfStatistics, "pebblerf_statistics", false, "pebblerf: collect per-level seek statistics (printed by -statistics); they tag the tables written and cost CPU per seek.\nOff (the default), pebblerf is opened as pebble.Open opens it: no plug-in, as upstream")

	fs.BoolVar(&c.recommended, "pebblerf_recommended", false, "pebblerf: open with pebble.Recommended(), the plug-ins to turn on blind: range filters where bounded reads\ncome (-range_filter_bits=16 -range_filter_plan=demand) and -get_l6_filters=auto; a flag given replaces its part of the set")
	fs.StringVar(&c.getL6Filters, "get_l6_filters", getL6Off, "pebblerf: Gets consult L6 filters (Plugins.GetL6Filters), which upstream's DB.Get never reads: off, on, or auto\n(decided per DB from what its Gets find); not off, both engines write L6 filters, as Pebble does with a filter on every level")
	fs.Float64Var(&c.rangeWhatIfBits, "range_filter_whatif_bits", 0, "pebblerf, with -pebblerf_statistics -statistics: estimate per level what range filters of this many bits per key\nwould save and cost; 0 = 16 when -range_filter_bits is off, else none; negative = none")
	fs.Float64Var(&c.prefixWhatIfBits, "prefix_filter_whatif_bits", 0, "pebblerf, with -pebblerf_statistics -statistics -prefix_size: estimate what Bloom prefix filters of this many bits/key\nwould save and cost on levels no prefix filter decided (L6 without -use_l6_filters); 0 = -bloom_bits, or 10; <0 none")
	fs.BoolVar(&c.statistics, "statistics", false, "print STATISTICS (tickers from Pebble's metrics) after the benchmarks, per engine")
	fs.BoolVar(&c.histogram, "histogram", false, "print a latency histogram for each benchmark")
	fs.BoolVar(&c.json, "json", false, "print JSON records on stdout (the configuration first, then one per run and engine); the text goes to stderr")
	fs.IntVar(&c.reportIntervalSeconds, "report_interval_seconds", 0, "if nonzero, every this many seconds append a row to -report_file and print progress on stderr\n(progress is printed every 5 s without it)")
	fs.StringVar(&c.reportHTML, "report_html", "", "after the benchmarks, write one self-contained HTML file here: funnels, what-ifs, LSM shape, each run against upstream\nand MEDIAN (-engine=both); under -scenario each phase writes its own, -<scenario>-<phase> before the extension")
	fs.StringVar(&c.reportFile, "report_file", "report.csv", "CSV file of -report_interval_seconds")
	fs.StringVar(&c.metricsAddr, "metrics_addr", "", "pebblerf: during the run, serve http://HOST:PORT/metrics, the pebblerf DB's statistics for Prometheus\n(package promstats: per-level counters with a level label, with -pebblerf_statistics; DB-wide ones always)")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the whole invocation to this file")
	fs.StringVar(&c.scenario, "scenario", "", "run a named scenario (listed above) on both engines, ending with a verdict line;\nlist describes them, demo runs make demo's")

	// The flag package prints nothing: a bad flag is one line from
	// realMain, and -help is printHelp's grouped text, not PrintDefaults.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	c.flags = fs
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(output, fs)
			return nil, err
		}
		return nil, &usageError{msg: err.Error(), pointToHelp: true}
	}
	if fs.NArg() > 0 {
		return nil, &usageError{msg: fmt.Sprintf("unexpected argument %q (flags are -name=value)", fs.Arg(0)), pointToHelp: true}
	}
	c.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.given[f.Name] = true })
	c.dbGiven = c.given["db"]
	c.numLevelsGiven = c.given["num_levels"]
	if c.recommended {
		c.recommendedFlags()
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	if c.seed == 0 {
		c.seed = time.Now().UnixNano() & (1<<62 - 1)
		c.seedDrawn = true
	}
	return c, nil
}

// engines lists the engines of a run in the order they alternate.
func (c *config) engines() []string {
	if c.engine == engineBoth {
		return []string{enginePebble, enginePebbleRF}
	}
	return []string{c.engine}
}

// keyGen is the key format of the flags (-num, -key_size, -prefix_size,
// -keys_per_prefix, -key_stride).
func (c *config) keyGen() keyspace.Gen {
	return keyspace.Gen{Num: c.num, KeySize: c.keySize, PrefixSize: c.prefixSize, KeysPerPrefix: c.keysPerPrefix,
		Stride: uint64(max(c.keyStride, 1))}
}

// newWrittenSet returns the set a sparse fill (-writes) records its keys in,
// for the seek targets; nil for a dense fill, which needs none.
func (c *config) newWrittenSet() *keyspace.Set {
	if !c.sparseFill {
		return nil
	}
	return keyspace.NewSet(c.num)
}

// seekTargets is the seek-target generator of the flags:
// -seek_target_range_multiplier, -seek_upper_bound_len,
// -empty_range_fraction, -missing_fraction and the hot range, over the keys
// a sparse fill recorded in written (nil after a dense fill).
func (c *config) seekTargets(written *keyspace.Set) keyspace.Targets {
	return keyspace.Targets{
		Keys:            c.keyGen(),
		Space:           uint64(c.num) * uint64(c.seekTargetRangeMultiplier),
		UpperLen:        uint64(c.seekUpperBoundLen),
		EmptyFraction:   c.emptyRangeFraction,
		MissingFraction: c.missingFraction,
		Written:         written,
		HotFraction:     c.seekHotFraction,
		HotStart:        uint64(float64(c.num) * c.seekHotStart),
		HotSpace:        max(uint64(float64(c.num)*c.seekHotRange), 1),
	}
}
