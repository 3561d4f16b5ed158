// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package iterhooks is the plug-in state of an iterator: the range filters
// attached for its bounds, and the Observer that follows its reads for the
// statistics. pebblerf hands out two iterators, the root package's plain
// one and querybuilder's planned one, and both keep their plug-in state in
// an IterHooks made from the reader's Hooks, so that they follow one rule
// for when a range filter stays valid and report to observers under one
// contract.
//
// The state never calls out to make a range filter. It tells its owner
// when the bounds need one (FilterBounds), the owner builds it from the
// plug-in it holds (the root package from the DB's rangefilter.Policy,
// querybuilder from its Options.RangeFilters) and hands it in (Open,
// Rebuilt): so a bounded iterator's set-up goes from its owner down to
// this package and down to the range filter's, never back up.
//
// This is wiring, not API: the root package, which assembles the plug-ins,
// and querybuilder, which the root package imports, both need it.
package iterhooks

import "github.com/cockroachdb/pebble/v2"

// Hooks are the plug-ins a reader attaches to every iterator it opens.
type Hooks struct {
	// Compare orders user keys. It decides whether new bounds lie within
	// the bounds a range filter was built for, so it is required with
	// RangeFilters.
	Compare pebble.Compare
	// RangeFilters is set when the reader's iterators get range filters for
	// their bounds: filters that skip tables and blocks holding no key in
	// [lower, upper), which stay correct for every subrange of it. The
	// iterator's owner builds them for the bounds FilterBounds names.
	RangeFilters bool
	// Gated, with RangeFilters, is set when a plain iterator (one under
	// LimitRebuilds) asks a gate whether it gets range filters at all, when
	// it first has bounds: at opening, or from the SetBounds or SetOptions
	// that first gives bounds to an iterator opened without. An iterator
	// the gate turns away (Drop) reads as upstream's for its life, as one
	// that dropped its filters does; one it admits hands its filters back
	// at Release, for the gate's tally. Planned iterators never ask: their
	// stepped bounds are where the filters earn their keep.
	Gated bool
	// Observers, if set, gives each new iterator an Observer of its reads.
	Observers Observers
}

// Observers make an Observer for each new iterator: the per-level
// statistics do.
type Observers interface {
	// Observe returns an Observer for a new iterator created with options
	// o, and the options to create the upstream iterator with (o, possibly
	// with filters of the observer's appended).
	Observe(o *pebble.IterOptions) (Observer, *pebble.IterOptions)
}

// Enabled reports whether h attaches anything; an iterator of a reader
// whose hooks are not enabled needs no IterHooks.
func (h *Hooks) Enabled() bool { return h.RangeFilters || h.Observers != nil }

// ForBatch returns the hooks for iterators over an indexed batch: h without
// range filters. Widening the bounds of an iterator with range filters
// rebuilds it through SetOptions, and SetOptions refreshes an iterator's
// view of its batch where SetBounds does not, so a batch iterator with
// range filters would see writes made to the batch after it was opened.
func (h Hooks) ForBatch() Hooks {
	h.RangeFilters, h.Gated, h.Compare = false, false, nil
	return h
}

// Observer follows the reads of one iterator for a caller that counts them,
// such as the seek statistics' tracker. The iterator reports each
// absolute positioning the caller makes (however it is issued underneath,
// including the re-seek a planned query's widening adds, which belongs to
// the caller's seek or step), each value the caller reads, and its close.
// An Observer is used from the iterator's goroutine only.
type Observer interface {
	// SetOptions returns the options to give Pebble when the iterator's
	// upstream options change to o; the observer may add block-property
	// filters of its own. o is not modified.
	SetOptions(o *pebble.IterOptions) *pebble.IterOptions
	// SetBounds reports new bounds that Pebble takes through its own
	// SetBounds, the filters staying as they are; the slices stay valid
	// until the next SetBounds or SetOptions.
	SetBounds(lower, upper []byte)
	// BeginSeek and EndSeek bracket an absolute positioning; prefix is set
	// when Pebble consults table filters for it (SeekPrefixGE, or a SeekGE
	// the prefix plan issues as one). EndSeek is given what the positioning
	// returned and, when valid, the key the iterator is at, valid until the
	// iterator moves.
	BeginSeek(prefix bool)
	EndSeek(valid bool, key []byte)
	// OnValue is called when the caller reads the value of key.
	OnValue(key []byte)
	// Release is called once the iterator's upstream iterator is closed.
	Release()
}

