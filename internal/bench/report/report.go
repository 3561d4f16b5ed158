// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package report renders pebblebench's -report_html: one self-contained
// HTML file (inline SVG and CSS, no script, nothing fetched) with, per
// engine and level, the seek funnel, the point-lookup funnel, the what-ifs,
// the LSM's shape, the seek funnel over time, and each benchmark's
// throughput against upstream.
//
// A Report holds the figures, gathered by the caller from its open DBs and
// its runs; Render draws them. Charts use fills of distinct lightness and
// patterns, so they survive a greyscale print; every bar carries its value
// in a data-value attribute and every chart has a table of its figures
// beneath it, so a test (or a reader) can check a chart against the figures
// it was drawn from.
package report

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"

	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
)

// Report is what the file shows.
type Report struct {
	Title string
	// Headline and Verdict are a scenario's, shown at the top; empty
	// outside a scenario.
	Headline, Verdict string
	Engines           []Engine
	// Ratios are each benchmark's ops/sec of the second engine over the
	// first's (pebblerf over upstream Pebble), under -engine=both.
	Ratios     []Ratio
	RatioLabel string
	// Medians are, for each benchmark of several paired runs, the median
	// of its runs' ratios, as the terminal's MEDIAN line gives it.
	Medians []Ratio
	// Timeline is the seek funnel at every -report_interval_seconds tick,
	// SampleEvery that interval.
	Timeline    []FunnelSample
	SampleEvery time.Duration
	// Remote is each run's requests to its engine's object store, in run
	// order (pebblebench -remote); RemoteLegend explains the columns. The
	// section is left out without them.
	Remote       []RemoteRun
	RemoteLegend string
}

// RemoteRun is one run's requests to its engine's object store, with the
// figures' names as the terminal prints them.
type RemoteRun struct {
	Benchmark, Engine string
	// Gets counts the GETs; ByKind says them by kind ("open 3 index 1 ...").
	Gets   int64
	ByKind string
	// Bytes the GETs moved; WaitSecs the time spent in requests, summed.
	Bytes    int64
	WaitSecs float64
	// CostPerMOp is USD per million operations; P50 and P99 the operation
	// latency percentiles as text.
	CostPerMOp float64
	P50, P99   string
}

// Engine is one engine's LSM and, with per-level statistics, its funnels
// and what-ifs.
type Engine struct {
	Name  string
	Shape []lsm.Level
	// Stats is nil without per-level statistics.
	Stats                 *seekstats.Snapshot
	Range, Prefix         []whatif.Level
	RangeBits, PrefixBits float64
}

