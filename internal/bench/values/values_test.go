// Copyright 2026 The pebblerf Authors. All rights reserved.

package values

import (
	"bytes"
	"compress/flate"
	"testing"

	"github.com/stretchr/testify/require"
)

// compressed is the DEFLATE size of 4 MiB of 100-byte values over their
// raw size. DEFLATE, like Snappy, finds the repeats; it also entropy-codes
// the printable bytes, so its figures run below Snappy's.
func compressed(t *testing.T, ratio float64) float64 {
	g := New(1, ratio, 100)
	var raw, out bytes.Buffer
	for raw.Len() < 4<<20 {
		raw.Write(g.Next(100))
	}
	w, err := flate.NewWriter(&out, flate.BestSpeed)
	require.NoError(t, err)
	_, err = w.Write(raw.Bytes())
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return float64(out.Len()) / float64(raw.Len())
}

// TestCompressionRatio: values compress about as asked, less compressible
// as the ratio rises, and a ratio of 1 leaves no repeats to find.
func TestCompressionRatio(t *testing.T) {
	quarter, half, whole := compressed(t, 0.25), compressed(t, 0.5), compressed(t, 1)
	require.InDelta(t, 0.5, half, 0.15)
	require.Less(t, quarter, half)
	require.Less(t, half, whole)
	require.Greater(t, whole, 0.75, "random printable bytes: only the entropy coding saves")
}

// TestDeterministic: values depend on the seed alone, have the length
// asked, and wrap around the buffer without running past it.
func TestDeterministic(t *testing.T) {
	a, b, c := New(7, 0.5, 300), New(7, 0.5, 300), New(8, 0.5, 300)
	differ := false
	for i := 0; i < 10000; i++ {
		va, vb, vc := a.Next(300), b.Next(300), c.Next(300)
		require.Len(t, va, 300)
		require.Equal(t, va, vb)
		differ = differ || !bytes.Equal(va, vc)
	}
	require.True(t, differ, "another seed gives other values")
	big := New(1, 0.5, 3<<20)
	require.Len(t, big.Next(3<<20), 3<<20, "the buffer holds a value of valueSize")
}
