// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/stretchr/testify/require"
)

// TestRemoteFlagErrors checks that a bad -remote, -remote_levels or
// -secondary_cache_size is one line on stderr and exit status 2, before
// anything is created.
func TestRemoteFlagErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-remote=ftp://host/x"}, "pebblebench: invalid -remote: "},
		{[]string{"-remote=sim://?latency=soon"}, "pebblebench: invalid -remote: "},
		{[]string{"-remote=sim://?no_such_parameter=1"}, "pebblebench: invalid -remote: "},
		{[]string{"-remote=sim://?price_get=-1"}, "pebblebench: invalid -remote: "},
		{[]string{"-remote=s3://"}, "pebblebench: invalid -remote: "},
		{[]string{"-remote=mem://", "-remote_levels=upper"}, `pebblebench: invalid -remote_levels: "upper" is not one of all, lower`},
		{[]string{"-remote=mem://", "-secondary_cache_size=-1"}, "pebblebench: invalid -secondary_cache_size: -1 must not be negative"},
		{[]string{"-remote=mem://", "-write_cache_size=-1"}, "pebblebench: invalid -write_cache_size: -1 must not be negative"},
		{[]string{"-write_cache_size=1"}, "pebblebench: invalid -write_cache_size: has no effect without -remote"},
		{[]string{"-remote_levels=lower"}, "pebblebench: invalid -remote_levels: has no effect without -remote"},
		{[]string{"-secondary_cache_size=1048576"}, "pebblebench: invalid -secondary_cache_size: has no effect without -remote"},
		// A scenario's phases are checked before any runs.
		{[]string{"-scenario=remote-absent-keys", "-remote=sim://?jitter=x"}, "pebblebench: -scenario=remote-absent-keys: invalid -remote: "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			status, stdout, stderr := runMain(append(tc.args, "-db="+dir, "-num=100")...)
			require.Equal(t, exitUsage, status, stderr)
			require.Empty(t, stdout)
			require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			require.True(t, strings.HasPrefix(stderr, tc.want), "got %q\nwant %q...", stderr, tc.want)
			_, err := os.Stat(dir)
			require.True(t, os.IsNotExist(err), "nothing created")
		})
	}
}

