// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"encoding/binary"

	"github.com/cockroachdb/pebble/v2"
)

// A tagged filter is the inner policy's filter followed by a 12-byte tag
// that names the table it belongs to:
//
//	offset from end  size  field
//	            -12     8  file number, little-endian (0: unknown)
//	             -4     1  tag format version (filterTagVersion)
//	             -3     3  magic "pST"
//
// The tagged policy's name differs from the inner policy's, so upstream
// Pebble, which does not know it, ignores the filter rather than misreading
// it. A filter whose tag does not decode is answered "may contain" (fail
// open) and counted as FilterTagCorrupt.
const (
	filterTagLen     = 12
	filterTagVersion = 1
	taggedNamePrefix = "pebblerf.tagged."
)

var filterMagic = [3]byte{'p', 'S', 'T'}

func appendFilterTag(dst []byte, num uint64) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, num)
	dst = append(dst, filterTagVersion)
	return append(dst, filterMagic[:]...)
}

// decodeFilterTag splits a tagged filter into the inner filter and the file
// number.
func decodeFilterTag(filter []byte) (inner []byte, num uint64, ok bool) {
	n := len(filter)
	if n < filterTagLen || filter[n-4] != filterTagVersion ||
		filter[n-3] != filterMagic[0] || filter[n-2] != filterMagic[1] || filter[n-1] != filterMagic[2] {
		return nil, 0, false
	}
	return filter[:n-filterTagLen], binary.LittleEndian.Uint64(filter[n-12:]), true
}

// taggedPolicy wraps a FilterPolicy so that its filters name their table and
// its answers are counted for that table.
type taggedPolicy struct {
	s     *Statistics
	inner pebble.FilterPolicy
	name  string
}

var _ pebble.FilterPolicy = (*taggedPolicy)(nil)

func newTaggedPolicy(s *Statistics, inner pebble.FilterPolicy) *taggedPolicy {
	return &taggedPolicy{s: s, inner: inner, name: taggedNamePrefix + inner.Name()}
}

// Name is the inner name with a prefix, so that the bytes are never handed
// to a reader that does not strip the tag.
func (p *taggedPolicy) Name() string { return p.name }

// MayContain strips the tag, asks the inner policy and counts the answer.
func (p *taggedPolicy) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	inner, num, ok := decodeFilterTag(filter)
	if !ok {
		p.s.c.shardFor(key).addTicker(FilterTagCorrupt, 1)
		return true
	}
	may := p.inner.MayContain(ftype, inner, key)
	p.s.filterChecked(num, key, may)
	return may
}

// NewWriter returns a writer for the table whose TableCreated event was the
// last on this goroutine.
func (p *taggedPolicy) NewWriter(ftype pebble.FilterType) pebble.FilterWriter {
	return &taggedWriter{inner: p.inner.NewWriter(ftype), num: p.s.handoff.Peek().Num, files: p.s.files}
}

type taggedWriter struct {
	inner pebble.FilterWriter
	num   uint64
	files *fileMap
}

func (w *taggedWriter) AddKey(key []byte) { w.inner.AddKey(key) }

func (w *taggedWriter) Finish(dst []byte) []byte {
	w.files.wroteFilter(w.num)
	return appendFilterTag(w.inner.Finish(dst), w.num)
}

// untaggedPolicy reads filters written by the inner policy itself (before
// statistics were switched on, or by upstream Pebble) and counts their
// checks as unattributed. It writes nothing: it is only registered for
// reading, under the inner policy's name.
type untaggedPolicy struct{ t *taggedPolicy }

func (u untaggedPolicy) Name() string { return u.t.inner.Name() }

func (u untaggedPolicy) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	may := u.t.inner.MayContain(ftype, filter, key)
	u.t.s.filterChecked(0, key, may)
	return may
}

func (u untaggedPolicy) NewWriter(ftype pebble.FilterType) pebble.FilterWriter {
	return u.t.inner.NewWriter(ftype)
}

// filterChecked counts one filter check of table num (0: unknown) for key,
// whose answer was may. The check belongs to a Get if key is the very slice
// a Get through the wrapper registered, and to a seek otherwise: Pebble's
// iterators copy the seek key into their own buffer before checking filters,
// while Get hands the caller's slice down unchanged.
func (s *Statistics) filterChecked(num uint64, key []byte, may bool) {
	var f *fileInfo
	if num != 0 {
		f = s.files.lookup(num)
	}
	if f != nil && !f.filtered() {
		f.hasFilter.Store(true)
	}
	if s.gets.active.Load() != 0 {
		switch g := s.gets.find(key); {
		case g != nil:
			g.record(f, may)
			return
		case s.gets.overflow.Load() != 0:
			s.c.shardFor(key).addTicker(FilterUnclassified, 1)
			return
		}
	}
	row := RowUnattributed
	if f != nil {
		row = f.row()
	}
	kind := SeekFiltered
	if may {
		kind = SeekFilterMatch
	}
	s.c.shardFor(key).addRow(row, kind)
}

// tagReader reads tagged filters without counting anything: it is registered
// when statistics are off, so that tables written while they were on keep
// their filters.
type tagReader struct {
	inner pebble.FilterPolicy
	name  string
}

func (r tagReader) Name() string { return r.name }

func (r tagReader) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	inner, _, ok := decodeFilterTag(filter)
	if !ok {
		return true
	}
	return r.inner.MayContain(ftype, inner, key)
}

func (r tagReader) NewWriter(ftype pebble.FilterType) pebble.FilterWriter {
	return r.inner.NewWriter(ftype)
}

// RegisterTagReaders prepares opts, a private copy of the caller's options,
// for a DB opened without statistics: for every filter policy the options
// name, filters written with the statistics' tag (under the tagged name)
// stay readable. Nothing else changes: tables are written as upstream Pebble
// writes them.
func RegisterTagReaders(opts *pebble.Options) {
	readers := make(map[string]pebble.FilterPolicy)
	add := func(p pebble.FilterPolicy) {
		if p == nil || p == pebble.NoFilterPolicy {
			return
		}
		name := taggedNamePrefix + p.Name()
		if _, ok := opts.Filters[name]; !ok {
			readers[name] = tagReader{inner: p, name: name}
		}
	}
	for _, p := range opts.Filters {
		add(p)
	}
	for i := range opts.Levels {
		add(opts.Levels[i].FilterPolicy)
	}
	if len(readers) == 0 {
		return
	}
	if opts.Filters == nil {
		opts.Filters = make(map[string]pebble.FilterPolicy, len(readers))
	}
	for name, r := range readers {
		opts.Filters[name] = r
	}
}
