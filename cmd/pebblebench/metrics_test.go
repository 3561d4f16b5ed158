// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMetricsDuringARun scrapes a pebblebench run's -metrics_addr while
// its reads run, with its tables on a simulated object store, and finds
// the pebblerf DB's per-level series, its LSM's and its store's.
func TestMetricsDuringARun(t *testing.T) {
	// A free port: listen on port 0, note it, let it go.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())

	done := make(chan string)
	go func() {
		status, stdout, stderr := runMain("-engine=pebblerf", "-pebblerf_statistics", "-metrics_addr="+addr, "-remote=sim://?latency=1ms",
			"-num=2000", "-bloom_bits=10", "-benchmarks=fillrandom,readrandom", "-duration=3", "-db="+t.TempDir())
		done <- strings.Join([]string{string(rune('0' + status)), stdout, stderr}, "\x00")
	}()
	// The store's data GETs come with the reads, after the fill: wait for
	// a scrape that has them.
	dataGets := regexp.MustCompile(`\npebblerf_objstore_requests_total\{kind="data"\} [1-9]`)
	var body string
	for body == "" {
		select {
		case r := <-done:
			t.Fatalf("the run ended before a scrape succeeded: %q", r)
		case <-time.After(50 * time.Millisecond):
		}
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			continue // not listening yet
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		if resp.StatusCode == http.StatusOK && dataGets.Match(b) {
			body = string(b)
		}
	}
	require.Contains(t, body, `pebblerf_get_filter_positive_total{level="L0"}`)
	require.Contains(t, body, "\npebblerf_rocksdb_bloom_filter_useful_total ")
	require.Contains(t, body, `pebblerf_lsm_tables{level="L0"}`)
	r := strings.Split(<-done, "\x00")
	require.Equal(t, "0", r[0], r[2])
	require.Contains(t, r[1], "Metrics:    http://"+addr+"/metrics")
	_, err = http.Get("http://" + addr + "/metrics")
	require.Error(t, err, "the server stops with the run")
}
