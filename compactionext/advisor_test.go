// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/tablewaste"
	"github.com/stretchr/testify/require"
)

// fakeWaste is a source of waste counts the test fills by hand.
type fakeWaste struct {
	mu     sync.Mutex
	counts map[pebble.TableNum]tablewaste.Counts
}

func (f *fakeWaste) TableWaste(dst []tablewaste.Counts) []tablewaste.Counts {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, w := range f.counts {
		dst = append(dst, w)
	}
	return dst
}

// add charges n empty block loads and n false positives to each table.
func (f *fakeWaste) add(n uint64, tables ...pebble.SSTableInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.counts == nil {
		f.counts = make(map[pebble.TableNum]tablewaste.Counts)
	}
	for _, t := range tables {
		w := f.counts[t.FileNum]
		w.Table = t.FileNum
		w.EmptyLoads += n
		w.FilterFalsePositives += n
		f.counts[t.FileNum] = w
	}
}

// Two hot regions, each stacked four sublevels deep over a partitioned L6.
var (
	regionA = [2]int{2000, 4000}
	regionB = [2]int{12000, 14000}
)

// advisorFixture is a DB (and an upstream reference fed the same writes)
// with L6 split into many tables and four L0 sublevels over each region.
type advisorFixture struct {
	db, ref *pebble.DB
	w       *writer
	source  *fakeWaste
	adv     *Advisor
	logs    *recordingLogger
}

func newAdvisorFixture(t *testing.T, cfg AdvisorConfig) *advisorFixture {
	f := &advisorFixture{source: &fakeWaste{}, logs: &recordingLogger{}}
	opts := testOptions()
	opts.Logger = f.logs
	for i := range opts.TargetFileSizes {
		opts.TargetFileSizes[i] = 32 << 10
	}
	require.NoError(t, NoCompaction.Apply(opts))
	if cfg.WriteBudget == 0 {
		// What these tests compact is bounded by the waste; the budget
		// has a test of its own, which sets one.
		cfg.WriteBudget = -1
	}
	var err error
	f.adv, err = newAdvisor(opts, cfg, f.source)
	require.NoError(t, err)
	f.db, err = pebble.Open("db", opts)
	require.NoError(t, err)
	f.ref, err = pebble.Open("ref", testOptions())
	require.NoError(t, err)
	t.Cleanup(func() {
		f.adv.Close()
		require.NoError(t, f.db.Close())
		require.NoError(t, f.ref.Close())
	})

	f.w = newWriter(t, 11, f.db, f.ref)
	f.w.seqFlush(0, 20000)
	require.NoError(t, f.db.Compact(context.Background(), keyOf(0), keyOf(20000), false))
	// One flush per region, so that each L0 table stays inside its region.
	for i := 0; i < 4; i++ {
		for _, r := range [][2]int{regionA, regionB} {
			for j := 0; j < 300; j++ {
				k := keyOf(r[0] + f.w.rng.IntN(r[1]-r[0]))
				v := fmt.Appendf(nil, "hot-%d-%d", i, j)
				require.NoError(t, f.db.Set(k, v, pebble.NoSync))
				require.NoError(t, f.ref.Set(k, v, pebble.NoSync))
			}
			f.w.flush()
		}
	}
	require.Equal(t, 5, f.db.Metrics().ReadAmp())
	return f
}

// tablesIn returns the live tables of db that overlap region r.
func tablesIn(t *testing.T, db *pebble.DB, r [2]int, level int) []pebble.SSTableInfo {
	levels, err := db.SSTables()
	require.NoError(t, err)
	var out []pebble.SSTableInfo
	for _, tab := range levels[level] {
		if bytes.Compare(tab.Smallest.UserKey, keyOf(r[1]-1)) <= 0 &&
			bytes.Compare(keyOf(r[0]), tab.Largest.UserKey) <= 0 {
			out = append(out, tab)
		}
	}
	return out
}

