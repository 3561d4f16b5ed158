package querybuilder

import (
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
	"github.com/pebblerf/pebble/internal/iterhooks"
)

// Iterator is a planned query. It has the method set and the results of a
// pebble.Iterator over the same options: the same keys and values in every
// direction after every repositioning, the same errors; only the bounds the
// upstream iterator is given underneath (and therefore the files it opens)
// differ. It is not safe for concurrent use, like Pebble's.
type Iterator struct {
	b  *Builder
	it *pebble.Iterator
	// h holds the caller's options (h.opts, with owned bounds), the range
	// filters attached for them and the observer of the caller's reads
	// (internal/iterhooks); unobserved queries (Explain's) have none.
	h      iterhooks.IterHooks
	layout *layout
	plan   Plan
	reason reason
	// step, when non-nil, is the upstream iterator's upper bound: a file
	// start above the last seek key and below opts.UpperBound. Nil means the
	// upstream iterator has the caller's bounds.
	step []byte
	// prefixMode is set while the upstream iterator is positioned by a
	// SeekPrefixGE that the prefix plan issued in place of a SeekGE.
	prefixMode bool
	// userPrefix is set while the caller iterates in prefix mode (its own
	// SeekPrefixGE); exhaustion then means the end of the prefix, never the
	// step.
	userPrefix bool
	// window counts stepped seeks and widenings since stepping was last
	// judged (see adapt).
	window struct{ steps, widenings int }
	keyBuf []byte
	stats  QueryStats
	// closed is the Builder's closed hook for a query the caller opened (nil for
	// Explain's probes); seeks and found count the caller's absolute
	// positionings and those that left the query valid, for it.
	closed func(st *pebble.IteratorStats, seeks, found int)
	seeks  int
	found  iterhooks.Found
	// closeStats holds the stats closed is given, so that passing their
	// address does not move them to the heap.
	closeStats pebble.IteratorStats
}

// QueryStats counts what the planner did for one iterator.
type QueryStats struct {
	// Seeks counts forward absolute positionings (SeekGE, First, and
	// SeekPrefixGE) under the stepped plan.
	Seeks int
	// Steps counts the seeks that ran under a narrowed upper bound.
	Steps int
	// Widenings counts the times the caller moved past a step and the
	// iterator re-seeked under a wider bound: the next step, or the
	// caller's bounds once no step is left.
	Widenings int
	// PrefixSeeks counts SeekGEs issued as SeekPrefixGE by the prefix plan.
	PrefixSeeks int
	// PrefixExits counts re-seeks that left prefix mode for a reverse move.
	PrefixExits int
	// SteppingStopped is set when the auto plan gave up stepping because
	// most steps were widened.
	SteppingStopped bool
}

// adaptWindow and adaptMaxWidenings decide when the auto plan stops
// stepping: a widening costs a second seek, so when more than half of the
// recent steps widened, stepping costs more than it defers.
const (
	adaptWindow       = 64
	adaptMaxWidenings = adaptWindow / 2
)

// Plan returns the plan the query runs under, and why.
func (i *Iterator) Plan() (Plan, redact.RedactableString) { return i.plan, i.reason.format() }

// QueryStats returns the planner's counters.
func (i *Iterator) QueryStats() QueryStats { return i.stats }

func (i *Iterator) cmp(a, b []byte) int { return i.b.opts.Comparer.Compare(a, b) }

// replan chooses the plan for the current options; the upstream iterator
// must have the caller's bounds.
func (i *Iterator) replan() error {
	l, err := i.b.layout()
	if err != nil {
		return err
	}
	i.layout = l
	i.step, i.prefixMode, i.userPrefix = nil, false, false
	i.window.steps, i.window.widenings = 0, 0
	i.plan, i.reason = choosePlan(i.b.opts.Plan, i.b.opts.Comparer, i.h.Options(), l, i.b.opts.MinDeferrable)
	return nil
}

// beginAbsolute resets per-position state before an absolute positioning,
// and counts it.
func (i *Iterator) beginAbsolute() {
	i.prefixMode, i.userPrefix = false, false
	i.seeks++
}