// IterHooks is one iterator's plug-in state: the caller's options (with
// bounds the caller may not change under it), the bounds its range filters
// were built for, and its Observer. The iterator asks it for the options to
// give Pebble whenever the caller sets options or bounds, and reports its
// seeks and value reads through it. The zero value is ready for Init.
//
// Each time the iterator's options are made (Init then Open, SetOptions
// then Rebuilt, a SetBounds that returns true then Rebuilt, InitClone then
// Open), its owner first asks FilterBounds which bounds need range filters,
// builds them and passes them in; nil when FilterBounds says none.
//
// A range filter built for [lower, upper) says that a table holds no key in
// [lower, upper), which stays true for every subrange. So new bounds within
// the filter's keep it: they go to Pebble's SetBounds, which keeps the
// iterator stack and the filters. Any other bounds, including the first
// bounds of an iterator that had none, need filters built for them, which
// Pebble takes only through SetOptions (it rebuilds the iterator stack):
// Pebble's SetBounds would keep a filter that skips tables holding keys in
// the wider range. An iterator under LimitRebuilds stops paying for that
// once it is plainly being reused across spans.
type IterHooks struct {
	// The fields every iterator touches come first, on as few cache lines
	// as may be: an iterator per seek pays for each line it misses.
	hooks *Hooks
	obs   Observer
	// limitRebuilds is set by LimitRebuilds; rebuilds counts the caller's
	// bounds changes that needed new range filters, and dropped is set once
	// the iterator has given its range filters up.
	limitRebuilds bool
	dropped       bool
	rebuilds      int
	// deferred is set from Defer until Activate or Release.
	deferred bool
	// optsSet is set while opts may hold more than bounds, and upSet while
	// up (with firstFilters) may be other than zero. An iterator opened
	// with nil options, the common case, then never copies or clears
	// either: options are large, and an iterator per seek pays for every
	// copy.
	optsSet, upSet bool
	// filterLower and filterUpper (in filterBuf) are the bounds the
	// attached range filters were built for, which the filters may alias;
	// filtered is false while none are attached.
	filtered                 bool
	filterLower, filterUpper []byte
	filterBuf                []byte
	boundsIdx                int
	boundsBuf                [2][]byte
	// opts are the caller's options as last set, bounds included; the
	// bounds live in boundsBuf[boundsIdx^1] (see setBounds).
	opts pebble.IterOptions
	// up holds the options last handed to Pebble, before the observer's
	// additions, so that handing them over allocates nothing.
	up pebble.IterOptions
	// firstFilters holds the filter slice of the options an iterator is
	// opened with, so that opening a bounded iterator costs no slice. Later
	// rebuilds get fresh slices: Pebble still holds the previous options
	// while it takes the new ones.
	firstFilters [4]pebble.BlockPropertyFilter
	// gateAsked is set once the iterator asked the gate, admitted while
	// its next filters are the ones it admitted, and gated holds those
	// filters, for the report at Release.
	gateAsked, admitted bool
	gated               []pebble.BlockPropertyFilter
	// filtersMade is set once filters were attached for bounds (the next
	// ones need a new bounds buffer), and cloneObserved, between InitClone
	// and OpenClone, when the parent had an Observer.
	filtersMade, cloneObserved bool
}

// rebuildsBeforeDrop is how many moves of its bounds outside its range
// filters' an iterator under LimitRebuilds pays for with a rebuild before
// it drops them. Giving bounds to an iterator that had none (NewIter(nil),
// then SetBounds) is its opening, not a move, and is not counted. Two lets
// an iterator used for a span or two keep its filters; past that it is
// being reused across spans.
const rebuildsBeforeDrop = 2

