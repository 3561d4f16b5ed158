// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"os"

	"github.com/cockroachdb/errors"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/seekstats"
)

// -report_html: the driver gathers, from the open engines and the runs'
// results, what the report package draws.

// collectHTMLReport reads the open engines' shapes and statistics and the
// runs' results.
func (d *driver) collectHTMLReport() (*report.Report, error) {
	r := &report.Report{Title: "pebblebench " + d.cfg.benchmarks, Timeline: d.timeline.All()}
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
					x := ratio(q[0].opsPerSec(), res.opsPerSec())
					r.Ratios = append(r.Ratios, report.Ratio{Benchmark: res.Benchmark, Value: x, Text: formatRatio(x)})
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
	if err := os.WriteFile(d.cfg.reportHTML, []byte(r.Render()), 0o644); err != nil {
		return errors.Wrapf(err, "writing -report_html %s", d.cfg.reportHTML)
	}
	return nil
}

// sampleFunnels has the progress reporter sample pebblerf's per-level
// statistics on every tick, for -report_html with -report_interval_seconds.
func (d *driver) sampleFunnels() {
	if d.cfg.reportHTML == "" || d.cfg.reportIntervalSeconds == 0 || !d.cfg.pebblerfStatistics {
		return
	}
	d.progress.sampler = func(bench, engineName string) func(float64) {
		var stats *seekstats.Statistics
		for _, e := range d.engines {
			if a, ok := e.db.(*adapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch]); ok && e.name == engineName {
				stats = a.db.Statistics().PerLevel()
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
