// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"html"
	"math"
	"os"
	"strings"

	"github.com/cockroachdb/errors"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
)

// -report_html writes one self-contained HTML file (inline SVG and CSS, no
// script, nothing fetched) with, per engine and level, the seek funnel, the
// point-lookup funnel, the what-ifs, the LSM's shape, and each benchmark's
// throughput against upstream. Charts use fills of distinct lightness and
// patterns, so they survive a greyscale print; every bar carries its value
// in a data-value attribute and every chart has a table of its figures
// beneath it, which the test reads back.

// htmlReport is what the file shows.
type htmlReport struct {
	Title   string
	Engines []htmlEngine
	// Ratios are each benchmark's ops/sec of the second engine over the
	// first's (pebblerf over upstream Pebble), under -engine=both.
	Ratios     []htmlRatio
	RatioLabel string
	// Timeline is the seek funnel at every -report_interval_seconds tick.
	Timeline []funnelSample
}

type htmlEngine struct {
	Name  string
	Shape []levelShape
	// Stats is nil without per-level statistics.
	Stats                 *seekstats.Snapshot
	Range, Prefix         []whatif.Level
	RangeBits, PrefixBits float64
}

type htmlRatio struct {
	Benchmark string
	Ratio     float64
}

// collectHTMLReport reads the open engines' shapes and statistics and the
// runs' results.
func (d *driver) collectHTMLReport() (*htmlReport, error) {
	r := &htmlReport{Title: "pebblebench " + d.cfg.benchmarks, Timeline: d.timeline.all()}
	for _, e := range d.engines {
		if e.db == nil {
			continue
		}
		he := htmlEngine{Name: e.name}
		shape, err := lsmShape(e.db)
		if err != nil {
			return nil, err
		}
		he.Shape = shape
		if a, ok := e.db.(*adapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch]); ok && d.cfg.pebblerfStatistics {
			sn := a.db.Statistics().PerLevel().Snapshot()
			he.Stats = &sn
			rng, prefix, _, err := whatIfs(a.db, d.cfg)
			if err != nil {
				return nil, err
			}
			he.Range, he.Prefix = rng, prefix
			he.RangeBits, he.PrefixBits = d.cfg.whatIfBits()
		}
		r.Engines = append(r.Engines, he)
	}
	if len(d.engines) == 2 {
		base, other := d.engines[0].name, d.engines[1].name
		r.RatioLabel = fmt.Sprintf("ops/sec of %s ÷ ops/sec of %s (1 = as fast; higher is better)", other, base)
		pending := map[string][]*result{}
		for _, res := range d.results {
			switch res.Engine {
			case base:
				pending[res.Benchmark] = append(pending[res.Benchmark], res)
			case other:
				if q := pending[res.Benchmark]; len(q) > 0 {
					pending[res.Benchmark] = q[1:]
					r.Ratios = append(r.Ratios, htmlRatio{res.Benchmark, ratio(q[0].opsPerSec(), res.opsPerSec())})
				}
			}
		}
	}
	return r, nil
}

// writeHTMLReport writes -report_html.
func (d *driver) writeHTMLReport() error {
	r, err := d.collectHTMLReport()
	if err != nil {
		return err
	}
	if err := os.WriteFile(d.cfg.reportHTML, []byte(r.render()), 0o644); err != nil {
		return errors.Wrapf(err, "writing -report_html %s", d.cfg.reportHTML)
	}
	return nil
}

// seriesFills are the fills of up to five series, from black to white in
// lightness with patterns on the middle ones, so that they stay apart in a
// greyscale print; pattern ids are made unique per chart by barChart.
var seriesFills = []string{"#1a1a1a", "url(#ID-hatch)", "#7a7a7a", "url(#ID-dots)", "#e6e6e6"}

// barGroup is one row of a chart: a label and one value per series.
type barGroup struct {
	label  string
	values []float64
}

