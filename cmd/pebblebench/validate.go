// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"math"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/internal/bench/engine"
)

// validate checks values the flag package cannot, naming the flag at fault.
func validate(c *config.Config) error {
	switch c.Engine {
	case config.EnginePebble, config.EnginePebbleRF, config.EngineBoth:
	default:
		return config.BadFlag("engine", "%q is not one of pebble, pebblerf, both", c.Engine)
	}
	if c.DBGiven && c.DB == "" {
		return config.BadFlag("db", "empty directory")
	}
	if c.MetricsAddr != "" {
		if err := engine.CheckMetricsAddr(c.MetricsAddr); err != nil {
			return err
		}
	}
	if c.Num <= 0 {
		return config.BadFlag("num", "%d must be positive", c.Num)
	}
	if c.Writes == -1 {
		c.Writes = c.Num
	} else if c.Writes <= 0 {
		return config.BadFlag("writes", "%d must be positive or -1", c.Writes)
	} else {
		c.SparseFill = true
	}
	if c.Reads == -1 {
		c.Reads = c.Num
	} else if c.Reads <= 0 {
		return config.BadFlag("reads", "%d must be positive or -1", c.Reads)
	}
	if c.YCSBRecordCount == -1 {
		c.YCSBRecordCount = c.Num
	} else if c.YCSBRecordCount <= 0 {
		return config.BadFlag("ycsb_record_count", "%d must be positive or -1", c.YCSBRecordCount)
	}
	if c.YCSBValueSize < 1 || c.YCSBValueSize > 1<<20 {
		return config.BadFlag("ycsb_value_size", "%d must be in [1, 1048576]", c.YCSBValueSize)
	}
	if c.Duration < 0 {
		return config.BadFlag("duration", "%d must not be negative", c.Duration)
	}
	if c.Threads < 1 {
		return config.BadFlag("threads", "%d must be at least 1", c.Threads)
	}
	if c.BatchSize < 1 {
		return config.BadFlag("batch_size", "%d must be at least 1", c.BatchSize)
	}
	if c.KeySize < 1 {
		return config.BadFlag("key_size", "%d must be at least 1", c.KeySize)
	}
	if c.ValueSize < 0 {
		return config.BadFlag("value_size", "%d must not be negative", c.ValueSize)
	}
	if !(c.CompressionRatio > 0 && c.CompressionRatio <= 1) {
		return config.BadFlag("compression_ratio", "%g must be in (0, 1]", c.CompressionRatio)
	}
	if _, err := dbbench.Compression(c.CompressionType); err != nil {
		return config.BadFlag("compression_type", "%s", err)
	}
	if c.PrefixSize < 0 || c.PrefixSize > c.KeySize {
		return config.BadFlag("prefix_size", "%d must be in [0, key_size=%d]", c.PrefixSize, c.KeySize)
	}
	if c.KeysPerPrefix < 0 {
		return config.BadFlag("keys_per_prefix", "%d must not be negative", c.KeysPerPrefix)
	}
	if c.KeysPerPrefix > 0 {
		if c.PrefixSize == 0 {
			return config.BadFlag("keys_per_prefix", "needs -prefix_size > 0")
		}
		if int64(c.KeysPerPrefix) > c.Num {
			return config.BadFlag("keys_per_prefix", "%d exceeds -num=%d", c.KeysPerPrefix, c.Num)
		}
	}
	if c.SeekNexts < 0 {
		return config.BadFlag("seek_nexts", "%d must not be negative", c.SeekNexts)
	}
	if !(c.MissingFraction >= 0 && c.MissingFraction <= 1) {
		return config.BadFlag("missing_fraction", "%g must be in [0, 1]", c.MissingFraction)
	}
	if c.MissingFraction > 0 && c.KeyGen().MissingByte() < 0 {
		return config.BadFlag("missing_fraction", "needs a padding byte: key_size=%d must exceed %d", c.KeySize, c.KeyGen().NumberEnd())
	}
	if c.ReadRateLimit < 0 {
		return config.BadFlag("benchmark_read_rate_limit", "%d must not be negative", c.ReadRateLimit)
	}
	if c.WriteRateLimit < 0 {
		return config.BadFlag("benchmark_write_rate_limit", "%d must not be negative", c.WriteRateLimit)
	}
	if err := validateInterleave(c); err != nil {
		return err
	}
	if math.IsNaN(c.BloomBits) || math.IsInf(c.BloomBits, 0) {
		return config.BadFlag("bloom_bits", "%g is not a number of bits per key", c.BloomBits)
	}
	if c.BloomBeforeLevel < -1 {
		return config.BadFlag("bloom_before_level", "%d must be -1 (Ribbon everywhere) or a level", c.BloomBeforeLevel)
	}
	if _, err := c.FilterPlan(); err != nil {
		return config.BadFlag("bloom_bits", "%v", err)
	}
	if _, _, err := c.PresetPlan(); err != nil {
		return config.BadFlag("filter_plan", "%v", err)
	}
	if c.CacheSize < 0 {
		return config.BadFlag("cache_size", "%d must not be negative", c.CacheSize)
	}
	if c.WriteBufferSize < 1<<16 {
		return config.BadFlag("write_buffer_size", "%d is below the minimum of 65536", c.WriteBufferSize)
	}
	if c.ReportIntervalSeconds < 0 {
		return config.BadFlag("report_interval_seconds", "%d must not be negative", c.ReportIntervalSeconds)
	}
	if c.ReportIntervalSeconds > 0 && c.ReportFile == "" {
		return config.BadFlag("report_file", "empty file name")
	}
	if c.Seed < 0 {
		return config.BadFlag("seed", "%d must not be negative", c.Seed)
	}
	if err := validatePlugins(c); err != nil {
		return err
	}
	if err := validateRemote(c); err != nil {
		return err
	}
	specs, err := dbbench.ParseBenchmarks(c.Benchmarks)
	if err != nil {
		return config.BadFlag("benchmarks", "%s", err)
	}
	if err := validateMVCC(c, specs); err != nil {
		return err
	}
	seeks := false
	for _, s := range specs {
		b, ok := benchmarkByName(s.Name)
		if !ok {
			return config.BadFlag("benchmarks", "unknown benchmark %q (known: %s)", s.Name, strings.Join(benchmarkNames(), ", "))
		}
		seeks = seeks || b.opKind == "seek"
	}
	return validateIgnored(c, seeks)
}

