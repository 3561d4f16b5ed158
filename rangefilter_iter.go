package pebble

import (
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
)

// Range filters (package rangefilter) are wired in here. With
// Plugins.RangeFilter set, every table carries a range filter, and every
// iterator with a bound gets a block-property filter for its bounds in
// IterOptions.PointKeyFilters: Pebble then skips, before reading any block,
// each table that holds no key in [lower, upper).
//
// The filter is built for the bounds it was given, and Pebble keeps a
// filter across SetBounds. An iterator whose bounds widen past its filter's
// would skip tables that now hold keys in range, so SetBounds is watched
// here: bounds inside the filter's keep it (a filter for wider bounds only
// prunes less), and any other bounds go through SetOptions with a new
// filter, which rebuilds Pebble's iterator stack. A caller cannot get a
// wrong answer by widening bounds; it pays for a rebuild instead.
//
// Iterators over an indexed batch get no range filter: SetOptions refreshes
// such an iterator's view of the batch and SetBounds does not, so turning
// one into the other would change what the caller sees (the metamorphic
// harness caught exactly that).

// rangeBounds is one iterator's range-filter state.
type rangeBounds struct {
	policy *rangefilter.Policy
	cmp    Compare
	// opts are the caller's options as last set, with owned copies of the
	// bounds; filtered says whether a bounds filter for opts' bounds is
	// attached (there is none while both bounds are open).
	opts     IterOptions
	filtered bool
	// slot holds the first bounds filter, so that opening a bounded
	// iterator costs this struct and one copy of the bounds, nothing more.
	// Later attaches (SetOptions, widening SetBounds) get fresh storage: a
	// clone of the iterator may still use the first filter.
	slot     rangefilter.BoundsFilterSlot
	slotUsed bool
}

// attach records o as the iterator's options and returns them with a bounds
// filter attached.
func (rb *rangeBounds) attach(o *IterOptions) *IterOptions {
	rb.opts = IterOptions{}
	if o != nil {
		rb.opts = *o
	}
	rb.opts.LowerBound, rb.opts.UpperBound = cloneBounds(rb.opts.LowerBound, rb.opts.UpperBound)
	rb.filtered = rb.opts.LowerBound != nil || rb.opts.UpperBound != nil
	if rb.slotUsed {
		return rb.policy.AttachBoundsFilter(&rb.opts)
	}
	rb.slotUsed = true
	// rb.opts is handed to Pebble as it is; it changes only in the next
	// attach, which Pebble sees through SetOptions.
	o2 := rb.opts
	rb.policy.AttachOwnedBoundsFilter(&o2, &rb.slot)
	rb.opts.PointKeyFilters = o2.PointKeyFilters
	return &rb.opts
}

// cloneBounds copies both bounds into one new buffer, keeping nil bounds nil
// and empty ones empty.
func cloneBounds(lower, upper []byte) ([]byte, []byte) {
	if lower == nil && upper == nil {
		return nil, nil
	}
	buf := make([]byte, 0, len(lower)+len(upper))
	if lower != nil {
		buf = append(buf, lower...)
		lower = buf[:len(lower):len(lower)]
	}
	if upper != nil {
		start := len(buf)
		buf = append(buf, upper...)
		upper = buf[start:len(buf):len(buf)]
	}
	return lower, upper
}

// covers reports whether the attached filter stays correct for the bounds
// [lower, upper): they must lie within the bounds it was built for.
func (rb *rangeBounds) covers(lower, upper []byte) bool {
	if !rb.filtered {
		// No filter: nothing to get wrong, but bounds now set deserve one.
		return lower == nil && upper == nil
	}
	fl, fu := rb.opts.LowerBound, rb.opts.UpperBound
	lowerOK := fl == nil || (lower != nil && rb.cmp(fl, lower) <= 0)
	upperOK := fu == nil || (upper != nil && rb.cmp(upper, fu) <= 0)
	return lowerOK && upperOK
}

// prepareIter readies an iterator about to be opened with o: its range
// filter state (nil when range filters are off), its statistics tracker
// (nil when statistics are off), and the options to open it with.
func prepareIter(
	s *seekstats.Statistics, rf *rangefilter.Policy, cmp Compare, o *IterOptions,
) (*rangeBounds, *seekstats.IterTracker, *IterOptions) {
	var rb *rangeBounds
	if rf != nil {
		rb = &rangeBounds{policy: rf, cmp: cmp}
		o = rb.attach(o)
	}
	t, o := trackIter(s, o)
	return rb, t, o
}

// wrapPrepared wraps an iterator opened with prepareIter's options.
func wrapPrepared(
	it *upstream.Iterator, err error, rb *rangeBounds, t *seekstats.IterTracker,
) (*Iterator, error) {
	w, err := wrapTracked(it, err, t)
	if w != nil {
		w.bounds = rb
	}
	return w, err
}

// SetBounds is upstream's Iterator.SetBounds. With range filters on, bounds
// outside the attached filter's are set through SetOptions with a new
// filter (see above).
func (i *Iterator) SetBounds(lower, upper []byte) {
	if i.bounds == nil || i.bounds.covers(lower, upper) {
		i.Iterator.SetBounds(lower, upper)
		return
	}
	o := i.bounds.opts
	o.LowerBound, o.UpperBound = lower, upper
	i.SetOptions(&o)
}

// SetOptions is upstream's Iterator.SetOptions. Range filters are rebuilt for
// the new bounds; with statistics on, the options also carry the tracker's
// block-property filter. Either way Pebble rebuilds the iterator stack.
func (i *Iterator) SetOptions(o *IterOptions) {
	if i.bounds != nil {
		o = i.bounds.attach(o)
	}
	if i.stats == nil {
		i.Iterator.SetOptions(o)
		return
	}
	i.Iterator.SetOptions(i.stats.SetOptions(o))
}
