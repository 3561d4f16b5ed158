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
	"github.com/stretchr/testify/require"
)

// fakeWaste is a WasteSource the test fills by hand.
type fakeWaste struct {
	mu     sync.Mutex
	counts map[pebble.TableNum]TableWaste
}

func (f *fakeWaste) TableWaste(dst []TableWaste) []TableWaste {
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
		f.counts = make(map[pebble.TableNum]TableWaste)
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
	require.NoError(t, NoCompaction{}.Apply(opts))
	cfg.Source = f.source
	if cfg.WriteBudget == 0 {
		// What these tests compact is bounded by the waste; the budget
		// has a test of its own, which sets one.
		cfg.WriteBudget = -1
	}
	var err error
	f.adv, err = NewAdvisor(opts, cfg)
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
	f.adv.SetEnabled(false)
	f.source.add(10000, tablesIn(t, f.db, regionA, 0)...)
	require.False(t, f.adv.step(ctx, f.db))
	f.adv.SetEnabled(true)
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
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 100, MinInterval: time.Minute, Clock: clock,
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

	f.adv.SetEnabled(false)
	f.source.add(10000, aTables...)
	require.False(t, f.adv.step(ctx, f.db))
	require.Equal(t, reasonDisabled, last().Reason)
	f.adv.SetEnabled(true)
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
// covers the rewrite.
func TestAdvisorWriteBudget(t *testing.T) {
	const budget = 0.5
	clock := newFakeClock()
	steps := make(chan bool, 100)
	var mu sync.Mutex
	var looks []Look
	var decisions []Decision
	f := newAdvisorFixture(t, AdvisorConfig{MinWaste: 100, MinInterval: time.Minute, Clock: clock,
		WriteBudget: budget,
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
	var l6Bytes uint64
	for _, tab := range tablesIn(t, f.db, regionB, 6) {
		l6Bytes += tab.Size
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
	require.Equal(t, l6Bytes, l.Best.Charged, "with no ShapeMergeDepth, all of it is charged")

	// checkLook checks the look an LSM change woke the advisor for: it
	// compacted if and only if the budget earned covered the rewrite.
	checkLook := func() bool {
		acted := <-steps
		earned := uint64(budget * float64(written()-atStart))
		if !acted {
			l := last()
			require.Equal(t, reasonBudget, l.Reason, "%s", l)
			require.Greater(t, l6Bytes, earned, "waited although the budget covered the rewrite")
			return false
		}
		require.LessOrEqual(t, l6Bytes, earned, "compacted beyond the budget")
		return true
	}
	// A compaction of the shape's (here: the test's, of region A) earns
	// budget too.
	f.source.add(1000, tablesIn(t, f.db, regionB, 0)...)
	require.NoError(t, f.db.Compact(context.Background(), keyOf(regionA[0]), keyOf(regionA[1]), false))
	acted := checkLook()
	// Each flush of new keys (past the data, so that B's range does not
	// grow) wakes the advisor, and earns it budget.
	next := 100000
	for i := 0; !acted; i++ {
		require.Less(t, i, 1000, "the advisor never compacted")
		f.source.add(1000, tablesIn(t, f.db, regionB, 0)...)
		f.w.seqFlush(next, 50)
		next += 50
		acted = checkLook()
	}
	mu.Lock()
	require.Len(t, decisions, 1)
	d := decisions[0]
	mu.Unlock()
	require.NoError(t, d.Err)
	require.Equal(t, l6Bytes, d.Rewrites)
	require.Empty(t, tablesIn(t, f.db, regionB, 0), "region B merged into L6")
	requireSameContents(t, f.db, f.ref)
}

// TestAdvisorSkipsSmallGain gives region B two sublevels over L6, three
// runs, and writes into B without flushing. Compacting B would leave a seek
// there facing L6 and the run the forced flush of those writes adds: one run
// fewer, less than the MinRuns-1 the advisor asks for, so it skips it. Once
// the writes are flushed (B is three sublevels deep) the memtable is empty
// and the same waste gets B compacted, down to one run.
func TestAdvisorSkipsSmallGain(t *testing.T) {
	source := &fakeWaste{}
	var looks []Look
	opts := testOptions()
	for i := range opts.TargetFileSizes {
		opts.TargetFileSizes[i] = 32 << 10
	}
	require.NoError(t, NoCompaction{}.Apply(opts))
	adv, err := NewAdvisor(opts, AdvisorConfig{Source: source, MinWaste: 100, MinRuns: 3, WriteBudget: -1,
		OnLook: func(l Look) { looks = append(looks, l) }})
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

	writeB(50) // into the memtable
	source.add(1000, tablesIn(t, db, regionB, 0)...)
	require.False(t, adv.step(ctx, db))
	l := looks[len(looks)-1]
	require.Equal(t, reasonNoGain, l.Reason, "%s", l)
	require.Equal(t, 3, l.Best.RunsBefore)
	require.Equal(t, 2, l.Best.RunsPredicted, "L6 and the forced flush's run")

	w.flush()
	source.add(1000, tablesIn(t, db, regionB, 0)...)
	require.True(t, adv.step(ctx, db))
	l = looks[len(looks)-1]
	require.Equal(t, 4, l.Best.RunsBefore)
	require.Equal(t, 1, l.Best.RunsPredicted)
	require.Equal(t, 1, db.Metrics().ReadAmp())
}

// TestAdvisorRejectsBadBudget checks that a write budget that is not a
// number is refused by name rather than read as "never compact" or "no
// bound".
func TestAdvisorRejectsBadBudget(t *testing.T) {
	for _, b := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := NewAdvisor(testOptions(), AdvisorConfig{Source: &fakeWaste{}, WriteBudget: b})
		require.ErrorContains(t, err, "WriteBudget")
	}
	_, err := NewAdvisor(testOptions(), AdvisorConfig{Source: &fakeWaste{}, WriteBudget: -1})
	require.NoError(t, err)
}

// TestAdvisorBudgetArithmetic checks how the budget is earned and spent: a
// compaction is charged what it wrote beyond its L0 input (at least its
// estimate, should the events have missed its output), its output is not
// counted as earnings, and a huge WriteBudget caps the budget instead of
// overflowing into "never compact".
func TestAdvisorBudgetArithmetic(t *testing.T) {
	const mib = 1 << 20
	newAdv := func(budget float64) *Advisor {
		a, err := NewAdvisor(testOptions(), AdvisorConfig{Source: &fakeWaste{}, WriteBudget: budget})
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
	a.charge(candidate{rewrites: 10 * mib, charged: 10 * mib, l0Bytes: 5 * mib}, 40*mib)
	require.Equal(t, int64(50*mib-35*mib), a.budget())
	// Output the events missed is charged at the estimate.
	a.charge(candidate{rewrites: 10 * mib, charged: 10 * mib, l0Bytes: 5 * mib}, 0)
	require.Equal(t, int64(0), a.budget(), "0.5*(140-55) MiB earned, 45 spent")

	// With a shape that would have rewritten two thirds of what it rewrote
	// below L0, a third of what it wrote there is charged: here 30 of 90
	// MiB, its 10 MiB from L0 not counted.
	a = newAdv(0.5)
	a.monitor.flushedBytes.Add(200 * mib)
	a.monitor.compactedBytes.Add(100 * mib)
	a.charge(candidate{rewrites: 60 * mib, charged: 20 * mib, l0Bytes: 10 * mib}, 100*mib)
	require.Equal(t, int64(100*mib-30*mib), a.budget())

	huge := newAdv(1e300)
	huge.monitor.flushedBytes.Add(100 * mib)
	require.Equal(t, int64(math.MaxInt64), huge.budget())
	require.Equal(t, int64(-1), newAdv(-1).budget())
}

// TestAdvisorBelowCharge checks what rewriting a table below L0 costs the
// budget: in full without a ShapeMergeDepth; with one of D, the fraction
// 1-d/D, where d is the depth of the deepest unit over the table, and
// nothing once a unit over it is due.
func TestAdvisorBelowCharge(t *testing.T) {
	units := []l0Unit{
		{Smallest: []byte("b"), Largest: []byte("c"), Depth: 2},
		{Smallest: []byte("e"), Largest: []byte("f"), Depth: 8},
		{Smallest: []byte("g"), Largest: []byte("h"), Depth: 4},
		{Smallest: []byte("m"), Largest: []byte("p"), Depth: 13},
	}
	table := func(smallest, largest string) pebble.SSTableInfo {
		var info pebble.SSTableInfo
		info.Smallest.UserKey, info.Largest.UserKey = []byte(smallest), []byte(largest)
		info.Size = 1100
		return info
	}
	for _, tc := range []struct {
		smallest, largest string
		depth             int
		want              uint64
	}{
		{"a", "a", 0, 1100},           // nothing is charged less without a shape depth
		{"a", "b", 11, 900},           // under the 2 deep unit: 1-2/11
		{"c", "d", 11, 900},           // ends inside it
		{"d", "d", 11, 1100},          // between units: nothing over it comes due
		{"a", "g", 11, 300},           // the deepest of three, 8: 1-8/11
		{"h", "k", 11, 700},           // the 4 deep unit's last key: 1-4/11
		{"i", "l", 11, 1100},          // after it
		{"n", "o", 11, 0},             // inside a unit past due
		{"q", "z", 11, 1100},          // past every unit
		{"b", "c", 0, 1100},           // no shape depth: in full
		{"a", "z", 20, 1100 * 7 / 20}, // the 13 deep unit
	} {
		a, err := NewAdvisor(testOptions(), AdvisorConfig{Source: &fakeWaste{}, ShapeMergeDepth: tc.depth})
		require.NoError(t, err)
		require.Equal(t, tc.want, a.belowCharge(table(tc.smallest, tc.largest), units),
			"[%s, %s] at depth %d", tc.smallest, tc.largest, tc.depth)
	}
}
