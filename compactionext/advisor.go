// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
	"github.com/pebblerf/pebble/internal/tablewaste"
)

// AdvisorConfig configures the compaction advisor, which pebblerf runs with
// Plugins.Advisor (see the package documentation for what it does, and
// advisor for how). Its waste counts are the per-level statistics'.
type AdvisorConfig struct {
	// MinInterval is the least time between two advisor compactions
	// (default 5s). The advisor also looks at the counts this often. The
	// write budget, not this, is what bounds the advisor's cost over a
	// long run; the interval spaces its compactions once it has budget.
	MinInterval time.Duration
	// MinWaste is the least waste, summed over the tables overlapping a
	// range, that makes the range worth compacting (default 1000).
	MinWaste uint64
	// MinRuns is the least number of sorted runs that must overlap a range
	// for it to be compacted (default 3): with fewer, a compaction cannot
	// save much. For the same reason a compaction must be predicted to take
	// away at least MinRuns-1 of the runs a seek there faces (see
	// Decision.RunsPredicted).
	MinRuns int
	// WriteBudget bounds the write amplification the advisor adds, as a
	// fraction of what the DB writes without it (default 0.3; negative: no
	// bound): what its compactions write beyond what the shape would have
	// written anyway stays within WriteBudget times the bytes everything else
	// wrote since it started (flushes, and compactions other than its own,
	// moves not counted). What the shape would have written anyway: the L0
	// bytes a compaction takes in, since the shape's own compactions rewrite
	// each of them once, and the advisor only does that earlier, in their
	// place; and, on a shape that merges L0 at a set depth (see
	// ShapeMergeDepth), part of the data below L0 (though there the flush each
	// compaction forces is charged). The rest of what it writes below L0 (once
	// per level on a leveled shape) is charged. So with the default, write-amp
	// stays within 1.3x that of the same shape without the advisor, as long as
	// the shape compacts each flushed byte out of L0 once, merges at its
	// ShapeMergeDepth if it has one, and does not otherwise compact more
	// because of the advisor. A compaction that does not fit waits: the
	// advisor earns its budget as data arrives, and on a DB that takes no
	// writes it compacts nothing but L0 tables over an empty range below.
	WriteBudget float64
	// ShapeMergeDepth is the depth (L0 sublevels) at which the shape's own
	// compactions merge a unit of L0 (tables that overlap only each other) into
	// the level below, if it has such a rule: the profile's, which
	// pebble.OpenWithPlugins sets when it is zero (ManyRuns gives Runs-1, the
	// depth at which a unit is due). The data below a unit is then rewritten by
	// the shape anyway, once per ShapeMergeDepth flushes over it, and an advisor
	// merge that takes the depth over a table from in to out only brings that
	// rewrite forward: it adds the fraction 1-(in-out)/ShapeMergeDepth of a
	// rewrite over a long run, and that is what the budget is charged. The flush
	// an advisor compaction forces deepens every unit by one, which brings the
	// shape's next rewrite of everything below L0 nearer by 1/ShapeMergeDepth;
	// that is charged too. This is a model of the shape's rule, so the bound
	// WriteBudget gives holds as far as the shape follows it. Zero (Leveled) or
	// negative: the shape has no such rule, or it is not to be counted on, and
	// every byte rewritten below L0 is charged in full.
	ShapeMergeDepth int
	// clock is the time source (default the wall clock); tests set a fake.
	clock clock
	// OnDecision, if set, is called after each advisor compaction.
	OnDecision func(Decision)
	// OnLook, if set, is called after each look at the waste counts,
	// whether or not it led to a compaction: the advisor's reasoning.
	OnLook func(Look)
}

// Look is what the advisor saw at one look and why it did or did not act.
type Look struct {
	// Reported is the number of tables the source reported waste for;
	// Scored the number with a decayed score, Waste the sum of the scores.
	Reported, Scored int
	Waste            uint64
	// Units is the number of L0 units (the parts of L0 one compaction can
	// take), the candidates.
	Units int
	// Budget is the bytes the advisor could be charged at this look (see
	// AdvisorConfig.WriteBudget); -1 without a bound.
	Budget int64
	// Best is the best candidate seen, whether or not it passed the
	// thresholds (zero if there was none).
	Best Decision
	// Acted says whether the advisor compacted Best; Reason says why not.
	Acted  bool
	Reason string
}

