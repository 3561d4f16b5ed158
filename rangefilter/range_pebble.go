// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"encoding/binary"
	"slices"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/handoff"
	"github.com/pebblerf/pebble/internal/rangebounds"
	"github.com/pebblerf/pebble/internal/tableprops"
)

// A Policy wires range filters into Pebble through its exported API only:
//
//   - Writing: Collector returns a constructor for Options.
//     BlockPropertyCollectors. Through a table-property collector it sees every point key
//     of every kind that goes into an sstable (sets, merges, deletions and
//     single deletions: leaving a tombstone out would let a table be skipped
//     whose tombstone hides an older key, and the key would come back), and
//     stores the filter of the keys' Comparer.Split prefixes as a table
//     property. Data and index blocks get no property.
//
//   - Reading: BoundsFilter returns a BlockPropertyFilter for
//     IterOptions.PointKeyFilters with the iterator's bounds baked in.
//     Pebble calls it once per table when it opens the table for the
//     iterator, before reading any index, filter or data block; when it says
//     no, the table contributes no point keys (its range deletions still
//     apply, Pebble sees to that). Pebble also calls it per data and index
//     block, with nil properties, and it says yes.
//
// Why per table only, not per block: a block summary would be consulted only
// in tables that passed the table filter, which at 16 bits/key and ranges of
// up to 32 keys are tables that really hold a key in range in more than
// 99.5% of cases; and in those, Pebble's index seek already goes straight to
// the block holding the first key >= lower. A per-block filter could save at
// most the 0.5% false-positive block loads and would cost index bytes in
// every entry of every table (Pebble's budget is 50-100 bytes per entry for
// all collectors together). Not worth it.
//
// # Bounds are baked in
//
// A BlockPropertyFilter is told neither the bounds nor the seek key, so the
// bounds go into the filter. The filter is then correct for exactly those
// bounds: after Iterator.SetBounds widens them, an old filter would keep
// skipping tables that now hold keys in range. Whenever the bounds change,
// build new IterOptions with AttachBoundsFilter and pass them to
// Iterator.SetOptions (which rebuilds the iterator stack); never SetBounds
// with a bounds filter attached.
//
// # Requirements
//
//   - The comparer must order Split prefixes bytewise (DefaultComparer and
//     cockroachkvs.Comparer do). Keys that arrive out of bytewise order make
//     the table's filter universal ("may intersect") rather than wrong, and
//     are counted (see the policy's counts); bounds are compared bytewise.
//   - Memtables and batches are never filtered by Pebble; that is fine.
//   - Tables ingested with a synthetic prefix are not supported: Pebble
//     would hand the filter the property of the unprefixed keys.
//   - Suffix replacement (ingest with a synthetic suffix) does not change
//     Split prefixes; SyntheticSuffixIntersects answers as Intersects.
//
// # Per-level plans
//
// Which levels' tables get a filter, and at how many bits per key, is the
// policy's Plan (plan.go): every level at Config.BitsPerKey unless SetPlan
// says otherwise, and under an OnDemand plan only where bounded reads come
// (usage.go). The collector learns its table's output level from the
// flush or compaction writing it, through the events EventListener returns;
// without them (a user's own sstable writer, an ingested file) the level is
// unknown and the table gets Config.BitsPerKey.
//
// # What a table's property holds
//
// The property is a tableprops map with up to two entries: the filter
// (rangefilter.v1, absent when the table got none) and the table's
// written.v1 record: a byte, the level that wrote it plus one (0: unknown),
// then the table's file number as a uvarint (0: unknown). A read tells its
// answers apart by level from the record, and notes tables without a
// filter for the backfill by their number. Readers that know neither entry
// (upstream Pebble, earlier pebblerf) ignore the property or read the
// filter alone.
type Policy struct {
	split   pebble.Split
	compare pebble.Compare
	cfg     Config
	plan    atomic.Pointer[Plan]
	handoff *handoff.Handoff
	// corrupt and universal are the policy's Counts.
	corrupt, universal atomic.Uint64
	usage              *usage
	// derived holds the filters Backfill derived for tables written
	// without one.
	derived derivedFilters
}

