package objstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/sstable/block"
)

// region is a byte range of a table that belongs to one kind: a block with
// its trailer, or a run of adjacent data blocks merged into one.
type region struct {
	start, end int64
	kind       kind
	// block is set when the region is exactly one block (non-data blocks are
	// never merged), so that a request ending at its end can be recognised.
	block bool
}

// tableLayout is what the meter keeps of a table's layout: its regions in
// offset order. Data blocks are merged, so a table costs a few regions per
// non-data block, not one per data block.
type tableLayout struct {
	size        int64
	footerStart int64
	regions     []region
}

// newTableLayout builds the regions of a table from Pebble's description of
// its blocks.
func newTableLayout(l *sstable.Layout, size int64) *tableLayout {
	var rs []region
	add := func(h block.Handle, k kind, trailer bool) {
		if h.Length == 0 {
			return
		}
		end := int64(h.Offset + h.Length)
		if trailer {
			end += block.TrailerLen
		}
		rs = append(rs, region{start: int64(h.Offset), end: end, kind: k, block: k != kindData})
	}
	for _, d := range l.Data {
		add(d.Handle, kindData, true)
	}
	for _, h := range l.ValueBlock {
		add(h, kindData, true)
	}
	add(l.RangeDel, kindData, true)
	add(l.RangeKey, kindData, true)
	for _, h := range l.Index {
		add(h, kindIndex, true)
	}
	add(l.TopIndex, kindIndex, true)
	add(l.ValueIndex, kindIndex, true)
	add(l.BlobReferenceIndex, kindIndex, true)
	for _, f := range l.Filter {
		add(f.Handle, kindFilter, true)
	}
	add(l.Properties, kindOpen, true)
	add(l.MetaIndex, kindOpen, true)
	add(l.Footer, kindOpen, false)
	slices.SortFunc(rs, func(a, b region) int { return cmp.Compare(a.start, b.start) })
	// Merge adjacent data blocks, and drop duplicates (a two-level index's
	// top block may also be listed among its index blocks).
	merged := rs[:0]
	for _, r := range rs {
		if n := len(merged); n > 0 {
			last := &merged[n-1]
			if r.start == last.start && r.end == last.end {
				continue
			}
			if r.kind == kindData && last.kind == kindData && r.start == last.end {
				last.end = r.end
				continue
			}
		}
		merged = append(merged, r)
	}
	return &tableLayout{
		size:        size,
		footerStart: int64(l.Footer.Offset),
		regions:     slices.Clip(merged),
	}
}

// classify decides the kind of a GET of [s, e), the first GET on its reader
// or not, and splits its bytes by the kind of the region each lies in
// (bytes in no region count under the request's kind). The rule follows
// from how Pebble reads a remote table:
//
//  1. A table is opened by reading its footer, with 32 KiB of read-before
//     so that the metaindex and properties come along: the first GET on a
//     reader that reaches the footer is kindOpen.
//  2. Index and filter blocks are read exactly, or with read-before (the
//     top-level index read reaches back 512 KiB to bring the filter and
//     lower index blocks along): a GET that ends exactly where a non-data
//     block ends (other than the footer) is of that block's kind.
//  3. Data blocks are read exactly, or with read-ahead that extends the
//     read forward (up to 1 MiB for iterators, 8 MiB for compactions, cut
//     at the end of the table): any other GET is of the kind of its first
//     byte.
//
// The rule is exact for the reads Pebble makes without a secondary cache.
// With one, reads are widened to the cache's 32 KiB blocks: rule 1 still
// holds, but a widened index read-before rarely ends at its block's end and
// counts by its first byte (rule 3).
func (l *tableLayout) classify(s, e int64, first bool) (kind, [kindOther + 1]int64) {
	var split [kindOther + 1]int64
	kind := kindOther
	switch {
	case first && e > l.footerStart:
		kind = kindOpen
	default:
		// The first region that ends at or after e.
		if i := sort.Search(len(l.regions), func(i int) bool { return l.regions[i].end >= e }); i < len(l.regions) {
			if r := l.regions[i]; r.end == e && r.block && r.kind != kindData && r.start != l.footerStart {
				kind = r.kind
				break
			}
		}
		// The region that holds s, or the first one after it.
		if i := sort.Search(len(l.regions), func(i int) bool { return l.regions[i].end > s }); i < len(l.regions) {
			kind = l.regions[i].kind
		}
	}
	covered := int64(0)
	for i := sort.Search(len(l.regions), func(i int) bool { return l.regions[i].end > s }); i < len(l.regions); i++ {
		r := l.regions[i]
		if r.start >= e {
			break
		}
		n := min(r.end, e) - max(r.start, s)
		split[r.kind] += n
		covered += n
	}
	split[kind] += (e - s) - covered
	return kind, split
}

