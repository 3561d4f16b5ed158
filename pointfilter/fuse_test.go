// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/FastFilter/xorfilter"
	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestFuseFPRAndSize checks the binary fuse filter against fuse.go's math:
// a false-positive rate within 10% of 2^-8 (with 1M negatives at 0.39% the
// sampling error is about 1.6% relative) and the space the sizing rule
// predicts, below Bloom's at the Bloom bits/key of equal rate.
func TestFuseFPRAndSize(t *testing.T) {
	pointSkipUnderRace(t)
	const negatives = 1000000
	for _, n := range []int{1000, 100000} {
		keyOf := func(i int) []byte { return pointDBBenchKey(uint64(i), 16) }
		keys := make([][]byte, n)
		for i := range keys {
			keys[i] = keyOf(i)
		}
		p := Fuse()
		filter := pointBuild(p, keys)
		requireNoFalseNegatives(t, p, filter, keys)
		info, err := Describe(filter)
		require.NoError(t, err)
		require.Equal(t, "fuse", info.Kind)
		require.Equal(t, FuseFPR, info.ExpectedFPR)
		got := pointMeasureFPR(p, filter, negatives, func(i int) []byte { return keyOf(n + i) })
		require.InEpsilon(t, FuseFPR, got, 0.10, "n=%d", n)
		bitsPerKey := float64(8*len(filter)) / float64(n)
		// Rounding to whole segments adds at most one segment.
		slack := float64(8*(info.SegmentLength+pointTrailerLen+8)) / float64(n)
		require.InDelta(t, fuseBitsPerKey(float64(n)), bitsPerKey, slack, "n=%d", n)
		if n >= 100000 {
			require.Less(t, bitsPerKey, 10.0, "n=%d", n)
		}
	}
}

// TestFuseDuplicateHashes feeds the writer repeats that are not consecutive
// (consecutive ones the writer drops itself): the library removes them, and
// every key is still found.
func TestFuseDuplicateHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	keys := pointTestKeys(rng, 3000)
	keys = append(keys, keys[:1000]...)
	p := Fuse()
	filter := pointBuild(p, keys)
	require.NoError(t, validate(filter))
	requireNoFalseNegatives(t, p, filter, keys)
}

// pointFuseLibraryFilter builds a filter of n random 64-bit keys with the
// library and returns it with its keys.
func pointFuseLibraryFilter(t *testing.T, rng *rand.Rand, n int) (xorfilter.BinaryFuse[uint8], []uint64) {
	t.Helper()
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	var b xorfilter.BinaryFuseBuilder
	f, err := xorfilter.BuildBinaryFuse[uint8](&b, slices.Clone(keys))
	require.NoError(t, err)
	f.Fingerprints = slices.Clone(f.Fingerprints)
	return f, keys
}

// pointFuseBody lays out f's fingerprints and seed as fuseAppend does.
func pointFuseBody(f xorfilter.BinaryFuse[uint8]) []byte {
	return binary.LittleEndian.AppendUint64(slices.Clone(f.Fingerprints), f.Seed)
}

// TestFuseProbeMatchesLibrary holds this package's fuse query to the
// library's Contains: on filters the library built, at sizes across every
// segment length it picks for tables (both sides of each step, and the
// smallest filters), for the keys they hold (no false negatives) and for
// random others; and with the seed replaced by other seeds, where the
// bytes no longer hold the keys but both sides must still agree on every
// answer (fuseMayContain then queries with the filter's own seed).
func TestFuseProbeMatchesLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	sizes := []int{1, 2, 3, 5, 9, 27, 28, 91, 92, 100, 303, 304, 1000, 1009, 1010, 3361, 3362, 11192, 11193, 37272, 37273, 124117, 124118}
	if !testing.Short() {
		sizes = append(sizes, 413309, 413310, 1376322)
	}
	for _, n := range sizes {
		f, keys := pointFuseLibraryFilter(t, rng, n)
		q := uint8(bits.TrailingZeros32(f.SegmentLength))
		body := pointFuseBody(f)
		for _, k := range keys {
			require.True(t, fuseMayContain(body, f.Seed, f.SegmentCount, q, k), "n=%d: false negative", n)
		}
		for _, seed := range []uint64{f.Seed, fuseFirstSeed + 1, rng.Uint64()} {
			g := f
			g.Seed = seed
			agree, positives := 0, 0
			for range 20000 {
				k := rng.Uint64()
				want := g.Contains(k)
				require.Equal(t, want, fuseMayContain(body, seed, f.SegmentCount, q, k), "n=%d seed=%#x key=%#x", n, seed, k)
				agree++
				if want {
					positives++
				}
			}
			// Not a vacuous agreement: both answers occur.
			require.Positive(t, positives, "n=%d", n)
			require.Less(t, positives, agree, "n=%d", n)
		}
	}
}