// recordingLogger keeps the Info and Error lines.
type recordingLogger struct {
	quietLogger
	mu          sync.Mutex
	infos, errs []string
}

func (l *recordingLogger) Errorf(format string, args ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, fmt.Sprintf(format, args...))
}

func (l *recordingLogger) Infof(format string, args ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.infos = append(l.infos, fmt.Sprintf(format, args...))
}

// lines returns the Info lines so far.
func (l *recordingLogger) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.infos)
}

// errors returns the Error lines so far.
func (l *recordingLogger) errors() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.errs)
}

func (l *recordingLogger) advisorLines() []string {
	var out []string
	for _, s := range l.lines() {
		if strings.Contains(s, "advisor") {
			out = append(out, s)
		}
	}
	return out
}

// TestAdvisorPicksWastedRange charges waste to region B's tables (a lot)
// and A's (a little) and checks that the advisor compacts B, only B, says so,
// and changes no data. B is the last region: a seek into it pays for no run
// past it once it is merged, so there is nothing to reach for on its right.
func TestAdvisorPicksWastedRange(t *testing.T) {
	var decisions []Decision
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 1000, MinRuns: 3,
		OnDecision: func(d Decision) { decisions = append(decisions, d) }})
	ctx := context.Background()

	// Below MinWaste nothing happens.
	f.source.add(50, tablesIn(t, f.db, regionB, 0)...)
	f.source.add(10, tablesIn(t, f.db, regionA, 0)...)
	require.False(t, f.adv.step(ctx, f.db))

	aTables := tablesIn(t, f.db, regionA, 0)
	f.source.add(400, tablesIn(t, f.db, regionB, 0)...)
	f.source.add(400, tablesIn(t, f.db, regionB, 6)[:1]...)
	require.True(t, f.adv.step(ctx, f.db))

	require.Len(t, decisions, 1)
	d := decisions[0]
	require.NoError(t, d.Err)
	require.LessOrEqual(t, bytes.Compare(d.Start, keyOf(regionB[1]-1)), 0, "%s", d)
	require.LessOrEqual(t, bytes.Compare(keyOf(regionB[0]), d.End), 0, "%s", d)
	require.Greater(t, bytes.Compare(d.Start, keyOf(regionA[1])), 0, "%s", d)
	require.Equal(t, 5, d.RunsBefore)
	require.Equal(t, 1, d.RunsAfter)
	require.GreaterOrEqual(t, d.Waste, uint64(4*800))

	require.Empty(t, tablesIn(t, f.db, regionB, 0), "region B merged into L6")
	require.Equal(t, aTables, tablesIn(t, f.db, regionA, 0), "region A untouched")
	lines := f.logs.advisorLines()
	require.Len(t, lines, 1)
	require.Contains(t, lines[0], "5 runs, 1 runs after")
	require.Contains(t, lines[0], "‹"+string(d.Start)+"›", "keys are marked redactable")
	requireSameContents(t, f.db, f.ref)

	// A's waste is below MinWaste and decays: nothing more to do.
	require.False(t, f.adv.step(ctx, f.db))

	// Switched off, the advisor does nothing however large the waste.
	f.adv.setEnabled(false)
	f.source.add(10000, tablesIn(t, f.db, regionA, 0)...)
	require.False(t, f.adv.step(ctx, f.db))
	f.adv.setEnabled(true)
	f.source.add(10000, tablesIn(t, f.db, regionA, 0)...)
	require.True(t, f.adv.step(ctx, f.db))
	require.Empty(t, tablesIn(t, f.db, regionA, 0))
	require.Equal(t, 1, f.db.Metrics().ReadAmp())
	requireSameContents(t, f.db, f.ref)
}

