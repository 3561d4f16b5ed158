// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"github.com/cockroachdb/pebble/v2"
)

// A tagged filter is the inner policy's filter followed by a tag that names
// the table it belongs to (filtertag.go has the format), stored under
// the inner name with TagNamePrefix. A filter whose tag does not
// decode is answered "may contain" (fail open) and counted as
// FilterTagCorrupt.

// taggedPolicy wraps a FilterPolicy so that its filters name their table and
// its answers are counted for that table.
type taggedPolicy struct {
	s     *Stats
	inner pebble.FilterPolicy
	name  string
}

var _ pebble.FilterPolicy = (*taggedPolicy)(nil)

func newTaggedPolicy(s *Stats, inner pebble.FilterPolicy) *taggedPolicy {
	return &taggedPolicy{s: s, inner: inner, name: TagNamePrefix + inner.Name()}
}

// Name is the inner name with a prefix, so that the bytes are never handed
// to a reader that does not strip the tag.
func (p *taggedPolicy) Name() string { return p.name }

// MayContain strips the tag, asks the inner policy and counts the answer.
func (p *taggedPolicy) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	inner, num, ok := DecodeTag(filter)
	if !ok {
		p.s.c().ShardFor(key).AddTicker(FilterTagCorrupt, 1)
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
	return AppendTag(w.inner.Finish(dst), w.num)
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
func (s *Stats) filterChecked(num uint64, key []byte, may bool) {
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
			s.c().ShardFor(key).AddTicker(FilterUnclassified, 1)
			return
		}
	}
	row := RowUnattributed
	if f != nil {
		row = f.row()
	}
	kind := Filtered
	if may {
		kind = FilterMatch
	}
	s.c().ShardFor(key).AddRow(row, kind)
}