// TestRemoteFigures runs both engines on simulated stores and checks each
// run's figures in the terminal, under -json and in -report_html.
func TestRemoteFigures(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	args := []string{"-engine=both", "-db=" + filepath.Join(dir, "db"), "-num=20000", "-reads=200", "-bloom_bits=10",
		"-write_buffer_size=262144", "-cache_size=1048576", "-benchmarks=fillrandom,readrandom,seekrandom",
		"-remote=sim://?latency=1ms&seed=3", "-remote_levels=all"}

	status, stdout, stderr := runMain(append(args, "-report_html="+html)...)
	require.Equal(t, exitOK, status, stderr)
	require.Contains(t, stdout, "Remote:     sim://?latency=1ms&seed=3; each engine its own store; tables on the store: all levels; secondary cache off")
	require.Contains(t, stdout, "Legend:     "+result.RemoteLegend)
	for _, name := range []string{result.FigRemoteGets, result.FigRemoteBytes, result.FigRemoteWait, result.FigCostPerMOp, result.FigP50, result.FigP99} {
		require.Regexp(t, strings.ReplaceAll(name, ".", `\.`)+`[ ,]`, result.RemoteLegend, "the legend explains %s", name)
		require.Regexp(t, `ratio pebblerf/pebble readrandom : .* `+strings.ReplaceAll(name, ".", `\.`)+` [0-9.]+x`, stdout)
	}
	require.Contains(t, result.RemoteLegend, result.FigReadGets+" = ")
	require.Regexp(t, `ratio pebblerf/pebble seekrandom : .* read\.gets [0-9.]+x`, stdout)
	require.Regexp(t, `readrandom/pebble : remote\.gets [1-9][0-9]* \(open [0-9]+ index [0-9]+ filter [0-9]+ data [1-9][0-9]* other 0\) stat 0 write 0`, stdout)
	doc, err := os.ReadFile(html)
	require.NoError(t, err)
	require.Contains(t, string(doc), `<section id="remote">`)
	require.Contains(t, string(doc), `data-group="4 readrandom/pebblerf" data-series="remote.gets"`)

	var jsonOut bytes.Buffer
	require.Equal(t, exitOK, realMain(append(args, "-json"), &jsonOut, &bytes.Buffer{}))
	sc := bufio.NewScanner(&jsonOut)
	results := 0
	for sc.Scan() {
		var rec map[string]interface{}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), sc.Text())
		if rec["record"] != "result" {
			continue
		}
		results++
		checkSnakeKeys(t, rec)
		remote, ok := rec["remote"].(map[string]interface{})
		require.True(t, ok, "every run has its remote figures: %s", sc.Text())
		for _, k := range []string{"gets", "gets_by_kind", "bytes_by_kind", "read_gets", "read_bytes", "stat", "write", "list", "delete",
			"errors", "bytes", "wait_seconds", "usd", "usd_per_mop"} {
			require.Contains(t, remote, k)
		}
		kinds := remote["gets_by_kind"].(map[string]interface{})
		var sum float64
		for _, k := range []string{"open", "index", "filter", "data", "other"} {
			sum += kinds[k].(float64)
		}
		require.Equal(t, remote["gets"], sum, "the kinds add up to the GETs")
		bytes := remote["bytes_by_kind"].(map[string]interface{})
		sum = 0
		for _, k := range []string{"open", "index", "filter", "data", "other"} {
			sum += bytes[k].(float64)
		}
		require.Equal(t, remote["bytes"], sum, "the kinds' bytes add up to the GETs' bytes")
		require.LessOrEqual(t, remote["read_bytes"], remote["bytes"])
		h := rec["histogram_micros"].(map[string]interface{})
		require.Contains(t, h, "p50")
		require.Contains(t, h, "p99")
		switch rec["benchmark"] {
		case "readrandom":
			require.Positive(t, remote["gets"], "cold caches: the reads GET blocks")
			require.Positive(t, remote["usd_per_mop"])
			require.Positive(t, remote["wait_seconds"])
			require.Zero(t, remote["read_gets"], "DB.Get takes no context: its GETs are not told apart")
		case "seekrandom":
			require.Positive(t, remote["read_gets"], "the seeks' iterators GET blocks the Gets left uncached")
			require.LessOrEqual(t, remote["read_gets"], remote["gets"])
		default:
			require.Positive(t, remote["write"], "the fill's flushes create objects")
			require.Zero(t, remote["read_gets"], "a fill makes no iterator")
		}
	}
	require.Equal(t, 6, results)
}

// TestRemoteScenarioOverS3 runs a remote scenario at a tiny scale against
// an in-process S3 server on the loopback address, through objstore's S3
// client: each engine's tables under its own prefix, the reads' GETs
// counted, the verdict stated.
func TestRemoteScenarioOverS3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two small DBs on a fake S3")
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	t.Setenv("AWS_SESSION_TOKEN", "")
	backend := s3mem.New()
	require.NoError(t, backend.CreateBucket("tables"))
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	url := fmt.Sprintf("s3://tables/run?endpoint=%s&secure=false&lookup=path&region=us-east-1", strings.TrimPrefix(srv.URL, "http://"))

	status, stdout, stderr := runMain("-scenario=remote-range-filters", "-db="+t.TempDir(), "-remote="+url,
		"-num=200000", "-writes=20000", "-reads=50", "-threads=2", "-cache_size=1048576", "-write_buffer_size=262144")
	require.Equal(t, exitOK, status, stderr)
	require.Contains(t, stdout, "each engine its own store at <location>/<engine>")
	require.Regexp(t, `seekrandom/pebble : remote\.gets [1-9]`, stdout)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.True(t, strings.HasPrefix(lines[len(lines)-1], "remote-range-filters: pebblerf vs upstream"), lines[len(lines)-1])
	for _, e := range []string{config.EnginePebble, config.EnginePebbleRF} {
		objects, err := backend.ListBucket("tables", &gofakes3.Prefix{Prefix: "run/" + e + "/", HasPrefix: true}, gofakes3.ListBucketPage{})
		require.NoError(t, err)
		require.NotEmpty(t, objects.Contents, "%s's tables are in its own prefix", e)
	}
}

