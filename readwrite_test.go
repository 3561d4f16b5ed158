// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"bytes"
	"context"
	"io"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/objstore"
	"github.com/stretchr/testify/require"
)

// failingStore is an in-memory object store whose reads fail while fail is
// set.
type failingStore struct {
	remote.Storage
	fail atomic.Bool
}

var errReadFailed = errors.New("injected read failure")

func (s *failingStore) ReadObject(ctx context.Context, name string) (remote.ObjectReader, int64, error) {
	r, n, err := s.Storage.ReadObject(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	return &failingReader{ObjectReader: r, s: s}, n, nil
}

type failingReader struct {
	remote.ObjectReader
	s *failingStore
}

func (r *failingReader) ReadAt(ctx context.Context, p []byte, off int64) error {
	if r.s.fail.Load() {
		return errReadFailed
	}
	return r.ObjectReader.ReadAt(ctx, p, off)
}

// getCloser is what the test reads through, which upstream's DB and
// Snapshot and pebblerf's have alike.
type getCloser interface {
	Get(key []byte) ([]byte, io.Closer, error)
	Close() error
}

// testDB is what the test writes through, which upstream's DB and
// pebblerf's have alike.
type testDB interface {
	getCloser
	Set(key, value []byte, o *WriteOptions) error
	Flush() error
	Compact(ctx context.Context, start, end []byte, parallelize bool) error
}

// valueBlockDB opens a DB with open on a failing store and returns a
// snapshot whose Get of "a" needs a value block: the DB's one table holds
// "a" twice, "new" in its data block and the snapshot's older value in a
// value block, which a Get reads only when it needs that value. The blocks
// a Get of "new" reads are cached.
func valueBlockDB(t *testing.T, open func(*Options) (testDB, func() getCloser, error)) (*failingStore, getCloser) {
	t.Helper()
	store := &failingStore{Storage: objstore.NewMem()}
	o := &Options{FS: vfs.NewMem(), FormatMajorVersion: FormatNewest}
	o.Experimental.EnableValueBlocks = func() bool { return true }
	require.NoError(t, objstore.Configure("db", o, objstore.Config{Store: objstore.NewMeter(store, objstore.DefaultPrices)}))
	db, snapshot, err := open(o)
	require.NoError(t, err)
	old := append([]byte("old"), bytes.Repeat([]byte("x"), 4096)...)
	require.NoError(t, db.Set([]byte("a"), old, nil))
	snap := snapshot()
	require.NoError(t, db.Set([]byte("a"), []byte("new"), nil))
	require.NoError(t, db.Flush())
	require.NoError(t, db.Compact(context.Background(), []byte("a"), []byte("b"), false))
	v, c, err := db.Get([]byte("a"))
	require.NoError(t, err)
	require.Equal(t, "new", string(v))
	require.NoError(t, c.Close())
	t.Cleanup(func() {
		store.fail.Store(false)
		require.NoError(t, snap.Close())
		require.NoError(t, db.Close())
	})
	return store, snap
}

// TestGetReturnsValueReadErrors: when reading a value kept in a value block
// fails, upstream's Get reports success with an empty value and leaves the
// error to its closer; pebblerf's Get, on every path (Open's, with
// statistics, with Gets routed through L6 filters), returns the error.
func TestGetReturnsValueReadErrors(t *testing.T) {
	t.Run("upstream", func(t *testing.T) {
		store, snap := valueBlockDB(t, func(o *Options) (testDB, func() getCloser, error) {
			up, err := upstream.Open("db", o)
			return up, func() getCloser { return up.NewSnapshot() }, err
		})
		store.fail.Store(true)
		v, c, err := snap.Get([]byte("a"))
		require.NoError(t, err, "upstream's Get reports success...")
		require.Empty(t, v, "...with an empty value")
		require.ErrorIs(t, c.Close(), errReadFailed, "and its closer returns the error")
	})
	for name, plugins := range map[string]Plugins{
		"open":       {},
		"statistics": {Statistics: true},
		"routed":     {GetL6Filters: &GetL6Config{}},
	} {
		t.Run(name, func(t *testing.T) {
			store, snap := valueBlockDB(t, func(o *Options) (testDB, func() getCloser, error) {
				rf, err := OpenWithPlugins("db", o, plugins)
				return rf, func() getCloser { return rf.NewSnapshot() }, err
			})
			store.fail.Store(true)
			v, c, err := snap.Get([]byte("a"))
			require.ErrorIs(t, err, errReadFailed)
			require.Nil(t, v)
			require.Nil(t, c)
			store.fail.Store(false)
			v, c, err = snap.Get([]byte("a"))
			require.NoError(t, err)
			require.True(t, bytes.HasPrefix(v, []byte("old")), "the value reads back once the store does")
			require.NoError(t, c.Close())
		})
	}
}
