// Copyright 2026 The pebblerf Authors. All rights reserved.

package report

import (
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
	"github.com/stretchr/testify/require"
)

// sampleReport is a report of every section: both engines, per-level
// statistics on pebblerf, a timeline, remote runs, ratios around 1 and a
// scenario's result, under a title as long as a benchmark list gets.
func sampleReport() *Report {
	var sn seekstats.Snapshot
	sn.Rows[seekstats.RowL0] = seekstats.LevelCounts{Filtered: 30, Data: 12, UsefulNoFilter: 5}
	sn.Rows[seekstats.RowL0+6] = seekstats.LevelCounts{Data: 40, UsefulNoFilter: 40, GetUseful: 9, GetPositive: 3, GetTruePositive: 2}
	var tl Timeline
	tl.Add(FunnelSample{Bench: "seekrandom", Engine: "pebblerf", Secs: 1, Funnel: []float64{10, 4, 0, 6, 2}})
	tl.Add(FunnelSample{Bench: "seekrandom", Engine: "pebblerf", Secs: 2, Funnel: []float64{20, 9, 0, 11, 4}})
	// Shapes of seven levels, as lsm.Shape reads them: L0's sublevels and
	// L6's tables, the rest empty.
	shape := func(sublevels int32) []lsm.Level {
		s := make([]lsm.Level, 7)
		for i := range s {
			s[i].Level = i
		}
		s[0].Files, s[0].Sublevels, s[0].Bytes = 3, sublevels, 3<<20
		s[6].Files, s[6].Bytes = 2, 8<<20
		return s
	}
	r := &Report{
		Title:    "pebblebench <test> " + strings.Repeat("fillrandom,flush,overwrite,seekrandom,readrandom,", 6),
		Headline: "1.64x ops/sec, 0.52x block bytes",
		Verdict:  "win: seeks 1.64x faster",
		Engines: []Engine{
			{Name: "pebble", Shape: shape(3)},
			{Name: "pebblerf", Shape: shape(2), Stats: &sn,
				Range:      []whatif.Level{{Row: seekstats.RowL0, Candidates: 12, Checks: 30, Avoided: 11.9, Loads: 12, FilterBytes: 4096}},
				RangeBits:  16,
				Prefix:     []whatif.Level{{Row: seekstats.RowL0 + 6, Candidates: 3, Avoided: 2.9, Loads: 40, FilterBytes: 8192}},
				PrefixBits: 10},
		},
		Ratios: []Ratio{{Benchmark: "seekrandom", Value: 1.25, Text: "1.250x"}, {Benchmark: "readrandom", Value: 0.8, Text: "0.800x"},
			{Benchmark: "readrandom", Value: 1.01, Text: "1.010x"}},
		RatioLabel: "ops/sec of pebblerf ÷ ops/sec of pebble",
		Timeline:   tl.All(),
		Remote: []RemoteRun{{Benchmark: "readrandom", Engine: "pebble", Gets: 120, ByKind: "open 0 index 2 filter 0 data 118 other 0",
			Bytes: 4 << 20, WaitSecs: 2.5, CostPerMOp: 0.048, P50: "20.1ms", P99: "41.0ms"}},
		RemoteLegend: "remote.gets = ranged GETs",
	}
	return r
}

