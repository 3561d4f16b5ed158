// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package iterhooks is the plug-in state of an iterator: the range filters
// attached for its bounds, and the Observer that follows its reads for the
// statistics. pebblerf hands out two iterators, the root package's plain
// one and querybuilder's planned one, and both keep their plug-in state in
// an IterHooks made from the reader's Hooks, so that they follow one rule
// for when a range filter stays valid and report to observers under one
// contract.
//
// This is wiring, not API: the root package, which assembles the plug-ins,
// and querybuilder, which the root package imports, both need it, and
// rangefilter and seekstats, which it joins, know nothing of each other.
package iterhooks

import "github.com/cockroachdb/pebble/v2"

// Hooks are the plug-ins a reader attaches to every iterator it opens:
// range filters for the iterator's bounds, and an Observer of its reads.
type Hooks struct {
	// Compare orders user keys. It decides whether new bounds lie within
	// the bounds a range filter was built for, so it is required with
	// RangeFilters.
	Compare pebble.Compare
	// RangeFilters, if set, returns the block-property filters that skip
	// tables and blocks holding no key in [lower, upper) (nil bounds are
	// open). Any filter it returns must stay correct for every subrange of
	// [lower, upper), which holds for any filter that only answers "no key
	// in range". The bytes of lower and upper stay unchanged for as long as
	// the iterator may use the filters, so the filters may alias them.
	RangeFilters func(lower, upper []byte) []pebble.BlockPropertyFilter
	// Observe, if set, returns an Observer for a new iterator created with
	// options o, and the options to create the upstream iterator with (o,
	// possibly with filters of the observer's appended).
	Observe func(o *pebble.IterOptions) (Observer, *pebble.IterOptions)
	// Gate, if set with RangeFilters, decides whether a plain iterator (one
	// under LimitRebuilds) gets range filters at all, when it first has
	// bounds: at opening, or from the SetBounds or SetOptions that first
	// gives bounds to an iterator opened without. An
	// iterator it turns away reads as upstream's for its life, as one that
	// dropped its filters does; one it admits reports its filters' answers
	// to it when released. Planned iterators neither ask nor report: their
	// stepped bounds are where the filters earn their keep.
	Gate Gate
}

// Gate decides, from what the range filters of earlier
// iterators ruled out, whether a new one gets them (internal/rangegate).
type Gate interface {
	// Admit reports whether an iterator opening now with bounds
	// [lower, upper) gets range filters.
	Admit(lower, upper []byte) bool
	// Report is given the range filters an admitted iterator was opened
	// with, once its upstream iterator is closed.
	Report(filters []pebble.BlockPropertyFilter)
}

// Enabled reports whether h attaches anything; an iterator of a reader
// whose hooks are not enabled needs no IterHooks.
func (h *Hooks) Enabled() bool { return h.RangeFilters != nil || h.Observe != nil }

