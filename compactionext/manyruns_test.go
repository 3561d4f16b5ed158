// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
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
	require.Equal(t, math.MaxInt32, opts.L0StopWritesThreshold, "the L0 write stop is off")
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	return db
}

// TestManyRunsShape drives the profile step by step after each flush of a
// scripted random-write load and checks the run count it keeps: never more
// than 20% over the target, and, once the first Runs flushes have built the
// runs up, within 20% of it at every step, with merges of a few slices at a
// time rather than all of L0. Its merges change no data (against upstream
// Pebble fed the same writes).
func TestManyRunsShape(t *testing.T) {
	const target, flushes = 12, 100
	p := &ManyRuns{Runs: target, SliceBytes: 8 << 10}
	db := openManyRuns(t, p)
	defer func() { require.NoError(t, db.Close()) }()
	ref, err := pebble.Open("ref", testOptions())
	require.NoError(t, err)
	defer func() { require.NoError(t, ref.Close()) }()
	cdb := &countingDB{DB: db}

	w := newWriter(t, 7, db, ref)
	for i := 0; i < target; i++ {
		w.seqFlush(i*1000, 1000) // the fill: one run
	}
	require.True(t, p.step(context.Background(), cdb))
	require.Equal(t, 1, requireShapeMatchesPebble(t, db).SortedRuns(), "the fill is merged into L6")
	var runs []int
	partial := 0
	for i := 0; i < flushes; i++ {
		w.randomFlush(600, target*1000)
		levels, err := db.SSTables()
		require.NoError(t, err)
		unitsBefore := len(l0Units(levels[0], pebble.DefaultComparer.Compare))
		l0Before := len(levels[0])
		if p.step(context.Background(), cdb) {
			levels, err := db.SSTables()
			require.NoError(t, err)
			// A merge takes some units, not all of L0.
			if len(levels[0]) > 0 && unitsBefore > 1 {
				partial++
				require.Less(t, len(levels[0]), l0Before)
			}
		}
		runs = append(runs, requireShapeMatchesPebble(t, db).SortedRuns())
	}
	for i, n := range runs {
		require.LessOrEqual(t, float64(n), 1.2*target, "after flush %d: %v", i, runs)
		if i >= target {
			require.GreaterOrEqual(t, float64(n), 0.8*target, "after flush %d: %v", i, runs)
		}
	}
	require.Greater(t, partial, flushes/2, "most merges take part of L0")
	requireSameContents(t, db, ref)
}

// TestManyRunsWaitsForMemTable checks that a merge due after a flush waits
// until the memtable is about two thirds as full as the driver has seen it
// get, so that the flush it forces is not one Pebble widens across slices,
// unless nothing is in the memtable (then it forces no flush) or a unit is
// more than a flush past due.
func TestManyRunsWaitsForMemTable(t *testing.T) {
	p := &ManyRuns{Runs: 4, SliceBytes: 8 << 10}
	db := openManyRuns(t, p)
	defer func() { require.NoError(t, db.Close()) }()
	cdb := &countingDB{DB: db}
	ctx := context.Background()
	w := newWriter(t, 5, db)
	val := make([]byte, 1000)
	write := func(n int) {
		for i := 0; i < n; i++ {
			require.NoError(t, db.Set(keyOf(w.rng.IntN(2000)), val, pebble.NoSync))
		}
	}

	w.seqFlush(0, 2000) // the fill; the memtable is empty
	require.True(t, p.step(ctx, cdb))
	w.randomFlush(200, 2000)

	// The first time, the driver has no idea how full a memtable gets: it
	// merges, and the flush it forces is of about 700 KiB.
	write(700)
	flushes := p.monitor.Flushes()
	require.True(t, p.step(ctx, cdb))
	require.Equal(t, 2, cdb.compactions())
	require.Greater(t, p.monitor.Flushes(), flushes, "the merge flushed the memtable")

	// Next time a merge is due, 100 KiB in the memtable is too little: it
	// waits...
	w.randomFlush(200, 2000)
	write(100)
	require.False(t, p.step(ctx, cdb))
	require.Equal(t, 2, cdb.compactions())
	// ... until two thirds of the 700 KiB, and no flush is under way (the
	// WAL would also hold the memtable being flushed).
	write(300)
	require.False(t, p.step(ctx, cdb))
	write(100)
	p.monitor.flushing.Add(1)
	require.False(t, p.step(ctx, cdb))
	p.monitor.flushing.Add(-1)
	require.True(t, p.step(ctx, cdb))
	require.Equal(t, 3, cdb.compactions())

	// A unit more than a flush past due does not wait: flushes until one
	// is deeper than Runs, then a nearly empty memtable.
	for !overdue(l0UnitsOf(t, db), p.Runs) {
		w.randomFlush(200, 2000)
	}
	write(10)
	require.True(t, p.step(ctx, cdb))
	require.Equal(t, 4, cdb.compactions())
}

// l0UnitsOf returns db's L0 units.
func l0UnitsOf(t *testing.T, db *pebble.DB) []l0Unit {
	levels, err := db.SSTables()
	require.NoError(t, err)
	return l0Units(levels[0], pebble.DefaultComparer.Compare)
}

