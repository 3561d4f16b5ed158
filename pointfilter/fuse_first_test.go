// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// Tests of the fuse-first query (fuseMayContainFirst, fusePolicy.MayContain):
// it must give the generic path's answers and counts on every input, take
// its shortcut on the filters the policy writes, and read inside the filter
// whatever its length.

// pointRequireSameAsGeneric queries filter with every key through a bound
// fusePolicy and through the generic path (pointReader.mayContain) of a
// reader bound to other counters, and requires the same answers and the
// same number of undecodable filters counted. It returns how many of the
// queries the fuse-first query answered itself.
func pointRequireSameAsGeneric(t testing.TB, filter []byte, keys [][]byte) (first int) {
	t.Helper()
	var fast, generic Counts
	p := bindTo(Fuse(), &fast)
	r := pointReader{counts: &generic}
	for _, k := range keys {
		want := r.mayContain(filter, k)
		require.Equal(t, want, p.MayContain(pebble.TableFilter, filter, k), "filter of %d bytes, key %x", len(filter), k)
		if _, ok := fuseMayContainFirst(filter, pointHash(k)); ok {
			first++
		}
	}
	require.Equal(t, generic.Corrupt(), fast.Corrupt(), "filter of %d bytes", len(filter))
	return first
}

// TestFuseMayContainFirstMatchesGeneric checks the fuse-first query against
// the generic path on fuse filters the policy writes (at sizes across the
// segment lengths tables get), fuse filters with another seed or segment
// length, Bloom, Ribbon and empty filters, the same damaged in every trailer
// and seed byte, truncated and extended, and random bytes. The shortcut must
// be taken on the policy's own filters that use the first seed and guessed
// segment length, and never on anything else.
func TestFuseMayContainFirstMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	negatives := pointTestKeys(rng, 2000)
	sizes := []int{1, 2, 3, 10, 100, 1000, 3361, 3362, 11193, 37273, 124118}
	if testing.Short() {
		sizes = sizes[:len(sizes)-1]
	}
	var filters [][]byte
	took := 0
	for _, n := range sizes {
		keys := pointTestKeys(rng, n)
		filter := pointBuild(Fuse(), keys)
		first := pointRequireSameAsGeneric(t, filter, append(slices.Clone(keys), negatives...))
		_, tr, fault := pointDecode(filter)
		require.Equal(t, pointOK, fault)
		seed := binary.LittleEndian.Uint64(filter[len(filter)-pointTrailerLen-8:])
		if seed == fuseFirstSeed && tr.q == fuseGuessShift(uint64(len(filter)-pointTrailerLen-8)) {
			require.Equal(t, n+len(negatives), first, "n=%d: the policy's own filter took the generic path", n)
			took++
		} else {
			require.Zero(t, first, "n=%d: seed %#x, q=%d", n, seed, tr.q)
		}
		filters = append(filters, filter)

		// The same filter under another seed and under another segment
		// length, with trailers that describe them: valid filters the
		// shortcut must leave to the generic path.
		other := slices.Clone(filter)
		binary.LittleEndian.PutUint64(other[len(other)-pointTrailerLen-8:], fuseFirstSeed+1)
		tr.b = fuseSeedFold(fuseFirstSeed + 1)
		other = pointAppendTrailer(other[:len(other)-pointTrailerLen], tr)
		require.NoError(t, validate(other))
		require.Zero(t, pointRequireSameAsGeneric(t, other, negatives))
		if tr.q > 0 {
			// Half segments: taken only if that is what the length implies.
			half := pointFuseRetrailer(filter, tr.a*2+2, tr.q-1)
			require.NoError(t, validate(half))
			want := 0
			if seed == fuseFirstSeed && tr.q-1 == fuseGuessShift(uint64(len(half)-pointTrailerLen-8)) {
				want = len(negatives)
			}
			require.Equal(t, want, pointRequireSameAsGeneric(t, half, negatives), "n=%d", n)
		}
	}
	// The premise of the shortcut (TestFuseFirstSeedIsUsual): most sizes.
	require.GreaterOrEqual(t, took, len(sizes)-3)
	for _, p := range []pebble.FilterPolicy{Bloom(10), Ribbon(10)} {
		for _, n := range []int{0, 1, 100, 5000} {
			filter := pointBuild(p, pointTestKeys(rng, n))
			require.Zero(t, pointRequireSameAsGeneric(t, filter, negatives[:200]))
			filters = append(filters, filter)
		}
	}

	// Damage: every trailer and seed byte, truncation, extension.
	keys := negatives[:50]
	for _, filter := range filters {
		for i := max(0, len(filter)-pointTrailerLen-8); i < len(filter); i++ {
			for _, x := range []byte{1, 0x80, 0xff} {
				bad := slices.Clone(filter)
				bad[i] ^= x
				require.Zero(t, pointRequireSameAsGeneric(t, bad, keys), "byte %d of %d ^ %#x", i, len(filter), x)
			}
		}
		for _, n := range []int{0, 1, len(filter) / 2, len(filter) - 1} {
			require.Zero(t, pointRequireSameAsGeneric(t, filter[:n], keys))
			require.Zero(t, pointRequireSameAsGeneric(t, filter[len(filter)-n:], keys))
		}
		for _, n := range []int{1, 8, 64} {
			require.Zero(t, pointRequireSameAsGeneric(t, append(slices.Clone(filter), make([]byte, n)...), keys))
		}
	}
	for range 200 {
		filter := make([]byte, rng.IntN(4096))
		for i := range filter {
			filter[i] = byte(rng.Uint32())
		}
		require.Zero(t, pointRequireSameAsGeneric(t, filter, keys))
	}
}