// validateIgnored refuses flags that would change nothing in this run, so
// none is silently ignored: pebblerf's plug-ins under -engine=pebble, a
// plug-in's settings without the plug-in, and seek-target flags without a
// seek benchmark. Only flags given on the command line are checked.
func validateIgnored(c *config.Config, seeks bool) error {
	if c.Engine == config.EnginePebble {
		for _, name := range pebblerfOnlyFlags {
			if c.Given[name] {
				return config.BadFlag(name, "applies to pebblerf only, and -engine=pebble runs upstream Pebble alone; use -engine=pebblerf or -engine=both")
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
		if c.Given[dep.flag] && !c.Given[dep.needs] {
			return config.BadFlag(dep.flag, "has no effect without -%s", dep.needs)
		}
	}
	if c.Given["many_runs_slice_bytes"] && c.CompactionStyle != 1 {
		return config.BadFlag("many_runs_slice_bytes", "has no effect without -compaction_style=1")
	}
	if !seeks {
		for _, name := range []string{"empty_range_fraction", "seek_upper_bound_len", "seek_target_range_multiplier", "seek_hot_fraction", "use_query_builder"} {
			if c.Given[name] {
				return config.BadFlag(name, "applies to seekrandom and seekrandomwhilewriting, and -benchmarks=%s has neither", c.Benchmarks)
			}
		}
	}
	return nil
}

// validatePlugins checks the plug-ins' flags (setup.go) and the
// seek-target generator's, naming the flag at fault.
func validatePlugins(c *config.Config) error {
	if c.KeyStride < 1 {
		return config.BadFlag("key_stride", "%d must be at least 1", c.KeyStride)
	}
	if c.KeyStride > 1 && c.Num > math.MaxInt64/c.KeyStride {
		return config.BadFlag("key_stride", "%d times -num=%d overflows the key space", c.KeyStride, c.Num)
	}
	if c.KeyStride > 1 && c.KeysPerPrefix > 0 {
		return config.BadFlag("key_stride", "cannot be combined with -keys_per_prefix, whose prefixes are taken from the key number")
	}
	if c.SeekUpperBoundLen < 0 {
		return config.BadFlag("seek_upper_bound_len", "%d must not be negative", c.SeekUpperBoundLen)
	}
	if !(c.EmptyRangeFraction >= 0 && c.EmptyRangeFraction <= 1) {
		return config.BadFlag("empty_range_fraction", "%g must be in [0, 1]", c.EmptyRangeFraction)
	}
	if c.EmptyRangeFraction > 0 {
		if c.SeekUpperBoundLen == 0 {
			return config.BadFlag("empty_range_fraction", "needs -seek_upper_bound_len > 0 (an unbounded range is never empty)")
		}
		if !c.SparseFill && c.KeyStride <= c.SeekUpperBoundLen {
			return config.BadFlag("empty_range_fraction", "needs -key_stride=%d > -seek_upper_bound_len=%d, so a gap between written keys holds a whole range (or -writes, whose sparse fill leaves gaps)", c.KeyStride, c.SeekUpperBoundLen)
		}
	}
	if c.FillSeqOverwriteWindow < 0 {
		return config.BadFlag("fillseq_overwrite_window", "%d must not be negative", c.FillSeqOverwriteWindow)
	}
	if c.SeekTargetRangeMultiplier < 1 {
		return config.BadFlag("seek_target_range_multiplier", "%d must be at least 1", c.SeekTargetRangeMultiplier)
	}
	if c.RangeFilterBits != 0 {
		if err := c.RangeFilterConfig().Validate(); err != nil || math.IsNaN(c.RangeFilterBits) {
			return config.BadFlag("range_filter_bits", "%g must be 0 (off) or in [4, 40]", c.RangeFilterBits)
		}
	}
	if _, err := c.GetL6Config(); err != nil {
		return err
	}
	if err := validateRangeFilterPlan(c); err != nil {
		return err
	}
	if _, err := c.Plan(); err != nil {
		return err
	}
	if _, err := c.Shape(); err != nil {
		return err
	}
	if c.CompactionStyle == 1 && c.NumLevelsGiven && c.NumLevels < 2 {
		return config.BadFlag("num_levels", "%d sorted runs: the many-runs profile needs at least 2", c.NumLevels)
	}
	if !(c.SeekHotFraction >= 0 && c.SeekHotFraction <= 1) {
		return config.BadFlag("seek_hot_fraction", "%g must be in [0, 1]", c.SeekHotFraction)
	}
	if !(c.SeekHotRange > 0 && c.SeekHotRange <= 1) {
		return config.BadFlag("seek_hot_range", "%g must be in (0, 1]", c.SeekHotRange)
	}
	if !(c.SeekHotStart >= 0 && c.SeekHotStart+c.SeekHotRange <= 1+1e-9) {
		return config.BadFlag("seek_hot_start", "%g plus -seek_hot_range %g must be in [0, 1]", c.SeekHotStart, c.SeekHotRange)
	}
	if c.AdvisorIntervalMs < 0 {
		return config.BadFlag("compaction_advisor_interval_ms", "%d must not be negative", c.AdvisorIntervalMs)
	}
	if math.IsNaN(c.AdvisorBudget) || math.IsInf(c.AdvisorBudget, 0) {
		return config.BadFlag("compaction_advisor_write_budget", "%g must be a number (negative: no bound)", c.AdvisorBudget)
	}
	if c.SliceBytes < 0 {
		return config.BadFlag("many_runs_slice_bytes", "%d must not be negative", c.SliceBytes)
	}
	if c.LSMSampleMs < 0 {
		return config.BadFlag("lsm_sample_ms", "%d must not be negative", c.LSMSampleMs)
	}
	if c.CompactionAdvisor && !c.PebbleRFStatistics {
		return config.BadFlag("compaction_advisor", "needs -pebblerf_statistics, whose wasted-seek counts drive it")
	}
	return nil
}

// validateInterleave checks -interleave: its turns count one thread's
// operations on each engine, so it needs two engines, one thread, and
// counts rather than a clock (-duration and the read rate would each
// charge one engine's wall-clock limits with the other's turns).
func validateInterleave(c *config.Config) error {
	if !c.Given["interleave"] {
		return nil
	}
	switch {
	case c.Interleave < 1:
		return config.BadFlag("interleave", "%d must be at least 1 (leave it out for whole runs)", c.Interleave)
	case c.Engine != config.EngineBoth:
		return config.BadFlag("interleave", "takes turns between two engines; it needs -engine=both")
	case c.Threads != 1:
		return config.BadFlag("interleave", "takes turns of one thread; it needs -threads=1, not %d", c.Threads)
	case c.Duration > 0:
		return config.BadFlag("interleave", "counts operations; it cannot be combined with -duration")
	case c.ReadRateLimit > 0:
		return config.BadFlag("interleave", "cannot be combined with -benchmark_read_rate_limit, whose pace would count the other engine's turns")
	}
	return nil
}
