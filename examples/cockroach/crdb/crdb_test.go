// Copyright 2026 The pebblerf Authors. All rights reserved.

package crdb

import (
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/stretchr/testify/require"
)

// TestLockKeys: lock-table keys are valid engine keys of the lock-table
// prefix, sort before every MVCC key, and the bare key of a roach key sorts
// before its locks.
func TestLockKeys(t *testing.T) {
	roach := []byte("\xf6\x68\x89k1")
	version := make([]byte, LockVersionLen)
	version[0] = 3
	lock := LockKey(nil, roach, version)
	r, v, ok := cockroachkvs.DecodeEngineKey(lock)
	require.True(t, ok)
	require.Equal(t, append(append([]byte(nil), LockTablePrefix...), roach...), r)
	require.Equal(t, version, v)
	require.Negative(t, cockroachkvs.Compare(LockKey(nil, roach, nil), lock))
	require.Negative(t, cockroachkvs.Compare(lock, cockroachkvs.EncodeMVCCKey(nil, roach, 0, 0)))
	buf := make([]byte, 0, 64)
	require.Equal(t, lock, LockKey(append(buf, "stale"...), roach, version), "the key replaces what buf held")
}

// TestOptions: Options is Apply's options with CockroachDB's memtables,
// format and Bloom(10) table filters, and both leave what the caller set
// that they do not name.
func TestOptions(t *testing.T) {
	o := Options()
	require.Equal(t, "cockroach_comparator", o.Comparer.Name)
	require.Equal(t, uint64(64<<20), o.MemTableSize)
	require.Equal(t, 4, o.MemTableStopWritesThreshold)
	require.Equal(t, upstream.FormatColumnarBlocks, o.FormatMajorVersion)
	require.Len(t, o.BlockPropertyCollectors, len(cockroachkvs.BlockPropertyCollectors))
	for _, l := range o.Levels {
		require.Equal(t, 32<<10, l.BlockSize)
		require.Equal(t, 256<<10, l.IndexBlockSize)
		require.Equal(t, "rocksdb.BuiltinBloomFilter", l.FilterPolicy.Name())
	}

	mine := &upstream.Options{MemTableSize: 1 << 20, DisableWAL: true}
	Apply(mine)
	require.Equal(t, o.Comparer, mine.Comparer)
	require.Equal(t, o.L0CompactionThreshold, mine.L0CompactionThreshold)
	require.Equal(t, uint64(1<<20), mine.MemTableSize)
	require.True(t, mine.DisableWAL)
	require.Nil(t, mine.Levels[0].FilterPolicy, "the table filters stay the caller's")
}
