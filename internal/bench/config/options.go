// Copyright 2026 The pebblerf Authors. All rights reserved.

package config

import (
	"fmt"
	"log"
	"os"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/examples/cockroach/crdb"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
)

// Comparer returns the comparer for the key format. With -prefix_size the
// first prefix_size bytes of a key are its Split prefix, so filters hold
// prefixes and SeekPrefixGE stops at the prefix's end, as db_bench's
// NewFixedPrefixTransform does. The comparer gets its own name because the
// name is stored in the DB and Split changes what the filters hold: a DB
// written with one prefix length must not be opened with another.
func (c *Config) Comparer() *upstream.Comparer {
	if c.KeyFormat == KeyFormatMVCC {
		return &cockroachkvs.Comparer
	}
	if c.PrefixSize == 0 {
		return upstream.DefaultComparer
	}
	cmp := *upstream.DefaultComparer
	n := c.PrefixSize
	cmp.Split = func(key []byte) int { return min(len(key), n) }
	cmp.Name = fmt.Sprintf("pebblebench.FixedPrefix(%d)", n)
	return &cmp
}

// Options builds what one engine's DB is opened with: its options and, for
// pebblerf, its plug-ins (zero for upstream). Everything in the options but
// the table filters is the same for both engines; the cache is the
// caller's, one per engine, so the engines do not share or evict each
// other's blocks. The two are made together because -filter_plan's planner
// is in both: pebblerf's options keep no filter where it decides, and it
// goes in as Plugins.Filters.
func (c *Config) Options(engineName string, cache *upstream.Cache) (*upstream.Options, pebblerf.Plugins, error) {
	profile, err := dbbench.Compression(c.CompressionType)
	if err != nil {
		return nil, pebblerf.Plugins{}, err
	}
	o := &upstream.Options{
		Cache:              cache,
		Comparer:           c.Comparer(),
		DisableWAL:         c.DisableWAL,
		MemTableSize:       uint64(c.WriteBufferSize),
		FormatMajorVersion: upstream.FormatNewest,
		Logger:             quietLogger{},
	}
	if c.L0Trigger > 0 {
		o.L0CompactionThreshold = c.L0Trigger
		// Pebble refuses a stop threshold below the compaction one.
		o.L0StopWritesThreshold = max(12, 2*c.L0Trigger)
	}
	if c.L0Stop > 0 {
		o.L0StopWritesThreshold = c.L0Stop
	}
	for i := range o.Levels {
		o.Levels[i].Compression = func() *sstable.CompressionProfile { return profile }
	}
	if c.KeyFormat == KeyFormatMVCC {
		crdb.Apply(o)
	}
	filters := engineName
	if c.UpstreamFilters() {
		filters = EnginePebble
	}
	planner, err := c.applyFilters(filters, o)
	if err != nil {
		return nil, pebblerf.Plugins{}, err
	}
	var plugins pebblerf.Plugins
	if engineName == EnginePebbleRF {
		plugins = c.PebbleRFPlugins(planner)
	}
	return o, plugins, nil
}

// quietLogger drops Pebble's informational messages, which would interleave
// with the result lines, and keeps its errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{}) {}

func (quietLogger) Errorf(format string, args ...interface{}) {
	log.Printf("pebble: "+format, args...)
}

func (quietLogger) Fatalf(format string, args ...interface{}) {
	log.Fatalf("pebble: "+format, args...)
}

// Values of -get_l6_filters.
const (
	GetL6Off  = "off"
	GetL6On   = "on"
	GetL6Auto = "auto"
)

// GetL6Config is -get_l6_filters as Plugins.GetL6Filters: nil when off.
func (c *Config) GetL6Config() (*pebblerf.GetL6Config, error) {
	switch c.GetL6Filters {
	case GetL6Off, "": // "": a config not made by parseFlags
		return nil, nil
	case GetL6On:
		return &pebblerf.GetL6Config{}, nil
	case GetL6Auto:
		return &pebblerf.GetL6Config{Auto: true}, nil
	}
	return nil, BadFlag("get_l6_filters", "%q is not one of off, on, auto", c.GetL6Filters)
}

// WriteL6Filters reports whether L6 tables get filters: with
// -use_l6_filters, whose reads ask for them, and with -get_l6_filters, whose
// Gets do (pebblerf's; upstream's DB.Get still never reads them, as when
// Pebble is given a filter on every level). Both engines write them, so
// their filters and filter memory stay the same.
func (c *Config) WriteL6Filters() bool {
	return c.UseL6Filters || c.GetsConsultL6()
}

// GetsConsultL6 reports whether -get_l6_filters is on or auto.
func (c *Config) GetsConsultL6() bool {
	cfg, _ := c.GetL6Config()
	return cfg != nil
}

func (c *Config) RangeFilterConfig() rangefilter.Config {
	// A fixed seed makes the filters, and so the figures, the same run to
	// run.
	return rangefilter.Config{BitsPerKey: c.RangeFilterBits, Seed: uint64(c.Seed) | 1}
}

// Plan is -query_plan as a querybuilder plan.
func (c *Config) Plan() (querybuilder.Plan, error) {
	for _, p := range []querybuilder.Plan{querybuilder.PlanAuto, querybuilder.PlanPlain, querybuilder.PlanStepped, querybuilder.PlanPrefix} {
		if p.String() == c.QueryPlan {
			return p, nil
		}
	}
	return 0, BadFlag("query_plan", "%q is not one of auto, plain, stepped, prefix", c.QueryPlan)
}

