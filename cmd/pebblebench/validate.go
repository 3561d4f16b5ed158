// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"math"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
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
		b, ok := benchmarks.ByName(s.Name)
		if !ok {
			return config.BadFlag("benchmarks", "unknown benchmark %q (known: %s)", s.Name, strings.Join(benchmarks.Names(), ", "))
		}
		seeks = seeks || b.OpKind == "seek"
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

// The benchmarks of -key_format=mvcc: the reads a CockroachDB-style storage
// layer makes (mvcc_keys.go has the keys; the options and the lock-table
// keys are examples/cockroach/crdb's).
//
//   - fillmvcc writes -versions_per_key rounds; round r writes a version of
//     each of the -num roach keys at wall time (r+1)s, in key order, plus a
//     quarter of the lock table's keys, and flushes. With no compactions
//     (-compaction_style=3) each round is at least one L0 sublevel: the
//     shape CockroachDB's L0 has under a write burst. With
//     -mvcc_compact_rounds=N it compacts the DB after round N, so that the
//     older versions lie in L6 below the sublevels.
//   - mvccget reads a roach key's newest version at or below a read
//     timestamp, as CockroachDB's point gets do: SeekPrefixGE to the key at
//     the timestamp, on a reused iterator (with -use_l6_filters it asks for
//     L6 filters). -missing_fraction of the keys are absent.
//   - mvccscan scans -mvcc_scan_keys roach keys from a random one, returning
//     each key's version visible at a read timestamp: on a key newer than
//     the timestamp it seeks to the key at the timestamp, and after a
//     visible version it moves to the next roach key with NextPrefix.
//   - locktablescan checks the lock table over the span of -mvcc_scan_keys
//     roach keys, as a KV read does before it reads: a bounded scan, which
//     is almost always empty ("found" counts the spans holding a lock).
//   - lockedscan is mvccscan with a locktablescan check of each span before
//     it (an iterator each), as a KV read runs both on one DB.
//   - locktablescanwhilewriting is locktablescan while one more thread
//     writes transactions' intents (writeIntents), so that the lock checks
//     keep meeting tables just flushed or compacted, whose blocks no read
//     has cached yet: the lock table as CockroachDB's writers keep it.
//   - mvcctimebound scans -mvcc_scan_keys roach keys for the versions of one
//     round, as an incremental backup does: a time-interval block-property
//     filter (cockroachkvs.NewMVCCTimeIntervalFilter) skips tables and
//     blocks with no version in the interval, and SkipPoint hides the rest.
//
// The scans use -use_query_builder and -use_tailing_iterator as seekrandom
// does (boundedScan), and add the block bytes their iterators read to the
// run's figures. Read timestamps and intervals are drawn per operation from
// the rounds fillmvcc wrote.
// validateMVCC checks the flags of -key_format.
func validateMVCC(c *config.Config, specs []dbbench.Spec) error {
	switch c.KeyFormat {
	case config.KeyFormatDBBench:
		for _, s := range specs {
			if b, ok := benchmarks.ByName(s.Name); ok && b.MVCC {
				return config.BadFlag("benchmarks", "%s needs -key_format=mvcc", s.Name)
			}
		}
		for _, name := range []string{"versions_per_key", "mvcc_scan_keys", "mvcc_compact_rounds"} {
			if c.Given[name] {
				return config.BadFlag(name, "has no effect without -key_format=mvcc")
			}
		}
		return nil
	case config.KeyFormatMVCC:
	default:
		return config.BadFlag("key_format", "unknown format %q (dbbench or mvcc)", c.KeyFormat)
	}
	if c.PrefixSize > 0 {
		return config.BadFlag("prefix_size", "does not apply to -key_format=mvcc, whose prefix is the roach key")
	}
	if c.VersionsPerKey < 1 {
		return config.BadFlag("versions_per_key", "%d must be at least 1", c.VersionsPerKey)
	}
	if c.MVCCCompactRounds < 0 || c.MVCCCompactRounds > c.VersionsPerKey {
		return config.BadFlag("mvcc_compact_rounds", "%d must be in [0, versions_per_key=%d]", c.MVCCCompactRounds, c.VersionsPerKey)
	}
	if c.MVCCScanKeys < 1 {
		return config.BadFlag("mvcc_scan_keys", "%d must be at least 1", c.MVCCScanKeys)
	}
	for _, s := range specs {
		if b, ok := benchmarks.ByName(s.Name); ok && b.Meta == nil && !b.MVCC && s.Name != "flush" && s.Name != "compact" {
			return config.BadFlag("key_format", "mvcc keys are written and read only by fillmvcc, mvccget, mvccscan, locktablescan, lockedscan, locktablescanwhilewriting and mvcctimebound, not %s", s.Name)
		}
	}
	return nil
}
