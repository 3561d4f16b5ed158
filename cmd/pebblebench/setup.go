// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

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

// comparer returns the comparer for the key format. With -prefix_size the
// first prefix_size bytes of a key are its Split prefix, so filters hold
// prefixes and SeekPrefixGE stops at the prefix's end, as db_bench's
// NewFixedPrefixTransform does. The comparer gets its own name because the
// name is stored in the DB and Split changes what the filters hold: a DB
// written with one prefix length must not be opened with another.
func (c *config) comparer() *upstream.Comparer {
	if c.keyFormat == keyFormatMVCC {
		return &cockroachkvs.Comparer
	}
	if c.prefixSize == 0 {
		return upstream.DefaultComparer
	}
	cmp := *upstream.DefaultComparer
	n := c.prefixSize
	cmp.Split = func(key []byte) int { return min(len(key), n) }
	cmp.Name = fmt.Sprintf("pebblebench.FixedPrefix(%d)", n)
	return &cmp
}

// options builds what one engine's DB is opened with: its options and, for
// pebblerf, its plug-ins (zero for upstream). Everything in the options but
// the table filters is the same for both engines; the cache is the
// caller's, one per engine, so the engines do not share or evict each
// other's blocks. The two are made together because -filter_plan's planner
// is in both: pebblerf's options keep no filter where it decides, and it
// goes in as Plugins.Filters.
func (c *config) options(engineName string, cache *upstream.Cache) (*upstream.Options, pebblerf.Plugins, error) {
	profile, err := dbbench.Compression(c.compressionType)
	if err != nil {
		return nil, pebblerf.Plugins{}, err
	}
	o := &upstream.Options{
		Cache:              cache,
		Comparer:           c.comparer(),
		DisableWAL:         c.disableWAL,
		MemTableSize:       uint64(c.writeBufferSize),
		FormatMajorVersion: upstream.FormatNewest,
		Logger:             quietLogger{},
	}
	if c.l0Trigger > 0 {
		o.L0CompactionThreshold = c.l0Trigger
		// Pebble refuses a stop threshold below the compaction one.
		o.L0StopWritesThreshold = max(12, 2*c.l0Trigger)
	}
	if c.l0Stop > 0 {
		o.L0StopWritesThreshold = c.l0Stop
	}
	for i := range o.Levels {
		o.Levels[i].Compression = func() *sstable.CompressionProfile { return profile }
	}
	if c.keyFormat == keyFormatMVCC {
		crdb.Apply(o)
	}
	filters := engineName
	if c.upstreamFilters() {
		filters = enginePebble
	}
	planner, err := c.applyFilters(filters, o)
	if err != nil {
		return nil, pebblerf.Plugins{}, err
	}
	var plugins pebblerf.Plugins
	if engineName == enginePebbleRF {
		plugins = c.pebblerfPlugins(planner)
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

// The pebblerf plug-ins the flags select (range filters, query builder,
// compaction shape and advisor, statistics; validatePlugins checks them).
// The shape is the one plug-in both engines get: a benchmark of an LSM shape
// must compare the engines on the same shape.

// Values of -get_l6_filters.
const (
	getL6Off  = "off"
	getL6On   = "on"
	getL6Auto = "auto"
)

// getL6Config is -get_l6_filters as Plugins.GetL6Filters: nil when off.
func (c *config) getL6Config() (*pebblerf.GetL6Config, error) {
	switch c.getL6Filters {
	case getL6Off, "": // "": a config not made by parseFlags
		return nil, nil
	case getL6On:
		return &pebblerf.GetL6Config{}, nil
	case getL6Auto:
		return &pebblerf.GetL6Config{Auto: true}, nil
	}
	return nil, badFlag("get_l6_filters", "%q is not one of off, on, auto", c.getL6Filters)
}

// writeL6Filters reports whether L6 tables get filters: with
// -use_l6_filters, whose reads ask for them, and with -get_l6_filters, whose
// Gets do (pebblerf's; upstream's DB.Get still never reads them, as when
// Pebble is given a filter on every level). Both engines write them, so
// their filters and filter memory stay the same.
func (c *config) writeL6Filters() bool {
	return c.useL6Filters || c.getsConsultL6()
}

// recommendedFlags sets the flags of pebble.Recommended()'s plug-ins
// (-pebblerf_recommended) that the command line did not give, so that the
// set goes through the same validation, header and -json configuration as
// the flags themselves; TestRecommendedFlags holds the two equal.
func (c *config) recommendedFlags() {
	r := pebblerf.Recommended()
	if r.RangeFilter != nil && !c.given["range_filter_bits"] {
		c.rangeFilterBits = r.RangeFilter.BitsPerKey
		if c.rangeFilterBits == 0 {
			c.rangeFilterBits = rangefilter.DefaultBitsPerKey
		}
		if r.RangeFilterLevels != nil && r.RangeFilterLevels.OnDemand && !c.given["range_filter_plan"] {
			c.rangeFilterPlanName = rangePlanDemand
		}
	}
	if r.GetL6Filters != nil && !c.given["get_l6_filters"] {
		c.getL6Filters = getL6On
		if r.GetL6Filters.Auto {
			c.getL6Filters = getL6Auto
		}
	}
}

// getsConsultL6 reports whether -get_l6_filters is on or auto.
func (c *config) getsConsultL6() bool {
	cfg, _ := c.getL6Config()
	return cfg != nil
}

func (c *config) rangeFilterConfig() rangefilter.Config {
	// A fixed seed makes the filters, and so the figures, the same run to
	// run.
	return rangefilter.Config{BitsPerKey: c.rangeFilterBits, Seed: uint64(c.seed) | 1}
}

// plan is -query_plan as a querybuilder plan.
func (c *config) plan() (querybuilder.Plan, error) {
	for _, p := range []querybuilder.Plan{querybuilder.PlanAuto, querybuilder.PlanPlain, querybuilder.PlanStepped, querybuilder.PlanPrefix} {
		if p.String() == c.queryPlan {
			return p, nil
		}
	}
	return 0, badFlag("query_plan", "%q is not one of auto, plain, stepped, prefix", c.queryPlan)
}

// shape returns a new profile for -compaction_style and -num_levels, or nil
// for level (Pebble's own compactions, no profile). A profile holds its
// driver's state, so every DB opened gets its own.
func (c *config) shape() (compactionext.Profile, error) {
	if c.compactionStyle == 0 {
		return nil, nil
	}
	p, err := dbbench.CompactionStyle(c.compactionStyle)
	if err != nil {
		return nil, badFlag("compaction_style", "%v", err)
	}
	if m, ok := p.(*compactionext.ManyRuns); ok {
		if c.numLevelsGiven {
			m.Runs = c.numLevels
		}
		m.SliceBytes = c.sliceBytes
	}
	return p, nil
}

// runsTarget is the run count the -compaction_style shape keeps, 0 if it
// keeps none.
func (c *config) runsTarget() int {
	if p, _ := c.shape(); p != nil {
		if m, ok := p.(*compactionext.ManyRuns); ok {
			return m.Runs
		}
	}
	return 0
}

// pebblerfPlugins is what pebblerf is opened with, given the planner that
// applyFilters made with its options (nil without -filter_plan).
func (c *config) pebblerfPlugins(planner *pointfilter.Planner) pebblerf.Plugins {
	// As the library's Open: no plug-in unless a flag asks for it.
	plugins := pebblerf.Plugins{Statistics: c.pebblerfStatistics}
	if c.filterPlanName != "" {
		plugins.Filters = planner
	}
	if c.rangeFilterBits != 0 {
		rf := c.rangeFilterConfig()
		plugins.RangeFilter = &rf
		if plan, ok := c.rangeFilterPlan(); ok {
			plugins.RangeFilterLevels = &plan
		}
	}
	plugins.Shape, _ = c.shape()              // validated
	plugins.GetL6Filters, _ = c.getL6Config() // validated
	if c.compactionAdvisor {
		plugins.Advisor = &compactionext.AdvisorConfig{
			MinInterval: time.Duration(c.advisorIntervalMs) * time.Millisecond,
			WriteBudget: c.advisorBudget,
			// The advisor's decisions are part of what a run measured
			// (openPebbleRF also counts them).
			OnDecision: func(d compactionext.Decision) {
				fmt.Fprintf(os.Stderr, "pebblebench: compaction advisor: %s\n", d)
			},
		}
		if c.advisorLog {
			plugins.Advisor.OnLook = func(l compactionext.Look) {
				fmt.Fprintf(os.Stderr, "pebblebench: compaction advisor looked: %s\n", l)
			}
		}
	}
	return plugins
}

// defaultPath reports whether pebblerf runs as pebble.Open opens it: no
// plug-in and no pebblerf-only flag (-compaction_style's shape is given to
// both engines, so it does not count). pebblerf then gets upstream's filter
// policy as well (applyFilters), as a program that switched its import
// path keeps the policy its options name, so that the two engines differ
// only by what the drop-in itself costs. -get_l6_filters does not count
// either: it changes how pebblerf's Gets read the filters, not the filters,
// so that the engines differ by the route alone (its filters are
// upstream's; pluginDescription names it).
func (c *config) defaultPath() bool {
	return !c.pebblerfStatistics && c.rangeFilterBits == 0 && !c.compactionAdvisor &&
		!c.useRibbonFilter && c.filterPlanName == "" && !c.useQueryBuilder
}

// upstreamFilters reports whether pebblerf gets upstream's filter policy,
// as both engines then do: on the default path, and under
// -pebblerf_recommended without a pebblerf point-filter flag, because
// pebble.Recommended() keeps the filters the options name.
func (c *config) upstreamFilters() bool {
	return c.defaultPath() || (c.recommended && !c.useRibbonFilter && c.filterPlanName == "")
}

// pluginDescription says what pebblerf runs with, for the header.
func (c *config) pluginDescription() string {
	shape := "level (Pebble's compactions)"
	if p, _ := c.shape(); p != nil {
		shape = p.Name()
		if m, ok := p.(*compactionext.ManyRuns); ok {
			shape = fmt.Sprintf("%s (%d runs)", shape, m.Runs)
		}
	}
	rf := "off"
	if c.rangeFilterBits != 0 {
		rf = fmt.Sprintf("%g bits/key (pebblerf)", c.rangeFilterBits)
		if c.rangeFilterPlanName != "" {
			rf += ", plan " + c.rangeFilterPlanName
		}
	}
	qb := "off"
	if c.useQueryBuilder {
		qb = "plan " + c.queryPlan + " (pebblerf)"
	}
	if c.getsConsultL6() {
		qb += "; Gets consult L6 filters " + c.getL6Filters
	}
	if c.engine == enginePebble {
		return fmt.Sprintf("none: only upstream Pebble runs (-engine=both runs pebblerf beside it); shape %s", shape)
	}
	set := ""
	if c.recommended {
		set = "pebble.Recommended(): "
	}
	return fmt.Sprintf("%sshape %s (every engine); range filters %s; query builder %s; statistics %t; advisor %t",
		set, shape, rf, qb, c.pebblerfStatistics, c.compactionAdvisor)
}
