// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRibbonQueryMatchesLayout checks ribbonMayContain against a query
// written bit by bit from the layout ribbon.go documents: column j is a
// bitmap of B bytes at j·B (the last one without its first L bytes), slot i
// is bit i%8 of byte i/8, a key with start byte b checks columns 0..r−2 and,
// if b ≥ L, column r−1, and column j must have the parity of the slots
// 8b+t for the row's set bits t equal to fingerprint bit j. Filters with
// whole and fractional result bits and a retried seed are covered, with
// keys in the set and keys not in it.
func TestRibbonQueryMatchesLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	hashes := make([]uint64, 3000)
	for i := range hashes {
		hashes[i] = rng.Uint64()
	}
	var b ribbonBuilder
	for _, tc := range []struct {
		bits float64
		seed uint8
	}{{1, 0}, {10, 0}, {10, 3}, {20, 1}} {
		r, p := ribbonParams(tc.bits)
		l := ribbonLayoutFor(ribbonColumnBytes(len(hashes)), r, p, tc.seed)
		require.True(t, b.band(pointHashesOf(hashes), l))
		body, tr, fault := pointDecode(b.solve(nil, l))
		require.Equal(t, pointOK, fault)
		require.Equal(t, l, ribbonLayout{colBytes: tr.a, lowBytes: tr.b, r: tr.p, seed: tr.q})
		bit := func(col, slot uint64) uint64 {
			off := col * uint64(l.colBytes)
			if col == uint64(l.r-1) {
				off -= uint64(l.lowBytes)
			}
			return uint64(body[off+slot/8] >> (slot % 8) & 1)
		}
		rowBit := func(lo, hi, t uint64) uint64 {
			if t < 64 {
				return lo >> t & 1
			}
			return hi >> (t - 64) & 1
		}
		ref := func(h uint64) bool {
			x := ribbonRehash(h, l.seed)
			start := ribbonStart(x, uint64(l.colBytes))
			lo, hi, f := ribbonRow(x)
			cols := uint64(l.r)
			if start < uint64(l.lowBytes) {
				cols--
			}
			for j := uint64(0); j < cols; j++ {
				var parity uint64
				for t := uint64(0); t < ribbonW; t++ {
					if rowBit(lo, hi, t) == 1 {
						parity ^= bit(j, 8*start+t)
					}
				}
				if parity != uint64(f>>j&1) {
					return false
				}
			}
			return true
		}
		for i, h := range hashes {
			if i%10 == 0 {
				require.True(t, ref(h), "bits=%g: the reference rejects key %d", tc.bits, i)
			}
		}
		for range 3000 {
			h := rng.Uint64()
			require.Equal(t, ref(h), ribbonMayContain(body, l, h), "bits=%g hash=%x", tc.bits, h)
		}
	}
}