func TestManyRunsApplyRejects(t *testing.T) {
	require.ErrorContains(t, (&ManyRuns{Runs: 1}).Apply(testOptions()), "at least 2 runs")
	_, err := (&ManyRuns{Runs: 4}).Start(nil)
	require.ErrorContains(t, err, "before Apply")
}

// TestManyRunsDriver runs the background driver on a fake clock: it merges
// after a flush, holds merges back for MinInterval and while writes are
// stalled, looks again by itself once the interval has passed, and stops.
func TestManyRunsDriver(t *testing.T) {
	clock := newFakeClock()
	steps := make(chan bool, 100)
	p := &ManyRuns{Runs: 4, SliceBytes: 4 << 10, MinInterval: time.Minute, clock: clock,
		stepped: func(acted bool) { steps <- acted }}
	db := openManyRuns(t, p)
	defer func() { require.NoError(t, db.Close()) }()
	cdb := &countingDB{DB: db}
	stop, err := p.start(cdb)
	require.NoError(t, err)
	defer stop()

	w := newWriter(t, 3, db)
	// awaitStep waits for the driver to handle a wake-up, and then for it
	// to wait again (each wait asks the clock for a timer once), so that
	// the clock is advanced only once the timer it is meant to fire exists.
	// It relies on one wake-up per step: every flush here is the test's
	// own, so the memtable is empty at each merge and a merge forces no
	// flush whose event could wake the driver a second time.
	handled := 0
	awaitStep := func() bool {
		acted := <-steps
		handled++
		clock.awaitAfters(handled + 1)
		return acted
	}
	w.seqFlush(0, 2000) // the fill
	require.True(t, awaitStep())
	require.Equal(t, 1, cdb.compactions())

	// Flushes within MinInterval: the rate limit holds merges back...
	for i := 0; i < 2; i++ {
		w.randomFlush(200, 2000)
		require.False(t, awaitStep())
	}
	require.Equal(t, 1, cdb.compactions())
	// ... until the interval has passed: the driver looks by itself.
	clock.Advance(time.Minute)
	require.True(t, awaitStep())
	require.Equal(t, 2, cdb.compactions())

	// A write stall also holds it back, even once the interval has
	// passed. (Only memtables stall writes under this profile: its L0
	// stop is switched off, see TestManyRunsNeverStopsOnL0.)
	w.randomFlush(200, 2000)
	require.False(t, awaitStep())
	p.monitor.setStalled(true)
	clock.Advance(time.Minute)
	require.False(t, awaitStep())
	require.Equal(t, 2, cdb.compactions())
	p.monitor.setStalled(false) // wakes the driver
	require.True(t, awaitStep())
	require.Equal(t, 3, cdb.compactions())

	stop()
	for len(steps) > 0 {
		<-steps // handled before stop returned
	}
	w.randomFlush(200, 2000)
	clock.Advance(time.Hour)
	require.Equal(t, 3, cdb.compactions())
	select {
	case <-steps:
		t.Fatal("driver stepped after stop")
	default:
	}
}

// TestManyRunsNeverStopsOnL0 writes random keys through small memtables as
// fast as it can while the real driver runs. With Pebble's L0 write stop in
// place this hung: a writer waiting on the stop holds the commit lock that
// the driver's Compact needs to flush the memtable, so the merge that would
// end the stop never ran. The profile switches that stop off; the writes
// must all land and the data must match upstream's.
func TestManyRunsNeverStopsOnL0(t *testing.T) {
	p := &ManyRuns{Runs: 4, SliceBytes: 4 << 10, MinInterval: time.Millisecond}
	opts := testOptions()
	opts.MemTableSize = 64 << 10
	require.NoError(t, p.Apply(opts))
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	ref, err := pebble.Open("ref", testOptions())
	require.NoError(t, err)
	defer func() { require.NoError(t, ref.Close()) }()
	stop, err := p.Start(db)
	require.NoError(t, err)

	rng := rand.New(rand.NewPCG(7, 7))
	value := make([]byte, 100)
	for i := 0; i < 20000; i++ {
		key := fmt.Appendf(nil, "%016d", rng.IntN(20000))
		for _, d := range []*pebble.DB{db, ref} {
			require.NoError(t, d.Set(key, value, pebble.NoSync))
		}
	}
	stop()
	require.Positive(t, p.merges+p.sliced, "the driver merged while the writes ran")
	requireSameContents(t, db, ref)
}

// TestManyRunsDefaultSlices: with MemTableSize left at zero (Open applies
// Pebble's defaults only later), the default slice follows Pebble's 4 MiB
// memtable, not a zero one that would cut L0 into 4 KiB tables.
func TestManyRunsDefaultSlices(t *testing.T) {
	p := &ManyRuns{Runs: 12}
	opts := &pebble.Options{}
	require.NoError(t, p.Apply(opts))
	require.Equal(t, int64(2<<20), opts.TargetFileSizes[1], "L6 tables: half of Pebble's 4 MiB memtable")
	require.Equal(t, int64(128<<10), opts.TargetFileSizes[0])
	require.Zero(t, p.SliceBytes, "the caller's field is left as given")
}
