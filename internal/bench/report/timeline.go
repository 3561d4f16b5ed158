// Copyright 2026 The pebblerf Authors. All rights reserved.

package report

import (
	"fmt"
	"strings"
	"sync"
)

// FunnelSample is the seek funnel summed over the levels at one tick of
// -report_interval_seconds: counts since the DB was last opened.
type FunnelSample struct {
	Bench, Engine string
	Secs          float64
	Funnel        []float64 // as SeekFunnel
}

// Timeline collects the samples; it is safe for concurrent use, as a
// progress reporter's goroutine adds while the run's goroutine later reads.
type Timeline struct {
	mu      sync.Mutex
	samples []FunnelSample
}

// Add appends a sample.
func (t *Timeline) Add(s FunnelSample) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.samples = append(t.samples, s)
}

// All returns the samples in the order added.
func (t *Timeline) All() []FunnelSample {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]FunnelSample(nil), t.samples...)
}

// timelineSection draws the samples: one group per tick, the funnel's
// stages as bars.
func (r *Report) timelineSection(b *strings.Builder) {
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
