// Copyright 2026 The pebblerf Authors. All rights reserved.

package engineproc

import (
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/runner"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary stand in for pebblebench as an engine's
// process.
func TestMain(m *testing.M) {
	ServeIfChild()
	os.Exit(m.Run())
}

// testConfig is a command line's config as pebblebench's flags make it by
// default, at a tiny scale: both engines, reads over num keys.
func testConfig(dir string, num, reads, interleave int64) *config.Config {
	return &config.Config{Engine: config.EngineBoth, DB: dir, DBGiven: true, Num: num, Writes: num, Reads: reads,
		YCSBRecordCount: num, YCSBValueSize: 100, Threads: 1, Interleave: interleave, BatchSize: 1, Seed: 7,
		KeySize: 16, ValueSize: 100, CompressionRatio: 0.5, CompressionType: "snappy", BloomBits: -1,
		CacheSize: 1 << 20, WriteBufferSize: 1 << 20, KeyStride: 1, SeekTargetRangeMultiplier: 1,
		KeyFormat: config.KeyFormatDBBench, VersionsPerKey: 4, MVCCScanKeys: 10, QueryPlan: "auto", NumLevels: 7,
		SeekHotRange: 0.1, GetL6Filters: config.GetL6Off, RemoteLevels: "all", ReportFile: "report.csv",
		Given: map[string]bool{}}
}

// startBoth starts both engines' processes over c, and fills their DBs.
func startBoth(t *testing.T, c *config.Config) [2]*Process {
	var ps [2]*Process
	for i, name := range c.Engines() {
		p, err := Start(name, os.Stderr, new(atomic.Bool), "")
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, p.Close()) })
		ps[i] = p
		_, err = p.Begin(c, c.DB)
		require.NoError(t, err)
		require.NoError(t, p.Start())
		require.NoError(t, p.Prepare("fillrandom"))
		_, err = p.Run("fillrandom", 1, nil, progress.NewCounter(0))
		require.NoError(t, err)
	}
	return ps
}

// loggedTurns records, in one log, the turns a side hands over.
type loggedTurns struct {
	benchmarks.Turns
	name string
	mu   *sync.Mutex
	log  *strings.Builder
}

func (l loggedTurns) Done(ops int64) {
	l.mu.Lock()
	l.log.WriteString(l.name)
	l.mu.Unlock()
	l.Turns.Done(ops)
}

// TestTurnsAcrossProcesses runs one benchmark of 10 operations on both
// engines' processes at once, in turns of 3: the processes alternate turn
// by turn, as two workers in one process do (runner's TestTurns), and each
// makes the operations, and finds the keys, its whole run makes. Each
// run's seconds leave out the other's turns: the two never run at once, so
// their seconds add up to no more than the time both took together.
func TestTurnsAcrossProcesses(t *testing.T) {
	c := testConfig(t.TempDir(), 1000, 10, 3)
	ps := startBoth(t, c)

	var whole [2]*result.Result
	for i, p := range ps {
		require.NoError(t, p.Prepare("readrandom"))
		var err error
		whole[i], err = p.Run("readrandom", 2, nil, progress.NewCounter(0))
		require.NoError(t, err)
	}

	for i := range ps {
		require.NoError(t, ps[i].Prepare("readrandom"))
	}
	var mu sync.Mutex
	var log strings.Builder
	pair := runner.NewTurns(c.Interleave)
	turns := [2]benchmarks.Turns{loggedTurns{pair[0], "a", &mu, &log}, loggedTurns{pair[1], "b", &mu, &log}}
	var turned [2]*result.Result
	var errs [2]error
	var wg sync.WaitGroup
	start := time.Now()
	for i := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			turned[i], errs[i] = ps[i].Run("readrandom", 2, turns[i], progress.NewCounter(0))
		}()
	}
	wg.Wait()
	span := time.Since(start).Seconds()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])

	// 10 operations in turns of 3: three full turns each, handed over in
	// alternation, then a last operation each without a hand-over.
	require.Equal(t, "ababab", log.String())
	for i := range ps {
		require.Equal(t, whole[i].Ops, turned[i].Ops)
		require.Equal(t, whole[i].Found, turned[i].Found)
		require.Positive(t, turned[i].Found)
	}
	require.LessOrEqual(t, turned[0].Seconds+turned[1].Seconds, span)
	require.LessOrEqual(t, turned[0].ThreadCPUSeconds+turned[1].ThreadCPUSeconds, span)
}

// TestChildDeath: a process that dies is an error naming its engine and how
// it ended, and every later call returns it; a call never waits for a dead
// process, and the invocation stops, so that the other engine's run does
// not go on to its end.
func TestChildDeath(t *testing.T) {
	c := testConfig(t.TempDir(), 100, 10, 0)
	stop := new(atomic.Bool)
	p, err := Start(config.EnginePebble, io.Discard, stop, "")
	require.NoError(t, err)
	_, err = p.Begin(c, c.DB)
	require.NoError(t, err)
	require.NoError(t, p.cmd.Process.Kill())
	err = p.Prepare("fillrandom")
	require.ErrorContains(t, err, "the pebble engine's process ended (signal: killed)")
	require.Equal(t, err, p.End())
	require.True(t, stop.Load())
	require.NoError(t, p.Close())
}
