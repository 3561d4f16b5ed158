// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"os"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/seekstats"
)

// What pebblebench reads of pebblerf's statistics, all here: its tickers
// (DB.Statistics: the DB-wide ones always, the per-level ones with
// -pebblerf_statistics), the per-level table and the what-if lines under it
// (-statistics), and the figures of -report_html (the funnels, the
// what-ifs, the funnel over time).

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
		if db, ok := engine.PebbleRF(e.db); ok && d.cfg.PebbleRFStatistics {
			sn := db.Statistics().PerLevel().Snapshot()
			he.Stats = &sn
			rng, prefix, _, err := engine.WhatIfs(db, d.cfg)
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
			if db, ok := engine.PebbleRF(e.db); ok && e.name == engineName {
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