// ForBatch returns the hooks for iterators over an indexed batch: h without
// range filters. Widening the bounds of an iterator with range filters
// rebuilds it through SetOptions, and SetOptions refreshes an iterator's
// view of its batch where SetBounds does not, so a batch iterator with
// range filters would see writes made to the batch after it was opened.
func (h Hooks) ForBatch() Hooks {
	h.RangeFilters, h.Compare, h.Gate = nil, nil, nil
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
	// gateAsked is set once the hooks' Gate has been asked about the
	// iterator, and gated holds the range filters of the bounds it admitted,
	// for the report at Release.
	gateAsked bool
	gated     []pebble.BlockPropertyFilter
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
// iterators ask the hooks' Gate whether they get filters at all. The
// planner's iterators do not call it: their stepped bounds need the
// filters. Call it before Init.
func (s *IterHooks) LimitRebuilds() { s.limitRebuilds = true }

// Init readies s for a new iterator of a reader with hooks h and the
// caller's options o (nil: defaults), and returns the options to create the
// upstream iterator with: nil when they are the defaults and no Observer is
// asked for, which spares Pebble a copy of them. With observe false the
// iterator gets no Observer (the planner's own probes, which are not the
// caller's reads).
func (s *IterHooks) Init(h *Hooks, o *pebble.IterOptions, observe bool) *pebble.IterOptions {
	s.hooks = h
	s.setOptions(o)
	up := s.withRangeFilters(true /* first */)
	if observe && h.Observe != nil {
		// The observer may add its filters to up in place.
		s.obs, up = h.Observe(up)
		s.upSet = true
	} else if !s.upSet {
		return nil
	}
	return up
}

// Defer readies s for a new iterator as Init would, when it can put off the
// work: for options o without bounds, of a reader whose hooks observe
// nothing (h.Observe nil). Such an iterator gets no range filter, so until
// it is given bounds or cloned it needs no plug-in state and its reads can
// go to Pebble's iterator directly; an iterator per unbounded seek, the
// way db_bench's seekrandom reads, then pays for no hook. Defer records h
// and o (copied: the caller may reuse o once the iterator is open, as
// Pebble allows) and reports true, and the iterator is opened with o
// itself; the iterator calls Activate before its first SetBounds,
// SetOptions or Clone. It reports false, changing nothing, when it cannot
// defer, and the iterator calls Init.
func (s *IterHooks) Defer(h *Hooks, o *pebble.IterOptions) bool {
	if lower, upper := boundsOf(o); h.Observe != nil || lower != nil || upper != nil {
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

// Activate completes, for an iterator readied by Defer, what Init would
// have done at its opening: the options Init would have returned are those
// the iterator was opened with (no bounds, so no range filter), and from
// here on s follows the iterator as if Init had readied it.
func (s *IterHooks) Activate() {
	s.deferred = false
	s.setBounds(nil, nil)
	s.withRangeFilters(true /* first */)
}

// Attach makes obs the iterator's Observer, in place of the one Init would
// have asked Hooks.Observe for: an iterator that keeps its observer's state
// in its own memory calls Init with observe false, readies obs for the
// options Init returned (obs gives Pebble the options it returns, and may
// change those options in place: Init hands out s's own options only when
// they are set, and Release clears them), and attaches it. Release
// releases it like any other.
func (s *IterHooks) Attach(obs Observer) { s.obs = obs }

// InitClone readies s for a clone of the iterator that parent follows, and
// returns the options to clone the upstream iterator with. With o nil the
// clone gets the parent's options as the caller last set them (bounds from
// SetBounds included), as Pebble's Clone does; never the upstream
// iterator's own, which carry the parent's filters. The clone gets an
// Observer of its own, if the parent has one: sharing it would mix their
// seeks.
func (s *IterHooks) InitClone(parent *IterHooks, o *pebble.IterOptions) *pebble.IterOptions {
	if o == nil {
		o = &parent.opts
	}
	s.limitRebuilds = parent.limitRebuilds
	up := s.Init(parent.hooks, o, parent.obs != nil)
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

// SetOptions records o as the caller's options and returns the options to
// hand Pebble's SetOptions: o with range filters for its bounds and the
// observer's filters.
func (s *IterHooks) SetOptions(o *pebble.IterOptions) *pebble.IterOptions {
	covered := s.covers(boundsOf(o))
	s.setOptions(o)
	if !covered {
		s.countRebuild()
	}
	return s.rebuild()
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
	if !s.limitRebuilds || s.hooks.RangeFilters == nil || !s.filtered {
		return
	}
	s.rebuilds++
	if s.rebuilds > rebuildsBeforeDrop {
		s.dropped = true
	}
}

// SetBounds records new bounds. It returns nil when the attached range
// filters stay correct for them: the iterator then gives Pebble's SetBounds
// the bounds of Options. Otherwise it returns the options to hand Pebble's
// SetOptions, with range filters built for the new bounds.
func (s *IterHooks) SetBounds(lower, upper []byte) *pebble.IterOptions {
	s.setBounds(lower, upper)
	if s.hooks.RangeFilters == nil || s.covers(lower, upper) {
		if s.obs != nil {
			s.obs.SetBounds(s.opts.LowerBound, s.opts.UpperBound)
		}
		return nil
	}
	s.countRebuild()
	return s.rebuild()
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
func (s *IterHooks) Release() {
	if s.obs != nil {
		s.obs.Release()
	}
	if s.gated != nil {
		s.hooks.Gate.Report(s.gated)
		s.gated = nil
	}
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
	s.limitRebuilds, s.rebuilds, s.dropped, s.gateAsked, s.deferred = false, 0, false, false, false
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

// rebuild returns the options for Pebble's SetOptions after the caller's
// options or bounds changed: range filters for the new bounds, then the
// observer's filters.
func (s *IterHooks) rebuild() *pebble.IterOptions {
	up := s.withRangeFilters(false /* first */)
	if s.obs != nil {
		up = s.obs.SetOptions(up)
	}
	return up
}

// withRangeFilters returns the caller's options with range filters for
// their bounds appended, and records the bounds the filters are for. The
// filter slice gets spare capacity because Pebble appends to it in place;
// first says the options are for opening the iterator (see firstFilters).
func (s *IterHooks) withRangeFilters(first bool) *pebble.IterOptions {
	s.copyUp()
	rf := s.hooks.RangeFilters
	if rf == nil || s.dropped {
		s.filtered = false
		return &s.up
	}
	lower, upper := s.opts.LowerBound, s.opts.UpperBound
	bounded := lower != nil || upper != nil
	admitted := false
	if bounded && s.limitRebuilds && s.hooks.Gate != nil && !s.gateAsked {
		// The iterator's first bounds, whether it opens with them or is
		// given them later: the gate decides once, for its life.
		s.gateAsked = true
		if admitted = s.hooks.Gate.Admit(lower, upper); !admitted {
			s.dropped, s.filtered = true, false
			return &s.up
		}
	}
	s.filtered = bounded
	if !first || s.filterBuf == nil {
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
	if extra := rf(s.filterLower, s.filterUpper); len(extra) > 0 {
		var f []pebble.BlockPropertyFilter
		if n := len(s.up.PointKeyFilters) + len(extra) + 1; first && n <= len(s.firstFilters) {
			f = s.firstFilters[:0:n]
		} else {
			f = make([]pebble.BlockPropertyFilter, 0, n)
		}
		s.up.PointKeyFilters = append(append(f, s.up.PointKeyFilters...), extra...)
		s.upSet = true
		if admitted {
			s.gated = extra
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
// options a caller gives querybuilder: the Observer of each query's reads
// (nil: none), and Closed, called as each query closes (nil: nothing),
// before the caller's own Options.Closed.
type Queries struct {
	Observe func(o *pebble.IterOptions) (Observer, *pebble.IterOptions)
	Closed  func(st *pebble.IteratorStats, seeks, found int)
}

// NewBuilder returns a *querybuilder.Builder for db, with zero options and
// q's plug-ins, from which the DB derives each query's Builder
// (Builder.With) so that they share its layout cache and plug-ins. Package
// querybuilder sets it when it is initialised: it imports this package, so
// the type of what it returns cannot be named here.
var NewBuilder func(db *pebble.DB, q Queries) any

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
