// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/iterhooks"
)

// IterTracker follows one wrapped iterator: its seeks, the data blocks its
// tables load, and the values its caller reads. It is an iterhooks.Observer,
// whose contract it keeps for the root package's iterators and for range
// queries alike. It is used from the iterator's goroutine only, as the
// iterator itself is.
//
// Pebble consults an iterator's block-property filters before every
// data-block load (not when a seek stays in the block already held, and
// never for memtables). The tracker adds an always-true filter to the
// iterator's options; the tagging collector stored the table's file number
// in each block's property, so each load is attributed to its table, and
// through the file-to-level map to a level. As in RocksDB, a table counts
// DATA at most once per seek, and a seek served from a block loaded earlier
// counts neither DATA nor USEFUL.
type IterTracker struct {
	// The fields every iterator touches come first, on as few cache lines
	// as may be: an iterator per seek pays for each line it misses.
	s      *Stats
	sh     *Shard
	filter iterFilter
	// held is set for a tracker kept in its iterator's memory (InitIter),
	// which Release leaves there.
	held bool
	// withFilterSet is set while withFilter is in use.
	withFilterSet bool
	useL6Filters  bool
	// bounded is set while the iterator has a lower or upper bound;
	// lower and upper are those bounds, for the range-length observer
	// (Pebble's contract keeps them unchanged until the next SetOptions).
	bounded bool
	// tableArmed and countsRange: see tableNum.
	tableArmed  bool
	countsRange bool
	lower       []byte
	upper       []byte
	// filters are the PointKeyFilters of the options Pebble is given
	// (withFilter, or the holder's); useL6Filters is the caller's
	// UseL6Filters. The caller's options themselves are not kept: an
	// iterator per seek would pay for every copy and clear of them.
	filters []pebble.BlockPropertyFilter

	// State of the current seek.
	prefixSeek       bool
	memtableReported bool
	unreported       int
	pending          []seekTable
	index            map[uint64]int // over pending, once it is long

	// tableNum is the table whose table-level check the tracker's filter
	// saw last, while tableArmed (rangecount.go); only iterators with range
	// filters to count (countsRange) arm.
	tableNum uint64
	// lens records how the bounds look to the tables' range filters
	// (rangelen.go).
	lens rangeLenObserver

	// The large fields come last, so that an iterator that uses neither
	// (an iterator per seek, with FiltersOnly) touches fewer cache lines.
	// withFilter are the options Pebble is given when they are not the
	// holder's (NewIter, SetOptions, InitIter without options).
	withFilter pebble.IterOptions
	buf        [8]seekTable
}

// seekTable is a table that loaded a data block since the last seek.
type seekTable struct {
	num        uint64
	f          *fileInfo // nil if the table is not in the map
	filterUsed bool
	reported   bool // USEFUL was counted for this seek
	// needed is set once the table is credited with a key the seek (or a
	// value read after it) found there (needed.go). It is kept apart from
	// reported, so that USEFUL keeps RocksDB's meaning.
	needed bool
}

// iterFilter is the always-true block-property filter.
type iterFilter struct{ t *IterTracker }

func (f *iterFilter) Name() string { return collectorName }

// Intersects counts data-block loads and lets every table and block through.
func (f *iterFilter) Intersects(prop []byte) (bool, error) {
	f.t.observe(prop)
	return true, nil
}

// SyntheticSuffixIntersects is Intersects: the tag does not depend on keys.
func (f *iterFilter) SyntheticSuffixIntersects(prop []byte, _ []byte) (bool, error) {
	f.t.observe(prop)
	return true, nil
}

// NewIter returns a tracker for a new iterator with options o (nil for
// defaults), and the options to create the iterator with: a copy of o with
// the tracker's filter added. o is not modified.
func (s *Stats) NewIter(o *pebble.IterOptions) (*IterTracker, *pebble.IterOptions) {
	t := trackerPool.Get().(*IterTracker)
	t.bind(s)
	t.filter.t = t
	return t, t.setOptions(o, true /* reuse */, false)
}

// Observe is NewIter as iterhooks.Observers asks for it: the statistics
// observe every iterator of the readers they are installed on.
func (s *Stats) Observe(o *pebble.IterOptions) (iterhooks.Observer, *pebble.IterOptions) {
	return s.NewIter(o)
}

