// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/redact"
	pebble "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/examples/cockroach/crdb"
	"github.com/stretchr/testify/require"
)

// TestRunMain runs the program and checks that it reports every read and
// the statistics.
func TestRunMain(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runMain(t.TempDir(), 400, &out))
	for _, want := range []string{"point gets at wall time", "mvcc scan 0:", "lock-table checks:",
		"time-bound scan", "identical results", "lock-table checks ", "upstream KiB", "explain, a scan over one key's versions",
		"per-level statistics:", "non.last", "rangeOpp: "} {
		require.Contains(t, out.String(), want)
	}
}

// TestCockroachAgainstUpstream runs the workload on pebblerf with every
// plug-in and on upstream Pebble, both with CockroachDB's options, and
// checks that both return what a model of the writes says.
func TestCockroachAgainstUpstream(t *testing.T) {
	w := newWorkload(600)
	db, err := pebble.OpenWithPlugins(t.TempDir(), crdb.Options(), cockroachPlugins())
	require.NoError(t, err)
	rf := pebblerfStore(db)
	up, err := upstream.Open(t.TempDir(), crdb.Options())
	require.NoError(t, err)
	us := upstreamStore(up)

	require.NoError(t, w.load(rf))
	require.NoError(t, w.load(us))
	got, rfCost, err := w.read(rf)
	require.NoError(t, err)
	want, upCost, err := w.read(us)
	require.NoError(t, err)
	require.Equal(t, want, got)
	// The lock table is mostly empty: the range filters rule its tables out
	// of the checks, which upstream reads.
	require.Less(t, 4*rfCost[phaseLocks], upCost[phaseLocks], "pebblerf %v, upstream %v", rfCost, upCost)

	// The model: gets see the newest version at or below readTS; the
	// time-bound scan sees every version in its interval.
	var wantTB []string
	for i := 0; i < w.keys; i++ {
		visible := ""
		rs := slices.Clone(w.written(i))
		slices.Sort(rs)
		for _, r := range rs {
			if wallTime(r) <= readTS {
				visible = string(value(i, r))
			}
		}
		require.Equal(t, visible, got.Gets[i], "get of key %d", i)
		for _, r := range slices.Backward(rs) {
			if wallTime(r) >= wallTime(3) && wallTime(r) <= wallTime(4) {
				wantTB = append(wantTB, fmt.Sprintf("%s=%s", cockroachkvs.FormatKey(mvccKey(i, wallTime(r))), value(i, r)))
			}
		}
	}
	require.Equal(t, wantTB, got.TimeBound)
	require.NotEmpty(t, got.TimeBound)
	locked := 0
	for _, l := range got.Locks {
		if len(l) > 0 {
			locked++
		}
	}
	require.Positive(t, locked, "some checked spans hold locks")
	require.Less(t, locked, len(got.Locks), "most checked spans are empty")

	// Point filters work on the roach-key prefix: half the keys are absent,
	// so some seeks were answered by a filter.
	sn := db.Statistics().PerLevel().Snapshot()
	nl, last := sn.NonLast(), sn.Last()
	require.Positive(t, nl.Filtered+last.Filtered, "\n%s", sn.LevelTable())

	// Explain output names MVCC keys as redactable strings.
	e, err := db.RangeQueries(pebble.RangeQueryOptions{}).Explain(w.versionsOf(2), nil, versionsPerKey)
	require.NoError(t, err)
	s := redact.Sprint(e)
	require.Contains(t, string(s), "‹/Table/104/1/00000002")
	require.NotContains(t, string(s.Redact()), "/Table/104/1/00000002")

	require.NoError(t, rf.close())
	require.NoError(t, us.close())
}

// TestTimeBoundFilterSkips checks that the time-interval filter still acts
// with pebblerf's range filter attached: a time-bound scan over an interval
// no table holds reads far fewer block bytes than the same scan without the
// interval filter.
func TestTimeBoundFilterSkips(t *testing.T) {
	w := newWorkload(400)
	db, err := pebble.OpenWithPlugins(t.TempDir(), crdb.Options(), cockroachPlugins())
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	require.NoError(t, w.load(pebblerfStore(db)))
	scan := func(filters ...pebble.BlockPropertyFilter) (keys int, blockBytes uint64) {
		it, err := db.NewIter(&pebble.IterOptions{
			LowerBound: mvccKey(0, 0), UpperBound: mvccKey(w.keys, 0), PointKeyFilters: filters,
		})
		require.NoError(t, err)
		for valid := it.First(); valid; valid = it.Next() {
			keys++
		}
		stats := it.Stats()
		require.NoError(t, it.Close())
		return keys, stats.InternalStats.BlockBytes
	}
	all, allBytes := scan()
	require.Positive(t, all)
	none, noneBytes := scan(cockroachkvs.NewMVCCTimeIntervalFilter(wallTime(rounds)+1, wallTime(rounds)+100))
	require.Zero(t, none)
	require.Less(t, 2*noneBytes, allBytes)
}
