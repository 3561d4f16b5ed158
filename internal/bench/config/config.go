// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package config is one pebblebench invocation's settings: every flag's
// value, as db_bench names and means it, and what follows from them alone.
//
// The command line is parsed once (pebblebench's flags.go) into a Config
// that nothing changes afterwards; everything else that depends on the
// flags derives from it here, so that the parts of the benchmark (the
// engines, the benchmarks' loops, the driver that prints) read one source:
// the key format and the seek targets (KeyGen, SeekTargets), each engine's
// Pebble options and pebblerf's plug-ins (Options, PebbleRFPlugins), the
// table filters (filters.go), and the lines of the header that describe
// them. A Config holds plain values only, so it crosses to an engine's
// process as it is.
//
// A value that is wrong for the run is a UsageError (BadFlag), which
// pebblebench prints as one line and exits with status 2.
package config

import (
	"fmt"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/rangefilter"
)

// Config holds every flag. The names, defaults and meanings are db_bench's
// (tools/db_bench_tool.cc) wherever db_bench has the flag, so a db_bench
// command line runs here unchanged; flags db_bench lacks say so in their
// usage text (pebblebench's flags.go registers them).
//
// A Config is immutable once the command line is parsed, and its methods
// only derive values from the flags (a plan, a key format, options). What
// changes while benchmarks run is held elsewhere: the sparse fill's key set
// and each open DB by the engine that runs the benchmarks, the results by
// the driver that prints them. Every field is exported and of a plain type,
// so that a Config can be handed to an engine running in another process.
type Config struct {
	Benchmarks string
	Engine     string
	DB         string
	DBGiven    bool

	Num    int64
	Writes int64
	Reads  int64
	// YCSBRecordCount and YCSBValueSize shape the YCSB benchmarks'
	// records.
	YCSBRecordCount int64
	YCSBValueSize   int
	Duration        int
	Threads         int
	Interleave      int64
	BatchSize       int
	Seed            int64
	// SeedDrawn is set when -seed was 0 and the parser drew Seed from the
	// clock, which the header then says.
	SeedDrawn bool

	KeySize          int
	ValueSize        int
	CompressionRatio float64
	CompressionType  string
	PrefixSize       int
	KeysPerPrefix    int
	SeekNexts        int
	MissingFraction  float64

	TotalOrderSeek     bool
	UseTailingIterator bool
	WriteRateLimit     int64
	ReadRateLimit      int64

	BloomBits        float64
	UseRibbonFilter  bool
	BloomBeforeLevel int
	UseL6Filters     bool
	// FilterPlanName and FilterBudgetBits are -filter_plan and
	// -filter_budget_bits (filters.go); RangeFilterPlanName and
	// RangeFilterBudgetBits are -range_filter_plan and
	// -range_filter_budget_bits.
	FilterPlanName        string
	FilterBudgetBits      float64
	RangeFilterPlanName   string
	RangeFilterBudgetBits float64
	// Remote, RemoteLevels, SecondaryCacheSize and WriteCacheSize are
	// -remote, -remote_levels, -secondary_cache_size and -write_cache_size:
	// the tables on an object store.
	Remote             string
	RemoteLevels       string
	SecondaryCacheSize int64
	WriteCacheSize     int64

	CacheSize       int64
	WriteBufferSize int64
	UseExistingDB   bool
	DisableWAL      bool
	Sync            bool

	KeyStride int64
	// SparseFill is set by -writes: fills write fewer keys than the key
	// space holds, and record them (NewWrittenSet).
	SparseFill                bool
	SeekUpperBoundLen         int64
	EmptyRangeFraction        float64
	SeekTargetRangeMultiplier int64
	FillSeqOverwriteWindow    int64
	// KeyFormat, VersionsPerKey, MVCCScanKeys and MVCCCompactRounds are
	// -key_format, -versions_per_key, -mvcc_scan_keys and
	// -mvcc_compact_rounds.
	KeyFormat         string
	VersionsPerKey    int
	MVCCScanKeys      int
	MVCCCompactRounds int

	RangeFilterBits    float64
	UseQueryBuilder    bool
	QueryPlan          string
	Explain            bool
	CompactionStyle    int
	NumLevels          int
	NumLevelsGiven     bool
	CompactionAdvisor  bool
	PebbleRFStatistics bool
	// Recommended is -pebblerf_recommended: pebblerf opens with
	// pebble.Recommended(), which the parser turns into the flags of its
	// plug-ins.
	Recommended bool
	// L0Trigger and L0Stop are -level0_file_num_compaction_trigger and
	// -level0_stop_writes_trigger, 0 for Pebble's defaults.
	L0Trigger, L0Stop int
	// GetL6Filters is -get_l6_filters: off, on or auto (Plugins.GetL6Filters).
	GetL6Filters string
	// RangeWhatIfBits and PrefixWhatIfBits: -range_filter_whatif_bits and
	// -prefix_filter_whatif_bits.
	RangeWhatIfBits  float64
	PrefixWhatIfBits float64
	// AdvisorLog, AdvisorIntervalMs, AdvisorBudget: -compaction_advisor_log,
	// -compaction_advisor_interval_ms and -compaction_advisor_write_budget.
	AdvisorLog        bool
	AdvisorIntervalMs int
	AdvisorBudget     float64
	LSMSampleMs       int
	SliceBytes        int64
	SeekHotFraction   float64
	SeekHotRange      float64
	SeekHotStart      float64

	Statistics            bool
	Histogram             bool
	JSON                  bool
	ReportIntervalSeconds int
	ReportFile            string
	CPUProfile            string
	// ReportHTML is -report_html (internal/bench/report).
	ReportHTML string
	// MetricsAddr is -metrics_addr.
	MetricsAddr string
	// Scenario is -scenario, which pebblebench handles before parsing; it
	// is a flag to be listed by -help.
	Scenario string

	// Given holds the names of the flags on the command line; FlagValues
	// every flag's value by name, for the -json configuration record
	// (flag.Getter's values: of the flag's own type).
	Given      map[string]bool
	FlagValues map[string]any
}