// LimitRebuilds makes s give up its range filters, rather than rebuild
// Pebble's iterator stack once more, when the caller keeps moving the
// bounds outside the filters' (more than rebuildsBeforeDrop times). It is
// for iterators reused across many spans, the way CockroachDB reuses one
// per request through SetOptions:
// Pebble keeps such an iterator's stack, its open tables and their loaded
// blocks across bounds changes, but only while its block-property filters
// stay the same, and a range filter is built for one span. Rebuilding per
// span costs what a new iterator costs, and when the spans' blocks stay
// cached that is more than the filters save (docs/benchmarks.md,
// "CockroachDB-style reads"). After the drop the iterator reads as
// upstream's does; a new iterator gets its filters again. The same
// iterators ask the gate whether they get filters at all (Hooks.Gated).
// The planner's iterators do not call it: their stepped bounds need the
// filters. Call it before Init.
func (s *IterHooks) LimitRebuilds() { s.limitRebuilds = true }

// Init readies s for a new iterator of a reader with hooks h and the
// caller's options o (nil: defaults). The owner then builds the range
// filters FilterBounds asks for and takes the options to open the upstream
// iterator with from Open.
func (s *IterHooks) Init(h *Hooks, o *pebble.IterOptions) {
	s.hooks = h
	s.setOptions(o)
}

// Open returns the options to create the upstream iterator with: the
// caller's options with filters (the range filters the owner built for
// FilterBounds) and, with observe and the hooks' Observers, the observer's;
// nil when they are the defaults and nothing is observed, which spares
// Pebble a copy of them. With observe false the iterator gets no Observer
// (the planner's own probes, which are not the caller's reads, and
// iterators whose owner attaches one of its own).
func (s *IterHooks) Open(filters []pebble.BlockPropertyFilter, observe bool) *pebble.IterOptions {
	up := s.withRangeFilters(filters, true /* first */)
	if observe && s.hooks.Observers != nil {
		// The observer may add its filters to up in place.
		s.obs, up = s.hooks.Observers.Observe(up)
		s.upSet = true
	} else if !s.upSet {
		return nil
	}
	return up
}

// Defer readies s for a new iterator as Init would, when it can put off the
// work: for options o without bounds, of a reader whose hooks observe
// nothing (h.Observers nil). Such an iterator gets no range filter, so until
// it is given bounds or cloned it needs no plug-in state and its reads can
// go to Pebble's iterator directly; an iterator per unbounded seek, the
// way db_bench's seekrandom reads, then pays for no hook. Defer records h
// and o (copied: the caller may reuse o once the iterator is open, as
// Pebble allows) and reports true, and the iterator is opened with o
// itself; the iterator calls Activate before its first SetBounds,
// SetOptions or Clone. It reports false, changing nothing, when it cannot
// defer, and the iterator calls Init.
func (s *IterHooks) Defer(h *Hooks, o *pebble.IterOptions) bool {
	if lower, upper := boundsOf(o); h.Observers != nil || lower != nil || upper != nil {
		return false
	}
	s.hooks, s.deferred = h, true
	if o != nil {
		s.opts, s.optsSet = *o, true
	}
	return true
}

// Deferred reports whether s was readied by Defer and not yet activated.
func (s *IterHooks) Deferred() bool { return s.deferred }

// Activate completes, for an iterator readied by Defer, what Init and Open
// would have done at its opening: the options Open would have returned are
// those the iterator was opened with (no bounds, so no range filter), and
// from here on s follows the iterator as if Init had readied it.
func (s *IterHooks) Activate() {
	s.deferred = false
	s.setBounds(nil, nil)
	s.withRangeFilters(nil, true /* first */)
}

// Attach makes obs the iterator's Observer, in place of the one Open would
// have asked Hooks.Observers for: an iterator that keeps its observer's
// state in its own memory calls Open with observe false, readies obs for
// the options Open returned (obs gives Pebble the options it returns, and
// may change those options in place: Open hands out s's own options only
// when they are set, and Release clears them), and attaches it. Release
// releases it like any other.
func (s *IterHooks) Attach(obs Observer) { s.obs = obs }

// InitClone readies s for a clone of the iterator that parent follows, as
// Init does; the owner then builds the clone's range filters and takes its
// options from OpenClone. With o nil the clone gets the parent's options as
// the caller last set them (bounds from SetBounds included), as Pebble's
// Clone does; never the upstream iterator's own, which carry the parent's
// filters. The clone gets an Observer of its own, if the parent has one:
// sharing it would mix their seeks.
func (s *IterHooks) InitClone(parent *IterHooks, o *pebble.IterOptions) {
	if o == nil {
		o = &parent.opts
	}
	s.limitRebuilds = parent.limitRebuilds
	s.cloneObserved = parent.obs != nil
	s.Init(parent.hooks, o)
}

