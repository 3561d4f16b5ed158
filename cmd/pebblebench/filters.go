// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
)

// applyPebbleRFFilters installs pebblerf's table filters for -bloom_bits,
// -use_ribbon_filter and -bloom_before_level.
func (c *config) applyPebbleRFFilters(o *upstream.Options) error {
	return errors.New("pebblerf filters are not available yet")
}

// filterDescription says which filter each engine uses, for the header.
func (c *config) filterDescription() string {
	if !c.filtersEnabled() {
		return "none"
	}
	return fmt.Sprintf("pebble: bloom.FilterPolicy(%d) on all levels", c.upstreamBloomBits())
}
