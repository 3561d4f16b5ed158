package pebble

import (
	"context"

	upstream "github.com/cockroachdb/pebble/v2"
)

// The iterator methods below report to the iterator's tracker (nil when
// statistics are off): every seek starts a new seek for the per-table
// tickers, every value read may credit a table with USEFUL, and options
// changes keep the tracker's block-property filter in place.

// seek runs one of the seeks that take a key as a tracked seek. The seek is
// a method expression, so passing it allocates nothing.
func (i *Iterator) seek(prefix bool, fn func(*upstream.Iterator, []byte) bool, key []byte) bool {
	i.stats.BeginSeek(prefix)
	ok := fn(i.Iterator, key)
	i.stats.EndSeek(ok)
	return ok
}

// seekWithLimit is seek for the WithLimit seeks.
func (i *Iterator) seekWithLimit(
	fn func(*upstream.Iterator, []byte, []byte) IterValidityState, key, limit []byte,
) IterValidityState {
	i.stats.BeginSeek(false)
	v := fn(i.Iterator, key, limit)
	i.stats.EndSeek(v == IterValid)
	return v
}

// SeekGE is upstream's Iterator.SeekGE.
func (i *Iterator) SeekGE(key []byte) bool {
	if i.stats == nil {
		return i.Iterator.SeekGE(key)
	}
	return i.seek(false, (*upstream.Iterator).SeekGE, key)
}

// SeekGEWithLimit is upstream's Iterator.SeekGEWithLimit.
func (i *Iterator) SeekGEWithLimit(key []byte, limit []byte) IterValidityState {
	if i.stats == nil {
		return i.Iterator.SeekGEWithLimit(key, limit)
	}
	return i.seekWithLimit((*upstream.Iterator).SeekGEWithLimit, key, limit)
}

// SeekPrefixGE is upstream's Iterator.SeekPrefixGE.
func (i *Iterator) SeekPrefixGE(key []byte) bool {
	if i.stats == nil {
		return i.Iterator.SeekPrefixGE(key)
	}
	return i.seek(true, (*upstream.Iterator).SeekPrefixGE, key)
}

// SeekLT is upstream's Iterator.SeekLT.
func (i *Iterator) SeekLT(key []byte) bool {
	if i.stats == nil {
		return i.Iterator.SeekLT(key)
	}
	return i.seek(false, (*upstream.Iterator).SeekLT, key)
}

// SeekLTWithLimit is upstream's Iterator.SeekLTWithLimit.
func (i *Iterator) SeekLTWithLimit(key []byte, limit []byte) IterValidityState {
	if i.stats == nil {
		return i.Iterator.SeekLTWithLimit(key, limit)
	}
	return i.seekWithLimit((*upstream.Iterator).SeekLTWithLimit, key, limit)
}

// First is upstream's Iterator.First.
func (i *Iterator) First() bool {
	if i.stats == nil {
		return i.Iterator.First()
	}
	return i.seek(false, firstOf, nil)
}

// Last is upstream's Iterator.Last.
func (i *Iterator) Last() bool {
	if i.stats == nil {
		return i.Iterator.Last()
	}
	return i.seek(false, lastOf, nil)
}

func firstOf(it *upstream.Iterator, _ []byte) bool { return it.First() }
func lastOf(it *upstream.Iterator, _ []byte) bool  { return it.Last() }

// Value is upstream's Iterator.Value.
func (i *Iterator) Value() []byte {
	if i.stats != nil {
		i.stats.OnValue(i.Iterator.Key())
	}
	return i.Iterator.Value()
}

// ValueAndErr is upstream's Iterator.ValueAndErr.
func (i *Iterator) ValueAndErr() ([]byte, error) {
	if i.stats != nil {
		i.stats.OnValue(i.Iterator.Key())
	}
	return i.Iterator.ValueAndErr()
}

// LazyValue is upstream's Iterator.LazyValue. Asking for the lazy value
// counts as reading it.
func (i *Iterator) LazyValue() LazyValue {
	if i.stats != nil {
		i.stats.OnValue(i.Iterator.Key())
	}
	return i.Iterator.LazyValue()
}

// cloneTracked clones i with a tracker of its own: Pebble would otherwise
// share the original's block-property filter, and with it its seek state.
func (i *Iterator) cloneTracked(ctx context.Context, opts CloneOptions) (*Iterator, error) {
	base := opts.IterOptions
	if base == nil {
		base = i.stats.Options()
	}
	t, o := i.stats.Statistics().NewIter(base)
	opts.IterOptions = o
	it, err := i.Iterator.CloneWithContext(ctx, opts)
	return wrapTracked(it, err, t)
}

// Close is upstream's Iterator.Close. The tracker goes back to its pool.
func (i *Iterator) Close() error {
	err := i.Iterator.Close()
	if i.stats != nil {
		i.stats.Release()
		i.stats = nil
	}
	return err
}