// OpenClone returns the options to clone the upstream iterator with, with
// filters for the bounds FilterBounds named.
func (s *IterHooks) OpenClone(filters []pebble.BlockPropertyFilter) *pebble.IterOptions {
	up := s.Open(filters, s.cloneObserved)
	if up == nil {
		// Pebble's Clone takes nil options as the parent's, filters and all.
		up = &s.up
	}
	return up
}

// Options returns the caller's options as last set (by Init, SetOptions or
// SetBounds). They must not be modified, and their bounds stay valid only
// until the next SetBounds or SetOptions.
func (s *IterHooks) Options() *pebble.IterOptions { return &s.opts }

// SetOptions records o as the caller's options. The owner then builds the
// range filters FilterBounds asks for and hands Pebble's SetOptions the
// options Rebuilt returns: o with range filters for its bounds and the
// observer's filters.
func (s *IterHooks) SetOptions(o *pebble.IterOptions) {
	covered := s.covers(boundsOf(o))
	s.setOptions(o)
	if !covered {
		s.countRebuild()
	}
}

func boundsOf(o *pebble.IterOptions) (lower, upper []byte) {
	if o == nil {
		return nil, nil
	}
	return o.LowerBound, o.UpperBound
}

// countRebuild counts a bounds change the range filters do not cover, and
// under LimitRebuilds drops them once the limit is passed.
func (s *IterHooks) countRebuild() {
	if !s.limitRebuilds || !s.hooks.RangeFilters || !s.filtered {
		return
	}
	s.rebuilds++
	if s.rebuilds > rebuildsBeforeDrop {
		s.dropped = true
	}
}

// SetBounds records new bounds. It returns false when the attached range
// filters stay correct for them: the iterator then gives Pebble's
// SetBounds the bounds of Options. Otherwise it returns true, and the
// owner builds the range filters FilterBounds asks for and hands Pebble's
// SetOptions the options Rebuilt returns.
func (s *IterHooks) SetBounds(lower, upper []byte) (rebuild bool) {
	s.setBounds(lower, upper)
	if !s.hooks.RangeFilters || s.covers(lower, upper) {
		if s.obs != nil {
			s.obs.SetBounds(s.opts.LowerBound, s.opts.UpperBound)
		}
		return false
	}
	s.countRebuild()
	return true
}

// Rebuilt returns the options for Pebble's SetOptions after SetOptions, or
// a SetBounds that returned true: the caller's options with filters (built
// for FilterBounds), then the observer's filters.
func (s *IterHooks) Rebuilt(filters []pebble.BlockPropertyFilter) *pebble.IterOptions {
	up := s.withRangeFilters(filters, false /* first */)
	if s.obs != nil {
		up = s.obs.SetOptions(up)
	}
	return up
}

// FilterBounds returns the bounds the owner builds range filters for, when
// the iterator's options are next made: copies of the caller's bounds that
// stay unchanged for as long as any iterator may use the filters, which may
// therefore alias them. ok is false when the iterator gets none: its reader
// has none, it has no bounds, or it dropped them. askGate is set when it
// must first ask the gate (Hooks.Gated), once in its life; the owner calls
// Drop if the gate turns it away.
func (s *IterHooks) FilterBounds() (lower, upper []byte, askGate, ok bool) {
	if !s.hooks.RangeFilters || s.dropped {
		return nil, nil, false, false
	}
	lower, upper = s.opts.LowerBound, s.opts.UpperBound
	if lower == nil && upper == nil {
		return nil, nil, false, false
	}
	if s.limitRebuilds && s.hooks.Gated && !s.gateAsked {
		// The iterator's first bounds, whether it opens with them or is
		// given them later: the gate decides once, for its life.
		s.gateAsked, s.admitted, askGate = true, true, true
	}
	if s.pendingFilterBuf() {
		// The filters may alias the bounds, and Pebble still holds the
		// previous filters while it takes the new ones: new bytes.
		s.filterBuf = make([]byte, 0, len(lower)+len(upper))
	}
	s.filterBuf = append(append(s.filterBuf[:0], lower...), upper...)
	s.filterLower, s.filterUpper = nil, nil
	if lower != nil {
		s.filterLower = s.filterBuf[:len(lower):len(lower)]
	}
	if upper != nil {
		s.filterUpper = s.filterBuf[len(lower):]
	}
	return s.filterLower, s.filterUpper, askGate, true
}

