// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/stretchr/testify/require"
)

// requireSameFound checks that both engines ran bench and found the same
// number of keys out of the same number of operations.
func requireSameFound(t *testing.T, runs map[string][]map[string]interface{}, bench string) (pe, rf map[string]interface{}) {
	t.Helper()
	require.Len(t, runs[bench+"/pebble"], 1)
	require.Len(t, runs[bench+"/pebblerf"], 1)
	pe, rf = runs[bench+"/pebble"][0], runs[bench+"/pebblerf"][0]
	require.Equal(t, pe["reads"], rf["reads"])
	require.Equal(t, pe["found"], rf["found"])
	return pe, rf
}

func stat(r map[string]interface{}, name string) float64 {
	v, _ := r["statistics"].(map[string]interface{})[name].(float64)
	return v
}

// TestRangeFilterEndToEnd: bounded seeks, 90% of them on empty ranges, find
// the same keys on both engines, and pebblerf's range filters keep it from
// reading most of the blocks upstream reads.
func TestRangeFilterEndToEnd(t *testing.T) {
	runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,seekrandom", "-num=5000", "-seed=3",
		"-key_stride=16", "-seek_upper_bound_len=8", "-empty_range_fraction=0.9", "-range_filter_bits=16",
		"-pebblerf_statistics", "-statistics", "-db="+t.TempDir())
	pe, rf := requireSameFound(t, runs, "seekrandom")
	require.Greater(t, pe["found"].(float64), 0.0)
	// Only the 10% of non-empty targets can be found.
	require.Less(t, pe["found"].(float64), 0.2*pe["reads"].(float64))
	pb, rb := stat(pe, benchmarks.SeekBlockBytesTicker), stat(rf, benchmarks.SeekBlockBytesTicker)
	require.Greater(t, pb, 0.0)
	require.Less(t, rb, 0.5*pb, text)
	require.Contains(t, text, "Seek statistics per level (pebblerf")
	require.NotEmpty(t, runs["statistics/pebblerf"][0]["level_table"])
	require.Nil(t, runs["statistics/pebble"][0]["level_table"])
}

// TestQueryBuilderEndToEnd: planned queries, with every plan, and a reused
// iterator, find what upstream's plain iterators find; -explain prints the
// plan of a sample query.
func TestQueryBuilderEndToEnd(t *testing.T) {
	for _, plan := range []string{"auto", "plain", "stepped", "prefix"} {
		t.Run(plan, func(t *testing.T) {
			runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillseq,overwrite,seekrandom", "-num=3000",
				"-seed=4", "-seek_nexts=3", "-use_query_builder", "-query_plan="+plan, "-use_tailing_iterator",
				"-seek_target_range_multiplier=3", "-seek_upper_bound_len=50", "-explain", "-db="+t.TempDir())
			pe, _ := requireSameFound(t, runs, "seekrandom")
			// A third of the targets lie in the filled range.
			require.InDelta(t, pe["reads"].(float64)/3, pe["found"].(float64), 300)
			require.Contains(t, text, "EXPLAIN (pebblerf):")
			require.Len(t, runs["explain/pebblerf"], 1)
			require.Empty(t, runs["explain/pebble"])
		})
	}
}

// TestCompactionStyleEndToEnd: both engines get the many-runs shape (no
// compaction into L1-L5) and the advisor runs on pebblerf, and they still
// find the same keys.
func TestCompactionStyleEndToEnd(t *testing.T) {
	runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,flush,overwrite,flush,seekrandom,levelstats",
		"-num=3000", "-seed=5", "-compaction_style=1", "-num_levels=4", "-compaction_advisor", "-pebblerf_statistics",
		"-statistics", "-db="+t.TempDir())
	requireSameFound(t, runs, "seekrandom")
	require.Contains(t, text, "many-runs (4 runs)")
	for _, e := range []string{"pebble", "pebblerf"} {
		for _, l := range runs["levelstats/"+e][0]["data"].(map[string]interface{})["levels"].([]interface{}) {
			l := l.(map[string]interface{})
			if lvl := l["level"].(float64); lvl > 0 && lvl < 6 {
				require.Zero(t, l["files"], "%s L%v: the many-runs profile keeps L1-L5 empty", e, lvl)
			}
		}
	}
}

