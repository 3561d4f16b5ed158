// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package crdb is CockroachDB's configuration of Pebble, to read and copy:
// the options CockroachDB opens its store with, and the keys of its lock
// table, which it writes beside its MVCC data. The example program of the
// parent directory opens pebblerf with Options, and pebblebench's
// -key_format=mvcc gives both of its engines Apply's options and LockKey's
// keys (its memtables and table filters come from its flags), so that
// neither can drift from the configuration shown here.
//
// # Where it comes from
//
// CockroachDB builds its Pebble options in DefaultPebbleOptions, in
// pkg/storage/pebble.go of github.com/cockroachdb/cockroach (read at commit
// 836ab71eb0ac3a1136a6b4d973514408bce4e8fa). The options taken from there:
//
//   - the engine-key Comparer and the columnar KeySchema (CockroachDB's
//     EngineComparer and DefaultKeySchema; Pebble v2.1.7 exports them as
//     cockroachkvs.Comparer and cockroachkvs.KeySchema);
//   - the MVCC time-interval block-property collector
//     (PebbleBlockPropertyCollectors there; cockroachkvs.BlockPropertyCollectors
//     here), which is what cockroachkvs.NewMVCCTimeIntervalFilter reads;
//   - on every one of the seven levels: 32 KiB data blocks, 256 KiB index
//     blocks, a Bloom filter of 10 bits per key, table filters;
//   - L0CompactionThreshold 2, L0StopWritesThreshold 1000, LBaseMaxBytes
//     64 MiB, 64 MiB memtables with MemTableStopWritesThreshold 4, and no
//     multi-level compactions.
//
// Options that only make sense inside CockroachDB (its merger, logger,
// cluster-setting closures, shared storage) are left at Pebble's defaults.
// The lock table is the local key span keys.LocalRangeLockTablePrefix
// starts: a lock's engine key is that prefix and the locked roach key, with
// a 17-byte version (the lock's strength and its transaction's ID).
//
// They are CockroachDB's choices, which it changes between releases, so
// pebblerf exports none of them: a program that wants them copies the few
// lines it needs.
package crdb

import (
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// Options returns Pebble options as CockroachDB's DefaultPebbleOptions sets
// them, for upstream Pebble and pebblerf alike: Apply's, with CockroachDB's
// memtables, format and table filters.
func Options() *upstream.Options {
	o := &upstream.Options{
		MemTableSize:                64 << 20,
		MemTableStopWritesThreshold: 4,
		FormatMajorVersion:          upstream.FormatColumnarBlocks,
	}
	Apply(o)
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		o.Levels[i].FilterType = upstream.TableFilter
	}
	return o
}

// Apply sets on o the options that make CockroachDB's keys and LSM shape:
// its comparer and key schema, the MVCC time-interval block-property
// collector (added to o's own), 32 KiB data blocks and 256 KiB index blocks
// on every level, L0CompactionThreshold 2, L0StopWritesThreshold 1000,
// LBaseMaxBytes 64 MiB and no multi-level compactions. It leaves the
// memtables, the format and the table filters to the caller, for a
// benchmark that scales those to its machine and varies its filters.
func Apply(o *upstream.Options) {
	o.Comparer = &cockroachkvs.Comparer
	o.KeySchema = cockroachkvs.KeySchema.Name
	o.KeySchemas = sstable.MakeKeySchemas(&cockroachkvs.KeySchema)
	o.BlockPropertyCollectors = append(o.BlockPropertyCollectors, cockroachkvs.BlockPropertyCollectors...)
	o.L0CompactionThreshold = 2
	o.L0StopWritesThreshold = 1000
	o.LBaseMaxBytes = 64 << 20
	o.Experimental.MultiLevelCompactionHeuristic = upstream.NoMultiLevel{}
	for i := range o.Levels {
		o.Levels[i].BlockSize = 32 << 10
		o.Levels[i].IndexBlockSize = 256 << 10
	}
}

// LockTablePrefix is the local key prefix of CockroachDB's replicated lock
// table (keys.LocalRangeLockTablePrefix). It sorts before every table key.
var LockTablePrefix = []byte("\x01zk")

// LockVersionLen is the length of a lock-table key's version: the lock's
// strength and its transaction's ID.
const LockVersionLen = 17

// LockKey returns the lock-table engine key of the roach key roach with
// version, appended to buf[:0]; a nil version makes the bare key, which
// sorts before every lock on roach.
func LockKey(buf, roach, version []byte) []byte {
	return cockroachkvs.EncodeKey(append(buf[:0], LockTablePrefix...), roach, version)
}