// pointFuseRetrailer returns filter's body with a fuse trailer of segment
// count a and shift q, whose length it must fit.
func pointFuseRetrailer(filter []byte, a uint32, q uint8) []byte {
	out := slices.Clone(filter[:len(filter)-pointTrailerLen])
	seed := binary.LittleEndian.Uint64(out[len(out)-8:])
	return pointAppendTrailer(out, pointTrailer{a: a, b: fuseSeedFold(seed), p: fuseFingerprintBits, q: q, kind: pointKindFuse, version: pointFormatRibbon})
}

// TestFuseMayContainFirstConstants derives the trailer words the fuse-first
// query expects from the writer's own encoding, for every segment shift.
func TestFuseMayContainFirstConstants(t *testing.T) {
	require.Equal(t, fuseSeedFold(fuseFirstSeed), uint32(fuseFirstSeedFold))
	for q := uint8(0); q <= fuseMaxSegmentShift; q++ {
		for _, a := range []uint32{1, 2, 1000, fuseMaxSegments} {
			enc := pointAppendTrailer(nil, pointTrailer{a: a, b: fuseSeedFold(fuseFirstSeed), p: fuseFingerprintBits, q: q, kind: pointKindFuse, version: pointFormatRibbon})
			x, y := binary.LittleEndian.Uint64(enc[0:8]), binary.LittleEndian.Uint64(enc[8:16])
			require.Equal(t, uint64(a), x^fuseFirstX, "q=%d a=%d", q, a)
			require.Equal(t, uint64(a)<<32, y^(uint64(q)<<8|uint64(q)<<56)^fuseFirstY, "q=%d a=%d", q, a)
		}
	}
}

// TestFuseMayContainFirstBounds checks, for every fingerprint length the
// fuse-first query accepts, that the guessed segment length leaves three
// whole segments inside it (so that every slot it reads is inside the
// filter) and that a length of whole segments implies a segment count the
// trailer allows. The guess is constant between the table's breakpoints
// (powers of two and the steps it holds), so checking at both ends of each
// interval covers every length.
func TestFuseMayContainFirstBounds(t *testing.T) {
	points := []uint64{fuseArity, fuseFirstMaxBytes - 1}
	for l := 1; l < 64; l++ {
		points = append(points, 1<<(l-1), 1<<(l-1)-1)
		if step := fuseShiftSteps[l] >> 8; step < 1<<l {
			points = append(points, step, step-1)
		}
	}
	checked := 0
	for _, m := range points {
		if m < fuseArity || m >= fuseFirstMaxBytes {
			continue
		}
		q := fuseGuessShift(m)
		seg := uint64(1) << q
		require.LessOrEqual(t, fuseArity*seg, m&^(seg-1), "m=%d q=%d", m, q)
		require.LessOrEqual(t, q, uint8(fuseMaxSegmentShift), "m=%d", m)
		require.LessOrEqual(t, m/seg-(fuseArity-1), uint64(fuseMaxSegments), "m=%d q=%d", m, q)
		checked++
	}
	require.Greater(t, checked, 40)
	// Lengths the query refuses before reading anything.
	for _, n := range []int{0, 1, 8 + pointTrailerLen, 8 + pointTrailerLen + fuseArity - 1} {
		_, ok := fuseMayContainFirst(make([]byte, n), 1)
		require.False(t, ok, "%d bytes", n)
	}
}

// FuzzFuseMayContainFirst hands the fuse-first query arbitrary bytes, and
// bytes that begin as a valid fuse filter: it must not panic, and must give
// the generic path's answer and count.
func FuzzFuseMayContainFirst(f *testing.F) {
	f.Add(pointBuild(Fuse(), [][]byte{[]byte("a"), []byte("b")}), []byte("a"), uint16(0), uint8(0))
	f.Add(pointBuild(Fuse(), pointTestKeys(rand.New(rand.NewPCG(21, 6)), 300)), []byte("c"), uint16(3), uint8(1))
	f.Add(pointBuild(Bloom(10), [][]byte{[]byte("a")}), []byte("a"), uint16(0), uint8(0))
	f.Add([]byte{}, []byte{}, uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, filter, key []byte, at uint16, x uint8) {
		if len(filter) > 0 && x != 0 {
			filter[len(filter)-1-int(at)%min(len(filter), 8+pointTrailerLen)] ^= x
		}
		pointRequireSameAsGeneric(t, filter, [][]byte{key})
	})
}
