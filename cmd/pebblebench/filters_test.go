// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"testing"

	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

func TestBloomBeforeLevel(t *testing.T) {
	for _, tc := range []struct {
		bloomBeforeLevel int
		want             string // per level L0..L6: B = Bloom, R = Ribbon
	}{
		{-1, "RRRRRRR"},
		{0, "BRRRRRR"}, // flushes write L0
		{1, "BRRRRRR"},
		{3, "BBBRRRR"},
		{7, "BBBBBBB"},
		{100, "BBBBBBB"},
	} {
		c := &config{bloomBits: 10, useRibbonFilter: true, bloomBeforeLevel: tc.bloomBeforeLevel}
		var got []byte
		for level := 0; level < 7; level++ {
			p, err := c.pebbleRFFilter(level)
			require.NoError(t, err)
			switch p.Name() {
			case rangefilter.BloomPolicyName:
				got = append(got, 'B')
			case rangefilter.RibbonPolicyName:
				got = append(got, 'R')
			}
		}
		require.Equal(t, tc.want, string(got), "bloom_before_level=%d", tc.bloomBeforeLevel)
	}
	// Without -use_ribbon_filter every level gets Bloom.
	c := &config{bloomBits: 7.5, bloomBeforeLevel: -1}
	p, err := c.pebbleRFFilter(6)
	require.NoError(t, err)
	require.Equal(t, rangefilter.BloomPolicyName, p.Name())
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
	args := []string{"-engine=both", "-benchmarks=fillrandom,compact,readrandom,levelstats", "-num=5000",
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
			require.Greater(t, stats["rocksdb.bloom.filter.useful"].(float64), 0.3*r["reads"].(float64), "%v", stats)
		}
		pb, rb := levelFilterBytes(t, runs, "pebble"), levelFilterBytes(t, runs, "pebblerf")
		require.Greater(t, pb, 0.0)
		require.Greater(t, rb, 0.0)
		if ribbon {
			require.Less(t, rb, pb, text)
			require.Contains(t, text, "pebblerf: rangefilter.Ribbon(10) on all levels")
		}
	}
}
