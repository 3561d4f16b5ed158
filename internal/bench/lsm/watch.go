// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package lsm reads the shape of an LSM as a benchmark reports it: at one
// moment, per level (Shape: tables, bytes, L0 sublevels, the bytes of the
// point and range filters), and over a run (Watch): how many sorted runs
// (Metrics.ReadAmp: L0 sublevels plus non-empty levels) a read faced,
// sampled at an interval, how long writes were stalled, and the write
// amplification. A shape's promise (a compaction profile that keeps its
// run count near a target without long stalls) is checked over time, not
// only at the end.
//
// A StallClock listens to Pebble's write-stall events and is attached to a
// DB's options before it opens; a Watcher samples a DB's Metrics from its
// own goroutine until stopped, and returns the run's Summary.
package lsm

import (
	"fmt"
	"sync"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/statistics"
)

// StallClock times write stalls from Pebble's events. Attach it to a DB's
// options before the DB is opened. It is safe for concurrent use.
type StallClock struct {
	mu      sync.Mutex
	began   time.Time
	reason  string
	count   int
	longest time.Duration
	// why is the reason Pebble gave for the longest stall.
	why string
}

// Attach adds the clock to o's event listener, keeping any listener o has.
func (s *StallClock) Attach(o *upstream.Options) {
	own := upstream.EventListener{
		WriteStallBegin: func(info upstream.WriteStallBeginInfo) {
			s.mu.Lock()
			s.began, s.reason = time.Now(), info.Reason
			s.count++
			s.mu.Unlock()
		},
		WriteStallEnd: func() {
			s.mu.Lock()
			if d := time.Since(s.began); d > s.longest {
				s.longest, s.why = d, s.reason
			}
			s.mu.Unlock()
		},
	}
	AddListener(o, own)
}

// AddListener adds l to o's event listener, keeping any listener o has:
// each event goes to both.
func AddListener(o *upstream.Options, l upstream.EventListener) {
	if o.EventListener == nil {
		o.EventListener = &l
		return
	}
	tee := upstream.TeeEventListener(*o.EventListener, l)
	o.EventListener = &tee
}

// Take returns the stalls since the last Take and starts counting afresh.
func (s *StallClock) Take() (count int, longest time.Duration, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	count, longest, why = s.count, s.longest, s.why
	s.count, s.longest, s.why = 0, 0, ""
	return count, longest, why
}

// Watcher samples a DB's sorted-run count during one run.
type Watcher struct {
	quit, done chan struct{}
	samples    []int
}

// Watch samples db's sorted runs every interval until Stop.
func Watch(db interface{ Metrics() *upstream.Metrics }, every time.Duration) *Watcher {
	w := &Watcher{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-w.quit:
				return
			case <-tick.C:
				w.samples = append(w.samples, db.Metrics().ReadAmp())
			}
		}
	}()
	return w
}

// Summary is what a Watcher and a StallClock saw over a run.
type Summary struct {
	Samples  int     `json:"samples"`
	RunsMin  int     `json:"runs_min"`
	RunsMean float64 `json:"runs_mean"`
	RunsMax  int     `json:"runs_max"`
	// Steady* leave out the first quarter of the samples, in which a
	// shape is still being built up from the previous benchmark's.
	SteadyMin      int     `json:"steady_runs_min"`
	SteadyMean     float64 `json:"steady_runs_mean"`
	SteadyMax      int     `json:"steady_runs_max"`
	Stalls         int     `json:"stalls"`
	LongestStallMs float64 `json:"longest_stall_ms"`
	// LongestStallReason is Pebble's reason for the longest stall.
	LongestStallReason string `json:"longest_stall_reason"`
	// With a run-count target (the many-runs profile), Target is it and
	// Band* describe the samples from the first that reached 80% of it
	// (before, the shape is still being built from the fill's one run):
	// their min, mean and max, and the share within 20% of the target.
	Target     int     `json:"target,omitempty"`
	BandFrom   int     `json:"band_from_sample,omitempty"`
	BandMin    int     `json:"band_runs_min,omitempty"`
	BandMean   float64 `json:"band_runs_mean,omitempty"`
	BandMax    int     `json:"band_runs_max,omitempty"`
	BandWithin float64 `json:"band_within_20pct,omitempty"`
	// Series is every sample, in order.
	Series []int `json:"series"`
	// WriteAmp is the bytes flushed and compacted over the bytes written to
	// the WAL during the run (0 without a WAL).
	WriteAmp float64 `json:"write_amp"`
}

// SetWriteAmp computes WriteAmp from a run's ticker deltas.
func (s *Summary) SetWriteAmp(delta []statistics.Ticker) {
	m := statistics.Map(delta)
	if wal := m["rocksdb.wal.bytes"]; wal > 0 {
		s.WriteAmp = float64(m["rocksdb.flush.write.bytes"]+m["rocksdb.compact.write.bytes"]) / float64(wal)
	}
}

// Stop ends the sampling and summarises it, with the stalls counted since
// the clock's last Take (none if stalls is nil) and, with a target above
// 0, how the samples kept to that run count.
func (w *Watcher) Stop(stalls *StallClock, target int) *Summary {
	close(w.quit)
	<-w.done
	s := &Summary{Samples: len(w.samples), Series: w.samples}
	if target > 0 {
		s.setBand(target)
	}
	s.RunsMin, s.RunsMean, s.RunsMax = minMeanMax(w.samples)
	s.SteadyMin, s.SteadyMean, s.SteadyMax = minMeanMax(w.samples[len(w.samples)/4:])
	if stalls != nil {
		count, longest, why := stalls.Take()
		s.Stalls, s.LongestStallMs, s.LongestStallReason = count, float64(longest.Microseconds())/1000, why
	}
	return s
}

func (s *Summary) setBand(target int) {
	s.Target = target
	from := 0
	for from < len(s.Series) && float64(s.Series[from]) < 0.8*float64(target) {
		from++
	}
	band := s.Series[from:]
	if len(band) == 0 {
		return
	}
	s.BandFrom = from
	s.BandMin, s.BandMean, s.BandMax = minMeanMax(band)
	within := 0
	for _, n := range band {
		if d := float64(n - target); d >= -0.2*float64(target) && d <= 0.2*float64(target) {
			within++
		}
	}
	s.BandWithin = float64(within) / float64(len(band))
}

func minMeanMax(xs []int) (lo int, mean float64, hi int) {
	sum := 0
	for i, n := range xs {
		if i == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
		sum += n
	}
	if len(xs) > 0 {
		mean = float64(sum) / float64(len(xs))
	}
	return lo, mean, hi
}

func (s *Summary) String() string {
	band := ""
	if s.Target > 0 && s.BandMax == 0 {
		band = fmt.Sprintf("; target %d: never reached 80%% of it", s.Target)
	} else if s.Target > 0 {
		band = fmt.Sprintf("; target %d: from sample %d (the first at 80%% of it) min %d mean %.1f max %d, %.0f%% of samples within 20%%",
			s.Target, s.BandFrom, s.BandMin, s.BandMean, s.BandMax, 100*s.BandWithin)
	}
	return fmt.Sprintf("sorted runs over time (%d samples): min %d mean %.1f max %d, after the first quarter %d/%.1f/%d; write stalls %d, longest %.0f ms (%s); write-amp %.2f",
		s.Samples, s.RunsMin, s.RunsMean, s.RunsMax, s.SteadyMin, s.SteadyMean, s.SteadyMax,
		s.Stalls, s.LongestStallMs, s.LongestStallReason, s.WriteAmp) + band
}
