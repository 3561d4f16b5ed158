// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package filtertag is the on-disk format of the filters the per-level
// statistics write: the inner policy's filter followed by a tag that names
// the table it belongs to, stored under the inner policy's name with a
// prefix. The attribution machinery (internal/attribution) writes and
// counts them; RegisterReaders keeps them readable, without counting, for a
// DB opened without statistics and for the rollback
// (seekstats.RewriteForUpstream).
//
// The tag is 12 bytes at the end of the filter:
//
//	offset from end  size  field
//	            -12     8  file number, little-endian (0: unknown)
//	             -4     1  tag format version (Version)
//	             -3     3  magic "pST"
//
// The tagged policy's name differs from the inner policy's, so upstream
// Pebble, which does not know it, ignores the filter rather than misreading
// it. A filter whose tag does not decode is answered "may contain" (fail
// open).
package filtertag

import (
	"encoding/binary"

	"github.com/cockroachdb/pebble/v2"
)

const (
	// Len is the tag's length.
	Len = 12
	// Version is the tag's format version.
	Version = 1
	// NamePrefix is prefixed to the inner policy's name.
	NamePrefix = "pebblerf.tagged."
)

var magic = [3]byte{'p', 'S', 'T'}

// Append appends the tag of table num to dst.
func Append(dst []byte, num uint64) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, num)
	dst = append(dst, Version)
	return append(dst, magic[:]...)
}

// Decode splits a tagged filter into the inner filter and the file number.
func Decode(filter []byte) (inner []byte, num uint64, ok bool) {
	n := len(filter)
	if n < Len || filter[n-4] != Version ||
		filter[n-3] != magic[0] || filter[n-2] != magic[1] || filter[n-1] != magic[2] {
		return nil, 0, false
	}
	return filter[:n-Len], binary.LittleEndian.Uint64(filter[n-12:]), true
}

// reader reads tagged filters without counting anything.
type reader struct {
	inner pebble.FilterPolicy
	name  string
}

func (r reader) Name() string { return r.name }

func (r reader) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	inner, _, ok := Decode(filter)
	if !ok {
		return true
	}
	return r.inner.MayContain(ftype, inner, key)
}

func (r reader) NewWriter(ftype pebble.FilterType) pebble.FilterWriter {
	return r.inner.NewWriter(ftype)
}

// RegisterReaders prepares opts, a private copy of the caller's options,
// for a DB opened without statistics: for every filter policy the options
// name, filters written with the statistics' tag (under the tagged name)
// stay readable. Nothing else changes: tables are written as upstream Pebble
// writes them, and Pebble looks a table's filter up by name only when it
// opens the table, so no read costs more.
func RegisterReaders(opts *pebble.Options) {
	readers := make(map[string]pebble.FilterPolicy)
	add := func(p pebble.FilterPolicy) {
		if p == nil || p == pebble.NoFilterPolicy {
			return
		}
		name := NamePrefix + p.Name()
		if _, ok := opts.Filters[name]; !ok {
			readers[name] = reader{inner: p, name: name}
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
