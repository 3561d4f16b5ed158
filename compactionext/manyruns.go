// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
)

// DefaultRuns is the run count ManyRuns keeps when none is given: the
// seed scenario's universal compaction trigger (8) plus the few large runs
// universal compaction keeps below it.
const DefaultRuns = 12

// ManyRuns keeps an LSM with many sorted runs, the shape RocksDB's universal
// compaction gives: every flush adds a run on top, and a read consults about
// Runs of them, all the time.
//
// Pebble's exported API can merge runs only by key range: DB.Compact of a
// range merges every run overlapping it (all L0 tables there, widened until
// no overlapping older L0 table is left out, and every level below) into the
// bottom level. It cannot merge the oldest few runs of the whole key space
// and leave the newer ones, which is what universal compaction does. Merging
// all of L0 whenever it grows too deep gives a sawtooth (Runs+1 down to 1 or
// 2). ManyRuns instead cuts the key space into slices and merges a few slices
// at a time, sweeping across the keys like a round-robin compaction, so each
// slice is merged once every Runs-1 flushes and the slices' ages are
// staggered: the oldest slice is Runs-1 flushes deep when it is merged, the
// one just merged is one deep, and the count Pebble reports (L0 sublevels, the
// deepest slice, plus L6) stays near Runs instead of swinging.
//
// The shape it produces:
//   - Automatic compactions are off, so Pebble's leveled picker never runs.
//     Lbase is pinned to L6 (LBaseMaxBytes is effectively infinite), so below
//     L0 there is at most one run: L6, in tables of SliceBytes.
//   - Pebble cuts a flush's output at an L6 table's start key once the
//     table's overlap with L6 exceeds ten times L0's target file size. That
//     target is set to SliceBytes/16, so flushed tables do not cross L6 table
//     boundaries: each L6 table with the L0 tables above it is one slice.
//     The driver merges l0Units (tables that overlap only each other), which
//     lie within slices: a slice starts as several small units and they
//     join as it deepens. Where an L6 table is small, its flushed tables
//     cross into the next and two slices fuse into one unit; the next merge
//     cuts them apart again.
//   - A driver wakes after each flush and merges, in one DB.Compact, a run
//     of adjacent units after the one it merged last (wrapping at the end
//     of the keys). In its first sweep over the keys, from the first, it
//     takes a (Runs-1)th of the keys for each of the f flushes since its
//     last merge (not counting a lone flush that merge forced), measured
//     in slices where units are no smaller, which staggers the slices'
//     ages (see pickWarmUp); it ends at the last slice, waiting for L0 to
//     reach it if need be, or once a unit is due (see pick).
//     After that it merges a unit when it is Runs-1 deep (due), the oldest
//     in a staggered L0, a unit or two at a time: units merged together
//     stay one age and would come due together, and the count would fall
//     by their spread after each such merge. It waits a flush or two rather
//     than leave no unit within two of due, but merges a unit at the latest
//     once it is more than a flush past due (see pickDue). The count stays
//     between Runs-2 and Runs+1, and reaches Runs+2 while a clump is being
//     spread.
//   - A unit with more than two slices' bytes in tables over no L6 table
//     is merged as soon as the driver sees it, outside the sweep: a
//     sequential load leaves such keys past L6's end, and the first flush of
//     random writes joins their tables into one unit, which would otherwise
//     be merged whole and come due whole ever after (see unslicedUnit).
//   - A merge due waits until the memtable is about two thirds full (or
//     empty), unless a unit is more than a flush past due: the flush it
//     forces must be large, or Pebble widens its tables across slices,
//     and every flush deepens every unit (see memTableFilled).
//   - Pebble's L0 write stop is switched off (L0StopWritesThreshold set
//     beyond reach): the driver bounds L0. With automatic compactions off
//     only its merges shrink L0, and a merge cannot run while a writer
//     waits on an L0 stop: Compact must first flush the mutable memtable,
//     which takes the commit lock that the waiting writer holds, so an L0
//     stop would never end. MemTableStopWritesThreshold is raised to 4, so
//     that a flush slowed by a merge next to it does not stop writes; a
//     memtable stall ends by itself, as flushes finish.
//
// What it cannot reproduce of universal compaction:
//   - A key's run count is not the same everywhere: a key in the slice
//     merged last is in about 2 runs, one in the oldest slice in Runs. The
//     count Pebble reports (and a merging iterator holds: every sublevel is
//     one level iterator, and an unbounded seek in a sublevel with nothing
//     at the key goes on to its next table) is the deepest slice's.
//   - Compact waits for a memtable that overlaps its range to flush, and
//     with writes spread over the keys one always does, so each merge also
//     flushes the memtable: one more, smaller run in every slice. The
//     driver's flush count includes these flushes.
//   - A universal run is a file (or a level of 40), one per flush even when
//     keys do not overlap; Pebble packs non-overlapping flushes into one
//     sublevel, so disjoint data never forms many runs here.
//   - At most 7 levels; runs beyond one below L0 are sublevels, and the merged
//     data always lands in L6.
type ManyRuns struct {
	// Runs is the sorted-run count the driver keeps (at least 2).
	Runs int
	// SliceBytes is the size of the slices merged one at a time, the target
	// size of L6 tables (default MemTableSize/2, at least 64 KiB, with
	// Pebble's 4 MiB default for a MemTableSize left at zero). Smaller
	// slices make the count steadier and the merges smaller, at the cost of
	// more, smaller L0 tables (SliceBytes/16 is L0's target file size): a
	// much smaller slice makes each flush dozens of tables, and with a dozen
	// sublevels of those Pebble's flushes slow until writes stop.
	SliceBytes int64
	// MinInterval is the least time between two driver merges (default
	// 200ms). A merge held back takes the flushes that came meanwhile into
	// account, so a longer interval means fewer, larger merges.
	MinInterval time.Duration
	// clock is the driver's time source (default the wall clock); tests set a fake.
	clock clock

	// Set by Apply.
	monitor      *monitor
	sliceBytes   int64 // SliceBytes or its default
	memTableSize int64 // the Options' MemTableSize or Pebble's default
	comparer     *pebble.Comparer
	logger       pebble.Logger
	// Owned by the driver goroutine: the flush count at the end of the last
	// merge, and the largest key it merged (nil: start from the first key).
	flushesSeen int64
	cursor      []byte
	// forced is 1 if the last merge forced a flush.
	forced int64
	// walPeak is the most unflushed WAL bytes seen, up to MemTableSize.
	walPeak int64
	// sliced counts the merges of unsliced units (outside the sweep), for
	// tests.
	sliced int
	// merges counts the sweep's merges; warm is set once the first sweep
	// over the keys after the first merge is complete; fromFirst once a
	// sweep has begun at the first key, after a wrap or by pick's restart.
	merges          int
	warm, fromFirst bool
	// stepped is the worker's test hook.
	stepped func(acted bool)
}