// TestRender draws a report from known figures and reads them back: every
// section is there, every SVG is well-formed XML, nothing is fetched or
// run, and the bars carry the figures they were drawn from.
func TestRender(t *testing.T) {
	r := sampleReport()
	r.Remote = nil
	doc := r.Render()
	require.True(t, strings.HasPrefix(doc, "<!DOCTYPE html>"))
	require.True(t, strings.HasSuffix(doc, "</html>"))
	require.Contains(t, doc, "<title>pebblebench &lt;test&gt; fillrandom,", "text is escaped")
	for _, id := range []string{"seek-funnel", "funnel-time", "point-funnel", "range-whatif", "prefix-whatif", "lsm-shape", "ratios"} {
		require.Contains(t, doc, `<section id="`+id+`">`)
	}
	require.NotContains(t, strings.ToLower(doc), "<script")
	require.Equal(t, strings.Count(doc, "http://"), strings.Count(doc, `xmlns="http://www.w3.org/2000/svg"`))
	svgs := regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(doc, -1)
	require.Len(t, svgs, 8, "seek and point funnels, timeline, range and prefix what-ifs, two LSM charts, ratios")
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

	bars := func(chart string) map[string]string {
		c := doc[strings.Index(doc, `id="`+chart+`"`):]
		c = c[:strings.Index(c, "</svg>")]
		out := map[string]string{}
		for _, m := range regexp.MustCompile(`data-group="([^"]+)" data-series="([^"]+)" data-value="([^"]+)"`).FindAllStringSubmatch(c, -1) {
			out[m[1]+"/"+m[2]] = m[3]
		}
		return out
	}
	seek := bars("seek-funnel-pebblerf")
	require.Equal(t, "42", seek["L0/table seeks"], "filtered + data loaded")
	require.Equal(t, "30", seek["L0/filtered"])
	require.Equal(t, "40", seek["L6/useful"])
	point := bars("point-funnel-pebblerf")
	require.Equal(t, "12", point["L6/filter checks"])
	require.Equal(t, "2", point["L6/passed, key found"])
	runs := bars("lsm-runs")
	require.Equal(t, "3", runs["L0/pebble"])
	require.Equal(t, "2", runs["L0/pebblerf"])
	require.Equal(t, "1", runs["L6/pebblerf"])
	require.Equal(t, "0", runs["L3/pebble"], "an empty level has no run")
	require.Equal(t, map[string]string{"1 seekrandom/ratio": "1.250", "2 readrandom/ratio": "0.800", "3 readrandom/ratio": "1.010"},
		bars("ratios-chart"))
	require.Contains(t, doc, "<td>1 seekrandom</td><td>1.250x</td>", "the table prints the ratio as given")
	require.Equal(t, "20", bars("funnel-time-chart")["pebblerf seekrandom +2s/table seeks"])
	require.Contains(t, doc, "No per-level statistics", "upstream's funnels say why they are missing")
	require.Contains(t, doc, `<div class="result" id="result"><p><b>Headline</b> (pebblerf/upstream): 1.64x ops/sec, 0.52x block bytes</p>`,
		"the scenario's result is at the top")
	require.Less(t, strings.Index(doc, `id="result"`), strings.Index(doc, "<section"))

	// Every series of a chart has a swatch of its own.
	for _, chart := range []string{"seek-funnel-pebblerf", "funnel-time-chart"} {
		c := doc[strings.Index(doc, `id="`+chart+`"`):]
		c = c[:strings.Index(c, "</svg>")]
		legend := regexp.MustCompile(`<rect x="[^"]+" y="8" width="14" height="14" fill="([^"]+)"`).FindAllStringSubmatch(c, -1)
		require.Len(t, legend, len(seekFunnelNames))
		fills := map[string]bool{}
		for _, m := range legend {
			fills[m[1]] = true
		}
		require.Len(t, fills, len(seekFunnelNames), "%s: two series share a swatch", chart)
	}
}

// TestRenderLeavesOut checks that a section without its figures is left
// out, and a line says which and why: no per-level statistics, no sample
// of the funnel over time (the runs ended before the first), no ratios
// without a second engine.
func TestRenderLeavesOut(t *testing.T) {
	r := sampleReport()
	r.Engines[1].Stats = nil
	r.Ratios = nil
	doc := r.Render()
	for _, id := range []string{"seek-funnel", "funnel-time", "point-funnel", "range-whatif", "prefix-whatif", "ratios"} {
		require.NotContains(t, doc, `<section id="`+id+`">`)
	}
	require.Contains(t, doc, `id="left-out"`)
	require.Contains(t, doc, "need pebblerf's per-level statistics (-pebblerf_statistics)")
	require.Contains(t, doc, "it needs -engine=both")

	r = sampleReport()
	r.Timeline, r.SampleEvery = nil, 5*time.Second
	doc = r.Render()
	require.NotContains(t, doc, `<section id="funnel-time">`)
	require.Contains(t, doc, "it is sampled every 5s (-report_interval_seconds), and every run ended sooner")
}

func TestNiceScale(t *testing.T) {
	for _, tc := range []struct{ v, top, step float64 }{
		{0, 1, 0.2}, {0.7, 1, 0.2}, {1, 1, 0.2}, {1.3, 2, 0.4}, {3, 5, 1}, {7.23, 10, 2}, {420, 500, 100},
	} {
		top, step := niceScale(tc.v)
		require.InDelta(t, tc.top, top, 1e-9, "%g", tc.v)
		require.InDelta(t, tc.step, step, 1e-9, "%g", tc.v)
	}
}

func TestRenderRemote(t *testing.T) {
	r := &Report{Title: "remote"}
	require.NotContains(t, r.Render(), `<section id="remote">`, "no section without remote runs")
	r.Remote = []RemoteRun{
		{Benchmark: "readrandom", Engine: "pebble", Gets: 120, ByKind: "open 0 index 2 filter 0 data 118 other 0",
			Bytes: 4 << 20, WaitSecs: 2.5, CostPerMOp: 0.048, P50: "20.1ms", P99: "41.0ms"},
		{Benchmark: "readrandom", Engine: "pebblerf", Gets: 7, P50: "3.0us"},
	}
	r.RemoteLegend = "remote.gets = ranged GETs <by kind>"
	doc := r.Render()
	require.Contains(t, doc, `<section id="remote">`)
	require.Contains(t, doc, "remote.gets = ranged GETs &lt;by kind&gt;", "the legend is escaped")
	c := doc[strings.Index(doc, `id="remote-chart"`):]
	c = c[:strings.Index(c, "</svg>")]
	require.Contains(t, c, `data-group="1 readrandom/pebble" data-series="remote.gets" data-value="120"`)
	require.Contains(t, c, `data-group="2 readrandom/pebblerf" data-series="remote.gets" data-value="7"`)
	require.Contains(t, doc, "<td>1 readrandom/pebble</td><td>120</td><td>open 0 index 2 filter 0 data 118 other 0</td><td>4194304</td><td>2.50</td><td>0.0480</td><td>20.1ms</td><td>41.0ms</td>")
}