// stepFor narrows the upstream upper bound for a forward seek to key (nil:
// from the lower bound), or widens it if no step fits below the caller's
// upper bound.
func (i *Iterator) stepFor(key []byte) {
	i.stats.Seeks++
	u := i.stepBound(key)
	if u == nil {
		i.widen()
		return
	}
	i.stats.Steps++
	i.window.steps++
	if i.step != nil && i.b.opts.Comparer.Equal(i.step, u) {
		return
	}
	i.step = u
	i.it.SetBounds(i.h.Options().LowerBound, u)
}

// stepBound returns the step bound for a forward seek to key (nil: from the
// lower bound), or nil if no step lies below the caller's upper bound.
func (i *Iterator) stepBound(key []byte) []byte {
	t := key
	if lo := i.h.Options().LowerBound; lo != nil && (t == nil || i.cmp(t, lo) < 0) {
		t = lo
	}
	u := i.layout.stepAfter(t)
	if u == nil || (i.h.Options().UpperBound != nil && i.cmp(u, i.h.Options().UpperBound) >= 0) {
		return nil
	}
	return u
}

// widen gives the upstream iterator the caller's bounds back.
func (i *Iterator) widen() {
	if i.step == nil {
		return
	}
	i.step = nil
	i.it.SetBounds(i.h.Options().LowerBound, i.h.Options().UpperBound)
}

// forward finishes a forward move: if the upstream iterator ran out at the
// step bound, the keys it hid start at the step, so the iterator extends its
// upper bound and seeks there. Every key below the step has been seen by
// then, so the result is the plain iterator's next key. The bound moves on
// to the next step after the old one rather than to the caller's bound:
// unbounded, the re-seek would position every run that still has a file
// ahead — on a many-run LSM, a block in each of dozens of runs for the one
// key the caller wanted next. Only when no step is left (or the auto plan
// stopped stepping) does the iterator take the caller's bounds back. The
// auto plan's window counts a move that extended once, however many steps
// it crossed, as it counts each stepped seek once.
func (i *Iterator) forward(s pebble.IterValidityState, limit []byte) pebble.IterValidityState {
	counted := false
	for s == pebble.IterExhausted && i.step != nil && !i.userPrefix && i.it.Error() == nil {
		resume := i.step
		i.stats.Widenings++
		if !counted {
			counted = true
			i.window.widenings++
			i.adapt()
		}
		if u := i.nextStep(resume); u != nil {
			i.step = u
			i.it.SetBounds(i.h.Options().LowerBound, u)
		} else {
			i.widen()
		}
		s = i.it.SeekGEWithLimit(resume, limit)
	}
	return s
}

// nextStep returns the step bound to extend to when the caller moves past
// the step bound resume, or nil to take the caller's bounds back.
func (i *Iterator) nextStep(resume []byte) []byte {
	if i.plan != PlanStepped {
		return nil
	}
	return i.stepBound(resume)
}

// adapt stops stepping under the auto plan when most recent steps widened.
func (i *Iterator) adapt() {
	if i.window.steps < adaptWindow {
		return
	}
	if i.window.widenings > adaptMaxWidenings && i.b.opts.Plan == PlanAuto {
		i.plan = PlanPlain
		i.reason = reason{kind: reasonSteppingStopped, widened: i.window.widenings, steps: i.window.steps}
		i.stats.SteppingStopped = true
	}
	i.window.steps, i.window.widenings = 0, 0
}

// prefixSeek issues a SeekGE to key as a SeekPrefixGE under the prefix plan.
// ok is false if key lies at or beyond the upper bound, where no prefix
// applies (the plain SeekGE then reports exhaustion).
func (i *Iterator) prefixSeek(key []byte) (s pebble.IterValidityState, ok bool) {
	t := key
	if lo := i.h.Options().LowerBound; t == nil || i.cmp(t, lo) < 0 {
		t = lo
	}
	if i.cmp(t, i.h.Options().UpperBound) >= 0 {
		return pebble.IterExhausted, false
	}
	i.prefixMode = true
	i.stats.PrefixSeeks++
	if i.it.SeekPrefixGE(t) {
		return pebble.IterValid, true
	}
	return pebble.IterExhausted, true
}

