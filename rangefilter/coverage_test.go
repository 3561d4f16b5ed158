// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pebblerf/pebble/internal/rangebounds"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/stretchr/testify/require"
)

// TestCoverageAgreesWithFilter checks Coverage against the filter it
// describes, over the test key sets and budgets: Holds is the filter's own
// answer, Positions = 0 only where the filter says "no", a query that holds
// a key covers at least one position, and Hashed is what Describe says.
func TestCoverageAgreesWithFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for name, keys := range rangeTestKeySets(rng) {
		for _, bpk := range []float64{4, 12, 24} {
			t.Run(fmt.Sprintf("%s/bpk=%g", name, bpk), func(t *testing.T) {
				f := rangeBuild(t, Config{BitsPerKey: bpk, Seed: 7}, keys)
				info, err := Describe(f)
				require.NoError(t, err)
				prop := tableprops.Append(nil, map[string]string{rangeFilterProp: string(f)})
				for range 500 {
					lo, hi := rangeRandomQuery(rng, keys)
					c, ok := coverageOf(f, lo, hi)
					require.True(t, ok)
					got := MayIntersect(f, lo, hi)
					require.Equal(t, got, c.Holds, "[%x, %x) %+v", lo, hi, c)
					require.Equal(t, info.Hashed, c.Hashed)
					if c.Positions == 0 {
						require.False(t, got, "[%x, %x)", lo, hi)
					}
					if rangeOracle(keys, lo, hi) {
						require.NotZero(t, c.Positions, "[%x, %x)", lo, hi)
					}
					cp, ok := coverageOfProperty(prop, lo, hi)
					require.True(t, ok)
					require.Equal(t, c, cp)
				}
			})
		}
	}
}

// TestCoverageLengths pins ℓ on a map small enough to count by hand: keys
// a0, a5, a9 share the literal "a" and one digit of alphabet '0'..'9', so
// a1 maps to 1, a4 to 4, and so on.
func TestCoverageLengths(t *testing.T) {
	f := rangeBuild(t, Config{BitsPerKey: 16}, [][]byte{[]byte("a0"), []byte("a5"), []byte("a9")})
	for _, tc := range []struct {
		lower, upper string
		open         bool // no upper bound
		positions    uint64
		holds        bool
	}{
		{lower: "a1", upper: "a4", positions: 3},              // a1, a2, a3
		{lower: "a1", upper: "a6", positions: 5, holds: true}, // a1..a5, a5 a key
		{lower: "a5", upper: "a6", positions: 1, holds: true},
		{lower: "a6", upper: "a7", positions: 1},
		{lower: "a1", open: true, positions: 9, holds: true}, // a1..a9
		{lower: "b", upper: "c"},                             // past every key
		{lower: "a6", upper: "a6"},                           // empty bounds
	} {
		var upper []byte
		if !tc.open {
			upper = []byte(tc.upper)
		}
		c, ok := coverageOf(f, []byte(tc.lower), upper)
		require.True(t, ok)
		require.Equal(t, tc.positions, c.Positions, "%+v", tc)
		require.Equal(t, tc.holds, c.Holds, "%+v", tc)
		require.False(t, c.Hashed)
	}
}

// TestCoverageBadFilters: bytes that hold no filter, do not decode, or
// describe a universal filter give no coverage.
func TestCoverageBadFilters(t *testing.T) {
	_, ok := coverageOfProperty(tableprops.Append(nil, map[string]string{"other": "x"}), nil, nil)
	require.False(t, ok)
	_, ok = coverageOfProperty([]byte{0xff, 0xff}, nil, nil)
	require.False(t, ok)
	f := rangeBuild(t, Config{}, [][]byte{[]byte("a"), []byte("b")})
	_, ok = coverageOf(f[:len(f)-1], nil, nil)
	require.False(t, ok)
	b, err := NewBuilder(Config{})
	require.NoError(t, err)
	require.NoError(t, b.Add([]byte("b")))
	require.Error(t, b.Add([]byte("a")))
	_, ok = coverageOf(b.Finish(nil), nil, nil)
	require.False(t, ok, "universal filter")
	c, ok := coverageOf(rangeBuild(t, Config{}, nil), []byte("a"), []byte("b"))
	require.True(t, ok, "empty table")
	require.Equal(t, rangebounds.Coverage{}, c)
}

