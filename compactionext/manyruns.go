// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
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
// compaction gives: every flush adds a run on top, and runs are merged only
// when there are more than Runs of them.
//
// The shape it produces:
//   - Automatic compactions are off, so Pebble's leveled picker never runs.
//     Each flush lands in L0; a flush whose keys overlap older L0 tables
//     becomes a new L0 sublevel, that is a new sorted run.
//   - Lbase is pinned to L6 (LBaseMaxBytes is effectively infinite), so below
//     L0 there is at most one run: L6.
//   - A driver watches the run count (L0 sublevels + non-empty levels) after
//     every flush and, when it would exceed Runs, merges the oldest runs. As
//     flushes go on while a merge runs, "would exceed" looks ahead: the
//     driver merges once the count plus the flushes that ended during its
//     previous merge (at most Runs/2) exceeds Runs. It calls
//     DB.Compact on the key span of the oldest L0 sublevel. Pebble's manual
//     compaction takes every L0 table overlapping that span, whatever its
//     sublevel, and writes it with the L6 tables of the span into L6.
//   - L0StopWritesThreshold is raised to 3·Runs so the driver, not a write
//     stop, bounds L0.
//
// With flushes that overlap each other (random writes) the run count is
// therefore a sawtooth: it climbs by one per flush up to Runs+1, and one
// merge brings it back to 1 or 2. With flushes whose keys do not overlap
// (sequential writes) the tables stack in one sublevel and there are only
// one or two runs, however many flushes there were.
//
// What it cannot reproduce of universal compaction:
//   - Universal picks adjacent runs by size ratio and merges only some of
//     them (newest small runs together, or all for size amplification), so
//     its run count stays near the trigger. Pebble's exported API can only
//     merge L0 by key span, and with overlapping flushes a span takes every
//     sublevel: there is no partial merge, hence the sawtooth.
//   - A universal run is a file (or a level of 40), one per flush even when
//     keys do not overlap; Pebble packs non-overlapping flushes into one
//     sublevel, so disjoint data never forms many runs here.
//   - At most 7 levels; runs beyond one below L0 are sublevels, and the merged
//     data always lands in L6.
//   - A manual compaction waits for a memtable overlapping its span to
//     flush, so a merge also flushes the memtable.
type ManyRuns struct {
	// Runs is the sorted-run count the driver keeps (at least 2).
	Runs int
	// MinInterval is the least time between two driver compactions
	// (default one second).
	MinInterval time.Duration
	// Clock is the driver's time source (default RealClock).
	Clock Clock

	// Set by Apply.
	monitor  *Monitor
	comparer *pebble.Comparer
	logger   pebble.Logger
	// lead is how many flushes ended while the last merge ran: the driver
	// merges that many runs early. Owned by the driver goroutine.
	lead int
	// stepped is the worker's test hook.
	stepped func(acted bool)
}

// Name implements Profile.
func (p *ManyRuns) Name() string { return "many-runs" }

// Apply implements Profile.
func (p *ManyRuns) Apply(opts *pebble.Options) error {
	if p.Runs < 2 {
		return errors.Newf("compactionext: ManyRuns needs at least 2 runs, got %d", p.Runs)
	}
	opts.DisableAutomaticCompactions = true
	opts.L0StopWritesThreshold = max(opts.L0StopWritesThreshold, 3*p.Runs)
	// Pebble's L0 score is 2·sublevels/threshold; this records the intent
	// should automatic compactions be turned back on.
	opts.L0CompactionThreshold = 2 * p.Runs
	opts.LBaseMaxBytes = 1 << 60
	p.comparer = opts.Comparer
	if p.comparer == nil {
		p.comparer = pebble.DefaultComparer
	}
	p.logger = opts.Logger
	if p.logger == nil {
		p.logger = pebble.DefaultLogger
	}
	p.monitor = NewMonitor()
	p.monitor.Attach(opts)
	return nil
}

// Start implements Profile.
func (p *ManyRuns) Start(db DB) (func(), error) {
	if p.monitor == nil {
		return nil, errors.New("compactionext: ManyRuns.Start called before Apply")
	}
	clock := p.Clock
	if clock == nil {
		clock = RealClock{}
	}
	interval := p.MinInterval
	if interval <= 0 {
		interval = time.Second
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

// step merges the oldest runs if there are too many.
func (p *ManyRuns) step(ctx context.Context, db DB) bool {
	shape, err := Shape(db, p.comparer.Compare)
	if err != nil {
		p.logger.Errorf("%v", err)
		return false
	}
	before := shape.SortedRuns()
	if before+p.lead <= p.Runs {
		return false
	}
	start, end, ok := oldestSpan(shape, p.comparer.Compare)
	if !ok {
		return false
	}
	end = p.comparer.ImmediateSuccessor(nil, end)
	flushes := p.monitor.Flushes()
	err = db.Compact(ctx, start, end, false)
	// Compact flushes an overlapping memtable first; that flush is part
	// of the merge, not a run that arrived meanwhile.
	p.lead = min(max(int(p.monitor.Flushes()-flushes)-1, 0), p.Runs/2)
	if err != nil {
		if ctx.Err() == nil {
			p.logger.Errorf("%v", redact.Sprintf(
				"compactionext: many-runs merge of [%s, %s): %v", start, end, err))
		}
		return true
	}
	after := -1
	if s, err := Shape(db, p.comparer.Compare); err == nil {
		after = s.SortedRuns()
	}
	p.logger.Infof("%v", redact.Sprintf(
		"compactionext: many-runs: %d runs > target %d, merged [%s, %s); %d runs after",
		redact.Safe(before), redact.Safe(p.Runs), start, end, redact.Safe(after)))
	return true
}

// oldestSpan is the key span of the oldest L0 sublevel, or, when L0 is
// empty, of the whole LSM.
func oldestSpan(shape LSMShape, compare pebble.Compare) (start, end []byte, ok bool) {
	for _, r := range shape.Runs {
		if r.Kind == Sublevel && r.Sublevel == 0 {
			return r.Smallest, r.Largest, true
		}
		if r.Kind == Memtables {
			continue
		}
		if start == nil || compare(r.Smallest, start) < 0 {
			start = r.Smallest
		}
		if end == nil || compare(r.Largest, end) > 0 {
			end = r.Largest
		}
	}
	return start, end, start != nil
}