// TestAdvisorReachesRight charges waste to region A only. A seek into A
// pays for B's four sublevels too (each run's level iterator loads the first
// table ending at or after the key), so merging A alone would leave such a
// seek at 5 runs: the advisor's range reaches right over B, and a seek into
// A then faces one run.
func TestAdvisorReachesRight(t *testing.T) {
	var decisions []Decision
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 1000, MinRuns: 3,
		OnDecision: func(d Decision) { decisions = append(decisions, d) }})
	f.source.add(1000, tablesIn(t, f.db, regionA, 0)...)
	require.True(t, f.adv.step(context.Background(), f.db))
	require.Len(t, decisions, 1)
	d := decisions[0]
	require.NoError(t, d.Err)
	require.LessOrEqual(t, bytes.Compare(d.Start, keyOf(regionA[1]-1)), 0, "%s", d)
	require.GreaterOrEqual(t, bytes.Compare(d.End, keyOf(regionB[0])), 0, "%s", d)
	require.Equal(t, 5, d.RunsBefore, "%s", d)
	require.Equal(t, 1, d.RunsAfter, "%s", d)
	require.Empty(t, tablesIn(t, f.db, [2]int{0, 20000}, 0), "A and B merged into L6")
	requireSameContents(t, f.db, f.ref)
}

// TestAdvisorRateLimitAndClose runs the advisor in the background on a fake
// clock: one compaction per MinInterval, none after Close. B goes first, so
// that neither compaction reaches over the other region.
func TestAdvisorRateLimitAndClose(t *testing.T) {
	clock := newFakeClock()
	steps := make(chan bool, 100)
	var mu sync.Mutex
	var decisions []Decision
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(decisions)
	}
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 100, MinInterval: time.Minute, clock: clock,
		OnDecision: func(d Decision) {
			mu.Lock()
			decisions = append(decisions, d)
			mu.Unlock()
		}})
	f.adv.stepped = func(acted bool) { steps <- acted }
	f.adv.Start(f.db)

	f.source.add(1000, tablesIn(t, f.db, regionB, 0)...)
	clock.awaitAfters(1)
	clock.Advance(time.Minute) // the poll
	require.True(t, <-steps)
	require.Equal(t, 1, count())

	// Waste in A right away: a flush wakes the advisor, the rate limit
	// holds it back.
	f.source.add(1000, tablesIn(t, f.db, regionA, 0)...)
	f.w.seqFlush(50000, 10)
	require.False(t, <-steps)
	clock.awaitAfters(clock.afterCalls())
	clock.Advance(30 * time.Second)
	f.w.seqFlush(50010, 10)
	require.False(t, <-steps)
	require.Equal(t, 1, count())
	// A minute after the first compaction the advisor looks again and A
	// goes.
	f.source.add(1000, tablesIn(t, f.db, regionA, 0)...)
	clock.awaitAfters(clock.afterCalls())
	clock.Advance(30 * time.Second)
	require.True(t, <-steps)
	require.Equal(t, 2, count())
	require.Empty(t, tablesIn(t, f.db, regionA, 0))

	f.adv.Close()
	for len(steps) > 0 {
		<-steps // handled before Close returned
	}
	f.w.randomFlush(300, 20000)
	f.w.randomFlush(300, 20000)
	f.source.add(100000, tablesIn(t, f.db, [2]int{0, 20000}, 0)...)
	clock.Advance(time.Hour)
	require.Len(t, steps, 0, "advisor stepped after Close")
	require.Equal(t, 2, count())
	requireSameContents(t, f.db, f.ref)
}