// TestCoverageFPR checks Coverage.FPR against the false positives hashed
// filters give: tables of 2000 keys spread over 100 times as many integers,
// at 8 bits per key (so they hash, into r = 64·n values, fewer than the 100·n
// the keys span: two hash blocks), asked about empty ranges of 8 integers.
// The bound ℓ/2^(B-2) says 12.5%; keys in the query's own block cannot
// collide with it, so the rate is well below, and FPR predicts it.
func TestCoverageFPR(t *testing.T) {
	const n, span, l = 2000, 200_000, 8
	rng := rand.New(rand.NewPCG(9, 10))
	key := func(x uint64) []byte { return binary.BigEndian.AppendUint64(nil, x) }
	var predicted float64
	var fps, queries int
	for seed := uint64(1); seed <= 20; seed++ {
		set := map[uint64]bool{}
		for len(set) < n {
			set[rng.Uint64N(span)] = true
		}
		keys := make([][]byte, 0, n)
		for x := range set {
			keys = append(keys, key(x))
		}
		keys = rangeSortedDistinct(keys)
		f := rangeBuild(t, Config{BitsPerKey: 8, Seed: seed}, keys)
		info, err := Describe(f)
		require.NoError(t, err)
		require.True(t, info.Hashed)
		for range 2000 {
			x := rng.Uint64N(span - l)
			empty := true
			for i := x; i < x+l; i++ {
				empty = empty && !set[i]
			}
			if !empty {
				continue
			}
			c, ok := coverageOf(f, key(x), key(x+l))
			require.True(t, ok)
			if c.Positions == 0 {
				continue // outside the table's keys: a certain "no"
			}
			require.LessOrEqual(t, c.Positions, uint64(l)) // clamped at the ends
			require.LessOrEqual(t, c.FPR, Config{BitsPerKey: 8}.FPRBound(l))
			require.InDelta(t, 8, c.BitsPerKey, 0.05)
			predicted += c.FPR
			queries++
			if c.Holds {
				fps++
			}
		}
	}
	t.Logf("%d queries: %d false positives, %.1f predicted, bound %.1f", queries, fps, predicted,
		float64(queries)*Config{BitsPerKey: 8}.FPRBound(l))
	require.InEpsilon(t, predicted, float64(fps), 0.2)
}

// TestFilterOfProperty checks which table properties the range-length
// observer skips: the empty property of a table a per-level plan left
// without a filter (no filter, no error), but neither a filter nor bytes
// that do not decode (those are counted as undecoded).
func TestFilterOfProperty(t *testing.T) {
	b, err := NewBuilder(Config{BitsPerKey: 16})
	require.NoError(t, err)
	require.NoError(t, b.Add([]byte("k1")))
	f := b.Finish(nil)
	got, ok, err := filterOfProperty(tableprops.Append(nil, map[string]string{rangeFilterProp: string(f)}))
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, f, got)
	for _, empty := range []map[string]string{{}, {"other": "x"}} {
		_, ok, err = filterOfProperty(tableprops.Append(nil, empty))
		require.NoError(t, err)
		require.False(t, ok)
	}
	_, _, err = filterOfProperty([]byte{0xff, 0xff})
	require.Error(t, err)
}

// coverageOfProperty is coverageOf for a table's range-filter block
// property as Pebble passes it to a BlockPropertyFilter's Intersects at the
// table level: ok is false when the property holds no filter, or one that
// does not decode or is universal.
func coverageOfProperty(prop, lower, upper []byte) (rangebounds.Coverage, bool) {
	filter, ok, err := filterOfProperty(prop)
	if err != nil || !ok {
		return rangebounds.Coverage{}, false
	}
	return coverageOf(filter, lower, upper)
}
