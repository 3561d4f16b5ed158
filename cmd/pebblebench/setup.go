// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/rangefilter"
)

// The pebblerf plug-ins the flags select (range filters, query builder,
// compaction shape and advisor, statistics; validatePlugins checks them).
// The shape is the one plug-in both engines get: a benchmark of an LSM shape
// must compare the engines on the same shape.

// recommendedFlags sets the flags of pebble.Recommended()'s plug-ins
// (-pebblerf_recommended) that the command line did not give, so that the
// set goes through the same validation, header and -json configuration as
// the flags themselves; TestRecommendedFlags holds the two equal.
func recommendedFlags(c *config.Config) {
	r := pebblerf.Recommended()
	if r.RangeFilter != nil && !c.Given["range_filter_bits"] {
		c.RangeFilterBits = r.RangeFilter.BitsPerKey
		if c.RangeFilterBits == 0 {
			c.RangeFilterBits = rangefilter.DefaultBitsPerKey
		}
		if r.RangeFilterLevels != nil && r.RangeFilterLevels.OnDemand && !c.Given["range_filter_plan"] {
			c.RangeFilterPlanName = config.RangePlanDemand
		}
	}
	if r.GetL6Filters != nil && !c.Given["get_l6_filters"] {
		c.GetL6Filters = config.GetL6On
		if r.GetL6Filters.Auto {
			c.GetL6Filters = config.GetL6Auto
		}
	}
}
