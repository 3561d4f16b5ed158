// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// pointDBBenchKey is db_bench's key for i: 8 bytes big-endian, then '0'
// padding up to size bytes.
func pointDBBenchKey(i uint64, size int) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, max(size, 8)), i)
	for len(k) < size {
		k = append(k, '0')
	}
	return k
}

// pointMeasureFPR queries negatives keys that are not in the filter and
// returns the fraction answered "may contain".
func pointMeasureFPR(p pebble.FilterPolicy, filter []byte, negatives int, key func(i int) []byte) float64 {
	fp := 0
	for i := 0; i < negatives; i++ {
		if p.MayContain(pebble.TableFilter, filter, key(i)) {
			fp++
		}
	}
	return float64(fp) / float64(negatives)
}

// TestPointFPRMatchesMath checks measured false-positive rates against the
// math each filter states: the cache-local estimate for Bloom and equation
// (2) for Ribbon. With 400k negatives at ~1% the sampling error is about 1.6%
// relative; the tolerances are several times that.
func TestPointFPRMatchesMath(t *testing.T) {
	pointSkipUnderRace(t)
	const n, negatives = 50000, 400000
	keyOf := func(i int) []byte { return pointDBBenchKey(uint64(i), 16) }
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = keyOf(i)
	}
	negative := func(i int) []byte { return keyOf(n + i) }
	for _, bits := range []float64{4, 7.5, 10, 14} {
		bloom, ribbon := Bloom(bits), Ribbon(bits)
		bf := pointBuild(bloom, keys)
		want := BloomExpectedFPR(bits)
		got := pointMeasureFPR(bloom, bf, negatives, negative)
		require.InEpsilon(t, want, got, 0.12, "bloom(%g)", bits)

		rf := pointBuild(ribbon, keys)
		info, err := Describe(rf)
		require.NoError(t, err)
		require.Equal(t, "ribbon", info.Kind)
		// Ribbon aims at Bloom's rate, and its layout's rate is what it gets.
		require.InEpsilon(t, want, info.ExpectedFPR, 0.03, "ribbon(%g) layout", bits)
		got = pointMeasureFPR(ribbon, rf, negatives, negative)
		require.InEpsilon(t, info.ExpectedFPR, got, 0.10, "ribbon(%g)", bits)
		// And it is smaller: about 70% of Bloom's bits at equal rate.
		require.Less(t, float64(len(rf)), 0.75*float64(len(bf)), "ribbon(%g) size", bits)
	}
}

// TestRibbonWholeResultBits checks FPR = 2^−r for layouts with no
// fractional part, the claim the issue makes for r result bits.
func TestRibbonWholeResultBits(t *testing.T) {
	pointSkipUnderRace(t)
	const n, negatives = 20000, 400000
	rng := rand.New(rand.NewPCG(8, 8))
	hashes := make([]uint64, n)
	for i := range hashes {
		hashes[i] = rng.Uint64()
	}
	var b ribbonBuilder
	for _, r := range []uint8{1, 4, 7, 9} {
		l := ribbonLayout{colBytes: ribbonColumnBytes(n), r: r}
		require.True(t, b.band(pointHashesOf(hashes), l))
		filter := b.solve(nil, l)
		body, tr, fault := pointDecode(filter)
		require.Equal(t, pointOK, fault)
		l = ribbonLayout{colBytes: tr.a, lowBytes: tr.b, r: tr.p, seed: tr.q}
		for _, h := range hashes {
			require.True(t, ribbonMayContain(body, l, h))
		}
		fp := 0
		for range negatives {
			if ribbonMayContain(body, l, rng.Uint64()) {
				fp++
			}
		}
		require.InEpsilon(t, math.Ldexp(1, -int(r)), float64(fp)/negatives, 0.10, "r=%d", r)
	}
}

func TestBloomProbes(t *testing.T) {
	// The probe count minimises the estimate (up to the 1% preference for
	// fewer probes), and the estimate falls as bits grow.
	prev := 1.0
	for bits := 1.0; bits <= 40; bits += 0.5 {
		k := bloomProbes(bits)
		est := bloomEstimateFPR(bits, k)
		for j := 1; j <= bloomMaxProbes; j++ {
			require.GreaterOrEqual(t, bloomEstimateFPR(bits, j)*1.01, est, "bits=%g k=%d j=%d", bits, k, j)
		}
		require.Less(t, est, prev)
		prev = est
	}
}

// TestRibbonFirstSeedSucceeds checks the slot sizing of ribbonOverhead: on
// random key sets the first seed should nearly always band.
func TestRibbonFirstSeedSucceeds(t *testing.T) {
	pointSkipUnderRace(t)
	rng := rand.New(rand.NewPCG(9, 9))
	var b ribbonBuilder
	for _, n := range []int{300, 2000, 20000, 200000} {
		trials := max(5, 400000/n)
		ok := 0
		hashes := make([]uint64, n)
		for range trials {
			for i := range hashes {
				hashes[i] = rng.Uint64()
			}
			if b.band(pointHashesOf(hashes), ribbonLayout{colBytes: ribbonColumnBytes(n), r: 7}) {
				ok++
			}
		}
		require.GreaterOrEqual(t, float64(ok)/float64(trials), 0.8, "n=%d: %d/%d", n, ok, trials)
	}
}