// Name implements Profile.
func (p *ManyRuns) Name() string { return "many-runs" }

// mergeDepth is the depth at which a unit is due: the driver merges it into
// L6 then (see MergeDepth).
func (p *ManyRuns) mergeDepth() int { return p.Runs - 1 }

// Apply implements Profile.
func (p *ManyRuns) Apply(opts *pebble.Options) error {
	if p.Runs < 2 {
		return errors.Newf("compactionext: ManyRuns needs at least 2 runs, got %d", p.Runs)
	}
	opts.DisableAutomaticCompactions = true
	opts.L0StopWritesThreshold = math.MaxInt32
	// Every merge flushes the memtable early (see above), and a flush
	// that runs next to a merge takes longer: room for four memtables
	// rather than Pebble's two keeps writes from stopping meanwhile.
	opts.MemTableStopWritesThreshold = max(opts.MemTableStopWritesThreshold, 4)
	// Pebble's L0 score is 2·sublevels/threshold; this records the intent
	// should automatic compactions be turned back on.
	opts.L0CompactionThreshold = 2 * p.Runs
	opts.LBaseMaxBytes = 1 << 60
	p.memTableSize = int64(opts.MemTableSize)
	if p.memTableSize <= 0 {
		// Open has not applied Pebble's defaults yet.
		defaults := &pebble.Options{}
		defaults.EnsureDefaults()
		p.memTableSize = int64(defaults.MemTableSize)
	}
	p.sliceBytes = p.SliceBytes
	if p.sliceBytes <= 0 {
		p.sliceBytes = max(p.memTableSize/2, 64<<10)
	}
	// With Lbase at L6, TargetFileSizes[1] is L6's; the rest are set alike
	// should Lbase ever move up.
	opts.TargetFileSizes[0] = max(p.sliceBytes/16, 1)
	for i := 1; i < len(opts.TargetFileSizes); i++ {
		opts.TargetFileSizes[i] = p.sliceBytes
	}
	// A new DB starts a new sweep: the driver's state belongs to the DB
	// these options open, even when the profile is reused.
	p.flushesSeen, p.cursor, p.forced, p.walPeak = 0, nil, 0, 0
	p.merges, p.sliced, p.warm, p.fromFirst = 0, 0, false, false
	p.comparer = opts.Comparer
	if p.comparer == nil {
		p.comparer = pebble.DefaultComparer
	}
	p.logger = opts.Logger
	if p.logger == nil {
		p.logger = pebble.DefaultLogger
	}
	p.monitor = newMonitor()
	p.monitor.Attach(opts)
	return nil
}