// exitPrefix re-seeks the upstream iterator, positioned by a SeekPrefixGE
// the prefix plan issued, to the same position without prefix iteration,
// since Pebble refuses reverse moves and limits in prefix iteration. An
// iterator past the last key of the prefix is, for a plain iterator over
// bounds within that prefix, exhausted forward: seeking to the upper bound
// recreates that state. It returns false if the iterator holds an error,
// which a plain iterator keeps through relative moves.
func (i *Iterator) exitPrefix() bool {
	if i.it.Error() != nil {
		return false
	}
	i.prefixMode = false
	i.stats.PrefixExits++
	if !i.it.Valid() {
		i.it.SeekGE(i.h.Options().UpperBound)
		return true
	}
	i.keyBuf = append(i.keyBuf[:0], i.it.Key()...)
	i.it.SeekGE(i.keyBuf)
	return true
}

// SeekGE is pebble.Iterator.SeekGE.
func (i *Iterator) SeekGE(key []byte) bool {
	if i.plan == PlanPlain && !i.h.Observed() {
		// The hot path of a query the planner left plain costs one branch.
		i.beginAbsolute()
		return i.found.Count(i.it.SeekGE(key))
	}
	return i.SeekGEWithLimit(key, nil) == pebble.IterValid
}

// SeekGEWithLimit is pebble.Iterator.SeekGEWithLimit.
func (i *Iterator) SeekGEWithLimit(key, limit []byte) pebble.IterValidityState {
	i.h.BeginSeek(i.plan == PlanPrefix && limit == nil)
	return i.h.EndSeekState(i.it, i.found.CountState(i.seekGE(key, limit)))
}

func (i *Iterator) seekGE(key, limit []byte) pebble.IterValidityState {
	i.beginAbsolute()
	switch i.plan {
	case PlanPrefix:
		if limit == nil {
			if s, ok := i.prefixSeek(key); ok {
				return s
			}
		}
	case PlanStepped:
		i.stepFor(key)
	}
	return i.forward(i.it.SeekGEWithLimit(key, limit), limit)
}

// SeekPrefixGE is pebble.Iterator.SeekPrefixGE. A step stays if it lies
// above key: a step is a bare prefix, so it then lies above every key with
// key's prefix.
func (i *Iterator) SeekPrefixGE(key []byte) bool {
	i.h.BeginSeek(true)
	i.beginAbsolute()
	if i.plan == PlanStepped && (i.step == nil || i.cmp(i.step, key) <= 0) {
		i.stepFor(key)
	}
	i.userPrefix = true
	return i.h.EndSeek(i.it, i.found.Count(i.it.SeekPrefixGE(key)))
}

// First is pebble.Iterator.First.
func (i *Iterator) First() bool {
	i.h.BeginSeek(i.plan == PlanPrefix)
	return i.h.EndSeek(i.it, i.found.Count(i.first()))
}

func (i *Iterator) first() bool {
	i.beginAbsolute()
	switch i.plan {
	case PlanPrefix:
		if s, ok := i.prefixSeek(nil); ok {
			return s == pebble.IterValid
		}
	case PlanStepped:
		i.stepFor(nil)
		s := pebble.IterExhausted
		if i.it.First() {
			s = pebble.IterValid
		}
		return i.forward(s, nil) == pebble.IterValid
	}
	return i.it.First()
}

// SeekLT is pebble.Iterator.SeekLT.
func (i *Iterator) SeekLT(key []byte) bool {
	return i.SeekLTWithLimit(key, nil) == pebble.IterValid
}

// SeekLTWithLimit is pebble.Iterator.SeekLTWithLimit. Reverse seeks are not
// stepped; a step above key is kept, since it hides nothing below key.
func (i *Iterator) SeekLTWithLimit(key, limit []byte) pebble.IterValidityState {
	i.h.BeginSeek(false)
	i.beginAbsolute()
	if i.step != nil && i.cmp(key, i.step) > 0 {
		i.widen()
	}
	return i.h.EndSeekState(i.it, i.found.CountState(i.it.SeekLTWithLimit(key, limit)))
}

// Last is pebble.Iterator.Last.
func (i *Iterator) Last() bool {
	i.h.BeginSeek(false)
	i.beginAbsolute()
	i.widen()
	return i.h.EndSeek(i.it, i.found.Count(i.it.Last()))
}

