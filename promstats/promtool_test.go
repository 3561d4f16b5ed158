// Copyright 2026 The pebblerf Authors. All rights reserved.

package promstats

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/pebblerf/pebble/objstore"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/require"
)

// TestPromtoolCheckMetrics serves a DB's collector (per-level statistics,
// tables on a simulated object store) and its store's over HTTP, as a
// program would, and has Prometheus' own linter, promtool check metrics,
// read a scrape: it must find nothing. Skipped where promtool is not
// installed (Debian: apt-get install prometheus); CI installs it.
func TestPromtoolCheckMetrics(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not found (Debian: apt-get install prometheus)")
	}
	store, err := objstore.Open("sim://?latency=1ms&seed=1")
	require.NoError(t, err)
	defer func() { require.NoError(t, store.Close()) }()
	db := openRemoteDB(t, store)
	defer func() { require.NoError(t, db.Close()) }()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewCollector(db), NewStoreCollector(store))
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	scrape, err := io.ReadAll(resp.Body)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	for _, family := range []string{"pebblerf_seek_data_total", "pebblerf_lsm_sublevels", "pebblerf_objstore_requests_total"} {
		require.Contains(t, string(scrape), "\n# TYPE "+family+" ")
	}

	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = bytes.NewReader(scrape)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "promtool check metrics:\n%s", out)
	require.Empty(t, strings.TrimSpace(string(out)))
}