// Ratio is one run's ops/sec of the second engine over the first's.
type Ratio struct {
	Benchmark string
	Value     float64
	// Text is the ratio as the terminal prints it.
	Text string
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

// SeekFunnel gives one level's seek funnel: table seeks (a table either
// ruled the seek out or loaded a data block), filtered, filter matched,
// data loaded, needed (the seek found a key in the table, so no filter
// could have skipped the load), useful (a value was read, RocksDB's USEFUL).
func SeekFunnel(c seekstats.LevelCounts) []float64 {
	return []float64{float64(c.Filtered + c.Data), float64(c.Filtered), float64(c.FilterMatch),
		float64(c.Data), float64(c.Needed), float64(c.UsefulNoFilter + c.UsefulFilterMatch)}
}

var seekFunnelNames = []string{"table seeks", "filtered", "filter matched", "data loaded", "needed", "useful"}

// pointFunnel gives one level's point-lookup funnel: filter checks, ruled
// out, passed, passed and found.
func pointFunnel(c seekstats.LevelCounts) []float64 {
	return []float64{float64(c.GetUseful + c.GetPositive), float64(c.GetUseful), float64(c.GetPositive), float64(c.GetTruePositive)}
}

var pointFunnelNames = []string{"filter checks", "ruled out", "passed", "passed, key found"}

const htmlStyle = `body{font-family:sans-serif;margin:24px;color:#000;background:#fff;max-width:1000px}
h1{font-size:22px;overflow-wrap:anywhere}h2{font-size:18px;border-bottom:1px solid #000;margin-top:32px}h3{font-size:15px}
p.note{font-size:13px;color:#333}
div.result{border:2px solid #000;padding:8px 12px;margin:12px 0}div.result p{margin:4px 0;overflow-wrap:anywhere}
div.wide{overflow-x:auto;max-width:100%}
svg{display:block;margin:8px 0;max-width:100%;height:auto}
svg text{font-family:sans-serif;fill:#000}
svg .legend{font-size:12px}svg .tick{font-size:11px}svg .label{font-size:12px}
svg .axislabel{font-size:12px;font-weight:bold}
svg .value{font-size:10px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg .grid{stroke:#ccc;stroke-width:0.6}svg .axis{stroke:#000;stroke-width:1}
svg .ref{stroke:#000;stroke-width:1.5;stroke-dasharray:5 3}
table{border-collapse:collapse;font-size:12px;margin:6px 0 16px}
th,td{border:1px solid #999;padding:2px 6px;text-align:right}th{background:#eee}
td:first-child,th:first-child{text-align:left}`

// Render writes the whole document. Sections whose figures are absent
// are left out, and one line at the top says which and why.
func (r *Report) Render() string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
	fmt.Fprintf(&b, "<title>%s</title><style>%s</style></head><body>", html.EscapeString(r.Title), htmlStyle)
	fmt.Fprintf(&b, "<h1>%s</h1>", html.EscapeString(r.Title))
	if r.Headline != "" || r.Verdict != "" {
		b.WriteString(`<div class="result" id="result">`)
		if r.Headline != "" {
			fmt.Fprintf(&b, `<p><b>Headline</b> (pebblerf/upstream): %s</p>`, html.EscapeString(r.Headline))
		}
		if r.Verdict != "" {
			fmt.Fprintf(&b, `<p><b>Verdict</b>: %s</p>`, html.EscapeString(r.Verdict))
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`<p class="note">Counts are since each DB was last opened. Bars of each group share one scale; ` +
		`the tables beneath give the exact figures.</p>`)
	stats := false
	for _, e := range r.Engines {
		stats = stats || e.Stats != nil
	}
	if !stats {
		b.WriteString(`<p class="note" id="left-out">Left out: the seek and point-lookup funnels and the what-ifs, ` +
			`which need pebblerf's per-level statistics (-pebblerf_statistics), off in this run.</p>`)
	}

	if stats {
		section(&b, "seek-funnel", "Seek funnel per level", `Per table a seek reached: table seeks = filtered + data loaded; `+
			`filter matched = passed a prefix filter; useful = data loads whose value the caller read.`,
			"no seek counted at any level", func(b *strings.Builder) bool {
				return r.perEngineStats(b, "seek", "per-table seeks (count)", seekFunnelNames, SeekFunnel)
			})
		if len(r.Timeline) > 0 {
			b.WriteString(`<section id="funnel-time"><h2>Seek funnel over time</h2>`)
			r.timelineSection(&b)
			b.WriteString(`</section>`)
		} else {
			b.WriteString(`<p class="note" id="no-timeline">The seek funnel over time is left out: `)
			if r.SampleEvery > 0 {
				fmt.Fprintf(&b, `it is sampled every %s (-report_interval_seconds), and every run ended sooner.</p>`, r.SampleEvery)
			} else {
				b.WriteString(`-report_interval_seconds sets the interval it is sampled at.</p>`)
			}
		}
		section(&b, "point-funnel", "Point-lookup funnel per level",
			`Gets' filter checks of the level's tables; passed, key found = true positives.`,
			"no Get checked a filter", func(b *strings.Builder) bool {
				return r.perEngineStats(b, "point", "filter checks by Gets (count)", pointFunnelNames, pointFunnel)
			})
		section(&b, "range-whatif", "Range-filter what-if", "",
			"no bounded read loaded a data block a range filter could have skipped", func(b *strings.Builder) bool {
				return r.whatIfSection(b, "range", func(e Engine) ([]whatif.Level, float64) { return e.Range, e.RangeBits },
					"bounded seeks' data loads (count)")
			})
		section(&b, "prefix-whatif", "Prefix-filter what-if (levels without a prefix filter)", "",
			"no read loaded a data block a prefix filter could have skipped", func(b *strings.Builder) bool {
				return r.whatIfSection(b, "prefix", func(e Engine) ([]whatif.Level, float64) { return e.Prefix, e.PrefixBits },
					"data loads (count)")
			})
	}

	b.WriteString(`<section id="lsm-shape"><h2>LSM shape</h2>`)
	b.WriteString(`<p class="note">Sorted runs: L0's sublevels, one run for any other level that holds tables.</p>`)
	r.lsmSection(&b)
	b.WriteString(`</section>`)

	if len(r.Remote) > 0 {
		b.WriteString(`<section id="remote"><h2>Requests to the object store</h2>`)
		fmt.Fprintf(&b, `<p class="note">%s</p>`, html.EscapeString(r.RemoteLegend))
		r.remoteSection(&b)
		b.WriteString(`</section>`)
	}

	if len(r.Ratios) == 0 {
		b.WriteString(`<p class="note" id="no-ratios">Throughput against upstream is left out: it needs -engine=both.</p>`)
	} else {
		b.WriteString(`<section id="ratios"><h2>Throughput against upstream</h2>`)
		var groups []barGroup
		var rows [][]string
		for i, q := range r.Ratios {
			label := fmt.Sprintf("%d %s", i+1, q.Benchmark)
			groups = append(groups, barGroup{label, []float64{q.Value}})
			rows = append(rows, []string{label, q.Text})
		}
		b.WriteString(barChart("ratios-chart", r.RatioLabel+"; dashed line: 1", []string{"ratio"}, groups, 1))
		b.WriteString(table("ratios", []string{"run", "ratio"}, rows))
		if len(r.Medians) > 0 {
			var med [][]string
			for _, m := range r.Medians {
				med = append(med, []string{m.Benchmark, m.Text})
			}
			b.WriteString(`<p class="note">The median of each benchmark's paired runs, as the terminal's MEDIAN line and the verdicts give it.</p>`)
			b.WriteString(table("medians", []string{"benchmark", "median ratio"}, med))
		}
		b.WriteString(`</section>`)
	}
	b.WriteString(`</body></html>`)
	return b.String()
}

// section writes section id, titled title with the note, whose body draws
// charts and tables and reports whether it drew any; a body that drew none
// leaves the section out, and a line says why (empty).
func section(b *strings.Builder, id, title, note, empty string, body func(*strings.Builder) bool) {
	var s strings.Builder
	if !body(&s) {
		fmt.Fprintf(b, `<p class="note" id="no-%s">%s: left out, %s.</p>`, id, html.EscapeString(title), html.EscapeString(empty))
		return
	}
	fmt.Fprintf(b, `<section id="%s"><h2>%s</h2>`, id, html.EscapeString(title))
	if note != "" {
		fmt.Fprintf(b, `<p class="note">%s</p>`, html.EscapeString(note))
	}
	b.WriteString(s.String())
	b.WriteString(`</section>`)
}

// remoteSection draws each run's GETs, one bar per run and engine, and a
// table of every remote figure.
func (r *Report) remoteSection(b *strings.Builder) {
	var groups []barGroup
	var rows [][]string
	for i, q := range r.Remote {
		label := fmt.Sprintf("%d %s/%s", i+1, q.Benchmark, q.Engine)
		groups = append(groups, barGroup{label, []float64{float64(q.Gets)}})
		rows = append(rows, []string{label, fmt.Sprint(q.Gets), q.ByKind, fmt.Sprint(q.Bytes),
			fmt.Sprintf("%.2f", q.WaitSecs), fmt.Sprintf("%.4f", q.CostPerMOp), q.P50, q.P99})
	}
	b.WriteString(barChart("remote-chart", "remote GETs per run (count)", []string{"remote.gets"}, groups, 0))
	b.WriteString(table("remote", []string{"run", "remote.gets", "by kind", "remote.bytes", "remote.wait (s)",
		"usd_per_mop", "p50", "p99"}, rows))
}

// lsmSection draws the levels' sorted runs and sizes, one series per
// engine, and a table of tables, runs and bytes.
func (r *Report) lsmSection(b *strings.Builder) {
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
			var s lsm.Level
			if l < len(e.Shape) {
				s = e.Shape[l]
			}
			n := s.Runs()
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

// perEngineStats draws one funnel chart and table per engine with
// statistics.
func (r *Report) perEngineStats(b *strings.Builder, kind, xLabel string, names []string, funnel func(seekstats.LevelCounts) []float64) (drew bool) {
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
		drew = true
	}
	return drew
}

// whatIfSection draws, per engine with statistics, each level's loads
// against the loads the filter would avoid, and a table with the false
// positives and the memory.
func (r *Report) whatIfSection(b *strings.Builder, kind string, pick func(Engine) ([]whatif.Level, float64), xLabel string) (drew bool) {
	for _, e := range r.Engines {
		if e.Stats == nil {
			continue
		}
		ws, bits := pick(e)
		if len(ws) == 0 {
			continue
		}
		drew = true
		fmt.Fprintf(b, "<h3>%s</h3>", html.EscapeString(e.Name))
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
	return drew
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
func (r *Report) rangeWhatIf(b *strings.Builder, engine string, ws []whatif.Level, bits float64, xLabel string) {
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
			// Needed loads the statistics could not place at a level must
			// pass wherever they were; where the levels' rows counted them
			// as avoidable, the total takes them back here.
			cell := fmt.Sprintf("%d needed loads at no known level, already must-pass in the levels' rows", w.Unplaced)
			if w.Avoided <= -0.005 {
				cell = fmt.Sprintf("%d needed loads at no known level: %.1f fewer avoided in total", w.Unplaced, -w.Avoided)
			}
			rows = append(rows, []string{name, "", cell,
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