// Next is pebble.Iterator.Next.
func (i *Iterator) Next() bool {
	if i.step == nil {
		// No step to run past, and no limit to leave prefix mode for: a
		// scan costs one branch per key over upstream's.
		return i.it.Next()
	}
	return i.NextWithLimit(nil) == pebble.IterValid
}

// NextWithLimit is pebble.Iterator.NextWithLimit.
func (i *Iterator) NextWithLimit(limit []byte) pebble.IterValidityState {
	if i.prefixMode && limit != nil && !i.exitPrefix() {
		return pebble.IterExhausted
	}
	return i.forward(i.it.NextWithLimit(limit), limit)
}

// NextPrefix is pebble.Iterator.NextPrefix. Under a step the next prefix
// may lie beyond the step; the step is a bare prefix above the current key,
// so the first key at or after it is the next prefix's first key.
func (i *Iterator) NextPrefix() bool {
	if i.step != nil && i.h.Options().UpperBound != nil {
		if sp := i.b.opts.Comparer.Split; sp(i.h.Options().UpperBound) != len(i.h.Options().UpperBound) {
			// Pebble refuses NextPrefix under a versioned upper bound; let
			// it see the caller's bound and say so.
			i.widen()
			return i.it.NextPrefix()
		}
	}
	s := pebble.IterExhausted
	if i.it.NextPrefix() {
		s = pebble.IterValid
	}
	return i.forward(s, nil) == pebble.IterValid
}

// Prev is pebble.Iterator.Prev.
func (i *Iterator) Prev() bool {
	if !i.prefixMode {
		return i.it.Prev()
	}
	return i.PrevWithLimit(nil) == pebble.IterValid
}

// PrevWithLimit is pebble.Iterator.PrevWithLimit. Below the current key a
// step hides nothing, so reverse moves need no widening.
func (i *Iterator) PrevWithLimit(limit []byte) pebble.IterValidityState {
	if i.prefixMode && !i.exitPrefix() {
		return pebble.IterExhausted
	}
	return i.it.PrevWithLimit(limit)
}

// SetBounds is pebble.Iterator.SetBounds: the query is replanned for the
// new bounds. Range filters are rebuilt for bounds outside the ones they
// were built for, and kept for bounds within them (see iterhooks.IterHooks).
func (i *Iterator) SetBounds(lower, upper []byte) {
	if i.sameBounds(lower, upper) {
		// Pebble treats unchanged bounds as a no-op that only demands a
		// repositioning (and a caller that moves relatively anyway continues
		// from where it was); keep the step so the upstream iterator sees no
		// change either.
		if i.step != nil {
			i.it.SetBounds(i.h.Options().LowerBound, i.step)
		} else {
			i.it.SetBounds(i.h.Options().LowerBound, i.h.Options().UpperBound)
		}
		return
	}
	if i.h.SetBounds(lower, upper) {
		i.it.SetOptions(i.h.Rebuilt(i.rangeFilters()))
	} else {
		i.it.SetBounds(i.h.Options().LowerBound, i.h.Options().UpperBound)
	}
	i.keepPlanOnError(i.replan())
}

func (i *Iterator) sameBounds(lower, upper []byte) bool {
	eq := func(a, b []byte) bool {
		return (a == nil) == (b == nil) && i.b.opts.Comparer.Equal(a, b)
	}
	return eq(lower, i.h.Options().LowerBound) && eq(upper, i.h.Options().UpperBound)
}

// SetOptions is pebble.Iterator.SetOptions: the query is replanned for the
// new options.
func (i *Iterator) SetOptions(o *pebble.IterOptions) {
	i.h.SetOptions(o)
	i.it.SetOptions(i.h.Rebuilt(i.rangeFilters()))
	i.keepPlanOnError(i.replan())
}

// keepPlanOnError falls back to the plain plan if the layout could not be
// read (SetBounds and SetOptions cannot return errors): plain needs none.
func (i *Iterator) keepPlanOnError(err error) {
	if err != nil {
		i.step, i.prefixMode, i.userPrefix = nil, false, false
		i.plan, i.reason = PlanPlain, reason{kind: reasonNoLayout}
	}
}