// spareBuilders keeps a few finished builders between tables, for every
// policy of the process, so that the next table's keys go into buffers the
// tables before sized rather than ones grown from nothing: a sync.Pool
// would lose them at every garbage collection, which a DB taking writes
// runs many times a second. It holds at most maxSpares builders (a flush
// and a compaction at once, and one more), none holding more than
// spareMaxBytes: what the process keeps between tables is at most their
// product, 48 MiB, however many DBs it opens, and is that of the largest
// recent tables' Split prefixes, about 30 bytes per key beyond the keys.
var spareBuilders = make(chan *Builder, maxSpares)

const (
	maxSpares     = 3
	spareMaxBytes = 16 << 20
)

// Name is the name of the block property that holds the filter, and of the
// collector and filter.
const Name = "pebblerf.rangefilter"

// rangeFilterProp is the key of the filter in the table property map, and
// writtenProp that of the table's written record.
const (
	rangeFilterProp = "rangefilter.v1"
	writtenProp     = "written.v1"
)

// Counts are the events that cost a DB reads but never results, which a
// policy counts: a bounds filter that met a table whose range-filter
// property did not decode (and answered "may intersect"), and a table given
// a universal filter because its Split prefixes were not in bytewise order,
// the mark of a comparer the range filter does not support. pebblerf makes
// one Policy per DB it opens, so the counts are that DB's
// (DB.FilterCounters).
type Counts struct {
	// Corrupt is the checks that met a property that did not decode.
	Corrupt uint64
	// Universal is the tables given a filter that answers "may intersect"
	// to every query.
	Universal uint64
}

// Counts returns what the policy counted since it was made.
func (p *Policy) Counts() Counts {
	return Counts{Corrupt: p.corrupt.Load(), Universal: p.universal.Load()}
}

// NewPolicy returns a policy for keys ordered by cmp (nil means
// pebble.DefaultComparer).
func NewPolicy(cmp *pebble.Comparer, cfg Config) (*Policy, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cmp == nil {
		cmp = pebble.DefaultComparer
	}
	p := &Policy{split: cmp.Split, compare: cmp.Compare, cfg: cfg, handoff: handoff.New(), usage: newUsage()}
	if p.compare == nil {
		p.compare = pebble.DefaultComparer.Compare
	}
	if p.split == nil {
		p.split = func(k []byte) int { return len(k) }
	}
	all := AllLevels(cfg.bitsPerKey())
	p.plan.Store(&all)
	return p, nil
}

// SetPlan makes plan the one tables written from now on follow, or returns
// its validation error and keeps the current plan. Tables already written
// keep their filters, or their lack of one, until a compaction rewrites
// them.
func (p *Policy) SetPlan(plan Plan) error {
	if err := plan.Validate(); err != nil {
		return err
	}
	p.plan.Store(&plan)
	return nil
}

// Plan returns the current plan.
func (p *Policy) Plan() Plan { return *p.plan.Load() }

// EventListener returns the events through which the collector learns each
// table's output level; add it to the options the collector is in. Those
// events name flushes and compactions by job number, which each DB counts
// from 1, so a policy whose plan is not the same on every level must serve
// one DB only (OpenWithPlugins makes one per DB): in two DBs, one's job
// could place the other's tables on the wrong level.
//
// They also drop the filter Backfill derived for a table when the table is
// deleted.
func (p *Policy) EventListener() pebble.EventListener {
	l := p.handoff.Listener()
	l.TableDeleted = func(info pebble.TableDeleteInfo) { p.derived.drop(uint64(info.FileNum)) }
	return l
}

// builder returns a builder of bits bits per key, a spare one if there is.
func (p *Policy) builder(bits float64) *Builder {
	cfg := p.cfg
	cfg.BitsPerKey = bits // validated with the plan
	select {
	case b := <-spareBuilders:
		b.cfg = cfg
		return b
	default:
		return &Builder{cfg: cfg}
	}
}