// InitIter is NewIter for a tracker t that the caller keeps in memory of
// its own, such as a pooled iterator wrapper that holds its plug-ins' state
// in one object, so that an iterator per seek takes one object from a pool
// rather than one per plug-in. t must be unused (zero, or released); its
// Release then leaves it to its holder rather than pooling it.
//
// Unlike NewIter, InitIter adds the tracker's filters to o itself, not to a
// copy (one copy of the options fewer per iterator), and returns o: o must
// be options made for this iterator alone, such as those
// iterhooks.IterHooks.Init returns, or nil for defaults (nil is returned
// when there is nothing to add: Pebble then copies no options).
func (s *Stats) InitIter(t *IterTracker, o *pebble.IterOptions) *pebble.IterOptions {
	t.bind(s)
	t.filter.t = t
	t.held = true
	if o == nil && !s.cfg.FiltersOnly {
		// withFilter is zero while unused (Release clears it once used).
		o, t.withFilterSet = &t.withFilter, true
	}
	return t.setOptions(o, true /* reuse */, true /* inPlace */)
}

// SeeksOnly reports whether an iterator without range filters needs
// nothing of s but its seeks counted: with FiltersOnly (and without exact
// attribution) its tracker adds no filter, so it sees no data-block load,
// and has no value to attribute. Such an iterator can skip the plug-in
// state and count its seeks through a tracker readied by InitSeeksOnly.
func (s *Stats) SeeksOnly() bool {
	return s != nil && s.cfg.FiltersOnly && !s.cfg.ExactAttribution
}

// InitSeeksOnly readies t, kept in memory of its holder's as for InitIter,
// to count an iterator's seeks (EndSeek) and nothing else; it needs no
// Release. Only for an iterator for which SeeksOnly holds.
func (s *Stats) InitSeeksOnly(t *IterTracker) { t.bind(s) }

// bind makes t count into s, on a shard of its own; a tracker reused for
// the same s (from the pool, or kept in its holder's memory) keeps it.
func (t *IterTracker) bind(s *Stats) {
	if t.s != s {
		t.s, t.sh = s, s.c().PickShard()
	}
}

// Trackers are pooled: programs that open an iterator per seek (db_bench's
// seekrandom does) would otherwise allocate one, with two copies of the
// options, per seek.
var trackerPool = sync.Pool{New: func() any { return new(IterTracker) }}

// Release returns t to the pool once its iterator is closed; t must not be
// used afterwards. Pebble keeps no reference to the filter past Close.
func (t *IterTracker) Release() {
	clear(t.filters[:cap(t.filters)])
	if t.withFilterSet {
		// Clearing it unconditionally would cost every iterator.
		t.withFilter, t.withFilterSet = pebble.IterOptions{}, false
	}
	t.lower, t.upper = nil, nil
	// BeginSeek clears the last seek's entries; a seek never leaves any
	// behind (see dataLoad), so buf holds no table past this.
	t.BeginSeek(false)
	if !t.held {
		trackerPool.Put(t)
	}
}

// SetBounds records bounds that Pebble takes through its SetBounds, which
// keeps the iterator's filters: the range-length observer maps them, and a
// seek within them is a bounded one.
func (t *IterTracker) SetBounds(lower, upper []byte) {
	t.lower, t.upper = lower, upper
	t.bounded = lower != nil || upper != nil
}

// SetOptions records o as the iterator's new options and returns the
// options to pass to Pebble's SetOptions. Because they carry a block-property
// filter, Pebble rebuilds the iterator stack on every SetOptions while
// statistics are on.
func (t *IterTracker) SetOptions(o *pebble.IterOptions) *pebble.IterOptions {
	// The live iterator still holds the old filter slice: make a new one.
	return t.setOptions(o, false, false)
}

func (t *IterTracker) setOptions(o *pebble.IterOptions, reuse, inPlace bool) *pebble.IterOptions {
	t.BeginSeek(false)
	var caller []pebble.BlockPropertyFilter
	t.bounded, t.useL6Filters, t.countsRange = false, false, false
	t.lower, t.upper = nil, nil
	if o != nil {
		caller = o.PointKeyFilters
		t.lower, t.upper = o.LowerBound, o.UpperBound
		t.bounded = o.LowerBound != nil || o.UpperBound != nil
		t.useL6Filters = o.UseL6Filters
	}
	for _, f := range caller {
		if c, ok := f.(*rangeCounter); ok && c.t == nil {
			c.t, t.countsRange = t, true
		}
	}
	if t.s.cfg.FiltersOnly {
		// Nothing to add: Pebble gets the caller's options as they are.
		return o
	}
	// Pebble appends to this slice in place (levels share it), so it gets
	// room of its own. The tracker's filter comes first, then, for a
	// bounded iterator, the range-length observer, then the range filters,
	// so that the tracker's table-level call precedes theirs (rangecount.go,
	// rangelen.go).
	n := len(caller) + 3
	if !reuse || cap(t.filters) < n {
		t.filters = make([]pebble.BlockPropertyFilter, 0, n)
	}
	t.filters = t.lens.attach(t, append(t.filters[:0], &t.filter))
	if t.countsRange {
		for _, f := range caller {
			if _, ok := f.(*rangeCounter); ok {
				t.filters = append(t.filters, f)
			}
		}
		for _, f := range caller {
			if _, ok := f.(*rangeCounter); !ok {
				t.filters = append(t.filters, f)
			}
		}
	} else {
		t.filters = append(t.filters, caller...)
	}
	if inPlace {
		o.PointKeyFilters = t.filters
		return o
	}
	if o != nil {
		t.withFilter = *o
	} else {
		t.withFilter = pebble.IterOptions{}
	}
	t.withFilter.PointKeyFilters, t.withFilterSet = t.filters, true
	// Pebble copies the options it is given; the pointer does not escape
	// into the iterator.
	return &t.withFilter
}

