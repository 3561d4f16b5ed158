// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReportHTML runs both engines with statistics and checks the file
// -report_html writes: every SVG is well-formed XML, every section this
// run has figures for is there and the others are left out with a line
// that says why, nothing is fetched or run, and the funnel bars and the
// ratio bars carry the figures the run printed.
func TestReportHTML(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	status, stdout, stderr := runMain("-engine=both", "-db="+filepath.Join(dir, "db"), "-num=3000", "-writes=1000", "-seed=3",
		"-pebblerf_statistics", "-statistics", "-write_buffer_size=65536",
		"-benchmarks=fillrandom,flush,overwrite,flush,seekrandom,readrandom", "-reads=400",
		"-seek_upper_bound_len=4", "-empty_range_fraction=0.5", "-seek_nexts=1", "-report_html="+file)
	require.Equal(t, exitOK, status, stderr)
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	doc := string(raw)

	require.True(t, strings.HasPrefix(doc, "<!DOCTYPE html>"))
	require.True(t, strings.HasSuffix(doc, "</html>"))
	for _, id := range []string{"seek-funnel", "range-whatif", "lsm-shape", "ratios"} {
		require.Contains(t, doc, `<section id="`+id+`">`)
	}
	// No sample of the funnel over time without -report_interval_seconds,
	// and the reads were seeks and Gets of keys the prefix filters judge.
	for _, id := range []string{"no-timeline", "no-point-funnel", "no-prefix-whatif"} {
		require.Contains(t, doc, `id="`+id+`"`)
	}
	require.NotContains(t, strings.ToLower(doc), "<script")
	require.NotContains(t, doc, "https://")
	require.Equal(t, strings.Count(doc, "http://"), strings.Count(doc, `xmlns="http://www.w3.org/2000/svg"`),
		"the only URLs are the SVG namespace")

	svgs := regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(doc, -1)
	require.Equal(t, strings.Count(doc, "<svg "), len(svgs))
	require.NotEmpty(t, svgs)
	for _, s := range svgs {
		dec := xml.NewDecoder(strings.NewReader(s))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			require.NoError(t, err, s[:min(len(s), 200)])
		}
	}
	for _, id := range []string{"seek-funnel-pebblerf", "range-whatif-pebblerf", "lsm-runs", "lsm-bytes", "ratios-chart"} {
		require.Contains(t, doc, `id="`+id+`"`)
	}

	// The seek funnel's bars against the per-level tickers printed by
	// -statistics.
	bar := regexp.MustCompile(`<rect [^>]*data-group="([^"]+)" data-series="([^"]+)" data-value="([^"]+)"`)
	ticker := func(name string) string {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` COUNT : (\d+)$`).FindStringSubmatch(stdout)
		if m == nil {
			return "0"
		}
		return m[1]
	}
	funnel := doc[strings.Index(doc, `id="seek-funnel-pebblerf"`):]
	funnel = funnel[:strings.Index(funnel, "</svg>")]
	checked := 0
	for _, m := range bar.FindAllStringSubmatch(funnel, -1) {
		level := strings.ToLower(m[1])
		var want string
		switch m[2] {
		case "filtered":
			want = ticker("pebblerf." + level + ".seek.filtered")
		case "data loaded":
			want = ticker("pebblerf." + level + ".seek.data")
		default:
			continue
		}
		require.Equal(t, want, m[3], "%s %s", m[1], m[2])
		checked++
	}
	require.Positive(t, checked)
	require.Contains(t, funnel, `data-series="data loaded" data-value="`+ticker("pebblerf.l6.seek.data")+`"`)

	// One ratio bar per benchmark both engines ran, each the ops/sec ratio
	// of the run's ratio line.
	lines := regexp.MustCompile(`(?m)^ratio pebblerf/pebble (\S+) :.* ops/sec (\S+)x`).FindAllStringSubmatch(stdout, -1)
	require.Len(t, lines, 6)
	ratios := doc[strings.Index(doc, `id="ratios-chart"`):]
	ratios = ratios[:strings.Index(ratios, "</svg>")]
	got := bar.FindAllStringSubmatch(ratios, -1)
	require.Len(t, got, len(lines))
	for i, m := range got {
		require.Equal(t, fmt.Sprintf("%d %s", i+1, lines[i][1]), m[1])
		var v float64
		_, err := fmt.Sscan(m[3], &v)
		require.NoError(t, err)
		require.Equal(t, lines[i][2], fmt.Sprintf("%.3f", v), "run %d", i+1)
	}
}