// UsageError is a bad flag or value: pebblebench prints it as one line and
// exits with status 2, as the flag package does for unknown flags.
type UsageError struct {
	Msg string
	// PointToHelp adds a pointer to -help: the flag package's own errors
	// (an unknown flag, a value of the wrong type) do not say what is valid.
	PointToHelp bool
}

func (e *UsageError) Error() string { return e.Msg }

// BadFlag is the usage error of a bad value of flag name.
func BadFlag(name, format string, args ...interface{}) error {
	return &UsageError{Msg: fmt.Sprintf("invalid -%s: %s", name, fmt.Sprintf(format, args...))}
}

// IsUsageError reports whether err should end the program with status 2.
func IsUsageError(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// Engines lists the engines of a run in the order they alternate.
func (c *Config) Engines() []string {
	if c.Engine == EngineBoth {
		return []string{EnginePebble, EnginePebbleRF}
	}
	return []string{c.Engine}
}

// KeyGen is the key format of the flags (-num, -key_size, -prefix_size,
// -keys_per_prefix, -key_stride).
func (c *Config) KeyGen() keyspace.Gen {
	return keyspace.Gen{Num: c.Num, KeySize: c.KeySize, PrefixSize: c.PrefixSize, KeysPerPrefix: c.KeysPerPrefix,
		Stride: uint64(max(c.KeyStride, 1))}
}

// NewWrittenSet returns the set a sparse fill (-writes) records its keys in,
// for the seek targets; nil for a dense fill, which needs none.
func (c *Config) NewWrittenSet() *keyspace.Set {
	if !c.SparseFill {
		return nil
	}
	return keyspace.NewSet(c.Num)
}

// SeekTargets is the seek-target generator of the flags:
// -seek_target_range_multiplier, -seek_upper_bound_len,
// -empty_range_fraction, -missing_fraction and the hot range, over the keys
// a sparse fill recorded in written (nil after a dense fill).
func (c *Config) SeekTargets(written *keyspace.Set) keyspace.Targets {
	return keyspace.Targets{
		Keys:            c.KeyGen(),
		Space:           uint64(c.Num) * uint64(c.SeekTargetRangeMultiplier),
		UpperLen:        uint64(c.SeekUpperBoundLen),
		EmptyFraction:   c.EmptyRangeFraction,
		MissingFraction: c.MissingFraction,
		Written:         written,
		HotFraction:     c.SeekHotFraction,
		HotStart:        uint64(float64(c.Num) * c.SeekHotStart),
		HotSpace:        max(uint64(float64(c.Num)*c.SeekHotRange), 1),
	}
}

// The engine names of -engine.
const (
	EnginePebble   = "pebble"
	EnginePebbleRF = "pebblerf"
	EngineBoth     = "both"
)

// The values of -key_format.
const (
	KeyFormatDBBench = "dbbench"
	KeyFormatMVCC    = "mvcc"
)

// RecordLatencies reports whether workers record each operation's latency:
// for -histogram, and for -remote, whose runs report p50 and p99.
func (c *Config) RecordLatencies() bool { return c.Histogram || c.Remote != "" }

// defaultPrefixWhatIfBits is the Bloom budget of the prefix what-if when
// -bloom_bits sets none: db_bench's customary 10 bits per key.
const defaultPrefixWhatIfBits = 10

// WhatIfBits returns the budgets of the range and prefix what-ifs the flags
// ask for, 0 for none.
func (c *Config) WhatIfBits() (rangeBits, prefixBits float64) {
	switch {
	case c.RangeWhatIfBits > 0:
		rangeBits = c.RangeWhatIfBits
	case c.RangeWhatIfBits == 0 && c.RangeFilterBits == 0:
		rangeBits = rangefilter.DefaultBitsPerKey
	}
	switch {
	case c.PrefixSize == 0:
		// Without -prefix_size seekrandom uses SeekGE, which consults no
		// prefix filter: a prefix filter would save nothing.
	case c.PrefixWhatIfBits > 0:
		prefixBits = c.PrefixWhatIfBits
	case c.PrefixWhatIfBits == 0 && c.BloomBits >= 0.5:
		prefixBits = c.BloomBits
	case c.PrefixWhatIfBits == 0:
		prefixBits = defaultPrefixWhatIfBits
	}
	return rangeBits, prefixBits
}
