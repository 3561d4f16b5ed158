// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package tableprops stores table-level properties, Pebble v1 style, as
// the table property of a Pebble v2 block-property collector.
//
// Pebble v1 let a program attach table-level properties with a
// TablePropertyCollector: Add saw every key, Finish filled a map. Pebble v2
// removed it; what is left is the BlockPropertyCollector, which returns one
// byte string per data block, per index block and per table. A table-level
// property is a block property that says nothing about blocks: nil from
// FinishDataBlock and FinishIndexBlock (Pebble stores nothing and passes nil
// to filters, which must read it as "anything"), and the payload from
// FinishTable.
//
// Adapt puts the v1 interface back on top of that. The map a collector fills
// is stored as the table property of the block-property collector of the
// same name, in a small encoding that readers look into without decoding it
// into a map (Lookup), so a BlockPropertyFilter can read one entry per table
// open without allocating.
//
// Encoding, version 1: the byte 1, then uvarint count, then count entries
// sorted by name, each uvarint length + name, uvarint length + value.
//
// What a collector sees is what a v2 block-property collector sees: every
// point key of every kind (sets, deletions, single deletions, merges), in
// order, with nil values for SETs in columnar tables; never range deletions
// (Pebble passes them to no collector) nor range keys.
//
// The root package exposes Collector as pebble.TablePropertyCollector, where
// Pebble v1 users look for it; the range filter stores its filter with it.
package tableprops

import (
	"encoding/binary"
	"sort"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// Collector collects table-level properties while an sstable is
// written. One is created per table, from one goroutine.
type Collector interface {
	// Name names the collector; it is also the name of the block property
	// under which the properties are stored, so it must be unique and stable.
	Name() string
	// Add is called for every point key added to the table, in order.
	Add(key pebble.InternalKey, value []byte) error
	// Finish adds the collector's properties to props.
	Finish(props map[string]string) error
}

// Adapt adapts a Collector constructor to Options.BlockPropertyCollectors.
func Adapt(newCollector func() Collector) func() pebble.BlockPropertyCollector {
	return func() pebble.BlockPropertyCollector {
		return &adapter{c: newCollector()}
	}
}

const version = 1

type adapter struct {
	c Collector
}

var _ pebble.BlockPropertyCollector = (*adapter)(nil)

func (a *adapter) Name() string { return a.c.Name() }

func (a *adapter) AddPointKey(key sstable.InternalKey, value []byte) error {
	return a.c.Add(key, value)
}

// AddRangeKeys ignores range keys: a Collector sees point keys.
func (a *adapter) AddRangeKeys(sstable.Span) error { return nil }

// AddCollectedWithSuffixReplacement is unsupported: Pebble rebuilds table
// properties from block properties, and these blocks carry none.
func (a *adapter) AddCollectedWithSuffixReplacement([]byte, []byte, []byte) error {
	return errors.Newf("tableprops: table property collector %q does not support suffix replacement", a.c.Name())
}

func (a *adapter) SupportsSuffixReplacement() bool { return false }

func (a *adapter) FinishDataBlock(buf []byte) ([]byte, error) { return buf[:0], nil }

func (a *adapter) AddPrevDataBlockToIndexBlock() {}

func (a *adapter) FinishIndexBlock(buf []byte) ([]byte, error) { return buf[:0], nil }

func (a *adapter) FinishTable(buf []byte) ([]byte, error) {
	props := map[string]string{}
	if err := a.c.Finish(props); err != nil {
		return nil, errors.Wrapf(err, "tableprops: finishing table properties of %q", a.c.Name())
	}
	// buf already holds Pebble's own prefix (the property's short ID): append.
	return Append(buf, props), nil
}

// Append appends the encoding of props to dst.
func Append(dst []byte, props map[string]string) []byte {
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	dst = append(dst, version)
	dst = binary.AppendUvarint(dst, uint64(len(names)))
	for _, name := range names {
		dst = binary.AppendUvarint(dst, uint64(len(name)))
		dst = append(dst, name...)
		dst = binary.AppendUvarint(dst, uint64(len(props[name])))
		dst = append(dst, props[name]...)
	}
	return dst
}

var errCorrupt = errors.New("tableprops: corrupt table properties")

// entries walks an encoded property map without allocating: a cursor
// rather than a callback, since Lookup runs at every table a bounded read
// opens and a closure call per entry was a tenth of a range-filter query.
type entries struct {
	r    reader
	left uint64
}

// openEntries starts a walk of prop.
func openEntries(prop []byte) (entries, error) {
	if len(prop) == 0 || prop[0] != version {
		return entries{}, errCorrupt
	}
	e := entries{r: reader{b: prop[1:]}}
	e.left = e.r.uvarint()
	return e, nil
}

// next returns the next entry; ok is false at the end or on bad bytes,
// which err then reports.
func (e *entries) next() (name, value []byte, ok bool) {
	if e.left == 0 || e.r.bad {
		return nil, nil, false
	}
	e.left--
	name = e.r.bytes(e.r.uvarint())
	value = e.r.bytes(e.r.uvarint())
	return name, value, !e.r.bad
}

// err reports whether the walk, once next has returned false, met bad
// bytes or bytes past the last entry.
func (e *entries) err() error {
	if e.r.bad || len(e.r.b) != 0 {
		return errCorrupt
	}
	return nil
}

// Lookup returns the value of name in an encoded property map,
// aliasing prop, without allocating. ok is false when name is absent; err
// is set when prop does not decode.
func Lookup(prop []byte, name string) (value []byte, ok bool, err error) {
	e, err := openEntries(prop)
	if err != nil {
		return nil, false, err
	}
	for {
		n, v, more := e.next()
		if !more {
			return nil, false, e.err()
		}
		if string(n) == name {
			return v, true, nil
		}
	}
}

// Entries walks an encoded property map in name order without allocating,
// for a reader that wants several entries of one map in one pass: Lookup
// walks the map once per name.
type Entries struct {
	e entries
}

// Walk starts a walk of prop; err is set when prop does not start as an
// encoded property map.
func Walk(prop []byte) (Entries, error) {
	e, err := openEntries(prop)
	return Entries{e}, err
}

// Next returns the next entry, aliasing the map's bytes; ok is false at the
// end of the map or at bytes that do not decode.
func (w *Entries) Next() (name, value []byte, ok bool) { return w.e.next() }

// Decode decodes an encoded property map, for example one
// read from DB.SSTables(pebble.WithProperties()) under the collector's name.
func Decode(prop []byte) (map[string]string, error) {
	e, err := openEntries(prop)
	if err != nil {
		return nil, err
	}
	props := map[string]string{}
	for {
		n, v, more := e.next()
		if !more {
			break
		}
		props[string(n)] = string(v)
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	return props, nil
}

// reader parses varint-framed bytes without allocating.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uvarint() uint64 {
	// Most fields (lengths) fit in one byte.
	if len(r.b) > 0 && r.b[0] < 0x80 {
		v := uint64(r.b[0])
		r.b = r.b[1:]
		return v
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}
