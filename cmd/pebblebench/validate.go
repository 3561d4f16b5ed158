// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"math"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/dbbench"
)

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
	if c.metricsAddr != "" {
		if err := checkMetricsAddr(c.metricsAddr); err != nil {
			return err
		}
	}
	if c.num <= 0 {
		return badFlag("num", "%d must be positive", c.num)
	}
	if c.writes == -1 {
		c.writes = c.num
	} else if c.writes <= 0 {
		return badFlag("writes", "%d must be positive or -1", c.writes)
	} else {
		c.sparseFill = true
	}
	if c.reads == -1 {
		c.reads = c.num
	} else if c.reads <= 0 {
		return badFlag("reads", "%d must be positive or -1", c.reads)
	}
	if c.ycsbRecordCount == -1 {
		c.ycsbRecordCount = c.num
	} else if c.ycsbRecordCount <= 0 {
		return badFlag("ycsb_record_count", "%d must be positive or -1", c.ycsbRecordCount)
	}
	if c.ycsbValueSize < 1 || c.ycsbValueSize > 1<<20 {
		return badFlag("ycsb_value_size", "%d must be in [1, 1048576]", c.ycsbValueSize)
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
	if _, err := dbbench.Compression(c.compressionType); err != nil {
		return badFlag("compression_type", "%s", err)
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
	if c.missingFraction > 0 && c.keyGen().MissingByte() < 0 {
		return badFlag("missing_fraction", "needs a padding byte: key_size=%d must exceed %d", c.keySize, c.keyGen().NumberEnd())
	}
	if c.readRateLimit < 0 {
		return badFlag("benchmark_read_rate_limit", "%d must not be negative", c.readRateLimit)
	}
	if c.writeRateLimit < 0 {
		return badFlag("benchmark_write_rate_limit", "%d must not be negative", c.writeRateLimit)
	}
	if err := c.validateInterleave(); err != nil {
		return err
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
	if _, _, err := c.presetPlan(); err != nil {
		return badFlag("filter_plan", "%v", err)
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
	if err := c.validateRemote(); err != nil {
		return err
	}
	specs, err := dbbench.ParseBenchmarks(c.benchmarks)
	if err != nil {
		return badFlag("benchmarks", "%s", err)
	}
	if err := c.validateMVCC(specs); err != nil {
		return err
	}
	seeks := false
	for _, s := range specs {
		b, ok := benchmarkByName(s.Name)
		if !ok {
			return badFlag("benchmarks", "unknown benchmark %q (known: %s)", s.Name, strings.Join(benchmarkNames(), ", "))
		}
		seeks = seeks || b.opKind == "seek"
	}
	return c.validateIgnored(seeks)
}

// validateIgnored refuses flags that would change nothing in this run, so
// none is silently ignored: pebblerf's plug-ins under -engine=pebble, a
// plug-in's settings without the plug-in, and seek-target flags without a
// seek benchmark. Only flags given on the command line are checked.
func (c *config) validateIgnored(seeks bool) error {
	if c.engine == enginePebble {
		for _, name := range pebblerfOnlyFlags {
			if c.given[name] {
				return badFlag(name, "applies to pebblerf only, and -engine=pebble runs upstream Pebble alone; use -engine=pebblerf or -engine=both")
			}
		}
	}
	for _, dep := range []struct{ flag, needs string }{
		{"query_plan", "use_query_builder"},
		{"compaction_advisor_log", "compaction_advisor"},
		{"compaction_advisor_interval_ms", "compaction_advisor"},
		{"compaction_advisor_write_budget", "compaction_advisor"},
		{"bloom_before_level", "use_ribbon_filter"},
		{"seek_hot_range", "seek_hot_fraction"},
		{"seek_hot_start", "seek_hot_fraction"},
	} {
		if c.given[dep.flag] && !c.given[dep.needs] {
			return badFlag(dep.flag, "has no effect without -%s", dep.needs)
		}
	}
	if c.given["many_runs_slice_bytes"] && c.compactionStyle != 1 {
		return badFlag("many_runs_slice_bytes", "has no effect without -compaction_style=1")
	}
	if !seeks {
		for _, name := range []string{"empty_range_fraction", "seek_upper_bound_len", "seek_target_range_multiplier", "seek_hot_fraction", "use_query_builder"} {
			if c.given[name] {
				return badFlag(name, "applies to seekrandom and seekrandomwhilewriting, and -benchmarks=%s has neither", c.benchmarks)
			}
		}
	}
	return nil
}

// validatePlugins checks the plug-ins' flags (setup.go) and the
// seek-target generator's, naming the flag at fault.
func (c *config) validatePlugins() error {
	if c.keyStride < 1 {
		return badFlag("key_stride", "%d must be at least 1", c.keyStride)
	}
	if c.keyStride > 1 && c.num > math.MaxInt64/c.keyStride {
		return badFlag("key_stride", "%d times -num=%d overflows the key space", c.keyStride, c.num)
	}
	if c.keyStride > 1 && c.keysPerPrefix > 0 {
		return badFlag("key_stride", "cannot be combined with -keys_per_prefix, whose prefixes are taken from the key number")
	}
	if c.seekUpperBoundLen < 0 {
		return badFlag("seek_upper_bound_len", "%d must not be negative", c.seekUpperBoundLen)
	}
	if !(c.emptyRangeFraction >= 0 && c.emptyRangeFraction <= 1) {
		return badFlag("empty_range_fraction", "%g must be in [0, 1]", c.emptyRangeFraction)
	}
	if c.emptyRangeFraction > 0 {
		if c.seekUpperBoundLen == 0 {
			return badFlag("empty_range_fraction", "needs -seek_upper_bound_len > 0 (an unbounded range is never empty)")
		}
		if !c.sparseFill && c.keyStride <= c.seekUpperBoundLen {
			return badFlag("empty_range_fraction", "needs -key_stride=%d > -seek_upper_bound_len=%d, so a gap between written keys holds a whole range (or -writes, whose sparse fill leaves gaps)", c.keyStride, c.seekUpperBoundLen)
		}
	}
	if c.fillSeqOverwriteWindow < 0 {
		return badFlag("fillseq_overwrite_window", "%d must not be negative", c.fillSeqOverwriteWindow)
	}
	if c.seekTargetRangeMultiplier < 1 {
		return badFlag("seek_target_range_multiplier", "%d must be at least 1", c.seekTargetRangeMultiplier)
	}
	if c.rangeFilterBits != 0 {
		if err := c.rangeFilterConfig().Validate(); err != nil || math.IsNaN(c.rangeFilterBits) {
			return badFlag("range_filter_bits", "%g must be 0 (off) or in [4, 40]", c.rangeFilterBits)
		}
	}
	if _, err := c.getL6Config(); err != nil {
		return err
	}
	if err := c.validateRangeFilterPlan(); err != nil {
		return err
	}
	if _, err := c.plan(); err != nil {
		return err
	}
	if _, err := c.shape(); err != nil {
		return err
	}
	if c.compactionStyle == 1 && c.numLevelsGiven && c.numLevels < 2 {
		return badFlag("num_levels", "%d sorted runs: the many-runs profile needs at least 2", c.numLevels)
	}
	if !(c.seekHotFraction >= 0 && c.seekHotFraction <= 1) {
		return badFlag("seek_hot_fraction", "%g must be in [0, 1]", c.seekHotFraction)
	}
	if !(c.seekHotRange > 0 && c.seekHotRange <= 1) {
		return badFlag("seek_hot_range", "%g must be in (0, 1]", c.seekHotRange)
	}
	if !(c.seekHotStart >= 0 && c.seekHotStart+c.seekHotRange <= 1+1e-9) {
		return badFlag("seek_hot_start", "%g plus -seek_hot_range %g must be in [0, 1]", c.seekHotStart, c.seekHotRange)
	}
	if c.advisorIntervalMs < 0 {
		return badFlag("compaction_advisor_interval_ms", "%d must not be negative", c.advisorIntervalMs)
	}
	if math.IsNaN(c.advisorBudget) || math.IsInf(c.advisorBudget, 0) {
		return badFlag("compaction_advisor_write_budget", "%g must be a number (negative: no bound)", c.advisorBudget)
	}
	if c.sliceBytes < 0 {
		return badFlag("many_runs_slice_bytes", "%d must not be negative", c.sliceBytes)
	}
	if c.lsmSampleMs < 0 {
		return badFlag("lsm_sample_ms", "%d must not be negative", c.lsmSampleMs)
	}
	if c.compactionAdvisor && !c.pebblerfStatistics {
		return badFlag("compaction_advisor", "needs -pebblerf_statistics, whose wasted-seek counts drive it")
	}
	return nil
}

// validateInterleave checks -interleave: its turns count one thread's
// operations on each engine, so it needs two engines, one thread, and
// counts rather than a clock (-duration and the read rate would each
// charge one engine's wall-clock limits with the other's turns).
func (c *config) validateInterleave() error {
	if !c.given["interleave"] {
		return nil
	}
	switch {
	case c.interleave < 1:
		return badFlag("interleave", "%d must be at least 1 (leave it out for whole runs)", c.interleave)
	case c.engine != engineBoth:
		return badFlag("interleave", "takes turns between two engines; it needs -engine=both")
	case c.threads != 1:
		return badFlag("interleave", "takes turns of one thread; it needs -threads=1, not %d", c.threads)
	case c.duration > 0:
		return badFlag("interleave", "counts operations; it cannot be combined with -duration")
	case c.readRateLimit > 0:
		return badFlag("interleave", "cannot be combined with -benchmark_read_rate_limit, whose pace would count the other engine's turns")
	}
	return nil
}
