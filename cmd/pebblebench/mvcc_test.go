// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"path/filepath"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/examples/cockroach/crdb"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/stretchr/testify/require"
)

// TestMVCCEndToEnd: with -key_format=mvcc both engines, with CockroachDB's
// options and pebblerf's plug-ins, find the same keys in every MVCC
// benchmark, and the figures say what the workload was built to show.
func TestMVCCEndToEnd(t *testing.T) {
	runs, text := jsonRuns(t, "-engine=both", "-key_format=mvcc", "-num=3000", "-versions_per_key=4", "-seed=5",
		"-compaction_style=3", "-bloom_bits=10", "-use_l6_filters", "-range_filter_bits=16", "-missing_fraction=0.5",
		"-reads=2000", "-statistics", "-db="+t.TempDir(),
		"-benchmarks=fillmvcc,levelstats,mvccget,mvccscan,locktablescan,lockedscan,mvcctimebound")
	get, _ := requireSameFound(t, runs, "mvccget")
	// Half the roach keys are absent; every present one has a version at
	// every read timestamp.
	require.InDelta(t, get["reads"].(float64)/2, get["found"].(float64), 150, text)
	scan, _ := requireSameFound(t, runs, "mvccscan")
	require.Equal(t, scan["reads"], scan["found"])
	locked, _ := requireSameFound(t, runs, "lockedscan")
	require.Equal(t, locked["reads"], locked["found"], "every span has a visible version")
	tb, _ := requireSameFound(t, runs, "mvcctimebound")
	require.Equal(t, tb["reads"], tb["found"], "every span has versions in every round")
	pe, rf := requireSameFound(t, runs, "locktablescan")
	// 64 lock keys over 3000 roach keys, spans of 10: a lock in about a
	// fifth of the spans at most.
	require.Less(t, pe["found"].(float64), 0.3*pe["reads"].(float64))
	pb, rb := stat(pe, benchmarks.SeekBlockBytesTicker), stat(rf, benchmarks.SeekBlockBytesTicker)
	require.Greater(t, pb, 0.0)
	require.Less(t, rb, 0.5*pb, text)
}

// TestMVCCReusedIterator: with -use_tailing_iterator the scans reuse one
// iterator per worker, given each span with SetOptions (pebblerf then
// rebuilds its range filter for every span), and find on both engines what
// a new iterator per span finds.
func TestMVCCReusedIterator(t *testing.T) {
	db := t.TempDir()
	common := []string{"-engine=both", "-key_format=mvcc", "-num=3000", "-versions_per_key=4", "-seed=5",
		"-compaction_style=3", "-bloom_bits=10", "-use_l6_filters", "-range_filter_bits=16", "-db=" + db}
	jsonRuns(t, append(common, "-benchmarks=fillmvcc")...)
	reads := append(common, "-use_existing_db", "-reads=2000", "-statistics",
		"-benchmarks=mvccscan,locktablescan,lockedscan,mvcctimebound")
	fresh, _ := jsonRuns(t, reads...)
	reused, text := jsonRuns(t, append(reads, "-use_tailing_iterator")...)
	for _, bench := range []string{"mvccscan", "locktablescan", "lockedscan", "mvcctimebound"} {
		want, _ := requireSameFound(t, fresh, bench)
		got, _ := requireSameFound(t, reused, bench)
		require.Equal(t, want["found"], got["found"], "%s\n%s", bench, text)
	}
	// pebblerf rebuilds its iterator stack for every span (new bounds need
	// a new range filter), so it reads per span what a new iterator reads;
	// upstream's reused iterator keeps its blocks and reads far less than
	// its new iterators.
	_, freshRF := requireSameFound(t, fresh, "locktablescan")
	freshPE, _ := requireSameFound(t, fresh, "locktablescan")
	pe, rf := requireSameFound(t, reused, "locktablescan")
	require.Greater(t, pe["found"].(float64), 0.0, text)
	require.LessOrEqual(t, stat(rf, benchmarks.SeekBlockBytesTicker), stat(freshRF, benchmarks.SeekBlockBytesTicker), text)
	require.Less(t, stat(pe, benchmarks.SeekBlockBytesTicker), 0.5*stat(freshPE, benchmarks.SeekBlockBytesTicker), text)
}

func TestMVCCFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-key_format=bogus", "-benchmarks=fillmvcc"}, "unknown format"},
		{[]string{"-benchmarks=mvccget"}, "needs -key_format=mvcc"},
		{[]string{"-key_format=mvcc", "-benchmarks=readrandom"}, "not readrandom"},
		{[]string{"-versions_per_key=3", "-benchmarks=readrandom"}, "has no effect without -key_format=mvcc"},
		{[]string{"-key_format=mvcc", "-mvcc_compact_rounds=5", "-benchmarks=fillmvcc"}, "mvcc_compact_rounds"},
	} {
		var stdout, stderr bytes.Buffer
		require.NotEqual(t, exitOK, realMain(tc.args, &stdout, &stderr), "%v", tc.args)
		require.Contains(t, stderr.String(), tc.want, "%v", tc.args)
	}
}

// TestLockTableScanWhileWriting: the writer of locktablescanwhilewriting
// resolves every intent but the last mvccLockKeys, so that after the run
// each engine's lock table holds fillmvcc's locks and those in flight, and
// the checks ran on both engines while it wrote.
func TestLockTableScanWhileWriting(t *testing.T) {
	db := t.TempDir()
	runs, text := jsonRuns(t, "-engine=both", "-key_format=mvcc", "-num=3000", "-versions_per_key=4", "-seed=5",
		"-bloom_bits=10", "-range_filter_bits=16", "-write_buffer_size=262144", "-duration=1", "-reads=1000000000",
		"-threads=2", "-db="+db, "-benchmarks=fillmvcc,locktablescanwhilewriting")
	for _, e := range []string{config.EnginePebble, config.EnginePebbleRF} {
		r := runs["locktablescanwhilewriting/"+e]
		require.Len(t, r, 1, text)
		require.Positive(t, r[0]["reads"].(float64), text)

		opts := &upstream.Options{}
		crdb.Apply(opts)
		d, err := upstream.Open(filepath.Join(db, e), opts)
		require.NoError(t, err)
		// The lock table's keys sort between its bare start and the table
		// keys.
		it, err := d.NewIter(&upstream.IterOptions{LowerBound: crdb.LockKey(nil, nil, nil), UpperBound: benchmarks.BareMVCCKey(nil, benchmarks.MVCCTablePrefix)})
		require.NoError(t, err)
		locks := 0
		for valid := it.First(); valid; valid = it.Next() {
			locks++
		}
		require.NoError(t, it.Close())
		require.NoError(t, d.Close())
		const num = 3000
		fillLocks := (num-1)/(num/benchmarks.MVCCLockKeys) + 1 // fillmvcc locks every (num/mvccLockKeys)th key
		require.Equal(t, fillLocks+benchmarks.MVCCLockKeys, locks, "%s: fillmvcc's locks and the writer's in flight", e)
	}
}
