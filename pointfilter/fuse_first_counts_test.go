// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestFuseFirstEveryKeyCount builds a fuse filter for every key count up to
// 2500 (and a sample above) and requires: every key found (no false
// negative), the generic path's answer for every key and for non-keys, the
// shortcut taken exactly when the filter uses the first seed and guessed
// shift, and random single-byte damage anywhere in the filter answered as
// the generic path answers and counted alike.
func TestFuseFirstEveryKeyCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	neg := pointTestKeys(rng, 64)
	small, large := 2500, 200000
	if testing.Short() {
		small, large = 400, 20000
	}
	counts := []int{}
	for n := 0; n <= small; n++ {
		counts = append(counts, n)
	}
	for n := small + 100; n < large; n = n*11/10 + rng.IntN(50) {
		counts = append(counts, n)
	}
	var fast, gen Counts
	p := bindTo(Fuse(), &fast)
	r := pointReader{counts: &gen}
	taken, built := 0, 0
	for _, n := range counts {
		keys := pointTestKeys(rng, n)
		f := pointBuild(Fuse(), keys)
		for _, k := range keys {
			require.True(t, p.MayContain(pebble.TableFilter, f, k), "n=%d false negative", n)
		}
		for _, k := range append(keys[:min(len(keys), 16)], neg...) {
			require.Equal(t, r.mayContain(f, k), p.MayContain(pebble.TableFilter, f, k), "n=%d", n)
		}
		if _, tr, fault := pointDecode(f); fault == pointOK && tr.kind == pointKindFuse {
			built++
			m := uint64(len(f) - pointTrailerLen - 8)
			seed := binary.LittleEndian.Uint64(f[m:])
			_, ok := fuseMayContainFirst(f, 1)
			require.Equal(t, seed == fuseFirstSeed && tr.q == fuseGuessShift(m), ok, "n=%d", n)
			if ok {
				taken++
			}
		}
		for range 4 {
			bad := append([]byte(nil), f...)
			if len(bad) == 0 {
				break
			}
			bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
			for _, k := range append(keys[:min(len(keys), 8)], neg[:8]...) {
				require.Equal(t, r.mayContain(bad, k), p.MayContain(pebble.TableFilter, bad, k), "n=%d damaged", n)
			}
		}
		require.Equal(t, gen.Corrupt(), fast.Corrupt(), "n=%d", n)
	}
	t.Logf("%d fuse filters, shortcut on %d", built, taken)
	good := pointBuild(Fuse(), neg)
	bad := append([]byte(nil), good...)
	bad[len(bad)-1] ^= 1
	for _, f := range [][]byte{good, bad, pointBuild(Bloom(10), neg), pointBuild(Ribbon(10), neg), nil} {
		require.Zero(t, testing.AllocsPerRun(100, func() { p.MayContain(pebble.TableFilter, f, neg[3]) }))
	}
}
