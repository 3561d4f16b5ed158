// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"log"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/examples/cockroach/crdb"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
)

// comparer returns the comparer for the key format. With -prefix_size the
// first prefix_size bytes of a key are its Split prefix, so filters hold
// prefixes and SeekPrefixGE stops at the prefix's end, as db_bench's
// NewFixedPrefixTransform does. The comparer gets its own name because the
// name is stored in the DB and Split changes what the filters hold: a DB
// written with one prefix length must not be opened with another.
func (c *config) comparer() *upstream.Comparer {
	if c.keyFormat == keyFormatMVCC {
		return &cockroachkvs.Comparer
	}
	if c.prefixSize == 0 {
		return upstream.DefaultComparer
	}
	cmp := *upstream.DefaultComparer
	n := c.prefixSize
	cmp.Split = func(key []byte) int { return min(len(key), n) }
	cmp.Name = fmt.Sprintf("pebblebench.FixedPrefix(%d)", n)
	return &cmp
}

// options builds what one engine's DB is opened with: its options and, for
// pebblerf, its plug-ins (zero for upstream). Everything in the options but
// the table filters is the same for both engines; the cache is the
// caller's, one per engine, so the engines do not share or evict each
// other's blocks. The two are made together because -filter_plan's planner
// is in both: pebblerf's options keep no filter where it decides, and it
// goes in as Plugins.Filters.
func (c *config) options(engineName string, cache *upstream.Cache) (*upstream.Options, pebblerf.Plugins, error) {
	profile, err := dbbench.Compression(c.compressionType)
	if err != nil {
		return nil, pebblerf.Plugins{}, err
	}
	o := &upstream.Options{
		Cache:              cache,
		Comparer:           c.comparer(),
		DisableWAL:         c.disableWAL,
		MemTableSize:       uint64(c.writeBufferSize),
		FormatMajorVersion: upstream.FormatNewest,
		Logger:             quietLogger{},
	}
	for i := range o.Levels {
		o.Levels[i].Compression = func() *sstable.CompressionProfile { return profile }
	}
	if c.keyFormat == keyFormatMVCC {
		crdb.Apply(o)
	}
	filters := engineName
	if c.defaultPath() {
		filters = enginePebble
	}
	planner, err := c.applyFilters(filters, o)
	if err != nil {
		return nil, pebblerf.Plugins{}, err
	}
	var plugins pebblerf.Plugins
	if engineName == enginePebbleRF {
		plugins = c.pebblerfPlugins(planner)
	}
	return o, plugins, nil
}

// quietLogger drops Pebble's informational messages, which would interleave
// with the result lines, and keeps its errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{}) {}

func (quietLogger) Errorf(format string, args ...interface{}) {
	log.Printf("pebble: "+format, args...)
}

func (quietLogger) Fatalf(format string, args ...interface{}) {
	log.Fatalf("pebble: "+format, args...)
}