// Start implements Profile.
func (p *ManyRuns) Start(db *pebble.DB) (func(), error) { return p.start(db) }

// start is Start on any compactDB, which tests stand in for.
func (p *ManyRuns) start(db compactDB) (func(), error) {
	if p.monitor == nil {
		return nil, errors.New("compactionext: ManyRuns.Start called before Apply")
	}
	clock := p.clock
	if clock == nil {
		clock = realClock{}
	}
	interval := p.MinInterval
	if interval <= 0 {
		interval = 200 * time.Millisecond
	}
	w := &worker{
		clock:       clock,
		monitor:     p.monitor,
		wake:        p.monitor.Subscribe(),
		poll:        interval,
		minInterval: interval,
		step:        func(ctx context.Context) bool { return p.step(ctx, db) },
		stepped:     p.stepped,
	}
	w.start()
	return w.stop, nil
}

// step merges the units pick chooses, if a merge is due and the memtable
// full enough for the flush it forces.
func (p *ManyRuns) step(ctx context.Context, db compactDB) bool {
	levels, err := db.SSTables()
	if err != nil {
		p.logger.Errorf("%v", errors.Wrap(err, "compactionext: many-runs listing sstables"))
		return false
	}
	if len(levels) == 0 || len(levels[0]) == 0 {
		return false
	}
	compare := p.comparer.Compare
	units := l0Units(levels[0], compare)
	below := 0
	for _, tables := range levels[1:] {
		if len(tables) > 0 {
			below++
		}
	}
	before := below
	for _, u := range units {
		before = max(before, u.Depth+below)
	}
	if !overdue(units, p.Runs) && !p.memTableFilled(db) {
		return false
	}
	seen := p.monitor.Flushes()
	flushes := seen - p.flushesSeen
	if flushes <= p.forced {
		// Only the flush the last merge forced: sweeping on because of
		// it would merge and force flushes in a loop. Catch up only.
		flushes = 0
	}
	// The slices are L6's tables.
	bottom := levels[len(levels)-1]
	var i, j int
	var restart bool
	k := unslicedUnit(units, levels[0], bottom, p.sliceBytes, compare)
	slicing := k >= 0
	if slicing {
		i, j = k, k+1
	} else {
		i, j, restart = p.pick(units, bottom, flushes)
	}
	if i == j {
		return false
	}
	start, end := units[i].Smallest, units[j-1].Largest
	err = db.Compact(ctx, start, p.comparer.ImmediateSuccessor(nil, end), false)
	// Flushes from here on count towards the next merge, including the one
	// Compact forces (of a memtable overlapping the range): it added a run
	// to every slice it touched. That flush ends before the compaction
	// starts, so a flush counted meanwhile is almost always it.
	if err != nil {
		if ctx.Err() == nil {
			p.logger.Errorf("%v", redact.Sprintf(
				"compactionext: many-runs merge of [%s, %s]: %v", start, end, err))
		}
	}
	if slicing {
		// Not part of the sweep: its cursor and flush count stay, and the
		// flush this merge forced counts as any other.
		if err == nil {
			p.sliced++
			p.logger.Infof("%v", redact.Sprintf(
				"compactionext: many-runs: %d runs (target %d): merged unit %d of %d (%s), which L6 does not slice, [%s, %s]",
				redact.Safe(before), redact.Safe(p.Runs), redact.Safe(i), redact.Safe(len(units)),
				redact.Safe(humanBytes(units[i].Bytes)), start, end))
		}
		return true
	}
	p.forced = min(p.monitor.Flushes()-seen, 1)
	p.flushesSeen = seen
	if err != nil {
		return true
	}
	p.cursor = slices.Clone(end)
	p.fromFirst = p.fromFirst || restart
	if j == len(units) && (p.warm || !startsAfter(bottom, end, compare)) {
		p.endSweep()
	}
	p.merges++
	after := -1
	if s, err := lsmShape(db, compare); err == nil {
		after = s.SortedRuns()
	}
	p.logger.Infof("%v", redact.Sprintf(
		"compactionext: many-runs: %d runs (target %d), %d flushes: merged units %d-%d of %d, [%s, %s]; %d runs after",
		redact.Safe(before), redact.Safe(p.Runs), redact.Safe(flushes), redact.Safe(i), redact.Safe(j-1),
		redact.Safe(len(units)), start, end, redact.Safe(after)))
	return true
}