// SafeFormat implements redact.SafeFormatter; the keys are redactable.
func (l Look) SafeFormat(w redact.SafePrinter, _ rune) {
	w.Printf("waste reported for %d tables, %d scored, total %d; %d L0 units; ",
		redact.Safe(l.Reported), redact.Safe(l.Scored), redact.Safe(l.Waste), redact.Safe(l.Units))
	if l.Best.Start != nil {
		w.Printf("best [%s, %s]: waste %d over %d runs (%d predicted after), rewrites %s below L0 (charged %s); ",
			l.Best.Start, l.Best.End, redact.Safe(l.Best.Waste), redact.Safe(l.Best.RunsBefore),
			redact.Safe(l.Best.RunsPredicted), redact.Safe(humanBytes(l.Best.Rewrites)),
			redact.Safe(humanBytes(l.Best.Charged)))
	}
	if l.Budget >= 0 {
		w.Printf("budget %s; ", redact.Safe(humanBytes(uint64(l.Budget))))
	}
	w.Printf("%s", redact.Safe(l.Reason))
}

// String implements fmt.Stringer.
func (l Look) String() string { return redact.StringWithoutMarkers(l) }

// Why a look did not compact.
const (
	reasonCompacted  = "compacted"
	reasonDisabled   = "switched off"
	reasonNoWaste    = "no waste counted"
	reasonFewRuns    = "no range with MinRuns runs holds waste"
	reasonLowWaste   = "waste below MinWaste"
	reasonListFailed = "listing sstables failed"
	reasonBudget     = "its cost exceeds the write budget"
	reasonNoGain     = "too few runs would go"
)

// Decision is one advisor compaction.
type Decision struct {
	// Start and End bound the compacted key range, both inclusive.
	Start, End []byte
	// Waste is the decayed waste of the tables overlapping the range that
	// triggered the compaction.
	Waste uint64
	// RunsBefore and RunsAfter count the sorted runs an unbounded seek to
	// Start pays for (see runsFaced) before and after the compaction: the
	// runs overlapping the range and every run with a table after it.
	RunsBefore, RunsAfter int
	// RunsPredicted is what the advisor expected RunsAfter to be: the runs
	// with a table past the range, the one the range lands in, and the
	// run the flush Compact forces adds. A compaction must be expected to
	// take away at least MinRuns-1 runs (what merging MinRuns into one
	// does): one over a range that faces few runs, with a run past it
	// that stays and the forced flush's, leaves a seek there about as
	// expensive as before.
	// The prediction is approximate: it counts the forced flush whenever
	// the WAL holds data (Compact flushes only a memtable that overlaps the
	// range, and with the WAL disabled it never counts one), and it lands
	// the merge in the bottom run, where Pebble lands it in the deepest
	// level the range overlaps.
	RunsPredicted int
	// Rewrites is the size of the tables below L0 the range overlaps, and
	// Charged what the compaction was expected to cost the write budget:
	// Rewrites, less what the shape would have rewritten anyway and plus
	// the cost of the flush it forces, where AdvisorConfig.ShapeMergeDepth
	// is set; all of Rewrites where it is not. What is charged afterwards
	// is what the compaction wrote below L0, less the same credit, plus the
	// same flush cost.
	Rewrites, Charged uint64
	// Err is the compaction's error, if it failed.
	Err error
}

// SafeFormat implements redact.SafeFormatter; the keys are redactable.
func (d Decision) SafeFormat(w redact.SafePrinter, _ rune) {
	w.Printf("compacted [%s, %s]: waste %d over %d runs, %d runs after (%d predicted), rewrote %s below L0 (charged %s)",
		d.Start, d.End, redact.Safe(d.Waste), redact.Safe(d.RunsBefore), redact.Safe(d.RunsAfter),
		redact.Safe(d.RunsPredicted), redact.Safe(humanBytes(d.Rewrites)), redact.Safe(humanBytes(d.Charged)))
	if d.Err != nil {
		w.Printf(": %v", d.Err)
	}
}

// String implements fmt.Stringer.
func (d Decision) String() string { return redact.StringWithoutMarkers(d) }