// TestFuseGuessShift checks fuseGuessShift against the segment length the
// library actually picks, over key counts on both sides of each of its
// steps and spread in between, and that a guess always leaves the three
// segments a query reads inside the body, whatever the length.
func TestFuseGuessShift(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	var sizes []int
	for _, s := range []int{3, 9, 28, 92, 304, 1010, 3362, 11193, 37273, 124118} {
		sizes = append(sizes, s-1, s, s+1, s*2, s*3)
	}
	misses := 0
	var b xorfilter.BinaryFuseBuilder
	for _, n := range sizes {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = rng.Uint64()
		}
		f, err := xorfilter.BuildBinaryFuse[uint8](&b, keys)
		require.NoError(t, err)
		q := uint8(bits.TrailingZeros32(f.SegmentLength))
		if g := fuseGuessShift(uint64(len(f.Fingerprints))); g != q {
			// Only where a key count just below a step gives the same
			// length as the step's, or a build fell back to half segments.
			misses++
			t.Logf("n=%d: %d bytes, q=%d, guessed %d", n, len(f.Fingerprints), q, g)
		}
	}
	require.LessOrEqual(t, misses, len(sizes)/10)
	for n := uint64(3); n < 1<<40; n += 1 + n/997 {
		q := fuseGuessShift(n)
		require.LessOrEqual(t, uint64(fuseArity)<<q, n, "n=%d q=%d", n, q)
		require.LessOrEqual(t, q, uint8(fuseMaxSegmentShift))
	}
}

// TestFuseFirstSeedIsUsual checks the premise of fuseMayContain's guess:
// the library's builds of table-sized key sets keep its first seed and the
// segment length the body's length implies, so they take the fast path.
func TestFuseFirstSeedIsUsual(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	const builds = 200
	guessed := 0
	var b xorfilter.BinaryFuseBuilder
	for range builds {
		keys := make([]uint64, 2000+rng.IntN(50000))
		for i := range keys {
			keys[i] = rng.Uint64()
		}
		f, err := xorfilter.BuildBinaryFuse[uint8](&b, keys)
		require.NoError(t, err)
		if f.Seed == fuseFirstSeed && fuseGuessShift(uint64(len(f.Fingerprints))) == uint8(bits.TrailingZeros32(f.SegmentLength)) {
			guessed++
		}
	}
	t.Logf("%d of %d builds take the fast path", guessed, builds)
	require.Greater(t, guessed, builds*8/10)
}

// TestFuseQueryAllocs checks that a fuse query through the policy does not
// allocate.
func TestFuseQueryAllocs(t *testing.T) {
	p := Fuse()
	filter := pointBuild(p, pointTestKeys(rand.New(rand.NewPCG(21, 4)), 5000))
	key := []byte("absent key")
	require.Zero(t, testing.AllocsPerRun(1000, func() { p.MayContain(pebble.TableFilter, filter, key) }))
}

// TestFuseCheck holds fuseCheck's branch-light arithmetic to the plain
// statement of its rule, over every fingerprint width and segment shift and
// the segment counts at and around the bounds.
func TestFuseCheck(t *testing.T) {
	want := func(n int, a uint32, p, q uint8) pointFault {
		if p != 8 || q > 18 || a == 0 || uint64(a) > math.MaxUint32>>18-3 {
			return pointFaultParams
		}
		if uint64(n) != (uint64(a)+2)<<q+8 {
			return pointFaultLength
		}
		return pointOK
	}
	limit := uint32(math.MaxUint32>>18 - 3)
	counts := []uint32{0, 1, 2, 3, 1000, limit - 1, limit, limit + 1, limit + 2, math.MaxUint32 - 1, math.MaxUint32}
	oks := 0
	for p := range 256 {
		for q := range 256 {
			for _, a := range counts {
				exact := int((uint64(a)+2)<<(q&63) + 8)
				for _, n := range []int{0, exact - 1, exact, exact + 1} {
					got := fuseCheck(n, a, uint8(p), uint8(q))
					require.Equal(t, want(n, a, uint8(p), uint8(q)), got, "n=%d a=%d p=%d q=%d", n, a, p, q)
					if got == pointOK {
						oks++
					}
				}
			}
		}
	}
	require.Equal(t, 19*6, oks) // q 0 to 18, the six counts from 1 to limit, one length each
}
