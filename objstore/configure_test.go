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