// pendingFilterBuf reports whether FilterBounds needs a new buffer: every
// time but the first time an iterator's bounds are copied, when it may
// reuse the one a pooled iterator kept.
func (s *IterHooks) pendingFilterBuf() bool { return s.filterBuf == nil || s.filtersMade }

// Drop gives the iterator's range filters up for its life: the gate turned
// it away. It then reads as upstream's.
func (s *IterHooks) Drop() {
	s.dropped, s.admitted = true, false
}

// Observed reports whether the iterator has an Observer.
func (s *IterHooks) Observed() bool { return s.obs != nil }

// BeginSeek reports the start of an absolute positioning to the observer.
func (s *IterHooks) BeginSeek(prefix bool) {
	if s.obs != nil {
		s.obs.BeginSeek(prefix)
	}
}

// EndSeek reports the end of an absolute positioning of it, which returned
// valid, and returns valid.
func (s *IterHooks) EndSeek(it *pebble.Iterator, valid bool) bool {
	if s.obs != nil {
		s.obs.EndSeek(valid, keyIfValid(it, valid))
	}
	return valid
}

// EndSeekState is EndSeek for the seeks that return a validity state.
func (s *IterHooks) EndSeekState(it *pebble.Iterator, v pebble.IterValidityState) pebble.IterValidityState {
	if s.obs != nil {
		s.obs.EndSeek(v == pebble.IterValid, keyIfValid(it, v == pebble.IterValid))
	}
	return v
}

func keyIfValid(it *pebble.Iterator, valid bool) []byte {
	if !valid {
		return nil
	}
	return it.Key()
}

// OnValue reports that the caller reads the value of key.
func (s *IterHooks) OnValue(key []byte) {
	if s.obs != nil {
		s.obs.OnValue(key)
	}
}

// Release is called once the upstream iterator is closed: it releases the
// observer and empties s for the next Init, keeping its buffers unless they
// grew large (iterators are pooled, and one long key should not pin memory).
// It returns the range filters of an iterator the gate admitted, for the
// owner to report to it; nil for any other.
func (s *IterHooks) Release() (gated []pebble.BlockPropertyFilter) {
	if s.obs != nil {
		s.obs.Release()
	}
	gated = s.gated
	s.gated = nil
	// Field by field rather than one assignment of the whole struct, which
	// an iterator per seek pays for on every seek: Init sets every other
	// field, and these are the references the pool should not keep alive.
	s.hooks, s.obs = nil, nil
	if s.optsSet {
		s.opts, s.optsSet = pebble.IterOptions{}, false
	} else {
		s.opts.LowerBound, s.opts.UpperBound = nil, nil
	}
	if s.upSet {
		s.up, s.upSet = pebble.IterOptions{}, false
		clear(s.firstFilters[:])
	}
	s.filterLower, s.filterUpper, s.filtered = nil, nil, false
	s.boundsBuf[0], s.boundsBuf[1] = keepBuf(s.boundsBuf[0]), keepBuf(s.boundsBuf[1])
	s.boundsIdx = 0
	s.filterBuf = keepBuf(s.filterBuf)
	s.limitRebuilds, s.rebuilds, s.dropped, s.gateAsked, s.admitted, s.deferred = false, 0, false, false, false, false
	s.filtersMade, s.cloneObserved = false, false
	return gated
}

// maxKeptBuf is the largest bounds buffer an IterHooks keeps for reuse.
const maxKeptBuf = 4 << 10

func keepBuf(b []byte) []byte {
	if cap(b) > maxKeptBuf {
		return nil
	}
	return b[:0]
}

// setOptions records o (nil: zero options) with bounds copied, since the
// caller may reuse the slices once the call returns.
func (s *IterHooks) setOptions(o *pebble.IterOptions) {
	if o != nil {
		s.opts, s.optsSet = *o, true
	} else if s.optsSet {
		s.opts, s.optsSet = pebble.IterOptions{}, false
	}
	s.setBounds(s.opts.LowerBound, s.opts.UpperBound)
}

