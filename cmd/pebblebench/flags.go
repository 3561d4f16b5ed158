// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"

	"github.com/cockroachdb/errors"
)

// config holds every flag. The names, defaults and meanings are db_bench's
// (tools/db_bench_tool.cc) wherever db_bench has the flag, so a db_bench
// command line runs here unchanged; flags db_bench lacks say so in their
// usage text.
type config struct {
	benchmarks string
	engine     string
	db         string
	dbGiven    bool

	num       int64
	writes    int64
	reads     int64
	duration  int
	threads   int
	batchSize int
	seed      int64

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

	bloomBits        float64
	useRibbonFilter  bool
	bloomBeforeLevel int
	useL6Filters     bool

	cacheSize       int64
	writeBufferSize int64
	useExistingDB   bool
	disableWAL      bool
	sync            bool

	keyStride int64
	// written records the keys of sparse fills (-writes); nil otherwise.
	written                   *keySet
	seekUpperBoundLen         int64
	emptyRangeFraction        float64
	seekTargetRangeMultiplier int64
	fillSeqOverwriteWindow    int64

	rangeFilterBits    float64
	useQueryBuilder    bool
	queryPlan          string
	explain            bool
	compactionStyle    int
	numLevels          int
	numLevelsGiven     bool
	compactionAdvisor  bool
	pebblerfStatistics bool
	// advisorLog, advisorIntervalMs, advisorBudget: -compaction_advisor_log,
	// -compaction_advisor_interval_ms and -compaction_advisor_write_budget;
	// advisorCompactions counts the advisor's compactions, for the
	// pebblerf.advisor.compactions ticker.
	advisorLog         bool
	advisorIntervalMs  int
	advisorBudget      float64
	advisorCompactions atomic.Int64
	lsmSampleMs        int
	sliceBytes         int64
	seekHotFraction    float64
	seekHotRange       float64
	seekHotStart       float64

	statistics            bool
	histogram             bool
	json                  bool
	reportIntervalSeconds int
	reportFile            string
	cpuProfile            string
	// scenario is -scenario, which realMain handles before parsing (see
	// scenario.go); it is registered here to be listed by -help.
	scenario string
}

// usageError is a bad flag or value: main prints it and exits with status 2,
// as the flag package does for unknown flags.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badFlag(name, format string, args ...interface{}) error {
	return &usageError{msg: fmt.Sprintf("invalid -%s: %s", name, fmt.Sprintf(format, args...))}
}

// isUsageError reports whether err should end the program with status 2.
func isUsageError(err error) bool {
	var u *usageError
	return errors.As(err, &u)
}

