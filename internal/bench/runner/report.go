// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"time"

	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/seekstats"
)

// Report is the engine's part of -report_html, read from its open DB: its
// shape, and with pebblerf's per-level statistics its funnels and
// what-ifs; nil with the DB closed. The timeline is the seek funnel
// sampled during the runs since the phase began (sampleFunnels).
func (e *Engine) Report() (*report.Engine, []report.FunnelSample, error) {
	if e.db == nil {
		return nil, e.timeline.All(), nil
	}
	he := &report.Engine{Name: e.name}
	shape, err := lsm.Shape(e.db)
	if err != nil {
		return nil, nil, err
	}
	he.Shape = shape
	if db, ok := engine.PebbleRF(e.db); ok && e.cfg.PebbleRFStatistics {
		sn := db.Statistics().PerLevel().Snapshot()
		he.Stats = &sn
		rng, prefix, _, err := engine.WhatIfs(db, e.cfg)
		if err != nil {
			return nil, nil, err
		}
		he.Range, he.Prefix = rng, prefix
		he.RangeBits, he.PrefixBits = e.cfg.WhatIfBits()
	}
	return he, e.timeline.All(), nil
}

// sampleFunnels samples pebblerf's seek funnel, summed over the levels,
// every -report_interval_seconds of a run of bench, for -report_html's
// funnel over time; it returns the function that stops it. Without the
// report, the interval or the per-level statistics it does nothing.
func (e *Engine) sampleFunnels(bench string) (stop func()) {
	db, ok := engine.PebbleRF(e.db)
	c := e.cfg
	if !ok || c.ReportHTML == "" || c.ReportIntervalSeconds == 0 || !c.PebbleRFStatistics {
		return func() {}
	}
	stats := db.Statistics().PerLevel()
	start := time.Now()
	return progress.Every(time.Duration(c.ReportIntervalSeconds)*time.Second, func() {
		sn := stats.Snapshot()
		var sum seekstats.LevelCounts
		for r := seekstats.RowL0; r < seekstats.NumRows; r++ {
			sum = sum.Add(sn.Rows[r])
		}
		e.timeline.Add(report.FunnelSample{Bench: bench, Engine: e.name, Secs: time.Since(start).Seconds(), Funnel: report.SeekFunnel(sum)})
	})
}