// TestAdvisorWidensOverSpreadWaste charges waste above the thresholds to both
// regions, as reads spread over all written keys do: the advisor compacts the
// span of both in one compaction, not the worse one alone.
func TestAdvisorWidensOverSpreadWaste(t *testing.T) {
	var decisions []Decision
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 1000, MinRuns: 3,
		OnDecision: func(d Decision) { decisions = append(decisions, d) }})
	f.source.add(400, tablesIn(t, f.db, regionA, 0)...)
	f.source.add(300, tablesIn(t, f.db, regionB, 0)...)
	require.True(t, f.adv.step(context.Background(), f.db))
	require.Len(t, decisions, 1)
	d := decisions[0]
	require.NoError(t, d.Err)
	require.LessOrEqual(t, bytes.Compare(d.Start, keyOf(regionA[0]+300)), 0, "%s", d)
	require.GreaterOrEqual(t, bytes.Compare(d.End, keyOf(regionB[1]-300)), 0, "%s", d)
	require.Equal(t, 5, d.RunsBefore)
	require.Equal(t, 1, d.RunsAfter)
	require.GreaterOrEqual(t, d.Waste, uint64(4*(800+600)))
	require.Empty(t, tablesIn(t, f.db, [2]int{0, 20000}, 0), "both regions merged into L6")
	requireSameContents(t, f.db, f.ref)
}

// TestAdvisorLooks checks the reasons the advisor gives for each look.
func TestAdvisorLooks(t *testing.T) {
	var looks []Look
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 1000, MinRuns: 3,
		OnLook: func(l Look) { looks = append(looks, l) }})
	ctx := context.Background()
	last := func() Look { return looks[len(looks)-1] }

	require.False(t, f.adv.step(ctx, f.db))
	require.Equal(t, reasonNoWaste, last().Reason)

	aTables := tablesIn(t, f.db, regionA, 0)
	f.source.add(50, aTables...)
	require.False(t, f.adv.step(ctx, f.db))
	l := last()
	require.Equal(t, reasonLowWaste, l.Reason, "%s", l)
	require.Equal(t, len(aTables), l.Reported)
	require.Equal(t, 2, l.Units, "one unit per region")
	require.Equal(t, uint64(100*len(aTables)), l.Best.Waste)
	require.Equal(t, 5, l.Best.RunsBefore)
	require.Contains(t, l.String(), "waste below MinWaste")

	f.adv.setEnabled(false)
	f.source.add(10000, aTables...)
	require.False(t, f.adv.step(ctx, f.db))
	require.Equal(t, reasonDisabled, last().Reason)
	f.adv.setEnabled(true)
	f.source.add(10000, aTables...)
	require.True(t, f.adv.step(ctx, f.db))
	require.True(t, last().Acted)
	require.Equal(t, reasonCompacted, last().Reason)
	require.Len(t, looks, 4)
}

// TestAdvisorWriteBudget runs the advisor on a fake clock with a write
// budget of half the bytes the rest of the DB writes after it started.
// Region B's waste is over the thresholds from the start, but merging it
// rewrites L6 tables the budget cannot pay for until enough has been
// written: the advisor waits, saying why, and compacts at the first look at
// which what was flushed and compacted meanwhile (as Pebble counts it)
// covers the cost. Without a ShapeMergeDepth the cost is all of B's L6
// tables; with one of 8, B's unit being 4 deep, half of them (the WAL is
// empty at each look, so no flush is forced), and the advisor compacts
// sooner.
func TestAdvisorWriteBudget(t *testing.T) {
	for _, depth := range []int{0, 8} {
		t.Run(fmt.Sprintf("ShapeMergeDepth=%d", depth), func(t *testing.T) {
			testAdvisorWriteBudget(t, depth)
		})
	}
}