// BeginSeek starts a seek; prefix is set for SeekPrefixGE, the only seek
// that consults filters.
func (t *IterTracker) BeginSeek(prefix bool) {
	t.chargeWaste()
	t.prefixSeek = prefix
	if t.pending == nil {
		t.pending = t.buf[:0]
	}
	t.pending = t.pending[:0]
	if t.index != nil {
		clear(t.index)
	}
	t.unreported = 0
	t.memtableReported = false
	t.tableArmed = false
}

// EndSeek counts a seek; valid is what it returned, and key, when valid,
// the key the iterator is at, which credits the table that held it as
// needed (needed.go).
func (t *IterTracker) EndSeek(valid bool, key []byte) {
	t.sh.AddTicker(NumberDBSeek, 1)
	if valid {
		t.sh.AddTicker(NumberDBSeekFound, 1)
		if len(t.pending) > 0 {
			t.seekFound(key)
		}
	}
}

// unknownTable stands for loads whose property did not decode.
const unknownTable = ^uint64(0)

func (t *IterTracker) observe(prop []byte) {
	var num uint64
	switch {
	case len(prop) == 2 && prop[0] == propKindData && prop[1] < 0x80:
		// File numbers below 2^14 (one or two varint bytes), decoded inline.
		num = uint64(prop[1])
	case len(prop) == 3 && prop[0] == propKindData && prop[1] >= 0x80 && prop[2] < 0x80:
		num = uint64(prop[1]&0x7f) | uint64(prop[2])<<7
	case len(prop) == 0:
		// An index block: not a data load.
		t.tableArmed = false
		return
	case prop[0] == propKindTable:
		// A table being opened for the iterator: arm the range filters'
		// attribution with its number (rangecount.go).
		if t.countsRange || t.lens.active {
			t.tableNum, t.tableArmed = decodeTableProp(prop)
		}
		return
	default:
		var ok bool
		if num, ok = decodeDataProp(prop); !ok {
			t.sh.AddTicker(BlockTagCorrupt, 1)
			num = unknownTable
		}
	}
	t.tableArmed = false
	t.dataLoad(num)
}

// dataLoad counts DATA for table num unless it already did in this seek.
func (t *IterTracker) dataLoad(num uint64) {
	if len(t.index) > 0 {
		if _, ok := t.index[num]; ok {
			return
		}
	} else {
		for i := range t.pending {
			if t.pending[i].num == num {
				return
			}
		}
	}
	st := seekTable{num: num}
	row := RowUnattributed
	if num != 0 && num != unknownTable {
		st.f = t.s.files.lookup(num)
	}
	if st.f != nil {
		row = st.f.row()
		// In a prefix seek Pebble checks the filter of every table it
		// positions, except L6 tables without UseL6Filters.
		st.filterUsed = t.prefixSeek && st.f.filtered() &&
			(st.f.level != 6 || t.useL6Filters)
	}
	if len(t.pending) == len(t.buf) && &t.pending[0] == &t.buf[0] {
		// The seek outgrows buf: the append below moves the entries,
		// whose copies left in buf chargeWaste would not clear.
		t.pending = append(t.pending, st)
		clear(t.buf[:])
	} else {
		t.pending = append(t.pending, st)
	}
	if len(t.pending) > 16 {
		if t.index == nil {
			t.index = make(map[uint64]int)
		}
		if len(t.index) == 0 {
			for i := range t.pending {
				t.index[t.pending[i].num] = i
			}
		}
		t.index[num] = len(t.pending) - 1
	}
	t.unreported++
	t.sh.AddRow(row, Data)
	if t.bounded {
		t.sh.AddRow(row, DataBounded)
	}
}

// Statistics returns the statistics t reports to.
func (t *IterTracker) Statistics() *Stats { return t.s }