// Advisor compacts the key ranges where reads are wasted across many runs.
//
// Every MinInterval, and after each LSM change, it reads the per-table waste
// counts and folds the growth since its last look into a decayed score per
// table (the old score is halved on each look, so the advisor follows the
// workload rather than its history). Its candidates are L0's units, the parts
// of L0 one compaction takes whole (see pick): for each it sums the scores of
// the tables overlapping it and counts the sorted runs there. The unit with
// the most waste, among those with at least MinRuns runs and MinWaste waste,
// widened over the adjacent units that pass both thresholds too and then to
// the right until fewer than MinRuns runs have a table past it, is
// compacted with DB.Compact: all runs overlapping it are merged into one.
// The reach to the right is what makes a compaction pay for unbounded
// seeks: Pebble's level iterator loads the first table ending at or after
// the seek key in every run, so a seek into a freshly merged range still
// pays for each L0 sublevel that holds a table further right.
// Only one compaction runs at a time, at most one per MinInterval, none while
// writes are stalled, and none beyond its write budget: the bytes below L0
// its compactions rewrite, less those the shape would have rewritten anyway,
// stay within WriteBudget times the bytes the rest of the DB wrote since it
// started, so its cost grows with the writes, not with time, and write-amp
// stays within 1+WriteBudget of the DB's without it (as far as the shape
// follows its ShapeMergeDepth, where it has one; the flushes the advisor's
// compactions force are then charged too).
// Close cancels a queued compaction and waits.
//
// What a compaction costs the budget depends on the shape. On the many-runs
// profile (with the depth mergeDepthOf gives; newAdvisor alone leaves it 0) a
// unit comes due Runs-1 deep, and the shape rewrites the data below it then;
// an advisor merge that takes the depth over a table from in to out is
// charged only the share 1-(in-out)/(Runs-1) of that rewrite, plus
// 1/(Runs-1) of everything below L0 for the flush it forces
// (ShapeMergeDepth). That share is small for a merge just before the shape
// would make it, so on uniform seeks the budget lets it merge all of L0
// shortly before the shape would sweep it, and the runs a seek faces fall
// from about Runs all the time to a sawtooth that is lower on average.
// Charged in full, as on a shape with no merge depth, the same budget buys a
// merge of only part of the keys per cycle, which leaves the rest as deep as
// before. What this buys, measured, is in docs/benchmarks.md.
//
// Each compaction is reported to OnDecision and logged through the Options'
// Logger with the range (keys redactable), its waste and the runs before and
// after; every look, acted on or not, is reported to OnLook with the reason.
// A compaction only rewrites tables; what reads return is unchanged.
type Advisor struct {
	cfg      AdvisorConfig
	src      tablewaste.Source
	comparer *pebble.Comparer
	logger   pebble.Logger
	monitor  *monitor
	enabled  atomic.Bool

	w *worker
	// Owned by the worker goroutine.
	last   map[pebble.TableNum]uint64 // counts at the last look
	scores map[pebble.TableNum]uint64 // decayed waste
	buf    []tablewaste.Counts
	// writtenAtStart is the bytes flushed and compacted when the advisor
	// started; own all the bytes its compactions wrote since, and spent
	// what they were charged (see charge).
	writtenAtStart, spent, own uint64
	// stepped is the worker's test hook.
	stepped func(acted bool)
}

// WasteSource gives the advisor its per-table waste counts: pebblerf's
// per-level statistics are one (Plugins.Advisor wires them).
type WasteSource = tablewaste.Source

// TableWaste is one live table's wasted seeks, as a WasteSource gives them.
type TableWaste = tablewaste.Counts

// NewAdvisor prepares an advisor reading src for a DB about to be opened
// with opts, whose LSM shape profile is shape: it attaches the event
// monitor it needs to opts, and takes the shape's merge depth (ManyRuns
// merges at Runs-1) when cfg sets none. Start it once the DB is open, and
// Close it before the DB is closed.
func NewAdvisor(opts *pebble.Options, cfg AdvisorConfig, shape Profile, src WasteSource) (*Advisor, error) {
	if cfg.ShapeMergeDepth == 0 {
		cfg.ShapeMergeDepth = mergeDepthOf(shape)
	}
	return newAdvisor(opts, cfg, src)
}

// newAdvisor prepares an advisor reading src for a DB about to be opened
// with opts: it attaches the event monitor it needs to opts. Start it once
// the DB is open.
func newAdvisor(opts *pebble.Options, cfg AdvisorConfig, src tablewaste.Source) (*Advisor, error) {
	if src == nil {
		return nil, errors.New("compactionext: advisor needs a source of waste counts")
	}
	if cfg.MinInterval <= 0 {
		cfg.MinInterval = 5 * time.Second
	}
	if cfg.MinWaste == 0 {
		cfg.MinWaste = 1000
	}
	if cfg.MinRuns <= 0 {
		cfg.MinRuns = 3
	}
	if math.IsNaN(cfg.WriteBudget) || math.IsInf(cfg.WriteBudget, 0) {
		return nil, errors.Newf("compactionext: AdvisorConfig.WriteBudget is %v; it must be a fraction (negative: no bound)",
			redact.Safe(cfg.WriteBudget))
	}
	if cfg.WriteBudget == 0 {
		cfg.WriteBudget = 0.3
	}
	if cfg.clock == nil {
		cfg.clock = realClock{}
	}
	a := &Advisor{
		cfg:      cfg,
		src:      src,
		comparer: opts.Comparer,
		logger:   opts.Logger,
		monitor:  newMonitor(),
		last:     make(map[pebble.TableNum]uint64),
		scores:   make(map[pebble.TableNum]uint64),
	}
	if a.comparer == nil {
		a.comparer = pebble.DefaultComparer
	}
	if a.logger == nil {
		a.logger = pebble.DefaultLogger
	}
	a.enabled.Store(true)
	a.monitor.Attach(opts)
	return a, nil
}

