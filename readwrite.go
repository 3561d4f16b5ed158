package pebble

import (
	"context"
	"io"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/attribution"
	"github.com/pebblerf/pebble/internal/iterhooks"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
)

// Reader is upstream's Reader, over this package's Iterator: DB, Batch,
// Snapshot and EventuallyFileOnlySnapshot implement it.
type Reader interface {
	Get(key []byte) (value []byte, closer io.Closer, err error)
	NewIter(o *IterOptions) (*Iterator, error)
	NewIterWithContext(ctx context.Context, o *IterOptions) (*Iterator, error)
	Close() error
}

// Writer is upstream's Writer, over this package's Batch: DB and Batch
// implement it.
type Writer interface {
	Apply(batch *Batch, o *WriteOptions) error
	Delete(key []byte, o *WriteOptions) error
	DeleteSized(key []byte, valueSize uint32, o *WriteOptions) error
	SingleDelete(key []byte, o *WriteOptions) error
	DeleteRange(start, end []byte, o *WriteOptions) error
	LogData(data []byte, opts *WriteOptions) error
	Merge(key, value []byte, o *WriteOptions) error
	Set(key, value []byte, o *WriteOptions) error
	RangeKeySet(start, end, suffix, value []byte, opts *WriteOptions) error
	RangeKeyUnset(start, end, suffix []byte, opts *WriteOptions) error
	RangeKeyDelete(start, end []byte, opts *WriteOptions) error
}

var (
	_ Reader = (*DB)(nil)
	_ Reader = (*Batch)(nil)
	_ Reader = (*Snapshot)(nil)
	_ Reader = (*EventuallyFileOnlySnapshot)(nil)
	_ Writer = (*DB)(nil)
	_ Writer = (*Batch)(nil)

	// The statistics' tracker is the iterators' observer.
	_ iterhooks.Observer = (*attribution.IterTracker)(nil)
)

// readerHooks are the plug-ins of one reader, embedded in each reader's
// wrapper (DB, Snapshot, EventuallyFileOnlySnapshot, Batch): the
// statistics its Gets report to, and the hooks its iterators get. A
// snapshot or batch gets a copy of its DB's.
type readerHooks struct {
	stats *attribution.Stats // nil: statistics off
	hooks iterhooks.Hooks
	// rangeFilter makes the range filters of the bounds its iterators'
	// state asks for (nil: the plug-in is off).
	rangeFilter *rangefilter.Policy
	// iterTotals sum the stats of the reader's iterators as they close,
	// for the DB-wide tickers.
	iterTotals *seekstats.IterTotals
	// getL6 routes Gets through a prefix iterator that consults L6
	// filters (getl6.go); nil: Plugins.GetL6Filters is off.
	getL6 *getRouter
}

// forBatch returns the hooks of an indexed batch's iterators: no range
// filters (iterhooks.Hooks.ForBatch says why).
func (r readerHooks) forBatch() readerHooks {
	r.hooks = r.hooks.ForBatch()
	r.getL6 = nil // a batch's Gets stay upstream's
	return r
}

// reader is an upstream reader: DB, Snapshot, EventuallyFileOnlySnapshot or
// Batch. Each one's NewIter is its NewIterWithContext with a background
// context.
type reader interface {
	Get(key []byte) ([]byte, io.Closer, error)
	NewIterWithContext(ctx context.Context, o *IterOptions) (*upstream.Iterator, error)
}

// newIter opens an iterator of src, which r's wrapper embeds, with r's
// plug-ins attached.
func (r *readerHooks) newIter(ctx context.Context, src reader, o *IterOptions) (*Iterator, error) {
	i := getIterator()
	i.r = r
	if r.hooks.Enabled() && !i.hooks.Defer(&r.hooks, o) {
		o = i.initHooks(o)
	}
	it, err := src.NewIterWithContext(ctx, o)
	return i.finish(it, err, r.iterTotals)
}

// rangeFilters returns the range filters of the bounds s asks them for
// (iterhooks.IterHooks.FilterBounds): the policy's bounds filter, after its
// gate admitted a plain iterator, wrapped so that the iterator's statistics
// count the tables it rules out when they are on; nil when s asks for none
// or the gate turns the iterator away.
func (r *readerHooks) rangeFilters(s *iterhooks.IterHooks) []BlockPropertyFilter {
	lower, upper, askGate, ok := s.FilterBounds()
	if !ok {
		return nil
	}
	if askGate && !r.rangeFilter.Admit(lower, upper) {
		s.Drop()
		return nil
	}
	return r.boundsFilters(lower, upper)
}

// boundsFilters returns the range filters of bounds [lower, upper) whose
// bytes the caller keeps unchanged for as long as the filters are used, so
// that the filters may alias them (one allocation per filter), wrapped so
// that the iterator's statistics count the tables they rule out when they
// are on. It is the DB's range queries' Options.RangeFilters.
func (r *readerHooks) boundsFilters(lower, upper []byte) []BlockPropertyFilter {
	filters := r.rangeFilter.OwnedBoundsFilters(lower, upper)
	if r.stats != nil {
		for i, f := range filters {
			filters[i] = attribution.CountRangeFilter(f)
		}
	}
	return filters
}

// get is src's Get, with its filter checks reported to the statistics when
// they are on, or, with Plugins.GetL6Filters, a prefix seek that consults
// L6 filters (getl6.go), which the statistics count as the seek it is.
func (r *readerHooks) get(src reader, key []byte) ([]byte, io.Closer, error) {
	if r.getL6 != nil {
		return r.routedGet(src, key)
	}
	if r.stats == nil {
		return upstreamGet(src, key)
	}
	return r.countedGet(src, key)
}

// upstreamGet is src's Get, with the error upstream's Get leaves to its
// closer. Pebble v2.1.7's Get returns its iterator's Value(), which, when
// reading a value stored apart from its key (a value block, a blob file)
// fails, records the error in the iterator and returns an empty value:
// the Get reports success with a value that is wrong, and only the
// closer's Close returns the error. An empty value is a value, so only the
// iterator (the closer Get returns) can tell the two apart; asked here, it
// makes the failed read the Get's error, as every other failed read of a
// Get already is. A successful Get is unchanged.
func upstreamGet(src reader, key []byte) ([]byte, io.Closer, error) {
	v, c, err := src.Get(key)
	if err != nil {
		return v, c, err
	}
	if it, ok := c.(*upstream.Iterator); ok {
		if err := it.Error(); err != nil {
			_ = c.Close() // returns err again
			return nil, nil, err
		}
	}
	return v, c, nil
}

// countedGet is src's Get with its filter checks reported to the
// statistics.
func (r *readerHooks) countedGet(src reader, key []byte) ([]byte, io.Closer, error) {
	g := r.stats.BeginGet(key)
	v, c, err := upstreamGet(src, key)
	g.End(err)
	return v, c, err
}

// routedGet is get with Plugins.GetL6Filters on: through the prefix
// iterator while the router routes, upstream's Get otherwise, and its
// result counted for the automatic mode.
func (r *readerHooks) routedGet(src reader, key []byte) (v []byte, c io.Closer, err error) {
	switch {
	case r.getL6.routes(key):
		v, c, err = r.getByPrefix(src, key)
	case r.stats != nil:
		v, c, err = r.countedGet(src, key)
	default:
		v, c, err = upstreamGet(src, key)
	}
	r.getL6.done(err)
	return v, c, err
}