// Shape returns a new profile for -compaction_style and -num_levels, or nil
// for level (Pebble's own compactions, no profile). A profile holds its
// driver's state, so every DB opened gets its own.
func (c *Config) Shape() (compactionext.Profile, error) {
	if c.CompactionStyle == 0 {
		return nil, nil
	}
	p, err := dbbench.CompactionStyle(c.CompactionStyle)
	if err != nil {
		return nil, BadFlag("compaction_style", "%v", err)
	}
	if m, ok := p.(*compactionext.ManyRuns); ok {
		if c.NumLevelsGiven {
			m.Runs = c.NumLevels
		}
		m.SliceBytes = c.SliceBytes
	}
	return p, nil
}

// RunsTarget is the run count the -compaction_style shape keeps, 0 if it
// keeps none.
func (c *Config) RunsTarget() int {
	if p, _ := c.Shape(); p != nil {
		if m, ok := p.(*compactionext.ManyRuns); ok {
			return m.Runs
		}
	}
	return 0
}

// PebbleRFPlugins is what pebblerf is opened with, given the planner that
// applyFilters made with its options (nil without -filter_plan).
func (c *Config) PebbleRFPlugins(planner *pointfilter.Planner) pebblerf.Plugins {
	// As the library's Open: no plug-in unless a flag asks for it.
	plugins := pebblerf.Plugins{Statistics: c.PebbleRFStatistics}
	if c.FilterPlanName != "" {
		plugins.Filters = planner
	}
	if c.RangeFilterBits != 0 {
		rf := c.RangeFilterConfig()
		plugins.RangeFilter = &rf
		if plan, ok := c.rangeFilterPlan(); ok {
			plugins.RangeFilterLevels = &plan
		}
	}
	plugins.Shape, _ = c.Shape()              // validated
	plugins.GetL6Filters, _ = c.GetL6Config() // validated
	if c.CompactionAdvisor {
		plugins.Advisor = &compactionext.AdvisorConfig{
			MinInterval: time.Duration(c.AdvisorIntervalMs) * time.Millisecond,
			WriteBudget: c.AdvisorBudget,
			// The advisor's decisions are part of what a run measured
			// (openPebbleRF also counts them).
			OnDecision: func(d compactionext.Decision) {
				fmt.Fprintf(os.Stderr, "pebblebench: compaction advisor: %s\n", d)
			},
		}
		if c.AdvisorLog {
			plugins.Advisor.OnLook = func(l compactionext.Look) {
				fmt.Fprintf(os.Stderr, "pebblebench: compaction advisor looked: %s\n", l)
			}
		}
	}
	return plugins
}

// DefaultPath reports whether pebblerf runs as pebble.Open opens it: no
// plug-in and no pebblerf-only flag (-compaction_style's shape is given to
// both engines, so it does not count). pebblerf then gets upstream's filter
// policy as well (applyFilters), as a program that switched its import
// path keeps the policy its options name, so that the two engines differ
// only by what the drop-in itself costs. -get_l6_filters does not count
// either: it changes how pebblerf's Gets read the filters, not the filters,
// so that the engines differ by the route alone (its filters are
// upstream's; pluginDescription names it).
func (c *Config) DefaultPath() bool {
	return !c.PebbleRFStatistics && c.RangeFilterBits == 0 && !c.CompactionAdvisor &&
		!c.UseRibbonFilter && c.FilterPlanName == "" && !c.UseQueryBuilder
}

// UpstreamFilters reports whether pebblerf gets upstream's filter policy,
// as both engines then do: on the default path, and under
// -pebblerf_recommended without a pebblerf point-filter flag, because
// pebble.Recommended() keeps the filters the options name.
func (c *Config) UpstreamFilters() bool {
	return c.DefaultPath() || (c.Recommended && !c.UseRibbonFilter && c.FilterPlanName == "")
}

// PluginDescription says what pebblerf runs with, for the header.
func (c *Config) PluginDescription() string {
	shape := "level (Pebble's compactions)"
	if p, _ := c.Shape(); p != nil {
		shape = p.Name()
		if m, ok := p.(*compactionext.ManyRuns); ok {
			shape = fmt.Sprintf("%s (%d runs)", shape, m.Runs)
		}
	}
	rf := "off"
	if c.RangeFilterBits != 0 {
		rf = fmt.Sprintf("%g bits/key (pebblerf)", c.RangeFilterBits)
		if c.RangeFilterPlanName != "" {
			rf += ", plan " + c.RangeFilterPlanName
		}
	}
	qb := "off"
	if c.UseQueryBuilder {
		qb = "plan " + c.QueryPlan + " (pebblerf)"
	}
	if c.GetsConsultL6() {
		qb += "; Gets consult L6 filters " + c.GetL6Filters
	}
	if c.Engine == EnginePebble {
		return fmt.Sprintf("none: only upstream Pebble runs (-engine=both runs pebblerf beside it); shape %s", shape)
	}
	set := ""
	if c.Recommended {
		set = "pebble.Recommended(): "
	}
	return fmt.Sprintf("%sshape %s (every engine); range filters %s; query builder %s; statistics %t; advisor %t",
		set, shape, rf, qb, c.PebbleRFStatistics, c.CompactionAdvisor)
}
