// Copyright 2026 The pebblerf Authors. All rights reserved.

package objstore

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestConfigure checks the options Configure fills, its errors, and
// ParseLevels.
func TestConfigure(t *testing.T) {
	m := NewMeter(NewMem(), DefaultPrices)
	o := testOptions(vfs.NewMem())
	require.NoError(t, Configure("db", o, Config{Store: m, Levels: LowerLevels, SecondaryCacheSize: 1 << 20}))
	require.Equal(t, remote.CreateOnSharedLower, o.Experimental.CreateOnShared)
	require.Equal(t, locator, o.Experimental.CreateOnSharedLocator)
	require.Equal(t, int64(1<<20), o.Experimental.SecondaryCacheSizeBytes)
	s, err := o.Experimental.RemoteStorage.CreateStorage(locator)
	require.NoError(t, err)
	require.Equal(t, meterStorage{m}, s)
	// The creator ID is persisted: another one for the same directory fails.
	require.NoError(t, Configure("db", o, Config{Store: m, CreatorID: 1}))
	require.Equal(t, remote.CreateOnSharedAll, o.Experimental.CreateOnShared, "0 means AllLevels")
	require.ErrorContains(t, Configure("db", o, Config{Store: m, CreatorID: 2}), "creator ID 2")

	require.ErrorContains(t, Configure("x", o, Config{}), "Config.Store is nil")
	require.ErrorContains(t, Configure("x", o, Config{Store: m, Levels: 9}), "Config.Levels 9")
	require.ErrorContains(t, Configure("x", o, Config{Store: m, SecondaryCacheSize: -1}), "negative")
	require.ErrorContains(t, Configure("x", o, Config{Store: m, WriteCacheSize: -1}), "WriteCacheSize -1 is negative")
	require.ErrorContains(t, Configure("x", nil, Config{Store: m}), "needs options")

	for _, l := range []Levels{AllLevels, LowerLevels} {
		got, err := ParseLevels(l.String())
		require.NoError(t, err)
		require.Equal(t, l, got)
	}
	_, err = ParseLevels("upper")
	require.ErrorContains(t, err, `"upper"`)
}

// TestFreshDeletesOnlyItsCreator: Config.Fresh deletes the objects of its
// own creator ID and the reference markers that creator holds, and leaves
// every other creator's objects (DBs sharing the store) and every
// non-Pebble object alone; it refuses to delete an object another creator
// still references.
func TestFreshDeletesOnlyItsCreator(t *testing.T) {
	m := NewMeter(NewMem(), DefaultPrices)
	s := meterStorage{m}
	mine := []string{
		"0e17-7-000001.sst", "0e17-7-000001.sst.ref.7.000001", "5a5a-7-000004.blob",
		"5a5a-7-000004.blob.ref.7.000004",
		"abcd-8-000003.sst.ref.7.000009", // creator 7's reference to creator 8's table
	}
	theirs := []string{
		"1234-8-000002.sst", "1234-8-000002.sst.ref.8.000002", "abcd-8-000003.sst",
		"abcd-8-000003.sst.ref.8.000003", "0e17-77-000001.sst", "notes.txt", "7-000001.sst",
	}
	for _, n := range append(append([]string(nil), mine...), theirs...) {
		put(t, s, n, []byte("x"))
	}
	require.NoError(t, Configure("db", testOptions(vfs.NewMem()), Config{Store: m, CreatorID: 7, Fresh: true}))
	got, err := s.List("", "")
	require.NoError(t, err)
	require.ElementsMatch(t, theirs, got)

	// Creator 9 references one of creator 8's tables: a fresh creator 8
	// would break creator 9's DB, and deletes nothing.
	put(t, s, "abcd-8-000003.sst.ref.9.000001", []byte("x"))
	err = Configure("db2", testOptions(vfs.NewMem()), Config{Store: m, CreatorID: 8, Fresh: true})
	require.ErrorContains(t, err, `still referenced by creator ID 9 (marker "abcd-8-000003.sst.ref.9.000001")`)
	after, err := s.List("", "")
	require.NoError(t, err)
	require.ElementsMatch(t, append(theirs, "abcd-8-000003.sst.ref.9.000001"), after)
}

func TestParseObjectName(t *testing.T) {
	for _, c := range []struct {
		name string
		want objectName
		ok   bool
	}{
		{"0e17-456-000789.sst", objectName{creator: 456}, true},
		{"0e17-456-000789.blob", objectName{creator: 456}, true},
		{"0e17-456-000789.sst.ref.101112.000123", objectName{creator: 456, isRef: true, refHolder: 101112}, true},
		{"0e17-456-000789.blob.ref.1.000002", objectName{creator: 456, isRef: true, refHolder: 1}, true},
		{"0e17-456-000789.log", objectName{}, false},
		{"0e1-456-000789.sst", objectName{}, false},
		{"0e17-+456-000789.sst", objectName{}, false},
		{"0e17-456-000789.sst.ref.", objectName{}, false},
		{"0e17-456-000789.sst.ref.1", objectName{}, false},
		{"0e17-456-000789.sst.tmp", objectName{}, false},
		{"zz17-456-000789.sst", objectName{}, false},
		{"456-000789.sst", objectName{}, false},
		{"", objectName{}, false},
	} {
		got, ok := parseObjectName(c.name)
		require.Equal(t, c.ok, ok, c.name)
		if ok {
			require.Equal(t, c.want, got, c.name)
		}
	}
}
