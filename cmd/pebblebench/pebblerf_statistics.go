// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/statistics"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/pebblerf/pebble/whatif"
)

// What pebblebench reads of pebblerf's statistics, all here: its tickers
// (DB.Statistics: the DB-wide ones always, the per-level ones with
// -pebblerf_statistics), the per-level table and the what-if lines under it
// (-statistics), and the figures of -report_html (the funnels, the
// what-ifs, the funnel over time).

// pebblerfTickers are db's tickers for STATISTICS, with the advisor's
// compactions when the advisor runs (advisorCompactions non-nil).
func pebblerfTickers(db *pebblerf.DB, advisorCompactions *atomic.Int64) []statistics.Ticker {
	out := db.Statistics().Tickers()
	if advisorCompactions != nil {
		out = append(out, statistics.Ticker{Name: advisorCompactionsTicker, Count: advisorCompactions.Load()})
	}
	return out
}

// levelTable is the per-level seek statistics table printed by
// -statistics, with the what-if lines under it.
func levelTable(db *pebblerf.DB, c *config.Config) string {
	return db.Statistics().PerLevel().Snapshot().LevelTable() + whatIfLines(db, c)
}

// whatIfs computes the what-ifs the flags ask for on db's statistics and
// its current LSM shape.
func whatIfs(db *pebblerf.DB, c *config.Config) (rng, prefix []whatif.Level, w whatif.Options, err error) {
	levels, err := db.SSTables(upstream.WithProperties())
	if err != nil {
		return nil, nil, w, err
	}
	w.Shape = whatif.ShapeOf(levels)
	sn := db.Statistics().PerLevel().Snapshot()
	rb, pb := c.WhatIfBits()
	if rb > 0 {
		w.BitsPerKey = rb
		rng = whatif.RangeFilters(&sn, w)
	}
	if pb > 0 {
		w.BitsPerKey = pb
		prefix = whatif.PrefixFilters(&sn, w)
	}
	return rng, prefix, w, nil
}

// whatIfLines are the "what-if" lines printed under the per-level table:
// per level, what range filters of -range_filter_whatif_bits and prefix
// filters of -prefix_filter_whatif_bits would save and cost on the
// workload counted (whatif.RangeFilters and whatif.PrefixFilters).
func whatIfLines(db *pebblerf.DB, c *config.Config) string {
	rng, prefix, _, err := whatIfs(db, c)
	if err != nil {
		return fmt.Sprintf("what-if: %v\n", err)
	}
	rb, pb := c.WhatIfBits()
	var b strings.Builder
	if len(rng) > 0 {
		fmt.Fprintf(&b, "what-if range filters of %g bits/key (FPR bound at the range lengths observed in the tables' range filters,"+
			" else at %d key positions; filter bytes at the budget are an upper bound, those as written are measured;"+
			" candidates are the bounded loads not needed, whose table held no key the seek found, value read or not):\n",
			rb, whatif.DefaultRangeLen)
		b.WriteString(whatif.Table("range", rng))
	}
	if len(prefix) > 0 {
		fmt.Fprintf(&b, "what-if prefix filters of %g bits/key on levels no prefix filter decided (assumes SeekPrefixGE seeks):\n", pb)
		b.WriteString(whatif.Table("prefix", prefix))
	}
	return b.String()
}

// -report_html: the driver gathers, from the open engines and the runs'
// results, what the report package draws.

// collectHTMLReport reads the open engines' shapes and statistics and the
// runs' results.
func (d *driver) collectHTMLReport() (*report.Report, error) {
	r := &report.Report{Title: "pebblebench " + d.cfg.Benchmarks, Timeline: d.timeline.All()}
	for _, e := range d.engines {
		if e.db == nil {
			continue
		}
		he := report.Engine{Name: e.name}
		shape, err := lsm.Shape(e.db)
		if err != nil {
			return nil, err
		}
		he.Shape = shape
		if db, ok := pebblerfDB(e.db); ok && d.cfg.PebbleRFStatistics {
			sn := db.Statistics().PerLevel().Snapshot()
			he.Stats = &sn
			rng, prefix, _, err := whatIfs(db, d.cfg)
			if err != nil {
				return nil, err
			}
			he.Range, he.Prefix = rng, prefix
			he.RangeBits, he.PrefixBits = d.cfg.WhatIfBits()
		}
		r.Engines = append(r.Engines, he)
	}
	for _, res := range d.results {
		if res.Remote != nil {
			r.Remote = append(r.Remote, res.Remote.Report(res))
			r.RemoteLegend = result.RemoteLegend
		}
	}
	if len(d.engines) == 2 {
		base, other := d.engines[0].name, d.engines[1].name
		r.RatioLabel = fmt.Sprintf("ops/sec of %s ÷ ops/sec of %s (1 = as fast; higher is better)", other, base)
		perBench := map[string][]float64{}
		var order []string
		for _, p := range d.pairs {
			bench := p[0].Benchmark
			x := result.Ratio(p[0].OpsPerSec(), p[1].OpsPerSec())
			r.Ratios = append(r.Ratios, report.Ratio{Benchmark: bench, Value: x, Text: result.FormatRatio(x)})
			if perBench[bench] == nil {
				order = append(order, bench)
			}
			perBench[bench] = append(perBench[bench], x)
		}
		// The medians are the terminal's MEDIAN lines' and the verdicts'
		// (medianRatio over the paired runs), so the file and the terminal
		// agree.
		for _, b := range order {
			if xs := perBench[b]; len(xs) > 1 {
				m := result.MedianRatio(xs)
				r.Medians = append(r.Medians, report.Ratio{Benchmark: fmt.Sprintf("%s [MEDIAN %d runs]", b, len(xs)), Value: m, Text: result.FormatRatio(m)})
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
	if err := os.WriteFile(d.cfg.ReportHTML, []byte(r.Render()), 0o644); err != nil {
		return errors.Wrapf(err, "writing -report_html %s", d.cfg.ReportHTML)
	}
	fmt.Fprintf(d.out, "wrote the HTML report %s\n", d.cfg.ReportHTML)
	return nil
}

// sampleFunnels has the progress reporter sample pebblerf's per-level
// statistics on every tick, for -report_html with -report_interval_seconds.
func (d *driver) sampleFunnels() {
	if d.cfg.ReportHTML == "" || d.cfg.ReportIntervalSeconds == 0 || !d.cfg.PebbleRFStatistics {
		return
	}
	d.progress.Sampler = func(bench, engineName string) func(float64) {
		var stats *seekstats.Statistics
		for _, e := range d.engines {
			if db, ok := pebblerfDB(e.db); ok && e.name == engineName {
				stats = db.Statistics().PerLevel()
			}
		}
		if stats == nil {
			return nil
		}
		return func(secs float64) {
			sn := stats.Snapshot()
			var sum seekstats.LevelCounts
			for r := seekstats.RowL0; r < seekstats.NumRows; r++ {
				sum = sum.Add(sn.Rows[r])
			}
			d.timeline.Add(report.FunnelSample{Bench: bench, Engine: engineName, Secs: secs, Funnel: report.SeekFunnel(sum)})
		}
	}
}