// TestRibbonRetryAndFallback checks both ways a build that does not band
// at first ends: growing until it does, and falling back to Bloom when it
// never does. Either way the filter has no false negatives.
func TestRibbonRetryAndFallback(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	n := 5000
	hashes := make([]uint64, n)
	keys := make([][]byte, n)
	for i := range hashes {
		keys[i] = pointTestKeys(rng, 1)[0]
		hashes[i] = pointHash(keys[i])
	}
	var b ribbonBuilder
	need := ribbonColumnBytes(n)
	for _, tc := range []struct {
		colBytes uint32
		kind     string
	}{
		// 256 slots short: a few growth steps (every ribbonGrowEvery seeds)
		// reach a size that bands.
		{need - 32, "ribbon"},
		// A quarter of the slots needed: growth cannot catch up within
		// ribbonMaxAttempts seeds, so the result is Bloom.
		{need / 4 &^ 7, "bloom"},
	} {
		filter := b.buildFrom(nil, pointHashesOf(hashes), 10, tc.colBytes)
		info, err := Describe(filter)
		require.NoError(t, err)
		require.Equal(t, tc.kind, info.Kind, "from %d bytes per column", tc.colBytes)
		if tc.kind == "ribbon" {
			require.Greater(t, info.Seed, 0, "a seed other than the first")
		}
		requireNoFalseNegatives(t, Ribbon(10), filter, keys)
	}
}

func TestRibbonBucketRehashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	// More than one chunk, so that both passes cross a chunk boundary.
	var hashes pointHashes
	for range pointHashChunk + 904 {
		hashes.add(rng.Uint64())
	}
	var want []uint64
	for _, seed := range []uint8{0, 3} {
		want = want[:0]
		for _, chunk := range hashes.chunks {
			for _, h := range chunk {
				want = append(want, ribbonRehash(h, seed))
			}
		}
		for _, topBits := range []int{0, 1, 7, 11, ribbonBucketBits} {
			got := ribbonBucketRehashes([]uint64{1, 2, 3}, &hashes, seed, topBits)
			if topBits == 0 {
				require.Equal(t, want, got)
				continue
			}
			require.Equal(t, slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got)))
			shift := 64 - topBits
			for i := 1; i < len(got); i++ {
				require.LessOrEqual(t, got[i-1]>>shift, got[i]>>shift, "seed=%d topBits=%d at %d", seed, topBits, i)
			}
		}
	}
}

// TestPointLayout prints the layout each policy chooses for db_bench key
// sets of various sizes (testdata/layout).
func TestPointLayout(t *testing.T) {
	datadriven.RunTest(t, "testdata/layout", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "build":
			var policy string
			var bits float64
			var n int
			d.ScanArgs(t, "policy", &policy)
			d.ScanArgs(t, "bits", &bits)
			d.ScanArgs(t, "keys", &n)
			var p pebble.FilterPolicy
			var err error
			switch policy {
			case "bloom":
				p, err = NewBloom(bits)
			case "ribbon":
				p, err = NewRibbon(bits)
			default:
				return fmt.Sprintf("unknown policy %q", policy)
			}
			if err != nil {
				return err.Error()
			}
			keys := make([][]byte, n)
			for i := range keys {
				keys[i] = pointDBBenchKey(uint64(i), 16)
			}
			filter := pointBuild(p, keys)
			info, err := Describe(filter)
			if err != nil {
				return err.Error()
			}
			var sb strings.Builder
			fmt.Fprintln(&sb, info)
			if n > 0 {
				fmt.Fprintf(&sb, "bits/key=%.2f\n", float64(8*len(filter))/float64(n))
			}
			return sb.String()
		case "expected-fpr":
			var bits float64
			d.ScanArgs(t, "bits", &bits)
			return fmt.Sprintf("bloom probes=%d fpr=%.4f%%\n", bloomProbes(bits), 100*BloomExpectedFPR(bits))
		}
		return fmt.Sprintf("unknown command %q", d.Cmd)
	})
}

// pointSkipUnderRace skips statistical tests under -race: they run a single
// goroutine, so the race detector can find nothing in them, and they are the
// slowest tests of the package.
func pointSkipUnderRace(t *testing.T) {
	if pointRaceEnabled {
		t.Skip("statistical test: nothing for -race to find")
	}
}

// TestPointHashSpreads checks the properties the filters need from
// pointHash on the structured keys databases use: no collisions among all
// keys of up to two bytes (where trailing zeros and length matter) or among
// sequential db_bench keys, and every output bit set about half the time.
func TestPointHashSpreads(t *testing.T) {
	seen := make(map[uint64][]byte)
	add := func(k []byte) {
		h := pointHash(k)
		if prev, ok := seen[h]; ok {
			t.Fatalf("hash collision: %x and %x", prev, k)
		}
		seen[h] = k
	}
	add(nil)
	for a := 0; a < 256; a++ {
		add([]byte{byte(a)})
		for b := 0; b < 256; b++ {
			add([]byte{byte(a), byte(b)})
		}
	}
	const n = 200000
	var ones [64]int
	for i := 0; i < n; i++ {
		k := pointDBBenchKey(uint64(i), 16)
		add(k)
		h := pointHash(k)
		for b := range ones {
			ones[b] += int(h >> b & 1)
		}
	}
	for b, c := range ones {
		// 5 standard deviations of a fair coin over n draws is ~0.56%.
		require.InDelta(t, 0.5, float64(c)/n, 0.0056, "bit %d", b)
	}
}
