// Copyright 2026 The pebblerf Authors. All rights reserved.

package engine

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/objstore"
	"github.com/stretchr/testify/require"
)

// httpGet fetches url and returns the status and body.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// TestMetricsServerFollowsTheDB: 503 while no DB is open, the open DB's
// statistics once one is (and its store's requests when it has a store),
// 503 again when it is about to close, and nothing listening after close.
func TestMetricsServerFollowsTheDB(t *testing.T) {
	m, err := StartMetrics(&config.Config{MetricsAddr: "127.0.0.1:0"})
	require.NoError(t, err)
	status, _ := httpGet(t, m.URL())
	require.Equal(t, http.StatusServiceUnavailable, status)

	store, err := objstore.Open("mem://")
	require.NoError(t, err)
	defer func() { require.NoError(t, store.Close()) }()
	opts := &pebblerf.Options{FS: vfs.NewMem()}
	require.NoError(t, objstore.Configure("db", opts, objstore.Config{Store: store}))
	db, err := pebblerf.OpenWithPlugins("db", opts, pebblerf.Plugins{Statistics: true})
	require.NoError(t, err)
	require.NoError(t, db.Set([]byte("a"), []byte("v"), nil))
	require.NoError(t, db.Flush())
	it, err := db.NewIter(nil)
	require.NoError(t, err)
	require.True(t, it.First())
	require.NoError(t, it.Close())
	m.Follow(db, nil)
	status, body := httpGet(t, m.URL())
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "\npebblerf_dbwide_number_db_seek_total 1\n")
	require.Contains(t, body, "\npebblerf_seek_data_total{level=\"L0\"} 1\n")
	require.Contains(t, body, "\npebblerf_lsm_tables{level=\"L0\"} 1\n")
	require.NotContains(t, body, "pebblerf_objstore_")

	m.Follow(db, store)
	_, body = httpGet(t, m.URL())
	writes := store.Snapshot().Write.Requests
	require.Positive(t, writes)
	require.Contains(t, body, fmt.Sprintf("\npebblerf_objstore_requests_total{kind=\"write\"} %d\n", writes))
	require.Contains(t, body, "\npebblerf_dbwide_number_db_seek_total 1\n")

	m.Follow(nil, nil)
	require.NoError(t, db.Close())
	status, _ = httpGet(t, m.URL())
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.NoError(t, m.Close())
	_, err = http.Get(m.URL())
	require.Error(t, err)
}
