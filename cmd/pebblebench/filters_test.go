// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/stretchr/testify/require"
)

// levelFilters names each level's filter in an engine's options:
// B = pebblerf Bloom, R = pebblerf Ribbon, U = upstream Bloom, - = none.
func levelFilters(t *testing.T, c *config.Config, engineName string) string {
	o, _, err := c.Options(engineName, nil)
	require.NoError(t, err)
	var out []byte
	for _, l := range o.Levels {
		switch {
		case l.FilterPolicy == nil || l.FilterPolicy == upstream.NoFilterPolicy:
			out = append(out, '-')
		case l.FilterPolicy.Name() == pointfilter.BloomPolicyName:
			out = append(out, 'B')
		case l.FilterPolicy.Name() == pointfilter.RibbonPolicyName:
			out = append(out, 'R')
		case l.FilterPolicy.Name() == bloom.FilterPolicy(10).Name():
			out = append(out, 'U')
		default:
			out = append(out, '?')
		}
	}
	return string(out)
}

func TestFilterFlags(t *testing.T) {
	for _, tc := range []struct {
		args             []string
		pebble, pebblerf string
	}{
		{nil, "-------", "-------"},
		{[]string{"-bloom_bits=0"}, "-------", "-------"},
		// Without plug-ins pebblerf runs as pebble.Open opens it, with the
		// policy upstream gets; with any, it gets pebblerf's Bloom.
		{[]string{"-bloom_bits=10"}, "UUUUUU-", "UUUUUU-"},
		{[]string{"-bloom_bits=10", "-use_l6_filters"}, "UUUUUUU", "UUUUUUU"},
		{[]string{"-bloom_bits=10", "-pebblerf_statistics"}, "UUUUUU-", "BBBBBB-"},
		{[]string{"-bloom_bits=10", "-use_l6_filters", "-range_filter_bits=16"}, "UUUUUUU", "BBBBBBB"},
		// RocksDB's bloom_before_level: 0 (default) keeps Bloom for
		// flushes, which Pebble writes to L0; -1 means Ribbon everywhere.
		{[]string{"-bloom_bits=10", "-use_ribbon_filter"}, "UUUUUU-", "BRRRRR-"},
		{[]string{"-bloom_bits=10", "-use_ribbon_filter", "-bloom_before_level=-1", "-use_l6_filters"}, "UUUUUUU", "RRRRRRR"},
		{[]string{"-bloom_bits=10", "-use_ribbon_filter", "-bloom_before_level=3"}, "UUUUUU-", "BBBRRR-"},
		{[]string{"-bloom_bits=10", "-use_ribbon_filter", "-bloom_before_level=9", "-use_l6_filters"}, "UUUUUUU", "BBBBBBB"},
	} {
		// -engine=both: the Ribbon flags are refused under -engine=pebble.
		c, err := parseFlags(append([]string{"-engine=both"}, tc.args...), &bytes.Buffer{})
		require.NoError(t, err)
		require.Equal(t, tc.pebble, levelFilters(t, c, config.EnginePebble), "%v", tc.args)
		require.Equal(t, tc.pebblerf, levelFilters(t, c, config.EnginePebbleRF), "%v", tc.args)
	}
	// Upstream's Bloom takes whole bits.
	c, err := parseFlags([]string{"-bloom_bits=7.6"}, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, 8, c.UpstreamBloomBits())
}

func levelFilterBytes(t *testing.T, runs map[string][]map[string]interface{}, engineName string) float64 {
	var total float64
	for _, l := range runs["levelstats/"+engineName][0]["data"].(map[string]interface{})["levels"].([]interface{}) {
		total += l.(map[string]interface{})["filter_bytes"].(float64)
	}
	return total
}

// TestFiltersEndToEnd checks the filter flags reach both engines: with L6
// filters read, both filter missing keys and return the same results, and
// pebblerf's Ribbon filters take less space than upstream's Bloom filters of
// the same false-positive target.
func TestFiltersEndToEnd(t *testing.T) {
	args := []string{"-engine=both", "-benchmarks=fillrandom,compact,readrandom,levelstats", "-num=2000",
		"-seed=9", "-missing_fraction=0.5", "-bloom_bits=10", "-use_l6_filters", "-statistics", "-db=" + t.TempDir()}
	for _, ribbon := range []bool{false, true} {
		a := args
		if ribbon {
			a = append(a, "-use_ribbon_filter", "-bloom_before_level=-1")
		}
		runs, text := jsonRuns(t, a...)
		pe, rf := runs["readrandom/pebble"][0], runs["readrandom/pebblerf"][0]
		require.Equal(t, pe["found"], rf["found"])
		for _, r := range []map[string]interface{}{pe, rf} {
			stats := r["statistics"].(map[string]interface{})
			// Over half the lookups are for absent keys; the filters must
			// rule out most of them.
			require.Greater(t, stats["pebblerf.dbwide.filter.useful"].(float64), 0.3*r["reads"].(float64), "%v", stats)
		}
		pb, rb := levelFilterBytes(t, runs, "pebble"), levelFilterBytes(t, runs, "pebblerf")
		require.Greater(t, pb, 0.0)
		require.Greater(t, rb, 0.0)
		if ribbon {
			require.Less(t, rb, pb, text)
			require.Contains(t, text, "pebblerf: L0-L6 ribbon(10)")
		}
	}
}