func testAdvisorWriteBudget(t *testing.T, depth int) {
	const budget = 0.5
	clock := newFakeClock()
	steps := make(chan bool, 100)
	var mu sync.Mutex
	var looks []Look
	var decisions []Decision
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 100, MinInterval: time.Minute, clock: clock,
		WriteBudget: budget, ShapeMergeDepth: depth,
		OnLook: func(l Look) {
			mu.Lock()
			looks = append(looks, l)
			mu.Unlock()
		},
		OnDecision: func(d Decision) {
			mu.Lock()
			decisions = append(decisions, d)
			mu.Unlock()
		}})
	last := func() Look {
		mu.Lock()
		defer mu.Unlock()
		return looks[len(looks)-1]
	}
	written := func() uint64 {
		var n uint64
		for _, l := range f.db.Metrics().Levels {
			n += l.TableBytesFlushed + l.TableBytesCompacted
		}
		return n
	}
	var l6Bytes, cost uint64
	for _, tab := range tablesIn(t, f.db, regionB, 6) {
		l6Bytes += tab.Size
		cost += tab.Size
		if depth > 0 {
			cost -= uint64(float64(tab.Size) * 4 / float64(depth))
		}
	}
	require.NotZero(t, l6Bytes)

	f.adv.stepped = func(acted bool) { steps <- acted }
	f.adv.Start(f.db)
	atStart := written()

	// Nothing written since Start: no budget at all.
	f.source.add(1000, tablesIn(t, f.db, regionB, 0)...)
	clock.awaitAfters(1)
	clock.Advance(time.Minute)
	require.False(t, <-steps)
	l := last()
	require.Equal(t, reasonBudget, l.Reason, "%s", l)
	require.Equal(t, int64(0), l.Budget)
	require.Equal(t, l6Bytes, l.Best.Rewrites, "B's L6 tables are what it rewrites")
	require.Equal(t, cost, l.Best.Charged, "what it would be charged")

	flushed := func() uint64 {
		var n uint64
		for _, l := range f.db.Metrics().Levels {
			n += l.TableBytesFlushed
		}
		return n
	}
	// checkLook checks the look an LSM change woke the advisor for: it
	// compacted if and only if the budget it had earned covered the cost.
	// A look that did not act must have seen the budget the metrics give.
	// One that acted after a flush must have seen what the writes up to
	// the last look earned plus what the flush did (the advisor flushes
	// nothing here: the WAL is empty). One that acted after the test's own
	// compaction saw no more than all writes since Start earned.
	lastWritten, lastFlushed := atStart, flushed()
	checkLook := func(afterFlush bool) bool {
		acted := <-steps
		l := last()
		if !acted {
			earned := uint64(budget * float64(written()-atStart))
			require.Equal(t, reasonBudget, l.Reason, "%s", l)
			require.Equal(t, int64(earned), l.Budget, "the budget is not what the DB's writes earned")
			require.Greater(t, cost, earned, "waited although the budget covered the cost")
			lastWritten, lastFlushed = written(), flushed()
			return false
		}
		require.Equal(t, reasonCompacted, l.Reason, "%s", l)
		require.LessOrEqual(t, cost, uint64(l.Budget), "compacted beyond the budget")
		if afterFlush {
			earned := uint64(budget * float64(lastWritten-atStart+flushed()-lastFlushed))
			require.Equal(t, int64(earned), l.Budget, "the budget is not what the DB's writes earned")
		} else {
			require.LessOrEqual(t, uint64(l.Budget), uint64(budget*float64(written()-atStart)))
		}
		if depth > 0 {
			require.Greater(t, l6Bytes, uint64(l.Budget), "the credit did not bring the compaction forward")
		}
		return true
	}
	acted := false
	if depth == 0 {
		// A compaction of the shape's (here: the test's, of region A)
		// earns budget too. (It earns enough for all of B's L6 tables,
		// so the run with a ShapeMergeDepth leaves it out, to show the
		// credit deciding.)
		f.source.add(1000, tablesIn(t, f.db, regionB, 0)...)
		require.NoError(t, f.db.Compact(context.Background(), keyOf(regionA[0]), keyOf(regionA[1]), false))
		acted = checkLook(false)
	}
	// Each flush of new keys (past the data, so that B's range does not
	// grow) wakes the advisor, and earns it budget.
	next := 100000
	for i := 0; !acted; i++ {
		require.Less(t, i, 1000, "the advisor never compacted")
		f.source.add(1000, tablesIn(t, f.db, regionB, 0)...)
		f.w.seqFlush(next, 50)
		next += 50
		acted = checkLook(true)
	}
	mu.Lock()
	require.Len(t, decisions, 1)
	d := decisions[0]
	mu.Unlock()
	require.NoError(t, d.Err)
	require.Equal(t, l6Bytes, d.Rewrites)
	require.Equal(t, cost, d.Charged)
	require.Empty(t, tablesIn(t, f.db, regionB, 0), "region B merged into L6")
	requireSameContents(t, f.db, f.ref)
}

