package pebble

import (
	"context"
	"sync"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/attribution"
	"github.com/pebblerf/pebble/internal/iterhooks"
	"github.com/pebblerf/pebble/seekstats"
)

// Iterator is upstream Pebble's Iterator, wrapped so that plug-ins see the
// reads a caller makes. All upstream methods are available with their
// upstream signatures.
//
// An iterator of a reader with plug-ins keeps their state in a
// iterhooks.IterHooks, the same state a planned range query keeps:
//
//   - Statistics (package seekstats): every absolute positioning is a seek
//     for the per-table tickers, every value read may credit a table with
//     USEFUL, and options changes keep the tracker's block-property filter
//     in place.
//   - Range filters (package rangefilter): an iterator with a bound carries
//     a block-property filter for its bounds in IterOptions.PointKeyFilters,
//     so Pebble skips, before reading any block, each table holding no key in
//     range. Pebble keeps the filters across SetBounds, so bounds within the
//     filter's go to SetBounds (a filter for wider bounds only prunes less)
//     and any others to SetOptions with a new filter, which rebuilds Pebble's
//     iterator stack: widening the bounds costs a rebuild, never a wrong
//     answer. An iterator reused across many spans would pay that rebuild
//     per span and lose what reuse keeps (open tables, loaded blocks), so
//     the third time its bounds move outside its filter's it drops its
//     range filters and reads on as upstream's
//     (iterhooks.IterHooks.LimitRebuilds); range queries keep theirs.
//     And while the filters of a key region rule out almost no table, a
//     new plain iterator there gets none at all, but for a sample that
//     keeps watching (the policy's gate). An iterator opened without
//     bounds has no filter to carry, so unless statistics observe it its
//     plug-in state is set up only when it is first given bounds or cloned
//     (iterhooks.IterHooks.Defer): until then it reads as an iterator
//     without plug-ins does, and an unbounded seek pays for no hook.
//
// Without plug-ins a method costs one nil check, and a seek one more nil
// check and an increment: whether it found a key, for the DB-wide tickers,
// which Close adds, with upstream's IteratorStats, to the DB's totals
// (Statistics). Statistics' cheaper tier (seekstats.Config.FiltersOnly)
// needs no plug-in state either, for an iterator of a reader without range
// filters (no range-filter plug-in, or an indexed batch) and without
// ExactAttribution: it counts filter checks through the filter policy, and
// the seeks there.
//
// Iterators over an indexed batch get no range filter: SetOptions refreshes
// such an iterator's view of the batch and SetBounds does not, so turning
// one into the other would change what the caller sees.
type Iterator struct {
	*upstream.Iterator
	// h is the plug-in state, &hooks; nil for an iterator of a reader
	// without plug-ins (and of none, such as an external iterator), and
	// after Close.
	h *iterhooks.IterHooks
	// totals, if set, are the DB-wide tickers' iterator totals, to which
	// Close adds the iterator's stats; found counts the seeks that left the
	// iterator valid, which upstream's stats do not.
	totals *seekstats.IterTotals
	found  iterhooks.Found
	// hooks and tracker (the statistics' observer, when they are on) live
	// in the wrapper, so that opening an iterator takes one object from a
	// pool rather than one per plug-in: a program that opens an iterator
	// per seek pays for each pool's Get and Put on every seek.
	hooks   iterhooks.IterHooks
	tracker attribution.IterTracker
	// seeks is &tracker for an iterator whose statistics count its seeks
	// and nothing else (attribution.Stats.SeeksOnly: FiltersOnly, no
	// range filters); such an iterator has no plug-in state (h is nil).
	seeks *attribution.IterTracker
	// r are the plug-ins of the reader that opened the iterator.
	r *readerHooks
}

// iterPool recycles the wrappers, with their plug-in state, as upstream
// recycles its iterators: a program that opens an iterator per seek would
// otherwise allocate one per seek, and that allocation, small as it is,
// costs a measurable share of such a seek in GC work. Upstream's contract
// already forbids any use of an iterator after Close.
var iterPool = sync.Pool{New: func() any { return new(Iterator) }}

func getIterator() *Iterator { return iterPool.Get().(*Iterator) }

// initHooks readies i's plug-in state for a new iterator of its reader,
// opened with the caller's options o, and returns the options to open the
// upstream iterator with. The statistics' tracker is i's own, attached in
// place of the one the hooks' Observers would take from the tracker's pool.
func (i *Iterator) initHooks(o *IterOptions) *IterOptions {
	r := i.r
	if !r.hooks.RangeFilters && r.stats.SeeksOnly() {
		// The cheaper tier's iterators read as the plain ones, with their
		// seeks counted where the DB-wide tickers count theirs (counted).
		r.stats.InitSeeksOnly(&i.tracker)
		i.seeks = &i.tracker
		return o
	}
	i.h = &i.hooks
	i.hooks.LimitRebuilds()
	i.hooks.Init(&r.hooks, o)
	if r.stats == nil {
		return i.hooks.Open(r.rangeFilters(&i.hooks), true /* observe */)
	}
	up := r.stats.InitIter(&i.tracker, i.hooks.Open(r.rangeFilters(&i.hooks), false /* observe */))
	i.hooks.Attach(&i.tracker)
	return up
}

