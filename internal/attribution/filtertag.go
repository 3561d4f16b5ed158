// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"encoding/binary"

	"github.com/cockroachdb/pebble/v2"
)

// The tagged filters: the on-disk format of the filters the per-level
// statistics write, the inner policy's filter followed by a tag that names
// the table it belongs to, stored under the inner policy's name with a
// prefix. The tagging policy (filter.go) writes and counts them;
// RegisterTagReaders keeps them readable, without counting, for a
// DB opened without statistics and for the rollback
// (seekstats.RewriteForUpstream).
//
// The tag is 12 bytes at the end of the filter:
//
//	offset from end  size  field
//	            -12     8  file number, little-endian (0: unknown)
//	             -4     1  tag format version (TagVersion)
//	             -3     3  magic "pST"
//
// The tagged policy's name differs from the inner policy's, so upstream
// Pebble, which does not know it, ignores the filter rather than misreading
// it. A filter whose tag does not decode is answered "may contain" (fail
// open).

const (
	// TagLen is the tag's length.
	TagLen = 12
	// TagVersion is the tag's format version.
	TagVersion = 1
	// TagNamePrefix is prefixed to the inner policy's name.
	TagNamePrefix = "pebblerf.tagged."
)

var tagMagic = [3]byte{'p', 'S', 'T'}

// AppendTag appends the tag of table num to dst.
func AppendTag(dst []byte, num uint64) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, num)
	dst = append(dst, TagVersion)
	return append(dst, tagMagic[:]...)
}

// DecodeTag splits a tagged filter into the inner filter and the file number.
func DecodeTag(filter []byte) (inner []byte, num uint64, ok bool) {
	n := len(filter)
	if n < TagLen || filter[n-4] != TagVersion ||
		filter[n-3] != tagMagic[0] || filter[n-2] != tagMagic[1] || filter[n-1] != tagMagic[2] {
		return nil, 0, false
	}
	return filter[:n-TagLen], binary.LittleEndian.Uint64(filter[n-12:]), true
}

// tagReader reads tagged filters without counting anything.
type tagReader struct {
	inner pebble.FilterPolicy
	name  string
}

func (r tagReader) Name() string { return r.name }

func (r tagReader) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	inner, _, ok := DecodeTag(filter)
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
// writes them, and Pebble looks a table's filter up by name only when it
// opens the table, so no read costs more.
func RegisterTagReaders(opts *pebble.Options) {
	readers := make(map[string]pebble.FilterPolicy)
	add := func(p pebble.FilterPolicy) {
		if p == nil || p == pebble.NoFilterPolicy {
			return
		}
		name := TagNamePrefix + p.Name()
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