// parseFlags parses args (without the program name) into a config. Errors are
// usage errors; the flag package's own messages and the usage text go to
// output.
func parseFlags(args []string, output io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("pebblebench", flag.ContinueOnError)
	fs.SetOutput(output)

	fs.StringVar(&c.benchmarks, "benchmarks", "fillrandom,readrandom,seekrandom",
		"comma-separated list of benchmarks; name[X3] repeats a benchmark three times and prints AVG and MEDIAN lines, name[W1] adds one warm-up run, name[X3-W1] both")
	fs.StringVar(&c.engine, "engine", "pebble", "pebble (upstream Pebble), pebblerf, or both (each benchmark on both over identical data, with ratio lines; not in db_bench)")
	fs.StringVar(&c.db, "db", "", "directory for the database; default a fresh temporary directory removed at exit. With -engine=both the engines use <db>/pebble and <db>/pebblerf")

	fs.Int64Var(&c.num, "num", 1000000, "number of key/values to place in the database; keys are drawn from [0, num)")
	fs.Int64Var(&c.writes, "writes", -1, "number of write operations of fillrandom and overwrite per thread, each key drawn from [0, num); -1 means -num. Below -num it makes a sparse key space (-num=8000000 -writes=100000 writes about 1.2% of the positions); bounded seekrandom then starts non-empty ranges at written keys and -empty_range_fraction's ranges where none was written (the keys written in this process are recorded, 1 bit per position)")
	fs.Int64Var(&c.reads, "reads", -1, "number of read (or seek) operations per thread; -1 means -num")
	fs.IntVar(&c.duration, "duration", 0, "seconds to run each benchmark for, instead of -num/-reads operations (0 = use the counts); fillseq ignores it")
	fs.IntVar(&c.threads, "threads", 1, "number of concurrent threads; each does -num writes or -reads reads")
	fs.IntVar(&c.batchSize, "batch_size", 1, "keys per write batch in the fill and while-writing benchmarks")
	fs.Int64Var(&c.seed, "seed", 0, "seed for the random key generators; 0 means seed from the time and print it")

	fs.IntVar(&c.keySize, "key_size", 16, "size of each key in bytes")
	fs.IntVar(&c.valueSize, "value_size", 100, "size of each value in bytes")
	fs.Float64Var(&c.compressionRatio, "compression_ratio", 0.5, "values compress to about this fraction of their size")
	fs.StringVar(&c.compressionType, "compression_type", "snappy", "block compression: none, snappy, zstd or minlz (Pebble has no zlib, bzip2, lz4, lz4hc or xpress)")
	fs.IntVar(&c.prefixSize, "prefix_size", 0, "if nonzero, the first prefix_size bytes of a key are its prefix (Comparer.Split): filters are built on prefixes and seekrandom uses SeekPrefixGE")
	fs.IntVar(&c.keysPerPrefix, "keys_per_prefix", 0, "if nonzero, keys share num/keys_per_prefix prefixes, written in the first min(prefix_size, 8) bytes")
	fs.IntVar(&c.seekNexts, "seek_nexts", 0, "how many Next calls follow each seek in seekrandom")
	fs.Float64Var(&c.missingFraction, "missing_fraction", 0, "fraction of readrandom and seekrandom targets that are made absent from the DB by setting the first padding byte after the key number to '1' (not in db_bench; needs key_size > 8 + prefix)")

	fs.BoolVar(&c.totalOrderSeek, "total_order_seek", false, "with -prefix_size, seek with SeekGE instead of SeekPrefixGE")
	fs.BoolVar(&c.useTailingIterator, "use_tailing_iterator", false, "seekrandom reuses one iterator per thread instead of creating one per seek (a reused Pebble iterator does not see later writes)")
	fs.Int64Var(&c.writeRateLimit, "benchmark_write_rate_limit", 0, "bytes per second for the writer of the *whilewriting benchmarks; 0 = unlimited")

	fs.Float64Var(&c.bloomBits, "bloom_bits", -1, "bits per key of the table filters; below 0.5 (default -1) = no filter, else clamped to [1, 100]. Upstream Pebble gets its own Bloom filter (whole bits); pebblerf its Bloom, or Ribbon with -use_ribbon_filter")
	fs.BoolVar(&c.useRibbonFilter, "use_ribbon_filter", false, "pebblerf: use a Ribbon filter with the false-positive rate of a Bloom filter of -bloom_bits")
	fs.IntVar(&c.bloomBeforeLevel, "bloom_before_level", 0, "with -use_ribbon_filter, levels before this one use Bloom, the rest Ribbon; 0 = Bloom for flushes (L0) only, -1 = Ribbon everywhere")
	fs.BoolVar(&c.useL6Filters, "use_l6_filters", false, "write filters for L6 tables too and read them (IterOptions.UseL6Filters; readrandom then looks up through a prefix iterator); both engines. Not in db_bench")

	fs.Int64Var(&c.cacheSize, "cache_size", 8<<20, "block cache size in bytes (per engine)")
	fs.Int64Var(&c.writeBufferSize, "write_buffer_size", 64<<20, "memtable size in bytes (Options.MemTableSize)")
	fs.BoolVar(&c.useExistingDB, "use_existing_db", false, "do not destroy the database; fill benchmarks are skipped. Pass the -num it was filled with: reads and seeks draw their keys from [0, num)")
	fs.BoolVar(&c.disableWAL, "disable_wal", false, "write without the write-ahead log")
	fs.BoolVar(&c.sync, "sync", false, "sync every write")

	fs.Int64Var(&c.keyStride, "key_stride", 1, "fill benchmarks write only key numbers that are multiples of this, leaving stride-1 absent key positions between written keys, so -empty_range_fraction can pick ranges in the gaps; -num stays the number of keys written (key space num*stride). Not in db_bench")
	fs.Int64Var(&c.seekUpperBoundLen, "seek_upper_bound_len", 0, "if nonzero, seekrandom gives each seek an upper bound this many key positions after its target (db_bench's max_scan_distance idea); 0 = unbounded. Not in db_bench")
	fs.Float64Var(&c.emptyRangeFraction, "empty_range_fraction", 0, "fraction of bounded seekrandom targets placed in a gap between written keys so that [target, upper bound) holds no key; needs -seek_upper_bound_len and -key_stride > seek_upper_bound_len. Not in db_bench")
	fs.Int64Var(&c.seekTargetRangeMultiplier, "seek_target_range_multiplier", 1, "seekrandom draws its targets from this many times the filled key range (targets past it find nothing, as in the Speedb query-builder test plan). Not in db_bench")

	fs.Int64Var(&c.fillSeqOverwriteWindow, "fillseq_overwrite_window", 0, "if nonzero, fillseq follows every new key with an overwrite of a random one of the this many keys written last (2*num writes), so successive flushes overlap a little and form staggered sorted runs. Not in db_bench")

	fs.Float64Var(&c.rangeFilterBits, "range_filter_bits", 0, "pebblerf: bits per key of the per-table range filters (Plugins.RangeFilter, 4 to 40), which let bounded seeks skip tables with no key in range; 0 = off. Upstream has none. Not in db_bench")
	fs.BoolVar(&c.useQueryBuilder, "use_query_builder", false, "pebblerf: seekrandom seeks through planned range queries (DB.NewRangeQuery); upstream keeps plain iterators on the same seeks. Not in db_bench")
	fs.StringVar(&c.queryPlan, "query_plan", "auto", "with -use_query_builder, the plan every query is forced to: auto (chosen per query), plain, stepped or prefix. Not in db_bench")
	fs.BoolVar(&c.explain, "explain", false, "after the benchmarks, print pebblerf's Explain of one sample seekrandom query (which sorted runs were skipped and why). Not in db_bench")
	fs.IntVar(&c.compactionStyle, "compaction_style", 0, "LSM shape, db_bench's values: 0 level (Pebble's own compactions), 1 universal (many sorted runs, see -num_levels), 3 none (no compactions); FIFO (2) is not supported. Both engines get the same shape")
	fs.IntVar(&c.numLevels, "num_levels", 7, "with -compaction_style=1, the number of sorted runs the many-runs profile keeps (default, when not given: compactionext.DefaultRuns); db_bench's level count has no other meaning here, as Pebble always has 7 levels")
	fs.BoolVar(&c.compactionAdvisor, "compaction_advisor", false, "pebblerf: run the compaction advisor, which compacts key ranges where the seek statistics see wasted seeks across many sorted runs; needs -pebblerf_statistics. Not in db_bench")
	fs.BoolVar(&c.advisorLog, "compaction_advisor_log", false, "pebblerf: print every look of the compaction advisor on stderr (the waste it saw, its best candidate range, and why it did or did not compact). Not in db_bench")
	fs.IntVar(&c.advisorIntervalMs, "compaction_advisor_interval_ms", 0, "pebblerf: the compaction advisor's rate limit, the least time between two of its compactions, in milliseconds; 0 = its default (5 s). Not in db_bench")
	fs.Float64Var(&c.advisorBudget, "compaction_advisor_write_budget", 0, "pebblerf: the compaction advisor's write budget: what its compactions may write beyond what the shape would have written anyway (the L0 bytes they take in; on the many-runs shape, also the part of the rewrites below L0 that the shape would have made when the merged units came due, while the flushes they force are charged), as a fraction of the bytes flushed and compacted (moves not counted) by the rest of the DB since it started, which bounds its added write-amp to about this fraction (compactionext.AdvisorConfig.WriteBudget); 0 = its default (0.3), negative = no bound. Not in db_bench")
	fs.Int64Var(&c.sliceBytes, "many_runs_slice_bytes", 0, "with -compaction_style=1, the size of the key slices the many-runs profile merges one at a time (compactionext.ManyRuns.SliceBytes); 0 = its default, -write_buffer_size/2 (at least 64 KiB). Not in db_bench")
	fs.IntVar(&c.lsmSampleMs, "lsm_sample_ms", 0, "if nonzero, sample each engine's sorted-run count (Metrics.ReadAmp) this often during every benchmark and print its min, mean and max, with the number of write stalls and the longest, after the result line. Not in db_bench")
	fs.Float64Var(&c.seekHotFraction, "seek_hot_fraction", 0, "fraction of seekrandom targets drawn from a hot range, the -seek_hot_range of the filled keys from -seek_hot_start, instead of from the whole target range: reads that concentrate on some keys, the case stats-driven compaction (-compaction_advisor) acts on range by range. Bounded seeks over a -writes key set ignore it. Not in db_bench")
	fs.Float64Var(&c.seekHotRange, "seek_hot_range", 0.1, "with -seek_hot_fraction, the hot range as a fraction of the filled key range, from -seek_hot_start. Not in db_bench")
	fs.Float64Var(&c.seekHotStart, "seek_hot_start", 0, "with -seek_hot_fraction, where the hot range starts, as a fraction of the filled key range: an unbounded seek pays for every L0 sublevel with a table at or after its key, so a hot range at the start (0) faces all of them and one at the end (1 - seek_hot_range) only its own. Not in db_bench")
	fs.BoolVar(&c.pebblerfStatistics, "pebblerf_statistics", true, "pebblerf: collect seek statistics (part of its default plug-ins); false opens it without, as upstream. -statistics prints them. Not in db_bench")

	fs.BoolVar(&c.statistics, "statistics", false, "print STATISTICS (tickers derived from Pebble's metrics) after all benchmarks, per engine")
	fs.BoolVar(&c.histogram, "histogram", false, "print a latency histogram for each benchmark")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per benchmark run and engine on stdout; the human-readable output goes to stderr (not in db_bench)")
	fs.IntVar(&c.reportIntervalSeconds, "report_interval_seconds", 0, "if nonzero, every this many seconds append a row to -report_file and print a progress line on stderr")
	fs.StringVar(&c.reportFile, "report_file", "report.csv", "CSV file for -report_interval_seconds")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile (pprof) of the whole invocation to this file; use -engine=pebble or pebblerf to profile one engine. Not in db_bench")

	fs.StringVar(&c.scenario, "scenario", "", "run a named scenario on both engines, build then reads, ending with a verdict line; list prints them, demo runs make demo's; flags given with it override the scenario's. Not in db_bench")

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{msg: err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, &usageError{msg: fmt.Sprintf("unexpected argument %q (flags are -name=value)", fs.Arg(0))}
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "db":
			c.dbGiven = true
		case "num_levels":
			c.numLevelsGiven = true
		}
	})
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// validate checks values the flag package cannot, naming the flag at fault.
func (c *config) validate() error {
	switch c.engine {
	case enginePebble, enginePebbleRF, engineBoth:
	default:
		return badFlag("engine", "%q is not one of pebble, pebblerf, both", c.engine)
	}
	if c.dbGiven && c.db == "" {
		return badFlag("db", "empty directory")
	}
	if c.num <= 0 {
		return badFlag("num", "%d must be positive", c.num)
	}
	if c.writes == -1 {
		c.writes = c.num
	} else if c.writes <= 0 {
		return badFlag("writes", "%d must be positive or -1", c.writes)
	} else {
		c.written = newKeySet(c.num)
	}
	if c.reads == -1 {
		c.reads = c.num
	} else if c.reads <= 0 {
		return badFlag("reads", "%d must be positive or -1", c.reads)
	}
	if c.duration < 0 {
		return badFlag("duration", "%d must not be negative", c.duration)
	}
	if c.threads < 1 {
		return badFlag("threads", "%d must be at least 1", c.threads)
	}
	if c.batchSize < 1 {
		return badFlag("batch_size", "%d must be at least 1", c.batchSize)
	}
	if c.keySize < 1 {
		return badFlag("key_size", "%d must be at least 1", c.keySize)
	}
	if c.valueSize < 0 {
		return badFlag("value_size", "%d must not be negative", c.valueSize)
	}
	if !(c.compressionRatio > 0 && c.compressionRatio <= 1) {
		return badFlag("compression_ratio", "%g must be in (0, 1]", c.compressionRatio)
	}
	if _, err := compressionByName(c.compressionType); err != nil {
		return err
	}
	if c.prefixSize < 0 || c.prefixSize > c.keySize {
		return badFlag("prefix_size", "%d must be in [0, key_size=%d]", c.prefixSize, c.keySize)
	}
	if c.keysPerPrefix < 0 {
		return badFlag("keys_per_prefix", "%d must not be negative", c.keysPerPrefix)
	}
	if c.keysPerPrefix > 0 {
		if c.prefixSize == 0 {
			return badFlag("keys_per_prefix", "needs -prefix_size > 0")
		}
		if int64(c.keysPerPrefix) > c.num {
			return badFlag("keys_per_prefix", "%d exceeds -num=%d", c.keysPerPrefix, c.num)
		}
	}
	if c.seekNexts < 0 {
		return badFlag("seek_nexts", "%d must not be negative", c.seekNexts)
	}
	if !(c.missingFraction >= 0 && c.missingFraction <= 1) {
		return badFlag("missing_fraction", "%g must be in [0, 1]", c.missingFraction)
	}
	if c.missingFraction > 0 && c.keyGen().missingByte() < 0 {
		return badFlag("missing_fraction", "needs a padding byte: key_size=%d must exceed %d", c.keySize, c.keyGen().numberEnd())
	}
	if c.writeRateLimit < 0 {
		return badFlag("benchmark_write_rate_limit", "%d must not be negative", c.writeRateLimit)
	}
	if math.IsNaN(c.bloomBits) || math.IsInf(c.bloomBits, 0) {
		return badFlag("bloom_bits", "%g is not a number of bits per key", c.bloomBits)
	}
	if c.bloomBeforeLevel < -1 {
		return badFlag("bloom_before_level", "%d must be -1 (Ribbon everywhere) or a level", c.bloomBeforeLevel)
	}
	if _, err := c.filterPlan(); err != nil {
		return badFlag("bloom_bits", "%v", err)
	}
	if c.cacheSize < 0 {
		return badFlag("cache_size", "%d must not be negative", c.cacheSize)
	}
	if c.writeBufferSize < 1<<16 {
		return badFlag("write_buffer_size", "%d is below the minimum of 65536", c.writeBufferSize)
	}
	if c.reportIntervalSeconds < 0 {
		return badFlag("report_interval_seconds", "%d must not be negative", c.reportIntervalSeconds)
	}
	if c.reportIntervalSeconds > 0 && c.reportFile == "" {
		return badFlag("report_file", "empty file name")
	}
	if c.seed < 0 {
		return badFlag("seed", "%d must not be negative", c.seed)
	}
	if err := c.validatePlugins(); err != nil {
		return err
	}
	specs, err := parseBenchmarkList(c.benchmarks)
	if err != nil {
		return err
	}
	for _, s := range specs {
		if _, ok := benchmarkByName(s.name); !ok {
			return badFlag("benchmarks", "unknown benchmark %q (known: %s)", s.name, strings.Join(benchmarkNames(), ", "))
		}
	}
	return nil
}

// engines lists the engines of a run in the order they alternate.
func (c *config) engines() []string {
	if c.engine == engineBoth {
		return []string{enginePebble, enginePebbleRF}
	}
	return []string{c.engine}
}