// layoutEntry is a table's layout, learned once per meter; ready is closed
// when err and l are set.
type layoutEntry struct {
	ready chan struct{}
	l     *tableLayout
	err   error
}

func (e *layoutEntry) done() bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// errTransient marks a layout failure caused by a failed read, which the
// next GET of the table tries again; other failures (a comparer or key
// schema the meter does not know, a corrupt table) are kept.
var errTransient = errors.New("transient")

// layout returns the layout of a table, learning it on first use by reading
// the table through r without counting the reads. It returns nil when the
// layout cannot be read.
func (m *Meter) layout(name string, r remote.ObjectReader, size int64) *tableLayout {
	m.mu.Lock()
	e, ok := m.layouts[name]
	if !ok {
		e = &layoutEntry{ready: make(chan struct{})}
		m.layouts[name] = e
	}
	opts := m.readerOpts
	m.mu.Unlock()
	if ok {
		<-e.ready
		return e.l
	}
	e.l, e.err = m.readLayout(r, size, opts)
	close(e.ready)
	if e.err != nil {
		m.layoutErrors.Add(1)
		if errors.Is(e.err, errTransient) {
			m.forget(name)
		}
	}
	return e.l
}

// forget drops what the meter knows of an object (it is being replaced or
// deleted).
func (m *Meter) forget(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.layouts, name)
}

func (m *Meter) readLayout(r remote.ObjectReader, size int64, opts sstable.ReaderOptions) (_ *tableLayout, err error) {
	// sstable.NewReader panics on a columnar table whose key schema it does
	// not know; that is an unknown layout here, not a crash.
	defer func() {
		if p := recover(); p != nil {
			err = errors.Newf("objstore: reading table layout: %v", p)
		}
	}()
	ctx, cancel := context.WithTimeout(withUnmetered(context.Background()), time.Minute)
	defer cancel()
	lr := &layoutReadable{m: m, r: r, size: size, ctx: ctx}
	reader, err := sstable.NewReader(ctx, lr, opts)
	if err != nil {
		return nil, lr.mark(err)
	}
	defer func() { _ = reader.Close() }()
	l, err := reader.Layout()
	if err != nil {
		return nil, lr.mark(err)
	}
	return newTableLayout(l, size), nil
}

// layoutTail is how much of a table's end the meter fetches in one read to
// learn its layout: the footer, metaindex, properties and index blocks of
// most tables lie in it.
const layoutTail = 256 << 10

// layoutReadable is the objstorage.Readable the meter reads layouts
// through: its reads carry the unmetered mark (a simulated store adds no
// latency to them) and the table's tail is fetched once.
type layoutReadable struct {
	m       *Meter
	r       remote.ObjectReader
	size    int64
	ctx     context.Context
	tail    []byte
	tailOff int64
	readErr error
}

var _ objstorage.Readable = (*layoutReadable)(nil)

func (lr *layoutReadable) read(p []byte, off int64) error {
	lr.m.layoutReads.Add(1)
	err := lr.r.ReadAt(lr.ctx, p, off)
	if err != nil && lr.readErr == nil {
		lr.readErr = err
	}
	return err
}

// mark marks err transient if a read failed.
func (lr *layoutReadable) mark(err error) error {
	if lr.readErr != nil {
		return errors.Mark(errors.Wrap(err, "objstore: reading table layout"), errTransient)
	}
	return errors.Wrap(err, "objstore: reading table layout")
}

func (lr *layoutReadable) ReadAt(_ context.Context, p []byte, off int64) error {
	if lr.tail == nil && off+int64(len(p)) > lr.size-layoutTail {
		start := max(0, min(off, lr.size-layoutTail))
		buf := make([]byte, lr.size-start)
		if err := lr.read(buf, start); err != nil {
			return err
		}
		lr.tail, lr.tailOff = buf, start
	}
	if lr.tail != nil && off >= lr.tailOff && off+int64(len(p)) <= lr.tailOff+int64(len(lr.tail)) {
		copy(p, lr.tail[off-lr.tailOff:])
		return nil
	}
	return lr.read(p, off)
}

// Close does not close the reader: it belongs to whoever opened the object.
func (lr *layoutReadable) Close() error { return nil }

func (lr *layoutReadable) Size() int64 { return lr.size }

func (lr *layoutReadable) NewReadHandle(objstorage.ReadBeforeSize) objstorage.ReadHandle {
	h := objstorage.MakeNoopReadHandle(lr)
	return &h
}

// String describes the layout's regions (for tests and debugging).
func (l *tableLayout) String() string {
	s := fmt.Sprintf("size %d:", l.size)
	for _, r := range l.regions {
		s += fmt.Sprintf(" %s[%d,%d)", r.kind, r.start, r.end)
	}
	return s
}
