// Copyright 2026 The pebblerf Authors. All rights reserved.

package objstore

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// failCloseStore fails the Close of every object whose name it is told.
type failCloseStore struct {
	remote.Storage
	fail map[string]bool
}

type failingWriter struct{ io.WriteCloser }

func (failingWriter) Close() error { return errors.New("upload failed") }

func (s failCloseStore) CreateObject(name string) (io.WriteCloser, error) {
	w, err := s.Storage.CreateObject(name)
	if err == nil && s.fail[name] {
		return failingWriter{w}, nil
	}
	return w, err
}

func writeObject(t *testing.T, s remote.Storage, name string, data []byte) error {
	t.Helper()
	w, err := s.CreateObject(name)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	return w.Close()
}

func readObject(t *testing.T, s remote.Storage, name string, off, n int) []byte {
	t.Helper()
	r, size, err := s.ReadObject(context.Background(), name)
	require.NoError(t, err)
	defer r.Close()
	require.LessOrEqual(t, int64(off+n), size)
	p := make([]byte, n)
	require.NoError(t, r.ReadAt(context.Background(), p, int64(off)))
	return p
}

// TestWriteCache: an object written through the cache is read back from
// memory, no request reaching the store, until newer objects push it out
// (oldest first) or it is deleted; an object larger than a quarter of the
// budget, or one the store did not accept, is never kept.
func TestWriteCache(t *testing.T) {
	m := NewMeter(failCloseStore{NewMem(), map[string]bool{"failed": true}}, DefaultPrices)
	// Room for four objects of 1000 bytes (their buffers' capacity is what
	// counts), and none above 1100.
	m.wc.Store(newWriteCache(4400))
	s := meterStorage{m}
	obj := func(i, n int) []byte {
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(i + j)
		}
		return b
	}

	require.NoError(t, writeObject(t, s, "a", obj(1, 1000)))
	before := m.Snapshot()
	require.Equal(t, obj(1, 1000)[100:300], readObject(t, s, "a", 100, 200))
	size, err := s.Size("a")
	require.NoError(t, err)
	require.EqualValues(t, 1000, size)
	delta := m.Snapshot().Sub(before)
	require.Zero(t, delta.Total().Requests, "served from memory: %s", delta)
	require.Equal(t, Counts{Requests: 1, Bytes: 200}, delta.Cached)
	r, _, err := s.ReadObject(context.Background(), "a")
	require.NoError(t, err)
	require.Error(t, r.ReadAt(context.Background(), make([]byte, 10), 995), "a read past the end fails")

	// Too large to keep: read from the store.
	require.NoError(t, writeObject(t, s, "big", obj(2, 1101)))
	before = m.Snapshot()
	require.Equal(t, obj(2, 1101)[:10], readObject(t, s, "big", 0, 10))
	require.Equal(t, int64(1), m.Snapshot().Sub(before).Gets().Requests)

	// The store refused it: not kept, and the error is the caller's.
	require.Error(t, writeObject(t, s, "failed", obj(3, 100)))
	require.Nil(t, m.wc.Load().get("failed"))

	// Four more objects of 1000 bytes: "a" is the oldest and goes.
	for i := range 4 {
		require.NoError(t, writeObject(t, s, fmt.Sprint("n", i), obj(10+i, 1000)))
	}
	require.Nil(t, m.wc.Load().get("a"))
	before = m.Snapshot()
	require.Equal(t, obj(1, 1000)[:10], readObject(t, s, "a", 0, 10), "read from the store once pushed out")
	require.Equal(t, int64(1), m.Snapshot().Sub(before).Gets().Requests)
	require.NotNil(t, m.wc.Load().get("n0"))

	require.NoError(t, s.Delete("n0"))
	require.Nil(t, m.wc.Load().get("n0"), "a delete drops the object")
	_, _, err = s.ReadObject(context.Background(), "n0")
	require.True(t, s.IsNotExistError(err), "%v", err)
}

// TestWriteCacheDB: a DB whose store has a write cache reads what a DB
// without one reads, and the reads of its new tables (opens and blocks)
// come from memory: with a budget larger than the DB, a cold-cache scan
// after the writes makes no GET at all.
func TestWriteCacheDB(t *testing.T) {
	const keys = 2000
	fs, localFS := vfs.NewMem(), vfs.NewMem()
	m := NewMeter(NewMem(), DefaultPrices)
	o := testOptions(fs)
	require.NoError(t, Configure("db", o, Config{Store: m, CreatorID: 7, WriteCacheSize: 64 << 20}))
	rdb, err := pebble.Open("db", o)
	require.NoError(t, err)
	ldb, err := pebble.Open("db", testOptions(localFS))
	require.NoError(t, err)
	for _, op := range workload(3, 6000, keys) {
		require.NoError(t, apply(rdb, op))
		require.NoError(t, apply(ldb, op))
	}
	for _, d := range []*pebble.DB{rdb, ldb} {
		require.NoError(t, d.Compact(context.Background(), key(0), key(keys+100), true))
	}
	requireSameReads(t, upstreamDB{ldb}, upstreamDB{rdb}, keys)
	snap := m.Snapshot()
	require.NotZero(t, snap.Write.Requests)
	require.Zero(t, snap.Gets().Requests, "every table read was of a table this process wrote: %s", snap)
	require.NotZero(t, snap.Cached.Requests)
	require.NoError(t, rdb.Close())
	require.NoError(t, ldb.Close())

	// A new process has an empty cache: its reads GET.
	m2 := NewMeter(m.inner, DefaultPrices)
	rdb = openRemote(t, "db", testOptions(fs), m2, AllLevels)
	ldb, err = pebble.Open("db", testOptions(localFS))
	require.NoError(t, err)
	requireSameReads(t, upstreamDB{ldb}, upstreamDB{rdb}, keys)
	require.NotZero(t, m2.Snapshot().Gets().Requests)
	require.NoError(t, rdb.Close())
	require.NoError(t, ldb.Close())
}