// TestLSMSampleEndToEnd: -lsm_sample_ms reports, per run, the sorted runs
// sampled over it and the write-amp, on both engines; the advisor's looks
// are logged and its compactions counted.
func TestLSMSampleEndToEnd(t *testing.T) {
	runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,seekrandomwhilewriting",
		"-num=20000", "-duration=1", "-seed=5", "-write_buffer_size=65536", "-compaction_style=1",
		"-num_levels=4", "-lsm_sample_ms=20", "-compaction_advisor", "-pebblerf_statistics", "-compaction_advisor_interval_ms=50",
		"-seek_hot_fraction=0.9", "-statistics", "-db="+t.TempDir())
	for _, e := range []string{"pebble", "pebblerf"} {
		lsm := runs["seekrandomwhilewriting/"+e][0]["lsm"].(map[string]interface{})
		require.Greater(t, lsm["samples"], 10.0, "%s", e)
		require.GreaterOrEqual(t, lsm["runs_max"], lsm["runs_mean"], "%s", e)
		require.GreaterOrEqual(t, lsm["runs_mean"], lsm["runs_min"], "%s", e)
		require.GreaterOrEqual(t, lsm["runs_min"], 1.0, "%s: data on disk is at least one run", e)
		require.Greater(t, lsm["write_amp"], 0.0, "%s", e)
	}
	require.Contains(t, text, "sorted runs over time")
	stats := runs["seekrandomwhilewriting/pebblerf"][0]["statistics"].(map[string]interface{})
	require.Contains(t, stats, "pebblerf.advisor.compactions")
	require.NotContains(t, runs["seekrandomwhilewriting/pebble"][0]["statistics"], "pebblerf.advisor.compactions")
}

// TestPebbleRFStatisticsOff: without per-level statistics, by default as
// with -pebblerf_statistics=false, pebblerf has no per-level seek tickers
// and no level table, only the DB-wide tickers.
func TestPebbleRFStatisticsOff(t *testing.T) {
	for _, flags := range [][]string{nil, {"-pebblerf_statistics=false"}} {
		args := append([]string{"-engine=both", "-benchmarks=fillrandom,seekrandom", "-num=2000", "-seed=6",
			"-statistics", "-db=" + t.TempDir()}, flags...)
		runs, text := jsonRuns(t, args...)
		_, rf := requireSameFound(t, runs, "seekrandom")
		require.NotContains(t, rf["statistics"], "rocksdb.number.db.seek", "%v", flags)
		require.Equal(t, rf["reads"], stat(rf, "pebblerf.dbwide.number.db.seek"), "%v", flags)
		require.NotContains(t, text, "Seek statistics per level", "%v", flags)
	}
}

// TestFillSeqOverwriteWindow: fillseq with overwrites of recent keys writes
// every key once and more, and its flushes overlap, stacking up L0
// sublevels on both engines.
func TestFillSeqOverwriteWindow(t *testing.T) {
	runs, _ := jsonRuns(t, "-engine=both", "-benchmarks=fillseq,levelstats,seekrandom", "-num=4000", "-seed=8",
		"-fillseq_overwrite_window=200", "-write_buffer_size=65536", "-compaction_style=3", "-db="+t.TempDir())
	require.Equal(t, 8000.0, runs["fillseq/pebble"][0]["ops"])
	pe, _ := requireSameFound(t, runs, "seekrandom")
	require.Equal(t, pe["reads"], pe["found"])
	for _, e := range []string{"pebble", "pebblerf"} {
		l0 := runs["levelstats/"+e][0]["data"].(map[string]interface{})["levels"].([]interface{})[0].(map[string]interface{})
		require.Greater(t, l0["sublevels"].(float64), 2.0, "%s: %v", e, l0)
	}
}

// TestRangeFilterBitsNote: levelstats says why range filters take fewer
// bits per key than -range_filter_bits asks. Keys drawn from a key space
// of 4,000 positions fit in far fewer than 16 bits, so every table's
// filter stores them exactly.
func TestRangeFilterBitsNote(t *testing.T) {
	runs, text := jsonRuns(t, "-engine=both", "-benchmarks=fillrandom,flush,levelstats", "-num=4000", "-seed=9",
		"-range_filter_bits=16", "-db="+t.TempDir())
	var tables, exact float64
	for _, l := range runs["levelstats/pebblerf"][0]["data"].(map[string]interface{})["levels"].([]interface{}) {
		l := l.(map[string]interface{})
		if n, ok := l["range_filter_tables"].(float64); ok {
			tables += n
			exact += l["range_filter_exact"].(float64)
		}
	}
	require.Positive(t, tables)
	require.Equal(t, tables, exact, "keys of a 4,000-position space are stored exactly")
	require.Contains(t, text, fmt.Sprintf("%.0f of %.0f tables' keys fit in fewer bits than asked and are stored exactly", exact, tables))
}