// setEnabled switches the advisor on or off while it runs; off, it still
// follows the waste counts but compacts nothing.
func (a *Advisor) setEnabled(on bool) { a.enabled.Store(on) }

// Start starts the advisor's goroutine on the open db.
func (a *Advisor) Start(db *pebble.DB) {
	a.writtenAtStart = a.written()
	a.w = &worker{
		clock:       a.cfg.clock,
		monitor:     a.monitor,
		wake:        a.monitor.Subscribe(),
		poll:        a.cfg.MinInterval,
		minInterval: a.cfg.MinInterval,
		step:        func(ctx context.Context) bool { return a.step(ctx, db) },
		stepped:     a.stepped,
	}
	a.w.start()
}

// Close stops the advisor and waits for it. Call it before closing the DB.
func (a *Advisor) Close() {
	if a.w != nil {
		a.w.stop()
	}
}

// step looks at the waste and compacts the worst range if it is bad enough.
func (a *Advisor) step(ctx context.Context, db compactDB) bool {
	look := a.observe()
	look.Budget = a.budget()
	defer func() {
		if a.cfg.OnLook != nil {
			a.cfg.OnLook(look)
		}
	}()
	if !a.enabled.Load() {
		look.Reason = reasonDisabled
		return false
	}
	if look.Scored == 0 {
		look.Reason = reasonNoWaste
		return false
	}
	tables, err := db.SSTables()
	if err != nil {
		a.logger.Errorf("%v", errors.Wrap(err, "compactionext: advisor listing sstables"))
		look.Reason = reasonListFailed // the error, with its keys redactable, is logged above
		return false
	}
	lsm := newRunIndex(tables, a.comparer.Compare)
	var units []l0Unit
	if len(tables) > 0 {
		units = l0Units(tables[0], a.comparer.Compare)
	}
	look.Units = len(units)
	c, reason := a.pick(lsm, units)
	look.Best = Decision{Start: c.start, End: c.end, Waste: c.waste, RunsBefore: c.runs,
		Rewrites: c.rewrites}
	// Compact flushes the memtable first (it overlaps any range the writes
	// cover): one more run, and a cost. (Writes that arrive between this
	// look and the Compact make a flush this does not foresee.)
	forcesFlush := c.start != nil && db.Metrics().WAL.Size > 0
	if forcesFlush {
		c.flushCost = a.forcedFlushCost(lsm)
	}
	if reason == "" {
		look.Best.RunsPredicted = lsm.runsAfterMerge(c.end)
		if forcesFlush {
			look.Best.RunsPredicted++
		}
		switch {
		case c.runs-look.Best.RunsPredicted < a.cfg.MinRuns-1:
			reason = reasonNoGain
		case look.Budget >= 0 && c.charged() > uint64(look.Budget):
			reason = reasonBudget
		}
	}
	look.Best.Charged = c.charged()
	if reason != "" {
		look.Reason = reason
		return false
	}
	look.Acted, look.Reason = true, reasonCompacted
	d := look.Best
	compactedBefore := a.monitor.CompactedBytes()
	d.Err = db.Compact(ctx, c.start, a.comparer.ImmediateSuccessor(nil, c.end), false)
	if d.Err != nil && ctx.Err() != nil {
		return true // stopping
	}
	a.charge(c, a.monitor.CompactedBytes()-compactedBefore)
	if after, err := db.SSTables(); err == nil {
		d.RunsAfter = newRunIndex(after, a.comparer.Compare).runsFaced(c.start)
	}
	// The waste that triggered this is spent; what remains elsewhere is
	// scored afresh.
	clear(a.scores)
	if d.Err != nil {
		a.logger.Errorf("%v", redact.Sprintf("compactionext: advisor %v", d))
	} else {
		a.logger.Infof("%v", redact.Sprintf("compactionext: advisor %v", d))
	}
	if a.cfg.OnDecision != nil {
		a.cfg.OnDecision(d)
	}
	return true
}

// observe folds the growth of the waste counts since the last look into the
// decayed scores.
func (a *Advisor) observe() Look {
	a.buf = a.src.TableWaste(a.buf[:0])
	for t, s := range a.scores {
		a.scores[t] = s / 2
	}
	seen := make(map[pebble.TableNum]struct{}, len(a.buf))
	for _, w := range a.buf {
		total := w.Total()
		seen[w.Table] = struct{}{}
		grew := total - min(total, a.last[w.Table])
		a.last[w.Table] = total
		if grew > 0 {
			a.scores[w.Table] += grew
		}
	}
	for t := range a.last {
		if _, ok := seen[t]; !ok {
			delete(a.last, t) // the table is gone
		}
	}
	look := Look{Reported: len(a.buf)}
	for t, s := range a.scores {
		if _, ok := seen[t]; !ok || s == 0 {
			delete(a.scores, t)
			continue
		}
		look.Scored++
		look.Waste += s
	}
	return look
}