// barChart draws a horizontal grouped bar chart: a labelled x axis with
// ticks, the groups' labels on the left, a legend on top. ref, if
// positive, draws a dashed reference line at that value.
func barChart(id, xLabel string, names []string, groups []barGroup, ref float64) string {
	const right, top, barH, gap, plotW = 40.0, 44.0, 14.0, 12.0, 700.0
	// The left margin fits the longest label (about 7 px per character at
	// 12 px).
	left := 60.0
	for _, g := range groups {
		left = max(left, 7*float64(len([]rune(g.label)))+16)
	}
	nser := len(names)
	height := top + float64(len(groups))*(float64(nser)*barH+gap) + 50
	width := left + plotW + right
	maxV := ref
	for _, g := range groups {
		for _, v := range g.values {
			if !math.IsNaN(v) {
				maxV = max(maxV, v)
			}
		}
	}
	maxV, step := niceScale(maxV)
	if integral(groups) && maxV < 5 {
		// Counts below five: whole ticks.
		maxV, step = 5, 1
	}
	x := func(v float64) float64 { return left + plotW*v/maxV }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" id="%s" role="img" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`,
		id, width, height, width, height)
	fmt.Fprintf(&b, `<defs><pattern id="%[1]s-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">`+
		`<rect width="6" height="6" fill="#fff"/><rect width="3" height="6" fill="#333"/></pattern>`+
		`<pattern id="%[1]s-dots" width="5" height="5" patternUnits="userSpaceOnUse">`+
		`<rect width="5" height="5" fill="#fff"/><circle cx="2.5" cy="2.5" r="1.4" fill="#222"/></pattern></defs>`, id)
	fill := func(i int) string { return strings.ReplaceAll(seriesFills[i%len(seriesFills)], "ID", id) }
	// Legend.
	lx := left
	for i, n := range names {
		fmt.Fprintf(&b, `<rect x="%.1f" y="8" width="14" height="14" fill="%s" stroke="#000" stroke-width="0.6"/>`, lx, fill(i))
		fmt.Fprintf(&b, `<text x="%.1f" y="20" class="legend">%s</text>`, lx+18, html.EscapeString(n))
		lx += 26 + 7.5*float64(len(n))
	}
	// Grid and ticks.
	plotBottom := height - 50
	for v := 0.0; v <= maxV*1.0001; v += step {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="grid"/>`, x(v), top-6, x(v), plotBottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="tick" text-anchor="middle">%s</text>`, x(v), plotBottom+16, formatTick(v))
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="axis"/>`, left, plotBottom, left+plotW, plotBottom)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="axis"/>`, left, top-6, left, plotBottom)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="axislabel" text-anchor="middle">%s</text>`, left+plotW/2, plotBottom+38, html.EscapeString(xLabel))
	y := top
	for _, g := range groups {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="label" text-anchor="end">%s</text>`,
			left-8, y+float64(nser)*barH/2+4, html.EscapeString(g.label))
		for i, v := range g.values {
			w := 0.0
			if !math.IsNaN(v) {
				w = x(v) - left
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#000" stroke-width="0.6" data-group="%s" data-series="%s" data-value="%s"><title>%s %s: %s</title></rect>`,
				left, y, w, barH-2, fill(i), html.EscapeString(g.label), html.EscapeString(names[i]), formatValue(v),
				html.EscapeString(g.label), html.EscapeString(names[i]), formatValue(v))
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="value">%s</text>`, left+w+4, y+barH-4, formatValue(v))
			y += barH
		}
		y += gap
	}
	if ref > 0 {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="ref"/>`, x(ref), top-6, x(ref), plotBottom)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// niceScale rounds max up to 1, 2 or 5 times a power of ten and returns it
// with a tick step of a fifth of it.
func niceScale(v float64) (top, step float64) {
	if v <= 0 || math.IsNaN(v) {
		return 1, 0.2
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p, m * p / 5
		}
	}
	return 10 * p, 2 * p
}

// integral reports whether every value is a whole number.
func integral(groups []barGroup) bool {
	for _, g := range groups {
		for _, v := range g.values {
			if v != math.Trunc(v) {
				return false
			}
		}
	}
	return true
}

func formatTick(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%gG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%gk", v/1e3)
	}
	return fmt.Sprintf("%g", math.Round(v*1000)/1000)
}

