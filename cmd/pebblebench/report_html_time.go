// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"strings"
	"sync"

	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/seekstats"
)

// funnelSample is the seek funnel summed over the levels at one tick of
// -report_interval_seconds: counts since the DB was last opened.
type funnelSample struct {
	Bench, Engine string
	Secs          float64
	Funnel        []float64 // as seekFunnel
}

// funnelTimeline collects the samples; the progress reporter's goroutine
// appends while the run's goroutine later reads.
type funnelTimeline struct {
	mu      sync.Mutex
	samples []funnelSample
}

func (t *funnelTimeline) add(s funnelSample) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.samples = append(t.samples, s)
}

func (t *funnelTimeline) all() []funnelSample {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]funnelSample(nil), t.samples...)
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
			d.timeline.add(funnelSample{Bench: bench, Engine: engineName, Secs: secs, Funnel: seekFunnel(sum)})
		}
	}
}

// timelineSection draws the samples: one group per tick, the funnel's
// stages as bars.
func (r *htmlReport) timelineSection(b *strings.Builder) {
	if len(r.Timeline) == 0 {
		b.WriteString(`<p class="note">No samples: run with -report_interval_seconds (and -pebblerf_statistics) ` +
			`for the funnel every interval.</p>`)
		return
	}
	var groups []barGroup
	var rows [][]string
	for _, s := range r.Timeline {
		label := fmt.Sprintf("%s %s +%.0fs", s.Engine, s.Bench, s.Secs)
		groups = append(groups, barGroup{label, s.Funnel})
		cells := []string{label}
		for _, v := range s.Funnel {
			cells = append(cells, formatValue(v))
		}
		rows = append(rows, cells)
	}
	b.WriteString(barChart("funnel-time-chart", "per-table seeks since open, all levels (count)", seekFunnelNames, groups, 0))
	b.WriteString(table("funnel-time", append([]string{"sample"}, seekFunnelNames...), rows))
}
