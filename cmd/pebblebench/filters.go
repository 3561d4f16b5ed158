// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"flag"

	"github.com/pebblerf/pebble/internal/bench/config"
)

// Table filters for -bloom_bits, -use_ribbon_filter, -bloom_before_level
// and -use_l6_filters.
//
// When pebblerf runs as pebble.Open opens it, or with the recommended set
// (upstreamFilters), both engines get upstream's policy described below. Otherwise pebblerf gets
// dbbench.FilterPlan, which maps the flags as RocksDB reads them:
// -bloom_bits below 0.5 means no filter, other values are clamped to
// [1, 100]; Bloom everywhere, or with -use_ribbon_filter Ribbon from the
// level -bloom_before_level names (-1: everywhere; 0: all but L0, where
// flushes write). Upstream Pebble has only its own Bloom filter, so it gets
// bloom.FilterPolicy with the bits rounded to whole bits on every level and
// ignores -use_ribbon_filter.
//
// L6 is treated alike in both engines: its tables get filters only with
// -use_l6_filters, which also makes the reads ask for them
// (IterOptions.UseL6Filters), or with -get_l6_filters, under which
// pebblerf's Gets read them and upstream's DB.Get does not (writeL6Filters).
// Pebble never reads L6 filters otherwise, so writing them would cost build
// time and space for nothing, and giving one engine L6 filters the other
// lacks would skew both the write figures and the filter footprint in
// levelstats.

func registerFilterPlanFlags(fs *flag.FlagSet, f *config.Config) {
	fs.StringVar(&f.FilterPlanName, "filter_plan", "", "pebblerf: per-level point filters: uniform, progressive or optimal (overrides -bloom_bits for pebblerf)")
	fs.Float64Var(&f.FilterBudgetBits, "filter_budget_bits", 10, "with -filter_plan: uniform's bits per key; optimal's budget, average bits per key over the DB")
	registerRangePlanFlags(fs, f)
}
