// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

import "github.com/cockroachdb/pebble/v2/cockroachkvs"

// -key_format=mvcc: keys as CockroachDB's storage engine writes them, and
// the options it opens Pebble with.
//
// A roach key is a table prefix followed by the db_bench key (internal/bench/keyspace), so
// -num, -key_size, -key_stride and -missing_fraction mean what they mean for
// db_bench keys; the engine key is the roach key, a 0x00 sentinel and an
// MVCC timestamp (cockroachkvs.EncodeMVCCKey). Its Split prefix is the roach
// key and sentinel, so point filters hold roach keys and SeekPrefixGE stays
// within one roach key's versions. A small lock table lives under
// CockroachDB's local lock-table prefix, which sorts before the table keys
// (crdb.LockKey), and fillmvcc writes a few of its keys with the data, so
// that flushed tables span both key spaces as CockroachDB's do. Both
// engines get CockroachDB's options (crdb.Apply, in examples/cockroach,
// which the CockroachDB example opens pebblerf with): its comparer and key
// schema, the MVCC time-interval block-property collector, its block sizes
// and L0 and level thresholds. Table filters stay with the filter flags
// (CockroachDB's are -bloom_bits=10 -use_l6_filters), and the memtable with
// -write_buffer_size, so that the scale fits the machine.

// mvccTablePrefix starts every roach key: a table and index ID, as
// CockroachDB's SQL keys begin.
var MVCCTablePrefix = []byte{0xf6, 0x68, 0x89}

const (
	// mvccLockKeys is the lock table's key space: fillmvcc locks keys spread
	// evenly over -num, mvccLockKeys of them, a quarter in each round.
	MVCCLockKeys = 64
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
	m.roach = append(append(m.roach[:0], MVCCTablePrefix...), dbKey...)
	return m.roach
}

// mvcc returns the engine key of the current roach key at wall time wall
// (0: the bare key, which sorts before every version), in buf.
func mvccKey(buf, roach []byte, wall uint64) []byte {
	return cockroachkvs.EncodeMVCCKey(buf[:0], roach, wall, 0)
}