// setBounds copies the bounds into one of two buffers in turn, so that
// bounds passed in from the other (the current ones) are read before being
// overwritten. Nil bounds stay nil and empty ones empty.
func (s *IterHooks) setBounds(lower, upper []byte) {
	buf := s.boundsBuf[s.boundsIdx][:0]
	if buf == nil {
		// Non-nil even when empty, so that an empty bound stays a bound.
		buf = make([]byte, 0, len(lower)+len(upper))
	}
	s.opts.LowerBound, s.opts.UpperBound = nil, nil
	if lower != nil {
		buf = append(buf, lower...)
		s.opts.LowerBound = buf[:len(lower):len(lower)]
	}
	if upper != nil {
		start := len(buf)
		buf = append(buf, upper...)
		s.opts.UpperBound = buf[start:len(buf):len(buf)]
	}
	s.boundsBuf[s.boundsIdx] = buf
	s.boundsIdx ^= 1
}

// withRangeFilters returns the caller's options with filters appended, and
// records that the bounds FilterBounds copied are those filters' (none when
// filters is empty). The filter slice gets spare capacity because Pebble
// appends to it in place; first says the options are for opening the
// iterator (see firstFilters).
func (s *IterHooks) withRangeFilters(filters []pebble.BlockPropertyFilter, first bool) *pebble.IterOptions {
	s.copyUp()
	if !s.hooks.RangeFilters || s.dropped {
		s.filtered = false
		return &s.up
	}
	s.filtered = s.opts.LowerBound != nil || s.opts.UpperBound != nil
	if s.filtered {
		s.filtersMade = true
	}
	if len(filters) > 0 {
		var f []pebble.BlockPropertyFilter
		if n := len(s.up.PointKeyFilters) + len(filters) + 1; first && n <= len(s.firstFilters) {
			f = s.firstFilters[:0:n]
		} else {
			f = make([]pebble.BlockPropertyFilter, 0, n)
		}
		s.up.PointKeyFilters = append(append(f, s.up.PointKeyFilters...), filters...)
		s.upSet = true
		if s.admitted {
			s.gated = filters
			s.admitted = false
		}
	}
	return &s.up
}

// copyUp sets up to the caller's options, unless both are already zero.
func (s *IterHooks) copyUp() {
	bare := !s.optsSet && s.opts.LowerBound == nil && s.opts.UpperBound == nil
	if bare && !s.upSet {
		return
	}
	s.up, s.upSet = s.opts, !bare
}

// covers reports whether the attached range filters stay correct for
// [lower, upper): the bounds must lie within those the filters were built
// for. An iterator without filters is covered only while it has no bounds:
// new bounds deserve a filter.
func (s *IterHooks) covers(lower, upper []byte) bool {
	if s.dropped {
		return true
	}
	if !s.filtered {
		return lower == nil && upper == nil
	}
	cmp := s.hooks.Compare
	lowerOK := s.filterLower == nil || (lower != nil && cmp(s.filterLower, lower) <= 0)
	upperOK := s.filterUpper == nil || (upper != nil && cmp(upper, s.filterUpper) <= 0)
	return lowerOK && upperOK
}

// Queries are what a DB's plug-ins add to its range queries beyond the
// options a caller gives querybuilder: the Observers of each query's reads
// (nil: none), and Closed, called as each query closes (nil: nothing),
// before the caller's own Options.Closed.
type Queries struct {
	Observers Observers
	Closed    func(st *pebble.IteratorStats, seeks, found int)
}

// Found counts the absolute positionings (seeks, First and Last) that left
// an iterator valid: the DB-wide tickers' seek.found, which Pebble's
// IteratorStats do not record. Both of pebblerf's iterators keep one and
// hand it over when they close.
type Found int

// Count counts a positioning's result, valid, and returns it.
func (f *Found) Count(valid bool) bool {
	if valid {
		*f++
	}
	return valid
}

// CountState is Count for the positionings that return a validity state.
func (f *Found) CountState(s pebble.IterValidityState) pebble.IterValidityState {
	f.Count(s == pebble.IterValid)
	return s
}