// activate gives i its plug-in state, if its opening deferred it
// (iterhooks.IterHooks.Defer): before the calls that may give it bounds or
// a clone that has them.
func (i *Iterator) activate() {
	if i.h == nil && i.hooks.Deferred() {
		i.hooks.LimitRebuilds()
		i.hooks.Activate()
		i.h = &i.hooks
	}
}

// finish completes a wrapper whose upstream iterator was opened (it, err),
// keeping upstream's nil-on-error contract.
func (i *Iterator) finish(it *upstream.Iterator, err error, totals *seekstats.IterTotals) (*Iterator, error) {
	if err != nil {
		i.release()
		return nil, err
	}
	i.Iterator, i.totals = it, totals
	return i, nil
}

// release empties i, whose upstream iterator is closed or was never opened,
// and returns it to the pool.
func (i *Iterator) release() {
	if i.h != nil || i.hooks.Deferred() {
		if gated := i.hooks.Release(); gated != nil {
			i.r.rangeFilter.Report(gated)
		}
	}
	i.Iterator, i.h, i.totals, i.found, i.seeks, i.r = nil, nil, nil, 0, nil, nil
	iterPool.Put(i)
}

// wrapIter wraps an upstream iterator that has no plug-in state, keeping
// upstream's nil-on-error contract.
func wrapIter(it *upstream.Iterator, err error) (*Iterator, error) {
	if err != nil {
		return nil, err
	}
	return getIterator().finish(it, nil, nil)
}

// Clone is upstream's Iterator.Clone.
func (i *Iterator) Clone(opts CloneOptions) (*Iterator, error) {
	return i.CloneWithContext(context.Background(), opts)
}

// CloneWithContext is upstream's Iterator.CloneWithContext. The clone gets
// plug-in state of its own: a range filter for its bounds and a statistics
// tracker, since sharing the original's would mix their seeks. Without
// options of its own it inherits the caller's options, as upstream's clone
// does, not the plug-ins' filters.
func (i *Iterator) CloneWithContext(ctx context.Context, opts CloneOptions) (*Iterator, error) {
	i.activate()
	if i.h == nil {
		clone, err := wrapIter(i.Iterator.CloneWithContext(ctx, opts))
		if clone != nil {
			clone.totals = i.totals
			if i.seeks != nil {
				i.seeks.Statistics().InitSeeksOnly(&clone.tracker)
				clone.seeks = &clone.tracker
			}
		}
		return clone, err
	}
	clone := getIterator()
	// Clones are rare: the clone's tracker comes from the hooks' Observers
	// (and its pool), not from the clone's own memory.
	clone.h, clone.r = &clone.hooks, i.r
	clone.hooks.InitClone(i.h, opts.IterOptions)
	opts.IterOptions = clone.hooks.OpenClone(i.r.rangeFilters(&clone.hooks))
	it, err := i.Iterator.CloneWithContext(ctx, opts)
	return clone.finish(it, err, i.totals)
}

// seek runs one of the seeks that take a key as an observed seek. The seek
// is a method expression, so passing it allocates nothing.
func (i *Iterator) seek(prefix bool, fn func(*upstream.Iterator, []byte) bool, key []byte) bool {
	i.h.BeginSeek(prefix)
	return i.h.EndSeek(i.Iterator, fn(i.Iterator, key))
}

// counted counts a seek's result for the DB-wide tickers, and for the
// statistics of an iterator that has seeks to count but no plug-in state,
// and returns it.
func (i *Iterator) counted(valid bool) bool {
	if i.seeks != nil {
		// Without plug-in state the tracker saw no load to credit.
		i.seeks.EndSeek(valid, nil)
	}
	return i.found.Count(valid)
}

// countedState is counted for the WithLimit seeks.
func (i *Iterator) countedState(s IterValidityState) IterValidityState {
	i.counted(s == IterValid)
	return s
}

// seekWithLimit is seek for the WithLimit seeks.
func (i *Iterator) seekWithLimit(
	fn func(*upstream.Iterator, []byte, []byte) IterValidityState, key, limit []byte,
) IterValidityState {
	i.h.BeginSeek(false)
	return i.h.EndSeekState(i.Iterator, fn(i.Iterator, key, limit))
}

