package querybuilder

import "github.com/cockroachdb/pebble/v2"

// Observer follows the reads of one query for a caller that counts them,
// such as the root package's seek statistics, so that reads made through a
// query are seen exactly like reads made through an ordinary iterator. The
// query reports each seek the caller makes (however the plan issues it, and
// including the re-seek a widening adds, which belongs to the caller's seek
// or step), each value the caller reads, and its close. An Observer is used
// from the query's goroutine only.
type Observer interface {
	// SetOptions returns the options to give Pebble when the query's
	// upstream options change to o; the observer may add block-property
	// filters of its own. o is not modified.
	SetOptions(o *pebble.IterOptions) *pebble.IterOptions
	// BeginSeek and EndSeek bracket an absolute positioning; prefix is set
	// when Pebble consults table filters for it (SeekPrefixGE, or a SeekGE
	// the prefix plan issues as one).
	BeginSeek(prefix bool)
	EndSeek(valid bool)
	// OnValue is called when the caller reads the value of key.
	OnValue(key []byte)
	// Release is called once the query's upstream iterator is closed.
	Release()
}

// observe returns the options to create i's upstream iterator with,
// attaching an observer if the Builder has one.
func (i *Iterator) observe(o *pebble.IterOptions) *pebble.IterOptions {
	if f := i.b.opts.Observe; f != nil && !i.unobserved {
		i.obs, o = f(o)
	}
	return o
}

// pebbleOptions returns the options to hand the upstream iterator after
// the caller's options or bounds changed: range filters for the new bounds,
// then the observer's own filters.
func (i *Iterator) pebbleOptions() *pebble.IterOptions {
	o := i.upstreamOptions()
	if i.obs != nil {
		o = i.obs.SetOptions(o)
	}
	return o
}

func (i *Iterator) beginSeek(prefix bool) {
	if i.obs != nil {
		i.obs.BeginSeek(prefix)
	}
}

func (i *Iterator) endSeek(valid bool) bool {
	if i.obs != nil {
		i.obs.EndSeek(valid)
	}
	return valid
}

func (i *Iterator) endSeekState(s pebble.IterValidityState) pebble.IterValidityState {
	if i.obs != nil {
		i.obs.EndSeek(s == pebble.IterValid)
	}
	return s
}

func (i *Iterator) onValue() {
	if i.obs != nil {
		i.obs.OnValue(i.it.Key())
	}
}