// TestRemoteAbsentKeysGetL6Filters runs remote-absent-keys at a tiny scale
// on simulated stores: both engines write the same L6 filters (the same
// filter bytes per level), and pebblerf's Gets, consulting them
// (-get_l6_filters=on), GET fewer data blocks than upstream's DB.Get, which
// reads an L6 data block for an absent key. Counts only, no timings: one
// thread per engine, fixed seeds.
func TestRemoteAbsentKeysGetL6Filters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two small DBs on simulated stores")
	}
	var stdout, stderr bytes.Buffer
	status := realMain([]string{"-scenario=remote-absent-keys", "-db=" + filepath.Join(t.TempDir(), "db"), "-num=20000",
		"-reads=100", "-threads=1", "-cache_size=1048576", "-write_buffer_size=262144", "-remote=sim://?latency=100us&seed=1",
		"-json"}, &stdout, &stderr)
	require.Equal(t, exitOK, status, stderr.String())
	dataGets := map[string]float64{}
	filterBytes := map[string][]float64{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Record, Benchmark, Engine string
			Remote                    *struct {
				GetsByKind map[string]float64 `json:"gets_by_kind"`
			}
			Data struct {
				Levels []struct {
					FilterBytes float64 `json:"filter_bytes"`
				}
			}
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), sc.Text())
		switch {
		case rec.Record == "result" && rec.Benchmark == "readrandom":
			require.NotNil(t, rec.Remote, sc.Text())
			dataGets[rec.Engine] += rec.Remote.GetsByKind["data"]
		case rec.Benchmark == "levelstats":
			for _, l := range rec.Data.Levels {
				filterBytes[rec.Engine] = append(filterBytes[rec.Engine], l.FilterBytes)
			}
		}
	}
	require.NoError(t, sc.Err())
	require.Len(t, filterBytes[config.EnginePebble], 7, "levelstats of both engines")
	require.Equal(t, filterBytes[config.EnginePebble], filterBytes[config.EnginePebbleRF], "the same filters on both engines")
	require.Positive(t, filterBytes[config.EnginePebble][6], "L6 tables have filters")
	require.Positive(t, dataGets[config.EnginePebble], "upstream GETs L6 data blocks")
	require.Less(t, dataGets[config.EnginePebbleRF], dataGets[config.EnginePebble], "pebblerf's Gets skip L6 by filter: %v", dataGets)
	require.Contains(t, stderr.String(), "remote-absent-keys: pebblerf vs upstream")
}

// TestRemoteWriteCache: -write_cache_size gives pebblerf's store a write
// cache and upstream's none; the reads of tables pebblerf wrote in this
// process are served from it (cached_reads), so it GETs less, and both
// engines find the same keys.
func TestRemoteWriteCache(t *testing.T) {
	runs, text := jsonRuns(t, "-engine=both", "-db="+filepath.Join(t.TempDir(), "db"), "-num=20000", "-reads=500",
		"-write_buffer_size=262144", "-cache_size=1048576", "-benchmarks=fillrandom,seekrandom",
		"-remote=sim://?latency=100us&seed=3", "-write_cache_size=67108864")
	pe, rf := requireSameFound(t, runs, "seekrandom")
	up, own := pe["remote"].(map[string]interface{}), rf["remote"].(map[string]interface{})
	require.Zero(t, up["cached_reads"], "upstream has no write cache")
	require.Positive(t, own["cached_reads"], "pebblerf's reads of the tables it wrote: %s", text)
	require.Less(t, own["gets"], up["gets"], text)
}
