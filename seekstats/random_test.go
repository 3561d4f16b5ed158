// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	pebble "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/stretchr/testify/require"
)

// workload is a random but reproducible sequence of writes, flushes,
// compactions, ingests, seeks, value reads and Gets. Played on two DBs with
// the same seed it builds the same LSM (automatic compactions are off), so
// a fast-mode DB and an exact-mode DB can be compared tick by tick.
type workload struct {
	// disjoint makes every flushed table cover its own key range, leaves the
	// memtable empty while reading and opens a new iterator for every seek:
	// the domain where the fast Value rule claims to be exact.
	disjoint bool
}

func (w workload) key(rng *rand.Rand) string {
	return fmt.Sprintf("%c%c%c%02d", 'a'+rng.IntN(8), 'a'+rng.IntN(2), 'a'+rng.IntN(2), rng.IntN(20))
}

func (w workload) play(t *testing.T, d *testDB, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0))
	if w.disjoint {
		w.buildDisjoint(t, d, rng)
	} else {
		w.buildOverlapping(t, d, rng)
	}
	var it *pebble.Iterator
	defer func() {
		if it != nil {
			require.NoError(t, it.Close())
		}
	}()
	for op := 0; op < 400; op++ {
		if rng.IntN(5) == 0 {
			k := w.key(rng)
			_ = get(d.db, k)
			continue
		}
		if it == nil || w.disjoint || rng.IntN(3) == 0 {
			if it != nil {
				require.NoError(t, it.Close())
			}
			var err error
			it, err = d.db.NewIter(&pebble.IterOptions{UseL6Filters: rng.IntN(2) == 0})
			require.NoError(t, err)
		}
		k := []byte(w.key(rng))
		var valid bool
		switch rng.IntN(5) {
		case 0:
			valid = it.SeekPrefixGE(k[:3])
		case 1:
			valid = it.SeekPrefixGE(k)
		case 2:
			valid = it.SeekGE(k)
		case 3:
			valid = it.SeekLT(k)
		default:
			valid = it.First()
		}
		for step := rng.IntN(4); valid; step-- {
			if rng.IntN(3) > 0 {
				_ = it.Value()
			}
			if step == 0 {
				break
			}
			valid = it.Next()
		}
	}
}

// buildOverlapping stacks overlapping L0 tables over L6 (and sometimes L5 or
// an ingested table), leaving keys in the memtable.
func (w workload) buildOverlapping(t *testing.T, d *testDB, rng *rand.Rand) {
	for round := 0; round < 10; round++ {
		for i := 0; i < 10+rng.IntN(20); i++ {
			k := w.key(rng)
			if rng.IntN(6) == 0 {
				require.NoError(t, d.db.Delete([]byte(k), nil))
			} else {
				require.NoError(t, d.db.Set([]byte(k), []byte(fmt.Sprint(round)), nil))
			}
		}
		require.NoError(t, d.db.Flush())
		switch rng.IntN(8) {
		case 0:
			if round >= 5 {
				break // keep the last rounds in L0
			}
			a, b := w.key(rng), w.key(rng)
			if a > b {
				a, b = b, a
			}
			require.NoError(t, d.db.Compact(t.Context(), []byte(a), []byte(b), false))
		case 1:
			var kvs [][2]string
			for i := 0; i < 3; i++ {
				kvs = append(kvs, [2]string{w.key(rng), "ext"})
			}
			slices.SortFunc(kvs, func(a, b [2]string) int { return cmpStr(a[0], b[0]) })
			kvs = slices.CompactFunc(kvs, func(a, b [2]string) bool { return a[0] == b[0] })
			require.NoError(t, d.ingest(kvs, 10*rng.IntN(2)))
		}
	}
	for i := 0; i < 10; i++ {
		require.NoError(t, d.db.Set([]byte(w.key(rng)), []byte("mem"), nil))
	}
}

