// Copyright 2026 The pebblerf Authors. All rights reserved.

package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// seriesFills are the fills of up to seven series, solid greys from black
// to white with patterns between them, so that every series of a chart
// (the seek funnel has six) has a swatch of its own and they stay apart in
// a greyscale print; pattern ids are made unique per chart by barChart.
var seriesFills = []string{"#1a1a1a", "url(#ID-hatch)", "#7a7a7a", "url(#ID-dots)", "#e6e6e6", "url(#ID-cross)", "#ffffff"}

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
		`<rect width="5" height="5" fill="#fff"/><circle cx="2.5" cy="2.5" r="1.4" fill="#222"/></pattern>`+
		`<pattern id="%[1]s-cross" width="6" height="6" patternUnits="userSpaceOnUse">`+
		`<rect width="6" height="6" fill="#bbb"/><path d="M0 3H6M3 0V6" stroke="#000" stroke-width="1"/></pattern></defs>`, id)
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
	if ref > 0 {
		// Under the bars and their values, which a halo keeps readable
		// where they cross it.
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="ref"/>`, x(ref), top-6, x(ref), plotBottom)
	}
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

// table renders a plain HTML table with a header row, in a box that
// scrolls sideways rather than widening the page when the table is wider.
func table(class string, head []string, rows [][]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="wide"><table class="%s"><thead><tr>`, class)
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
	b.WriteString("</tbody></table></div>")
	return b.String()
}