func formatValue(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	if math.Abs(v) >= 100 {
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// table renders a plain HTML table with a header row.
func table(class string, head []string, rows [][]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<table class="%s"><thead><tr>`, class)
	for _, h := range head {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(h))
	}
	b.WriteString("</tr></thead><tbody>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for _, c := range r {
			fmt.Fprintf(&b, "<td>%s</td>", html.EscapeString(c))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// statRows are the rows of a snapshot that counted anything: the levels
// and the unattributed row (the memtables are never filtered or loaded).
func statRows(sn *seekstats.Snapshot) []seekstats.Row {
	var rows []seekstats.Row
	for r := seekstats.RowL0; r < seekstats.NumRows; r++ {
		if sn.Rows[r] != (seekstats.LevelCounts{}) {
			rows = append(rows, r)
		}
	}
	return rows
}

// seekFunnel gives one level's seek funnel: table seeks (a table either
// ruled the seek out or loaded a data block), filtered, filter matched,
// data loaded, useful.
func seekFunnel(c seekstats.LevelCounts) []float64 {
	return []float64{float64(c.Filtered + c.Data), float64(c.Filtered), float64(c.FilterMatch),
		float64(c.Data), float64(c.UsefulNoFilter + c.UsefulFilterMatch)}
}

var seekFunnelNames = []string{"table seeks", "filtered", "filter matched", "data loaded", "useful"}

// pointFunnel gives one level's point-lookup funnel: filter checks, ruled
// out, passed, passed and found.
func pointFunnel(c seekstats.LevelCounts) []float64 {
	return []float64{float64(c.GetUseful + c.GetPositive), float64(c.GetUseful), float64(c.GetPositive), float64(c.GetTruePositive)}
}

var pointFunnelNames = []string{"filter checks", "ruled out", "passed", "passed, key found"}

const htmlStyle = `body{font-family:sans-serif;margin:24px;color:#000;background:#fff;max-width:1000px}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #000;margin-top:32px}h3{font-size:15px}
p.note{font-size:13px;color:#333}
svg{display:block;margin:8px 0;max-width:100%;height:auto}
svg text{font-family:sans-serif;fill:#000}
svg .legend{font-size:12px}svg .tick{font-size:11px}svg .label{font-size:12px}
svg .axislabel{font-size:12px;font-weight:bold}svg .value{font-size:10px}
svg .grid{stroke:#ccc;stroke-width:0.6}svg .axis{stroke:#000;stroke-width:1}
svg .ref{stroke:#000;stroke-width:1.5;stroke-dasharray:5 3}
table{border-collapse:collapse;font-size:12px;margin:6px 0 16px}
th,td{border:1px solid #999;padding:2px 6px;text-align:right}th{background:#eee}
td:first-child,th:first-child{text-align:left}`

// render writes the whole document.
func (r *htmlReport) render() string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
	fmt.Fprintf(&b, "<title>%s</title><style>%s</style></head><body>", html.EscapeString(r.Title), htmlStyle)
	fmt.Fprintf(&b, "<h1>%s</h1>", html.EscapeString(r.Title))
	b.WriteString(`<p class="note">Counts are since each DB was last opened. Bars of each group share one scale; ` +
		`the tables beneath give the exact figures.</p>`)

	b.WriteString(`<section id="seek-funnel"><h2>Seek funnel per level</h2>`)
	b.WriteString(`<p class="note">Per table a seek reached: table seeks = filtered + data loaded; ` +
		`filter matched = passed a prefix filter; useful = data loads whose value the caller read.</p>`)
	r.perEngineStats(&b, "seek", "per-table seeks (count)", seekFunnelNames, seekFunnel)
	b.WriteString(`</section>`)

	b.WriteString(`<section id="funnel-time"><h2>Seek funnel over time</h2>`)
	r.timelineSection(&b)
	b.WriteString(`</section>`)

	b.WriteString(`<section id="point-funnel"><h2>Point-lookup funnel per level</h2>`)
	b.WriteString(`<p class="note">Gets' filter checks of the level's tables; passed, key found = true positives.</p>`)
	r.perEngineStats(&b, "point", "filter checks by Gets (count)", pointFunnelNames, pointFunnel)
	b.WriteString(`</section>`)

	b.WriteString(`<section id="range-whatif"><h2>Range-filter what-if</h2>`)
	r.whatIfSection(&b, "range", func(e htmlEngine) ([]whatif.Level, float64) { return e.Range, e.RangeBits },
		"bounded seeks' data loads (count)")
	b.WriteString(`</section>`)
	b.WriteString(`<section id="prefix-whatif"><h2>Prefix-filter what-if (levels without a prefix filter)</h2>`)
	r.whatIfSection(&b, "prefix", func(e htmlEngine) ([]whatif.Level, float64) { return e.Prefix, e.PrefixBits },
		"data loads (count)")
	b.WriteString(`</section>`)

	b.WriteString(`<section id="lsm-shape"><h2>LSM shape</h2>`)
	b.WriteString(`<p class="note">Sorted runs: L0's sublevels, one run for any other level that holds tables.</p>`)
	r.lsmSection(&b)
	b.WriteString(`</section>`)

	b.WriteString(`<section id="ratios"><h2>Throughput against upstream</h2>`)
	if len(r.Ratios) == 0 {
		b.WriteString(`<p class="note">No ratios: run with -engine=both.</p>`)
	} else {
		var groups []barGroup
		var rows [][]string
		for i, q := range r.Ratios {
			label := fmt.Sprintf("%d %s", i+1, q.Benchmark)
			groups = append(groups, barGroup{label, []float64{q.Ratio}})
			rows = append(rows, []string{label, formatRatio(q.Ratio)})
		}
		b.WriteString(barChart("ratios-chart", r.RatioLabel+"; dashed line: 1", []string{"ratio"}, groups, 1))
		b.WriteString(table("ratios", []string{"run", "ratio"}, rows))
	}
	b.WriteString(`</section></body></html>`)
	return b.String()
}

// lsmSection draws the levels' sorted runs and sizes, one series per
// engine, and a table of tables, runs and bytes.
func (r *htmlReport) lsmSection(b *strings.Builder) {
	var names []string
	levels := 0
	for _, e := range r.Engines {
		names = append(names, e.Name)
		levels = max(levels, len(e.Shape))
	}
	var runs, mib []barGroup
	var rows [][]string
	for l := range levels {
		label := fmt.Sprintf("L%d", l)
		rg, mg := barGroup{label: label}, barGroup{label: label}
		for _, e := range r.Engines {
			var s levelShape
			if l < len(e.Shape) {
				s = e.Shape[l]
			}
			n := levelRuns(s)
			rg.values = append(rg.values, float64(n))
			mg.values = append(mg.values, float64(s.Bytes)/(1<<20))
			rows = append(rows, []string{label, e.Name, fmt.Sprint(s.Files), fmt.Sprint(n), fmt.Sprint(s.Bytes)})
		}
		runs, mib = append(runs, rg), append(mib, mg)
	}
	b.WriteString(barChart("lsm-runs", "sorted runs (count)", names, runs, 0))
	b.WriteString(barChart("lsm-bytes", "size (MiB)", names, mib, 0))
	b.WriteString(table("lsm", []string{"level", "engine", "tables", "sorted runs", "bytes"}, rows))
}

// levelRuns is a level's sorted runs: L0's sublevels, else one if the
// level holds a table.
func levelRuns(s levelShape) int64 {
	if s.Level == 0 || s.Files == 0 {
		return int64(s.Sublevels)
	}
	return 1
}

// perEngineStats draws one funnel chart and table per engine with
// statistics.
func (r *htmlReport) perEngineStats(b *strings.Builder, kind, xLabel string, names []string, funnel func(seekstats.LevelCounts) []float64) {
	for _, e := range r.Engines {
		fmt.Fprintf(b, "<h3>%s</h3>", html.EscapeString(e.Name))
		if e.Stats == nil {
			b.WriteString(`<p class="note">No per-level statistics (pebblerf with -pebblerf_statistics only).</p>`)
			continue
		}
		var groups []barGroup
		var rows [][]string
		for _, row := range statRows(e.Stats) {
			vals := funnel(e.Stats.Rows[row])
			groups = append(groups, barGroup{row.String(), vals})
			cells := []string{row.String()}
			for _, v := range vals {
				cells = append(cells, formatValue(v))
			}
			rows = append(rows, cells)
		}
		if !anyNonZero(groups) {
			b.WriteString(`<p class="note">Nothing counted.</p>`)
			continue
		}
		b.WriteString(barChart(kind+"-funnel-"+e.Name, xLabel, names, groups, 0))
		b.WriteString(table(kind+"-funnel", append([]string{"level"}, names...), rows))
	}
}

// whatIfSection draws, per engine with statistics, each level's loads
// against the loads the filter would avoid, and a table with the false
// positives and the memory.
func (r *htmlReport) whatIfSection(b *strings.Builder, kind string, pick func(htmlEngine) ([]whatif.Level, float64), xLabel string) {
	for _, e := range r.Engines {
		if e.Stats == nil {
			continue
		}
		ws, bits := pick(e)
		fmt.Fprintf(b, "<h3>%s</h3>", html.EscapeString(e.Name))
		if len(ws) == 0 {
			b.WriteString(`<p class="note">No estimate: no candidate loads, or the what-if is off.</p>`)
			continue
		}
		if kind == "range" {
			r.rangeWhatIf(b, e.Name, ws, bits, xLabel)
			continue
		}
		fmt.Fprintf(b, `<p class="note">%s filters of %g bits/key. Filter bytes are an upper bound (keys × bits).</p>`, kind, bits)
		var groups []barGroup
		var rows [][]string
		for _, w := range append(ws, whatif.Total(ws)) {
			name := whatIfRowName(w)
			groups = append(groups, barGroup{name, []float64{float64(w.Loads), math.Max(0, w.Avoided)}})
			rows = append(rows, []string{name, fmt.Sprint(w.Loads), fmt.Sprintf("%.1f", w.Avoided),
				percent(w.Reduction()), fmt.Sprintf("%.3g", w.FalsePositives), fmt.Sprint(w.FilterBytes)})
		}
		b.WriteString(barChart(kind+"-whatif-"+e.Name, xLabel, []string{"loads now", "loads avoided"}, groups, 0))
		b.WriteString(table(kind+"-whatif", []string{"level", "loads", "avoided", "reduction", "false positives", "filter bytes"}, rows))
	}
}

func whatIfRowName(w whatif.Level) string {
	if w.Row == seekstats.NumRows {
		return "total"
	}
	return w.Row.String()
}

// rangeWhatIf draws the range what-if of one engine: per level the loads
// now, those a filter would leave (must pass and false positives) and those
// it would avoid; and a table that sets the false positives at the observed
// range lengths beside those at the assumed length, with the filters' bytes
// at the budget and as written.
func (r *htmlReport) rangeWhatIf(b *strings.Builder, engine string, ws []whatif.Level, bits float64, xLabel string) {
	fmt.Fprintf(b, `<p class="note">range filters of %g bits/key. Where the tables carry range filters, each bounded `+
		`iterator's range was observed in each table's key map: its length ℓ (in key positions) sets the false-positive `+
		`bound ℓ/2^(B-2), and tables that hold a key in the bounds must be passed. Where the tables' filters were `+
		`written at this budget, the expected false positives are theirs (below the bound where keys span few hash `+
		`blocks). Elsewhere ℓ = %d is assumed. `+
		`Filter bytes at the budget are an upper bound (keys × bits); those as written are the tables' filters.</p>`,
		bits, whatif.DefaultRangeLen)
	var groups []barGroup
	var rows [][]string
	for _, w := range append(ws, whatif.Total(ws)) {
		name := whatIfRowName(w)
		if w.Unplaced > 0 && w.Row == seekstats.RowUnattributed {
			rows = append(rows, []string{name, "", fmt.Sprintf("%.1f (%d values at no known level)", w.Avoided, w.Unplaced),
				"", "", "", "", "", "", "", "", "", ""})
			continue
		}
		groups = append(groups, barGroup{name, []float64{float64(w.Loads), math.Max(0, w.Passed()), math.Max(0, w.Avoided)}})
		lens, checks := "assumed", "none"
		if w.Checks > 0 {
			checks = fmt.Sprintf("%d (%.0f%% hashed)", w.Checks, 100*w.HashedShare)
			lens = "-"
			if w.LenP50 > 0 {
				lens = fmt.Sprintf("≤ %d / ≤ %d", w.LenP50, w.LenP90)
			}
		}
		bound := "-"
		if w.Checks > 0 {
			bound = fmt.Sprintf("%.3g", w.FalsePositivesBound)
			if !w.FromWritten {
				bound = fmt.Sprintf("%.3g", w.FalsePositives)
			}
		}
		written, bpk := "-", "-"
		if w.MeasuredFilterBytes > 0 {
			written, bpk = fmt.Sprint(w.MeasuredFilterBytes), fmt.Sprintf("%.1f", w.MeasuredBitsPerKey)
		}
		rows = append(rows, []string{name, fmt.Sprint(w.Loads), fmt.Sprintf("%.1f", w.Avoided), percent(w.Reduction()),
			fmt.Sprintf("%.1f", w.MustPass), fmt.Sprintf("%.3g", w.FalsePositives), bound,
			fmt.Sprintf("%.3g", w.FalsePositivesAssumed), checks, lens,
			fmt.Sprint(w.FilterBytes), written, bpk})
	}
	b.WriteString(barChart("range-whatif-"+engine, xLabel,
		[]string{"loads now", "loads left (must pass + false positives)", "loads avoided"}, groups, 0))
	b.WriteString(table("range-whatif", []string{"level", "loads", "avoided", "reduction", "must pass",
		"false positives (expected)", "false positives (bound at observed ℓ)",
		fmt.Sprintf("false positives (bound at ℓ = %d)", whatif.DefaultRangeLen),
		"checks observed", "ℓ p50 / p90", "filter bytes (budget)", "filter bytes (as written)", "bits/key (as written)"}, rows))
}

func anyNonZero(groups []barGroup) bool {
	for _, g := range groups {
		for _, v := range g.values {
			if v != 0 {
				return true
			}
		}
	}
	return false
}

func percent(f float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}
