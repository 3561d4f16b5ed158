// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRangeWhatIfObservedLengths writes tables with range filters, reads
// them with range filters off (the what-if's run) and on (the
// measurement), and checks that the what-if line and the HTML report carry
// the observed lengths and the loads that must pass, that the line's loads
// are the run's bounded-load ticker, and that the loads it predicts are
// left are the ones the run with filters on made. The filters of these
// dense keys are stored exactly, so the prediction is exact up to the
// attribution of values.
func TestRangeWhatIfObservedLengths(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	common := []string{"-engine=pebblerf", "-db=" + db, "-num=5000", "-writes=1000", "-seed=3",
		"-write_buffer_size=65536", "-compaction_style=3", "-pebblerf_statistics"}
	run := func(args ...string) string {
		status, stdout, stderr := runMain(append(append([]string{}, common...), args...)...)
		require.Equal(t, exitOK, status, stderr)
		return stdout
	}
	run("-range_filter_bits=16", "-benchmarks=fillrandom,flush,overwrite,flush")
	// Few enough seeks that every table check is mapped (the observer
	// samples past 1024 checks per counter shard and level).
	read := []string{"-use_existing_db", "-statistics", "-benchmarks=seekrandom", "-reads=150",
		"-seek_upper_bound_len=4", "-empty_range_fraction=0.5", "-seek_nexts=1"}
	file := filepath.Join(dir, "report.html")
	off := run(append([]string{"-range_filter_bits=0", "-report_html=" + file}, read...)...)
	on := run(append([]string{"-range_filter_bits=16"}, read...)...)

	total := regexp.MustCompile(`(?m)^what-if range total: avoids (\S+) of (\d+) data loads \(\S+\), (\S+) must pass, (\S+) expected false positives .* over (\d+) observed checks \(\d+% hashed; range len p50 <= \d+, p90 <= \d+\), \S+ at an assumed len of 2, .* \((\S+ \S+) as written, (\S+) bits/key\)$`).
		FindStringSubmatch(off)
	require.NotNil(t, total, off)
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err, s)
		return f
	}
	avoided, loads, mustPass := num(total[1]), num(total[2]), num(total[3])
	require.Positive(t, num(total[5]), "observed checks")
	require.Positive(t, mustPass)
	require.Less(t, num(total[7]), 16.0, "exactly stored filters take less than the budget")

	ticker := func(out, name string) float64 {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` COUNT : (\d+)$`).FindStringSubmatch(out)
		if m == nil {
			return 0
		}
		return num(m[1])
	}
	require.Equal(t, ticker(off, "pebblerf.non.last.level.seek.data.bounded")+ticker(off, "pebblerf.last.level.seek.data.bounded"), loads)
	measured := ticker(on, "pebblerf.non.last.level.seek.data.bounded") + ticker(on, "pebblerf.last.level.seek.data.bounded")
	require.Positive(t, measured)
	t.Logf("loads %g, predicted left %g, measured %g", loads, loads-avoided, measured)
	require.InDelta(t, measured, loads-avoided, 0.5, "predicted loads left against measured")

	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	row := regexp.MustCompile(`<tr><td>total</td><td>(\d+)</td><td>(\S+)</td><td>[^<]*</td><td>(\S+)</td><td>(\S+)</td><td>[^<]*</td><td>[^<]*</td><td>(\d+) \(\d+% hashed\)</td><td>≤ \d+ / ≤ \d+</td>`).
		FindStringSubmatch(string(raw))
	require.NotNil(t, row)
	require.Equal(t, total[2], row[1])
	require.Equal(t, fmt.Sprintf("%.1f", avoided), row[2])
	require.Equal(t, fmt.Sprintf("%.1f", mustPass), row[3])
	require.Equal(t, total[5], row[5])
	require.Contains(t, string(raw), "loads left (must pass + false positives)")
}