// release keeps b, finished, as a spare unless there are enough or its
// buffers are too large to keep.
func release(b *Builder) {
	if b.footprint() > spareMaxBytes {
		return
	}
	select {
	case spareBuilders <- b:
	default:
	}
}

// Config returns the policy's configuration.
func (p *Policy) Config() Config { return p.cfg }

// prefix returns Split(key), clamped to the key: Split may misbehave on
// bounds that are not well-formed keys.
func (p *Policy) prefix(key []byte) []byte {
	n := p.split(key)
	return key[:max(0, min(n, len(key)))]
}

// Collector returns the constructor to add to Options.BlockPropertyCollectors.
// Each table's filter follows the plan current when the table is started, at
// the level the policy's EventListener names (Config.BitsPerKey if none);
// under an OnDemand plan, also what bounded reads do in the key region of
// the table's first key (bitsFor).
func (p *Policy) Collector() func() pebble.BlockPropertyCollector {
	return tableprops.Adapt(func() tableprops.Collector {
		return &rangeCollector{p: p, table: p.handoff.Take(), plan: p.plan.Load()}
	})
}

// bitsFor returns the bits per key of the filter of table t, written under
// plan, whose first key is first (nil for a table of no point key), or 0
// for no filter.
func (p *Policy) bitsFor(t handoff.Table, plan *Plan, first []byte) float64 {
	bits, level := p.cfg.bitsPerKey(), -1
	if t.Level >= 0 && t.Level < PlanLevels {
		bits, level = plan.Levels[t.Level], t.Level
	}
	if bits == 0 || !plan.OnDemand {
		return bits
	}
	r := regionOf(first, nil)
	if !p.usage.demanded(r) {
		return 0
	}
	if level >= 0 && p.usage.useless(level, r) && !p.usage.sample(level, r) {
		return 0
	}
	return bits
}

// rangeCollector builds one table's filter. It decides whether the table
// gets one at its first key, whose region an OnDemand plan asks about.
type rangeCollector struct {
	p       *Policy
	table   handoff.Table
	plan    *Plan
	decided bool
	bits    float64 // 0: no filter
	b       *Builder
}

func (c *rangeCollector) Name() string { return Name }

func (c *rangeCollector) decide(first []byte) {
	c.decided = true
	if c.bits = c.p.bitsFor(c.table, c.plan, first); c.bits != 0 {
		c.b = c.p.builder(c.bits)
	}
}

func (c *rangeCollector) Add(key pebble.InternalKey, _ []byte) error {
	if !c.decided {
		c.decide(key.UserKey)
	}
	if c.b == nil {
		return nil
	}
	// Out-of-order keys make the filter universal: the table stays readable.
	_ = c.b.Add(c.p.prefix(key.UserKey))
	return nil
}

// Finish stores the table's written record and its filter, if it gets one;
// a table without one reads as "may intersect". A table of no point key
// (range deletions alone) gets an empty filter, which rules it out of every
// read: its range deletions still apply.
func (c *rangeCollector) Finish(props map[string]string) error {
	props[writtenProp] = string(appendWritten(nil, c.table))
	if !c.decided {
		c.decide(nil)
	}
	if c.b == nil {
		return nil
	}
	if c.b.unordered {
		c.p.universal.Add(1)
	}
	c.b.out = c.b.Finish(c.b.out[:0])
	props[rangeFilterProp] = string(c.b.out)
	release(c.b)
	c.b = nil
	return nil
}

// appendWritten appends t's written record: its level plus one (0 when
// unknown), then its file number as a uvarint (0 when unknown).
func appendWritten(dst []byte, t handoff.Table) []byte {
	dst = append(dst, byte(t.Level+1))
	return binary.AppendUvarint(dst, t.Num)
}

// tableProp is what a bounds filter reads of a table's property.
type tableProp struct {
	filter    []byte
	hasFilter bool
	// level is the level that wrote the table, or PlanLevels when the
	// property does not say; num is its file number, 0 when unknown.
	level int
	num   uint64
}