// buildDisjoint flushes one table per leading letter, then moves some of
// them to L6: tables never overlap, within or across levels.
func (w workload) buildDisjoint(t *testing.T, d *testDB, rng *rand.Rand) {
	for c := byte('a'); c < 'a'+8; c++ {
		for i := 0; i < 10+rng.IntN(20); i++ {
			k := fmt.Sprintf("%c%c%c%02d", c, 'a'+rng.IntN(2), 'a'+rng.IntN(2), rng.IntN(20))
			require.NoError(t, d.db.Set([]byte(k), []byte{c}, nil))
		}
		require.NoError(t, d.db.Flush())
		if rng.IntN(2) == 0 {
			lo := string([]byte{c})
			require.NoError(t, d.db.Compact(t.Context(), []byte(lo), []byte(lo+"zzzzz"), false))
		}
	}
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// playBoth plays the workload on a fast and an exact DB with one seed.
func playBoth(t *testing.T, w workload, seed uint64) (fast, exact seekstats.Snapshot) {
	df := openTestDB(t, openConfig{prefix: 3, bloomBits: 4})
	de := openTestDB(t, openConfig{prefix: 3, bloomBits: 4, exact: true})
	w.play(t, df, seed)
	w.play(t, de, seed)
	require.Equal(t, df.lsm(), de.lsm(), "the two DBs must have the same shape")
	return df.stats.Snapshot(), de.stats.Snapshot()
}

// TestFastRuleAgainstExact checks the fast Value and Get attribution rules
// against exact mode's ScanInternal probes on random workloads.
func TestFastRuleAgainstExact(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprintf("overlapping/seed=%d", seed), func(t *testing.T) {
			fast, exact := playBoth(t, workload{}, seed)
			t.Logf("exact:\n%s", exact.LevelTable())
			t.Logf("verify: agree=%d other=%d ambiguous=%d newest.wrong=%d get agree=%d uncertain=%d tombstone=%d",
				exact.Get("pebblerf.verify.value.agree"), exact.Get("pebblerf.verify.value.other.source"),
				exact.Get("pebblerf.verify.value.ambiguous"), exact.Get("pebblerf.verify.value.newest.wrong"),
				exact.Get("pebblerf.verify.get.agree"),
				exact.Get("pebblerf.verify.get.uncertain"), exact.Get("pebblerf.verify.get.tombstone"))
			// Filter checks and data loads do not depend on the rule: both DBs
			// must count them identically, row by row.
			for r := seekstats.Row(0); r < seekstats.NumRows; r++ {
				f, e := fast.Rows[r], exact.Rows[r]
				require.Equal(t, f.Filtered, e.Filtered, "row %s", r)
				require.Equal(t, f.FilterMatch, e.FilterMatch, "row %s", r)
				require.Equal(t, f.Data, e.Data, "row %s", r)
			}
			// Every disagreement must be one of the documented blind spots.
			require.Zero(t, exact.Get("pebblerf.verify.value.unexpected"))
			require.Zero(t, exact.Get("pebblerf.verify.get.unexpected"))
			require.NotZero(t, exact.Get("pebblerf.verify.value.agree"))
			// The fast DB flags at least as many uncertain true positives as
			// the exact DB found wrong.
			require.GreaterOrEqual(t, fast.Get("pebblerf.bloom.filter.true.positive.uncertain"),
				exact.Get("pebblerf.verify.get.uncertain"))
		})
	}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprintf("disjoint/seed=%d", seed), func(t *testing.T) {
			fast, exact := playBoth(t, workload{disjoint: true}, seed)
			require.Zero(t, exact.Get("pebblerf.verify.value.unexpected"))
			require.Zero(t, exact.Get("pebblerf.verify.value.other.source"))
			require.Zero(t, exact.Get("pebblerf.verify.value.ambiguous"))
			require.Zero(t, exact.Get("pebblerf.verify.value.newest.wrong"))
			require.NotZero(t, exact.Get("pebblerf.verify.value.agree"))
			// In its domain the fast rule is exact: every row matches.
			require.Equal(t, exact.Rows, fast.Rows)
		})
	}
}
