// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// -key_format=mvcc: keys as CockroachDB's storage engine writes them, and
// the options it opens Pebble with.
//
// A roach key is a table prefix followed by the db_bench key (keys.go), so
// -num, -key_size, -key_stride and -missing_fraction mean what they mean for
// db_bench keys; the engine key is the roach key, a 0x00 sentinel and an
// MVCC timestamp (cockroachkvs.EncodeMVCCKey). Its Split prefix is the roach
// key and sentinel, so point filters hold roach keys and SeekPrefixGE stays
// within one roach key's versions. A small lock table lives under
// CockroachDB's local lock-table prefix, which sorts before the table keys:
// lock keys are that prefix, a roach key and a 17-byte lock version
// (strength and transaction ID), and fillmvcc writes a few of them with the
// data, so that flushed tables span both key spaces as CockroachDB's do.

// The values of -key_format.
const (
	keyFormatDBBench = "dbbench"
	keyFormatMVCC    = "mvcc"
)

var (
	// mvccTablePrefix starts every roach key: a table and index ID, as
	// CockroachDB's SQL keys begin.
	mvccTablePrefix = []byte{0xf6, 0x68, 0x89}
	// lockTablePrefix is CockroachDB's local lock-table prefix
	// (keys.LocalRangeLockTablePrefix).
	lockTablePrefix = []byte("\x01zk")
)

const (
	// mvccLockKeys is the lock table's key space: fillmvcc locks keys spread
	// evenly over -num, mvccLockKeys of them, a quarter in each round.
	mvccLockKeys = 64
	// lockVersionLen is the length of a lock-table key's version.
	lockVersionLen = 17
	// mvccWallUnit is the wall-time step between rounds: round r writes its
	// versions at wall time (r+1)*mvccWallUnit.
	mvccWallUnit = uint64(1e9)
)

// roundWallTime is the wall time of the versions fillmvcc writes in round r.
func roundWallTime(r int) uint64 { return uint64(r+1) * mvccWallUnit }

// mvccKeys encodes the engine keys of one worker into reused buffers.
type mvccKeys struct {
	roach []byte
}

// setRoach makes the roach key of the db_bench key dbKey.
func (m *mvccKeys) setRoach(dbKey []byte) []byte {
	m.roach = append(append(m.roach[:0], mvccTablePrefix...), dbKey...)
	return m.roach
}

// mvcc returns the engine key of the current roach key at wall time wall
// (0: the bare key, which sorts before every version), in buf.
func mvccKey(buf, roach []byte, wall uint64) []byte {
	return cockroachkvs.EncodeMVCCKey(buf[:0], roach, wall, 0)
}

// lockKey returns the lock-table engine key of roach with version (nil: the
// bare key, which sorts before every lock on roach), appended to buf[:0].
func lockKey(buf, roach, version []byte) []byte {
	buf = append(append(buf[:0], lockTablePrefix...), roach...)
	buf = append(buf, 0)
	if len(version) > 0 {
		buf = append(buf, version...)
		buf = append(buf, byte(len(version)+1))
	}
	return buf
}

// applyCockroachOptions sets o as CockroachDB's DefaultPebbleOptions does
// (pkg/storage/pebble.go; see examples/cockroach for the sources): its
// comparer and key schema, the MVCC time-interval block-property collector,
// 32 KiB data blocks and 256 KiB index blocks on every level,
// L0CompactionThreshold 2, L0StopWritesThreshold 1000, LBaseMaxBytes
// 64 MiB, no multi-level compactions. Table filters stay with the filter
// flags (CockroachDB's are -bloom_bits=10 -use_l6_filters), and the memtable
// with -write_buffer_size, so that the scale fits the machine.
func applyCockroachOptions(o *upstream.Options) {
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