// TestReportHTMLTimeline checks that with -report_interval_seconds the
// report samples the seek funnel on every tick, and that the samples only
// grow (counts are since open).
func TestReportHTMLTimeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	status, stdout, stderr := runMain("-engine=pebblerf", "-db="+filepath.Join(dir, "db"), "-num=3000", "-seed=3",
		"-pebblerf_statistics", "-benchmarks=fillrandom,flush,seekrandom", "-duration=3",
		"-report_interval_seconds=1", "-report_file="+filepath.Join(dir, "report.csv"), "-report_html="+file)
	require.Equal(t, exitOK, status, stderr)
	require.Contains(t, stdout, "wrote the progress rows (CSV, every 1 s) "+filepath.Join(dir, "report.csv"))
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	doc := string(raw)
	chart := doc[strings.Index(doc, `id="funnel-time-chart"`):]
	chart = chart[:strings.Index(chart, "</svg>")]
	bar := regexp.MustCompile(`data-group="pebblerf seekrandom \+(\d+)s" data-series="table seeks" data-value="(\d+)"`)
	samples := bar.FindAllStringSubmatch(chart, -1)
	require.GreaterOrEqual(t, len(samples), 2, chart[:min(len(chart), 300)])
	prev := -1
	for _, s := range samples {
		var n int
		_, err := fmt.Sscan(s[2], &n)
		require.NoError(t, err)
		require.Greater(t, n, prev, "table seeks at +%ss", s[1])
		prev = n
	}
}

// TestReportHTMLMedians checks that the file's median of a benchmark's
// paired runs is the terminal's MEDIAN line's, and that it says where it
// wrote the file.
func TestReportHTMLMedians(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	status, stdout, stderr := runMain("-engine=both", "-db="+filepath.Join(dir, "db"), "-num=2000", "-seed=4",
		"-benchmarks=fillrandom,readrandom[X3]", "-reads=300", "-report_html="+file)
	require.Equal(t, exitOK, status, stderr)
	require.Contains(t, stdout, "wrote the HTML report "+file+"\n")
	m := regexp.MustCompile(`(?m)^ratio pebblerf/pebble readrandom \[MEDIAN 3 runs\] :.* ops/sec (\S+)x`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	cell := regexp.MustCompile(`<td>readrandom \[MEDIAN 3 runs\]</td><td>(\S+)x</td>`).FindStringSubmatch(string(raw))
	require.NotNil(t, cell, "no median in the report")
	require.Equal(t, m[1], cell[1])
}

// TestScenarioReportHeadsWithVerdict runs a scenario at a small scale
// with -report_html and checks that each phase's report heads with the
// scenario's headline and verdict, as the terminal prints them.
func TestScenarioReportHeadsWithVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a scenario")
	}
	dir := t.TempDir()
	status, stdout, stderr := runMain("-scenario=range-filters", "-db="+filepath.Join(dir, "db"),
		"-num=40000", "-writes=2000", "-reads=300", "-cache_size=1048576", "-report_html="+filepath.Join(dir, "report.html"))
	require.Equal(t, exitOK, status, stderr)
	m := regexp.MustCompile(`(?m)^range-filters: (.*)$`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	files, err := filepath.Glob(filepath.Join(dir, "report-range-filters-*.html"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		doc := string(raw)
		require.Contains(t, doc, `<div class="result" id="result">`, f)
		require.Contains(t, doc, html.EscapeString(m[1]), f)
	}
}