// TestAdvisorSkipsSmallGain gives region B two sublevels over L6, three
// runs, and writes into B without flushing. Compacting B would leave a seek
// there facing L6 and the run the forced flush of those writes adds: one run
// fewer, less than the MinRuns-1 the advisor asks for, so it skips it. Once
// the writes are flushed (B is three sublevels deep) the memtable is empty
// and the same waste gets B compacted, down to one run. With a
// ShapeMergeDepth, each look's charge includes the forced flush's cost only
// while the memtable holds writes.
func TestAdvisorSkipsSmallGain(t *testing.T) {
	source := &fakeWaste{}
	var looks []Look
	opts := testOptions()
	for i := range opts.TargetFileSizes {
		opts.TargetFileSizes[i] = 32 << 10
	}
	require.NoError(t, NoCompaction.Apply(opts))
	const depth = 4
	adv, err := newAdvisor(opts, AdvisorConfig{MinWaste: 100, MinRuns: 3, WriteBudget: -1,
		ShapeMergeDepth: depth, OnLook: func(l Look) { looks = append(looks, l) }}, source)
	require.NoError(t, err)
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	ctx := context.Background()

	w := newWriter(t, 7, db)
	w.seqFlush(0, 20000)
	require.NoError(t, db.Compact(ctx, keyOf(0), keyOf(20000), false))
	writeB := func(n int) {
		for j := 0; j < n; j++ {
			k := keyOf(regionB[0] + w.rng.IntN(regionB[1]-regionB[0]))
			require.NoError(t, db.Set(k, []byte("b"), pebble.NoSync))
		}
	}
	for i := 0; i < 2; i++ {
		writeB(300)
		w.flush()
	}
	require.Equal(t, 3, db.Metrics().ReadAmp())

	// The cost with B's unit d deep: B's L6 tables less the credit d/depth
	// of each, plus a depth-th of all of L6 if a flush is forced.
	costAt := func(d int, forced bool) uint64 {
		var cost, all uint64
		for _, tab := range tablesIn(t, db, regionB, 6) {
			cost += tab.Size - uint64(float64(tab.Size)*float64(d)/depth)
		}
		for _, tab := range tablesIn(t, db, [2]int{0, 20000}, 6) {
			all += tab.Size
		}
		if forced {
			cost += all / depth
		}
		return cost
	}

	writeB(50) // into the memtable
	source.add(1000, tablesIn(t, db, regionB, 0)...)
	require.False(t, adv.step(ctx, db))
	l := looks[len(looks)-1]
	require.Equal(t, reasonNoGain, l.Reason, "%s", l)
	require.Equal(t, 3, l.Best.RunsBefore)
	require.Equal(t, 2, l.Best.RunsPredicted, "L6 and the forced flush's run")
	require.Equal(t, costAt(2, true), l.Best.Charged, "the forced flush is charged")

	w.flush()
	source.add(1000, tablesIn(t, db, regionB, 0)...)
	cost := costAt(3, false)
	require.True(t, adv.step(ctx, db))
	l = looks[len(looks)-1]
	require.Equal(t, 4, l.Best.RunsBefore)
	require.Equal(t, 1, l.Best.RunsPredicted)
	require.Equal(t, cost, l.Best.Charged, "no flush to force")
	require.Equal(t, 1, db.Metrics().ReadAmp())
}

// TestAdvisorNeedsSource checks that an advisor with nothing to read its
// waste counts from is refused.
func TestAdvisorNeedsSource(t *testing.T) {
	_, err := newAdvisor(testOptions(), AdvisorConfig{}, nil)
	require.ErrorContains(t, err, "source of waste counts")
}