// parseTableProp reads a table's property, aliasing it, without
// allocating; ok is false when it does not decode.
func parseTableProp(prop []byte) (t tableProp, ok bool) {
	t.level = PlanLevels
	w, err := tableprops.Walk(prop)
	if err != nil {
		return t, false
	}
	for {
		name, value, more := w.Next()
		if !more {
			return t, true
		}
		switch string(name) {
		case rangeFilterProp:
			t.filter, t.hasFilter = value, true
		case writtenProp:
			if len(value) == 0 || value[0] > PlanLevels {
				return t, false
			}
			num, n := binary.Uvarint(value[1:])
			if n <= 0 || 1+n != len(value) {
				return t, false
			}
			if value[0] > 0 {
				t.level = int(value[0]) - 1
			}
			t.num = num
		}
	}
}

// BoundsFilter returns a filter for IterOptions.PointKeyFilters that
// excludes tables holding no key in [lower, upper); nil bounds are open. The
// bounds are copied. See the type's documentation about changing bounds.
func (p *Policy) BoundsFilter(lower, upper []byte) pebble.BlockPropertyFilter {
	f := &rangeBoundsFilter{}
	p.initBoundsFilter(f, lower, upper, true)
	return f
}

// initBoundsFilter sets f's bounds for [lower, upper). Keys >= lower have
// prefixes >= Split(lower); keys < upper have prefixes <= Split(upper), and
// < upper when upper is a bare prefix (a bare prefix sorts before its
// extensions). So the filter is asked about [Split(lower), Split(upper)) or
// [Split(lower), Split(upper)+"\x00"). With clone false, f aliases the
// bounds' bytes where it can.
func (p *Policy) initBoundsFilter(f *rangeBoundsFilter, lower, upper []byte, clone bool) {
	lo, hi, rebuilt := rangebounds.Bounds(p.split, lower, upper, nil)
	if clone {
		lo = slices.Clone(lo)
		if rebuilt == nil {
			// hi aliases upper; an upper bound Bounds had to extend
			// is in a slice of its own already.
			hi = slices.Clone(hi)
		}
	}
	f.lower, f.upper, f.p = lo, hi, p
	f.region = regionOf(lower, upper)
	for i := range f.tally {
		f.tally[i].Store(0)
	}
	p.usage.read(f.region)
}

// AttachBoundsFilter returns a copy of o with a bounds filter for
// o.LowerBound and o.UpperBound in PointKeyFilters, replacing any bounds
// filter attached before. The new slice has room for one more filter, which
// Pebble appends in place. With no bounds the copy has no bounds filter.
// Pass the result to NewIter, or to Iterator.SetOptions whenever the bounds
// change.
func (p *Policy) AttachBoundsFilter(o *pebble.IterOptions) *pebble.IterOptions {
	var c pebble.IterOptions
	if o != nil {
		c = *o
	}
	p.attach(&c, nil)
	return &c
}

// boundsFilterSlot is room for one iterator's bounds filter and its
// PointKeyFilters slice, so that attachOwned allocates nothing in the
// common case (up to two filters of the caller's own).
type boundsFilterSlot struct {
	f       rangeBoundsFilter
	filters [4]pebble.BlockPropertyFilter
}

// OwnedBoundsFilters returns the bounds filter for [lower, upper), in a
// filter slice of its own with room for Pebble to append, for a caller that
// owns the bounds' bytes (pebblerf's iterators): the filter aliases them
// instead of copying them, so the caller must leave them unchanged for as
// long as any iterator (or clone) may use the filter; for new bounds, new
// bytes. It costs one allocation: this is the per-query cost of a bounded
// iterator, so it is worth the stricter contract. With no bounds it
// returns nil.
func (p *Policy) OwnedBoundsFilters(lower, upper []byte) []pebble.BlockPropertyFilter {
	o := pebble.IterOptions{LowerBound: lower, UpperBound: upper}
	p.attachOwned(&o, new(boundsFilterSlot))
	return o.PointKeyFilters
}

// attachOwned is AttachBoundsFilter for a caller that owns o and its bound
// bytes (OwnedBoundsFilters): it edits o in place, keeps the filter and the
// filter slice in slot, and lets the filter alias o's bound bytes. The
// caller must leave those bytes, and slot, unchanged for as long as any
// iterator (or clone) may use the options.
func (p *Policy) attachOwned(o *pebble.IterOptions, slot *boundsFilterSlot) {
	p.attach(o, slot)
}