// SeekGE is upstream's Iterator.SeekGE.
func (i *Iterator) SeekGE(key []byte) bool {
	if i.h == nil {
		return i.counted(i.Iterator.SeekGE(key))
	}
	return i.counted(i.seek(false, (*upstream.Iterator).SeekGE, key))
}

// SeekGEWithLimit is upstream's Iterator.SeekGEWithLimit.
func (i *Iterator) SeekGEWithLimit(key []byte, limit []byte) IterValidityState {
	if i.h == nil {
		return i.countedState(i.Iterator.SeekGEWithLimit(key, limit))
	}
	return i.countedState(i.seekWithLimit((*upstream.Iterator).SeekGEWithLimit, key, limit))
}

// SeekPrefixGE is upstream's Iterator.SeekPrefixGE.
func (i *Iterator) SeekPrefixGE(key []byte) bool {
	if i.h == nil {
		return i.counted(i.Iterator.SeekPrefixGE(key))
	}
	return i.counted(i.seek(true, (*upstream.Iterator).SeekPrefixGE, key))
}

// SeekLT is upstream's Iterator.SeekLT.
func (i *Iterator) SeekLT(key []byte) bool {
	if i.h == nil {
		return i.counted(i.Iterator.SeekLT(key))
	}
	return i.counted(i.seek(false, (*upstream.Iterator).SeekLT, key))
}

// SeekLTWithLimit is upstream's Iterator.SeekLTWithLimit.
func (i *Iterator) SeekLTWithLimit(key []byte, limit []byte) IterValidityState {
	if i.h == nil {
		return i.countedState(i.Iterator.SeekLTWithLimit(key, limit))
	}
	return i.countedState(i.seekWithLimit((*upstream.Iterator).SeekLTWithLimit, key, limit))
}

// First is upstream's Iterator.First.
func (i *Iterator) First() bool {
	if i.h == nil {
		return i.counted(i.Iterator.First())
	}
	return i.counted(i.seek(false, firstOf, nil))
}

// Last is upstream's Iterator.Last.
func (i *Iterator) Last() bool {
	if i.h == nil {
		return i.counted(i.Iterator.Last())
	}
	return i.counted(i.seek(false, lastOf, nil))
}

func firstOf(it *upstream.Iterator, _ []byte) bool { return it.First() }
func lastOf(it *upstream.Iterator, _ []byte) bool  { return it.Last() }

// onValue reports that the caller reads the current value.
func (i *Iterator) onValue() {
	if i.h != nil && i.h.Observed() {
		i.h.OnValue(i.Iterator.Key())
	}
}

// Value is upstream's Iterator.Value.
func (i *Iterator) Value() []byte {
	i.onValue()
	return i.Iterator.Value()
}

// ValueAndErr is upstream's Iterator.ValueAndErr.
func (i *Iterator) ValueAndErr() ([]byte, error) {
	i.onValue()
	return i.Iterator.ValueAndErr()
}

// LazyValue is upstream's Iterator.LazyValue. Asking for the lazy value
// counts as reading it.
func (i *Iterator) LazyValue() LazyValue {
	i.onValue()
	return i.Iterator.LazyValue()
}

// SetBounds is upstream's Iterator.SetBounds. With range filters on, bounds
// outside the attached filter's are set through SetOptions with a new
// filter (see the type's comment).
func (i *Iterator) SetBounds(lower, upper []byte) {
	i.activate()
	if i.h != nil && i.h.SetBounds(lower, upper) {
		i.Iterator.SetOptions(i.h.Rebuilt(i.r.rangeFilters(i.h)))
		return
	}
	i.Iterator.SetBounds(lower, upper)
}

// SetOptions is upstream's Iterator.SetOptions. Range filters, unless the
// iterator has dropped them (see the type's comment), are rebuilt for the
// new bounds; with statistics on, the options also carry the tracker's
// block-property filter. Either way Pebble rebuilds the iterator stack.
func (i *Iterator) SetOptions(o *IterOptions) {
	i.activate()
	if i.h != nil {
		i.h.SetOptions(o)
		o = i.h.Rebuilt(i.r.rangeFilters(i.h))
	}
	i.Iterator.SetOptions(o)
}

// Close is upstream's Iterator.Close. The iterator's stats are added to the
// DB-wide tickers (once per iterator, so reads pay nothing for them), and
// the wrapper, with its plug-in state, goes back to its pool: as with
// upstream's iterators, no method may be called after Close. A second Close
// right after the first returns nil rather than panic; once the wrapper has
// been reused for another iterator, it would close that one.
func (i *Iterator) Close() error {
	if i.Iterator == nil {
		return nil
	}
	if t := i.totals; t != nil {
		st := i.Iterator.Stats()
		t.Add(&st, int(i.found))
	}
	err := i.Iterator.Close()
	i.release()
	return err
}