// TestAdvisorRejectsBadBudget checks that a write budget that is not a
// number is refused by name rather than read as "never compact" or "no
// bound".
func TestAdvisorRejectsBadBudget(t *testing.T) {
	for _, b := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := newAdvisor(testOptions(), AdvisorConfig{WriteBudget: b}, &fakeWaste{})
		require.ErrorContains(t, err, "WriteBudget")
	}
	_, err := newAdvisor(testOptions(), AdvisorConfig{WriteBudget: -1}, &fakeWaste{})
	require.NoError(t, err)
}

// TestAdvisorBudgetArithmetic checks how the budget is earned and spent: a
// compaction is charged what it wrote beyond its L0 input (at least its
// estimate, should the events have missed its output), less its credit and
// plus its flush cost; its output is not counted as earnings, and a huge
// WriteBudget caps the budget instead of overflowing into "never compact".
func TestAdvisorBudgetArithmetic(t *testing.T) {
	const mib = 1 << 20
	newAdv := func(budget float64) *Advisor {
		a, err := newAdvisor(testOptions(), AdvisorConfig{WriteBudget: budget}, &fakeWaste{})
		require.NoError(t, err)
		return a
	}
	a := newAdv(0.5)
	a.monitor.flushedBytes.Add(60 * mib)
	a.monitor.compactedBytes.Add(40 * mib)
	require.Equal(t, int64(50*mib), a.budget())

	// A compaction taking 5 MiB from L0 and 10 MiB below that wrote 40 MiB
	// (several levels on a leveled shape): 35 MiB spent, and its 40 MiB
	// earn nothing.
	a.monitor.compactedBytes.Add(40 * mib)
	a.charge(candidate{rewrites: 10 * mib, l0Bytes: 5 * mib}, 40*mib)
	require.Equal(t, int64(50*mib-35*mib), a.budget())
	// Output the events missed is charged at the estimate.
	a.charge(candidate{rewrites: 10 * mib, l0Bytes: 5 * mib}, 0)
	require.Equal(t, int64(0), a.budget(), "0.5*(140-55) MiB earned, 45 spent")

	// With a shape that would have rewritten 40 of the 60 MiB below L0 it
	// rewrote, those 40 MiB are taken off what it wrote there, and the cost
	// of the flush it forced is added: 90-40+2 MiB. The 30 MiB Pebble wrote
	// beyond the estimate earn no credit.
	a = newAdv(0.5)
	a.monitor.flushedBytes.Add(200 * mib)
	a.monitor.compactedBytes.Add(100 * mib)
	a.charge(candidate{rewrites: 60 * mib, credit: 40 * mib, l0Bytes: 10 * mib, flushCost: 2 * mib}, 100*mib)
	require.Equal(t, int64(100*mib-52*mib), a.budget())

	huge := newAdv(1e300)
	huge.monitor.flushedBytes.Add(100 * mib)
	require.Equal(t, int64(math.MaxInt64), huge.budget())
	require.Equal(t, int64(-1), newAdv(-1).budget())
}

