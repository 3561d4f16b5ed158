package querybuilder

import (
	"context"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// The methods below need no planning: they hand the call to the upstream
// iterator, or recreate a query around a clone of it.

// Clone is pebble.Iterator.Clone; the clone is planned anew. With nil
// opts.IterOptions it gets this query's options, not the upstream
// iterator's (which may carry a step bound).
func (i *Iterator) Clone(opts pebble.CloneOptions) (*Iterator, error) {
	return i.CloneWithContext(context.Background(), opts)
}

// CloneWithContext is pebble.Iterator.CloneWithContext.
func (i *Iterator) CloneWithContext(ctx context.Context, opts pebble.CloneOptions) (*Iterator, error) {
	c := iterPool.Get().(*Iterator)
	c.b, c.closed = i.b, i.closed
	c.h.InitClone(&i.h, opts.IterOptions)
	opts.IterOptions = c.h.OpenClone(c.rangeFilters())
	return c.start(i.it.CloneWithContext(ctx, opts))
}

// Key is pebble.Iterator.Key.
func (i *Iterator) Key() []byte { return i.it.Key() }

// Value is pebble.Iterator.Value.
func (i *Iterator) Value() []byte {
	i.h.OnValue(i.it.Key())
	return i.it.Value()
}

// ValueAndErr is pebble.Iterator.ValueAndErr.
func (i *Iterator) ValueAndErr() ([]byte, error) {
	i.h.OnValue(i.it.Key())
	return i.it.ValueAndErr()
}

// LazyValue is pebble.Iterator.LazyValue. Asking for the lazy value counts
// as reading it, as it does for the root package's iterators.
func (i *Iterator) LazyValue() pebble.LazyValue {
	i.h.OnValue(i.it.Key())
	return i.it.LazyValue()
}

// Valid is pebble.Iterator.Valid.
func (i *Iterator) Valid() bool { return i.it.Valid() }

// Error is pebble.Iterator.Error.
func (i *Iterator) Error() error { return i.it.Error() }

// Close is pebble.Iterator.Close. The Iterator is recycled, as Pebble
// recycles its own: it must not be used after Close. A second Close right
// after the first returns nil rather than panic; once the Iterator has been
// reused for another query, it would close that one.
func (i *Iterator) Close() error {
	if i.it == nil {
		return nil
	}
	if i.closed != nil {
		i.closeStats = i.it.Stats()
		i.closed(&i.closeStats, i.seeks, int(i.found))
	}
	err := i.it.Close()
	i.recycle()
	return err
}

// iterPool recycles Iterators: a query per seek is a common pattern, and
// the struct is a few hundred bytes.
var iterPool = sync.Pool{New: func() any { return new(Iterator) }}

// recycle puts i, whose upstream iterator is closed or was never opened,
// back into the pool, keeping its buffers.
func (i *Iterator) recycle() {
	_ = i.h.Release() // planned queries never ask a gate: nothing to report
	*i = Iterator{keyBuf: i.keyBuf[:0], h: i.h}
	iterPool.Put(i)
}

// Stats is pebble.Iterator.Stats. It counts the upstream iterator's work,
// including the re-seeks stepping and prefix exits add.
func (i *Iterator) Stats() pebble.IteratorStats { return i.it.Stats() }

// ResetStats is pebble.Iterator.ResetStats; it resets QueryStats too.
func (i *Iterator) ResetStats() {
	i.it.ResetStats()
	stopped := i.stats.SteppingStopped
	i.stats = QueryStats{SteppingStopped: stopped}
}

// Metrics is pebble.Iterator.Metrics.
func (i *Iterator) Metrics() pebble.IteratorMetrics { return i.it.Metrics() }

// SetContext is pebble.Iterator.SetContext.
func (i *Iterator) SetContext(ctx context.Context) { i.it.SetContext(ctx) }

// RangeKeyChanged is pebble.Iterator.RangeKeyChanged.
func (i *Iterator) RangeKeyChanged() bool { return i.it.RangeKeyChanged() }

// HasPointAndRange is pebble.Iterator.HasPointAndRange.
func (i *Iterator) HasPointAndRange() (hasPoint, hasRange bool) { return i.it.HasPointAndRange() }

// RangeBounds is pebble.Iterator.RangeBounds.
func (i *Iterator) RangeBounds() (start, end []byte) { return i.it.RangeBounds() }

// RangeKeys is pebble.Iterator.RangeKeys.
func (i *Iterator) RangeKeys() []pebble.RangeKeyData { return i.it.RangeKeys() }