// attach puts a bounds filter for o's bounds into o.PointKeyFilters, in
// slot's storage when slot is non-nil (and the bounds are then not copied).
func (p *Policy) attach(o *pebble.IterOptions, slot *boundsFilterSlot) {
	var filters []pebble.BlockPropertyFilter
	if slot != nil && len(o.PointKeyFilters)+2 <= len(slot.filters) {
		filters = slot.filters[: 0 : len(o.PointKeyFilters)+2]
	} else {
		filters = make([]pebble.BlockPropertyFilter, 0, len(o.PointKeyFilters)+2)
	}
	for _, f := range o.PointKeyFilters {
		if _, ours := f.(*rangeBoundsFilter); !ours {
			filters = append(filters, f)
		}
	}
	if o.LowerBound != nil || o.UpperBound != nil {
		if slot != nil {
			p.initBoundsFilter(&slot.f, o.LowerBound, o.UpperBound, false)
			filters = append(filters, &slot.f)
		} else {
			filters = append(filters, p.BoundsFilter(o.LowerBound, o.UpperBound))
		}
	}
	o.PointKeyFilters = filters
	if len(filters) == 0 {
		o.PointKeyFilters = nil
	}
}

// FromUserProperties returns the range filter of a table from its user
// properties, as DB.SSTables(pebble.WithProperties()) reports them (Pebble
// prefixes each block property with a one-byte short ID), for MayIntersect
// or Describe. ok is false when the table has no range filter; an error
// means the property does not decode.
func FromUserProperties(props map[string]string) (filter []byte, ok bool, err error) {
	prop, ok := props[Name]
	if !ok || len(prop) < 1 {
		return nil, false, nil
	}
	return filterOfProperty([]byte(prop[1:]))
}

// rangeBoundsFilter holds one query's bounds (as Split prefixes) and its
// policy. It holds no per-table state, so Pebble may share it across tables
// and goroutines; its tally of answers, for the policy's record (Report),
// is atomic for that reason.
type rangeBoundsFilter struct {
	lower, upper []byte
	p            *Policy
	// tally counts, per level that wrote the table (PlanLevels: unknown),
	// the table checks answered from a filter (low 32 bits) and those that
	// ruled their table out (high 32 bits).
	tally [PlanLevels + 1]atomic.Uint64
	// region is the key region of the caller's bounds.
	region uint8
}

var _ pebble.BlockPropertyFilter = (*rangeBoundsFilter)(nil)

func (f *rangeBoundsFilter) Name() string { return Name }

// Intersects reports whether a table may hold a key within the bounds.
// Block properties are nil and intersect; a table property without a filter
// intersects (and the table is noted for the backfill); one that does not
// decode intersects and is counted.
func (f *rangeBoundsFilter) Intersects(prop []byte) (bool, error) {
	if len(prop) == 0 {
		return true, nil
	}
	t, ok := parseTableProp(prop)
	if !ok {
		f.p.corrupt.Add(1)
		return true, nil
	}
	if !t.hasFilter && t.num != 0 {
		// A table written without a filter: Backfill may have derived one.
		if t.filter, t.hasFilter = f.p.derived.get(t.num); !t.hasFilter {
			f.p.usage.noteUnfiltered(t.num)
		}
	}
	if !t.hasFilter {
		return true, nil
	}
	found, ok := rangeQuery(t.filter, f.lower, f.upper)
	if !ok {
		f.p.corrupt.Add(1)
		return true, nil
	}
	if found {
		f.tally[t.level].Add(1)
	} else {
		f.tally[t.level].Add(1 | 1<<32)
	}
	return found, nil
}

// SyntheticSuffixIntersects answers as Intersects: a synthetic suffix does
// not change Split prefixes.
func (f *rangeBoundsFilter) SyntheticSuffixIntersects(prop []byte, _ []byte) (bool, error) {
	return f.Intersects(prop)
}