// TestAdvisorBelowCredit checks how much of a table below L0 that a
// compaction rewrites the shape would have rewritten anyway: nothing without
// a ShapeMergeDepth; with one of D, (in-out)/D of it, where in and out are
// the depths of the deepest units over the table inside and outside the
// compacted range, each capped at D.
func TestAdvisorBelowCredit(t *testing.T) {
	units := []l0Unit{
		{Smallest: []byte("b"), Largest: []byte("c"), Depth: 2},
		{Smallest: []byte("e"), Largest: []byte("f"), Depth: 8},
		{Smallest: []byte("g"), Largest: []byte("h"), Depth: 4},
		{Smallest: []byte("m"), Largest: []byte("p"), Depth: 13},
	}
	table := func(smallest, largest string) pebble.SSTableInfo {
		var info pebble.SSTableInfo
		info.Smallest.UserKey, info.Largest.UserKey = []byte(smallest), []byte(largest)
		info.Size = 1000
		return info
	}
	for _, tc := range []struct {
		table, compacted [2]string
		depth            int
		want             uint64
	}{
		{[2]string{"a", "c"}, [2]string{"a", "z"}, 0, 0},     // no shape depth: no credit
		{[2]string{"a", "c"}, [2]string{"a", "z"}, -1, 0},    // nor with a negative one
		{[2]string{"a", "b"}, [2]string{"a", "z"}, 11, 181},  // under the 2 deep unit: 2/11
		{[2]string{"c", "d"}, [2]string{"b", "c"}, 11, 181},  // ends inside it
		{[2]string{"d", "d"}, [2]string{"a", "z"}, 11, 0},    // between units: nothing comes due
		{[2]string{"a", "g"}, [2]string{"a", "z"}, 11, 727},  // the deepest of three, 8: 8/11
		{[2]string{"h", "k"}, [2]string{"g", "h"}, 11, 363},  // the 4 deep unit's last key: 4/11
		{[2]string{"i", "l"}, [2]string{"a", "z"}, 11, 0},    // after it
		{[2]string{"n", "o"}, [2]string{"m", "p"}, 11, 1000}, // inside a unit past due: all of it
		{[2]string{"n", "o"}, [2]string{"m", "p"}, 13, 1000}, // exactly due
		{[2]string{"n", "o"}, [2]string{"m", "p"}, 14, 928},  // one short of due: 13/14
		{[2]string{"q", "z"}, [2]string{"a", "z"}, 11, 0},    // past every unit
		// Units over the table left outside the range keep it as deep
		// as they are: merging 8 deep leaves 4 deep under (g, h).
		{[2]string{"e", "h"}, [2]string{"e", "f"}, 11, 363},
		// ... and a deeper one left outside means no credit at all.
		{[2]string{"e", "h"}, [2]string{"g", "h"}, 11, 0},
		{[2]string{"a", "z"}, [2]string{"a", "p"}, 20, 650}, // the 13 deep unit: 13/20
	} {
		a, err := newAdvisor(testOptions(), AdvisorConfig{ShapeMergeDepth: tc.depth}, &fakeWaste{})
		require.NoError(t, err)
		got := a.belowCredit(table(tc.table[0], tc.table[1]), units, []byte(tc.compacted[0]), []byte(tc.compacted[1]))
		require.Equal(t, tc.want, got, "table %v, compacting %v, depth %d", tc.table, tc.compacted, tc.depth)
	}
}

// TestNewAdvisorTakesShapeMergeDepth checks that the advisor the root
// package makes (NewAdvisor) learns the depth at which ManyRuns
// merges a unit, which its write budget counts on, and that a depth the
// caller set, or a shape with no such rule, is left alone.
func TestNewAdvisorTakesShapeMergeDepth(t *testing.T) {
	for _, tc := range []struct {
		profile    Profile
		set, depth int
	}{
		{profile: &ManyRuns{Runs: 12}, depth: 11},
		{profile: &ManyRuns{Runs: 5}, depth: 4},
		{profile: &ManyRuns{Runs: 12}, set: 3, depth: 3},
		{profile: &ManyRuns{Runs: 12}, set: -1, depth: -1}, // opted out
		{profile: Leveled, depth: 0},
		{profile: NoCompaction, depth: 0},
	} {
		cfg := AdvisorConfig{ShapeMergeDepth: tc.set}
		a, err := NewAdvisor(testOptions(), cfg, tc.profile, &fakeWaste{})
		require.NoError(t, err)
		require.Equal(t, tc.depth, a.cfg.ShapeMergeDepth, "%s, set %d", tc.profile.Name(), tc.set)
		require.Equal(t, tc.set, cfg.ShapeMergeDepth, "the caller's config is not changed")
	}
}