// endSweep starts the next sweep at the first key, once a sweep has reached
// the end of the keys (or pick gave up waiting for L0 to reach it). The first
// sweep is over at the first end after the units the fill left in L0 (the
// first merge) were merged. Merges outside the sweep do not count: in a new
// DB whose first merge is one, the driver sweeps once more before it is warm.
func (p *ManyRuns) endSweep() {
	p.cursor = nil
	p.warm = p.merges > 0
	p.fromFirst = true
}

// memTableFilled reports whether the flush a merge would force is large
// enough for its tables to stay within slices: no flush is under way, and the
// unflushed WAL bytes (of every memtable, queued ones included) reach two
// thirds of the most the driver has seen them reach with no flush under way
// (at most MemTableSize), or are zero (a merge then forces no flush). While
// a flush is under way the WAL also holds the memtable being flushed, and
// the mutable one may be nearly empty; the flush's end wakes the driver.
//
// Pebble widens the tables of a small flush over a large Lbase
// (adjustGrandparentOverlapBytesForFlush: a tiny flush may overlap a quarter
// of Lbase per table, so that it does not become many tiny files); such
// tables span several slices, and the units they overlap fuse into one,
// which the next merge takes whole: the count then falls in a sawtooth rather
// than staying near Runs. Merging right after a flush, when the new memtable
// is nearly empty, always forced such a flush. Each forced flush also deepens
// every unit as a full one does, so the fuller the memtable a merge flushes,
// the fewer flushes and merges the same writes cost; hence two thirds, not
// half (docs/benchmarks.md has the difference it made).
//
// The WAL holds less than MemTableSize when the memtable is full (Pebble's
// arena also holds the skiplist's nodes: about 0.9 of it for 200-byte values,
// less for small ones), hence the fraction of the largest seen rather than of
// MemTableSize, which small entries would never reach. The peak is never
// lowered: after a change to much smaller entries, merges wait until a unit
// is more than a flush past due. Without a WAL the fill is unknown and the
// driver does not wait.
func (p *ManyRuns) memTableFilled(db compactDB) bool {
	if p.monitor.Flushing() {
		return false
	}
	live := int64(db.Metrics().WAL.Size)
	p.walPeak = max(p.walPeak, min(live, p.memTableSize))
	return live == 0 || live >= p.walPeak*2/3
}
