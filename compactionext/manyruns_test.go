// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// countingDB records the manual compactions a driver issues.
type countingDB struct {
	*pebble.DB
	mu    sync.Mutex
	spans [][2][]byte
}

func (d *countingDB) Compact(ctx context.Context, start, end []byte, parallelize bool) error {
	d.mu.Lock()
	d.spans = append(d.spans, [2][]byte{start, end})
	d.mu.Unlock()
	return d.DB.Compact(ctx, start, end, parallelize)
}

func (d *countingDB) compactions() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.spans)
}

func openManyRuns(t *testing.T, p *ManyRuns) *pebble.DB {
	opts := testOptions()
	require.NoError(t, p.Apply(opts))
	require.True(t, opts.DisableAutomaticCompactions)
	require.GreaterOrEqual(t, opts.L0StopWritesThreshold, 3*p.Runs)
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	return db
}

// TestManyRunsShape drives the profile step by step after each flush of a
// scripted random-write load and checks the run count it keeps, and that
// its merges change no data (against upstream Pebble fed the same writes).
func TestManyRunsShape(t *testing.T) {
	const target, flushes = 12, 40
	p := &ManyRuns{Runs: target}
	db := openManyRuns(t, p)
	defer func() { require.NoError(t, db.Close()) }()
	ref, err := pebble.Open("ref", testOptions())
	require.NoError(t, err)
	defer func() { require.NoError(t, ref.Close()) }()

	w := newWriter(t, 7, db, ref)
	w.seqFlush(0, 4000) // the fill: one run
	peak, merges := 0, 0
	for i := 0; i < flushes; i++ {
		w.randomFlush(300, 4000)
		if p.step(context.Background(), db) {
			merges++
		}
		shape := requireShapeMatchesPebble(t, db)
		runs := shape.SortedRuns()
		require.LessOrEqual(t, runs, target, "after flush %d: %s", i, shape)
		peak = max(peak, runs)
	}
	// The count climbs to the target and is brought back below it: within
	// 20% of the target at its peak, and a merge every target-ish flushes.
	require.InDelta(t, target, peak, 0.2*target)
	require.InDelta(t, flushes/target, merges, 1)
	requireSameContents(t, db, ref)
}

func TestManyRunsApplyRejects(t *testing.T) {
	require.ErrorContains(t, (&ManyRuns{Runs: 1}).Apply(testOptions()), "at least 2 runs")
	_, err := (&ManyRuns{Runs: 4}).Start(nil)
	require.ErrorContains(t, err, "before Apply")
}

// TestManyRunsDriver runs the background driver on a fake clock: it merges
// after the flush that exceeds the target, waits MinInterval before the next
// merge, does nothing while writes are stalled, and stops.
func TestManyRunsDriver(t *testing.T) {
	const target = 4
	clock := newFakeClock()
	steps := make(chan bool, 100)
	p := &ManyRuns{Runs: target, MinInterval: time.Minute, Clock: clock,
		stepped: func(acted bool) { steps <- acted }}
	db := openManyRuns(t, p)
	defer func() { require.NoError(t, db.Close()) }()
	cdb := &countingDB{DB: db}
	stop, err := p.Start(cdb)
	require.NoError(t, err)
	defer stop()

	w := newWriter(t, 3, db)
	// awaitStep waits for the driver to handle the wake-up of a flush.
	awaitStep := func() bool { return <-steps }
	for i := 0; i < target; i++ {
		w.randomFlush(200, 2000)
		require.False(t, awaitStep())
	}
	w.randomFlush(200, 2000)
	require.True(t, awaitStep())
	require.Equal(t, 1, cdb.compactions())

	// Exceed the target again at once: the rate limit holds the merge back.
	for i := 0; i <= target; i++ {
		w.randomFlush(200, 2000)
		require.False(t, awaitStep())
	}
	require.Equal(t, 1, cdb.compactions())
	// A write stall also holds it back, even once the interval has passed.
	p.monitor.setStalled(true)
	clock.Advance(time.Minute)
	require.False(t, awaitStep())
	require.Equal(t, 1, cdb.compactions())
	p.monitor.setStalled(false) // wakes the driver
	require.True(t, awaitStep())
	require.Equal(t, 2, cdb.compactions())

	stop()
	for len(steps) > 0 {
		<-steps // handled before stop returned
	}
	w.randomFlush(200, 2000)
	clock.Advance(time.Hour)
	require.Equal(t, 2, cdb.compactions())
	select {
	case <-steps:
		t.Fatal("driver stepped after stop")
	default:
	}
}
