// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
)

// AdvisorConfig configures the compaction advisor.
type AdvisorConfig struct {
	// Source gives the per-table waste counts (required).
	Source WasteSource
	// MinInterval is the least time between two advisor compactions
	// (default 10s). The advisor also looks at the counts this often.
	MinInterval time.Duration
	// MinWaste is the least waste, summed over the tables overlapping a
	// range, that makes the range worth compacting (default 1000).
	MinWaste uint64
	// MinRuns is the least number of sorted runs that must overlap a range
	// for it to be compacted (default 3): with fewer, a compaction cannot
	// save much.
	MinRuns int
	// Clock is the time source (default RealClock).
	Clock Clock
	// OnDecision, if set, is called after each advisor compaction.
	OnDecision func(Decision)
}

// Decision is one advisor compaction.
type Decision struct {
	// Start and End bound the compacted key range, both inclusive.
	Start, End []byte
	// Waste is the decayed waste of the tables overlapping the range that
	// triggered the compaction.
	Waste uint64
	// RunsBefore and RunsAfter count the sorted runs overlapping the range
	// before and after the compaction.
	RunsBefore, RunsAfter int
	// Err is the compaction's error, if it failed.
	Err error
}

// SafeFormat implements redact.SafeFormatter; the keys are redactable.
func (d Decision) SafeFormat(w redact.SafePrinter, _ rune) {
	w.Printf("compacted [%s, %s]: waste %d over %d runs, %d runs after",
		d.Start, d.End, redact.Safe(d.Waste), redact.Safe(d.RunsBefore), redact.Safe(d.RunsAfter))
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
// workload rather than its history). For each table with a score it takes
// the table's key range as a candidate, sums the scores of all tables
// overlapping it, and counts the sorted runs overlapping it. The candidate
// with the highest sum, among those with at least MinRuns runs and MinWaste
// waste, is compacted with DB.Compact: all runs overlapping it are merged
// into one. Only one compaction runs at a time, at most one per MinInterval,
// none while writes are stalled; Close cancels a queued compaction and
// waits.
//
// Each compaction is reported to OnDecision and logged through the Options'
// Logger with the range (keys redactable), its waste and the runs before and
// after. A compaction only rewrites tables; what reads return is unchanged.
type Advisor struct {
	cfg      AdvisorConfig
	comparer *pebble.Comparer
	logger   pebble.Logger
	monitor  *Monitor
	enabled  atomic.Bool

	w *worker
	// Owned by the worker goroutine.
	last   map[pebble.TableNum]uint64 // counts at the last look
	scores map[pebble.TableNum]uint64 // decayed waste
	buf    []TableWaste
	// stepped is the worker's test hook.
	stepped func(acted bool)
}

// NewAdvisor prepares an advisor for a DB about to be opened with opts: it
// attaches the event monitor it needs to opts. Start it once the DB is open.
func NewAdvisor(opts *pebble.Options, cfg AdvisorConfig) (*Advisor, error) {
	if cfg.Source == nil {
		return nil, errors.New("compactionext: advisor needs a WasteSource")
	}
	if cfg.MinInterval <= 0 {
		cfg.MinInterval = 10 * time.Second
	}
	if cfg.MinWaste == 0 {
		cfg.MinWaste = 1000
	}
	if cfg.MinRuns <= 0 {
		cfg.MinRuns = 3
	}
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	a := &Advisor{
		cfg:      cfg,
		comparer: opts.Comparer,
		logger:   opts.Logger,
		monitor:  NewMonitor(),
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

// SetEnabled switches the advisor on or off while it runs; off, it still
// follows the waste counts but compacts nothing.
func (a *Advisor) SetEnabled(on bool) { a.enabled.Store(on) }

// Start starts the advisor's goroutine on the open db.
func (a *Advisor) Start(db DB) {
	a.w = &worker{
		clock:       a.cfg.Clock,
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
func (a *Advisor) step(ctx context.Context, db DB) bool {
	a.observe()
	if !a.enabled.Load() {
		return false
	}
	tables, err := db.SSTables()
	if err != nil {
		a.logger.Errorf("%v", errors.Wrap(err, "compactionext: advisor listing sstables"))
		return false
	}
	lsm := newRunIndex(tables, a.comparer.Compare)
	c, ok := a.pick(lsm)
	if !ok {
		return false
	}
	d := Decision{Start: c.start, End: c.end, Waste: c.waste, RunsBefore: c.runs}
	d.Err = db.Compact(ctx, c.start, a.comparer.ImmediateSuccessor(nil, c.end), false)
	if d.Err != nil && ctx.Err() != nil {
		return true // stopping
	}
	if after, err := db.SSTables(); err == nil {
		d.RunsAfter = newRunIndex(after, a.comparer.Compare).runsOverlapping(c.start, c.end)
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
func (a *Advisor) observe() {
	a.buf = a.cfg.Source.TableWaste(a.buf[:0])
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
	for t, s := range a.scores {
		if _, ok := seen[t]; !ok || s == 0 {
			delete(a.scores, t)
		}
	}
}

// candidate is a key range the advisor might compact.
type candidate struct {
	start, end []byte
	waste      uint64
	runs       int
}

// pick returns the range most worth compacting.
func (a *Advisor) pick(lsm runIndex) (candidate, bool) {
	compare := a.comparer.Compare
	var best candidate
	found := false
	for num := range a.scores {
		t, ok := lsm.tables[num]
		if !ok {
			continue
		}
		c := candidate{start: t.Smallest.UserKey, end: t.Largest.UserKey}
		c.runs = lsm.runsOverlapping(c.start, c.end)
		if c.runs < a.cfg.MinRuns {
			continue
		}
		for _, o := range lsm.overlapping(c.start, c.end) {
			c.waste += a.scores[o.FileNum]
		}
		if c.waste < a.cfg.MinWaste {
			continue
		}
		better := !found || c.waste > best.waste ||
			// Equal waste: the narrower range costs less to compact;
			// then the smaller start key, so the choice is deterministic.
			(c.waste == best.waste && (compare(c.end, best.end) < 0 ||
				(compare(c.end, best.end) == 0 && compare(c.start, best.start) > 0)))
		if better {
			best, found = c, true
		}
	}
	return best, found
}
