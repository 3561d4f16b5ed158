// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// sortBounded sorts as slices.Sort does, for every length around the
// radix threshold, bounds from one value to 2^62 (the hash range's cap),
// duplicates, and digits that are the same in every value.
func TestSortBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var scratch []uint64
	for _, n := range []int{0, 1, 2, radixMin - 1, radixMin, radixMin + 1, 1000, 4000, 70000} {
		for _, u := range []uint64{1, 2, 255, 256, 257, 1 << 26, 1<<26 + 3, 1 << 40, 1 << 62} {
			for _, fill := range []string{"uniform", "dups", "high-only"} {
				vals := make([]uint64, n)
				for i := range vals {
					switch fill {
					case "uniform":
						vals[i] = rng.Uint64N(u)
					case "dups":
						vals[i] = rng.Uint64N(min(u, 8))
					case "high-only":
						// Low digits all zero: the passes over them are skipped.
						vals[i] = rng.Uint64N(u) &^ 0xffff
					}
				}
				want := slices.Clone(vals)
				slices.Sort(want)
				scratch = sortBounded(vals, u, scratch)
				require.Equal(t, want, vals, "n=%d u=%d %s", n, u, fill)
			}
		}
	}
}

// Once its scratch buffer is large enough, sortBounded allocates nothing.
func TestSortBoundedAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]uint64, 4000)
	scratch := sortBounded(slices.Clone(vals), 1<<26, nil)
	allocs := testing.AllocsPerRun(20, func() {
		for i := range vals {
			vals[i] = rng.Uint64N(1 << 26)
		}
		scratch = sortBounded(vals, 1<<26, scratch)
	})
	require.Zero(t, allocs)
}
