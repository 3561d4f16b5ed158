// Copyright 2026 The pebblerf Authors. All rights reserved.

package driver

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/runner"
	"github.com/stretchr/testify/require"
)

// fakeEngine answers every step at once and logs the runs it makes, into
// a log both engines share.
type fakeEngine struct {
	name string
	log  *[]string
	// secs is the seconds each run takes.
	secs float64
}

func (f *fakeEngine) Name() string                                       { return f.name }
func (f *fakeEngine) Begin(*config.Config, string) (runner.Setup, error) { return runner.Setup{}, nil }
func (f *fakeEngine) Start() error                                       { return nil }
func (f *fakeEngine) Prepare(string) error                               { return nil }
func (f *fakeEngine) Meta(string) (string, *benchmarks.MetaData, error) {
	return f.name + " meta\n", nil, nil
}
func (f *fakeEngine) Explain() (string, error)                               { return "", nil }
func (f *fakeEngine) LevelTable() (string, error)                            { return "", nil }
func (f *fakeEngine) Shape() ([]lsm.Level, error)                            { return nil, nil }
func (f *fakeEngine) Report() (*report.Engine, []report.FunnelSample, error) { return nil, nil, nil }
func (f *fakeEngine) End() error                                             { return nil }

func (f *fakeEngine) Run(bench string, seq int, turns benchmarks.Turns, counter *progress.Counter) (*result.Result, error) {
	*f.log = append(*f.log, f.name)
	return &result.Result{Benchmark: bench, Engine: f.name, Ops: 1000, Seconds: f.secs, ThreadSeconds: f.secs,
		ThreadCPUSeconds: f.secs, ProcessCPUSeconds: 2 * f.secs, ShowFound: true}, nil
}

// TestWholeRunsAlternate: whole runs go to one engine, then the other, in
// swapped order every second repeat; each pair gets a ratio line, the
// repeats AVG and MEDIAN lines, and a meta benchmark each engine's text.
func TestWholeRunsAlternate(t *testing.T) {
	var log []string
	engines := []Engine{&fakeEngine{name: "pebble", log: &log, secs: 2}, &fakeEngine{name: "pebblerf", log: &log, secs: 1}}
	c := &config.Config{Engine: config.EngineBoth, Benchmarks: "readrandom[X3],levelstats", Threads: 1}
	var out strings.Builder
	d := New(c, t.TempDir(), engines, &out, nil, &strings.Builder{}, new(atomic.Bool))
	require.NoError(t, d.Begin())
	require.NoError(t, d.Run())
	require.NoError(t, d.Finish())
	require.Equal(t, []string{"pebble", "pebblerf", "pebblerf", "pebble", "pebble", "pebblerf"}, log)
	text := out.String()
	require.Equal(t, 3, strings.Count(text, "ratio pebblerf/pebble readrandom : micros/op 0.500x (lower is better) ops/sec 2.000x"))
	require.Contains(t, text, "ratio pebblerf/pebble readrandom [MEDIAN 3 runs] : ")
	require.Contains(t, text, "readrandom/pebblerf [MEDIAN 3 runs] : 1000 ops/sec")
	require.Contains(t, text, "levelstats (pebble):\npebble meta\nlevelstats (pebblerf):\npebblerf meta\n")
	require.Len(t, d.Results(), 6)
}
