// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangebounds

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBounds checks the bounds a range filter is asked about: Split
// prefixes, with a 0x00 added to an upper bound longer than its prefix.
func TestBounds(t *testing.T) {
	split2 := func(k []byte) int { return min(2, len(k)) }
	lo, hi, buf := Bounds(split2, []byte("abc"), []byte("abz"), nil)
	require.Equal(t, "ab", string(lo))
	require.Equal(t, "ab\x00", string(hi))
	lo, hi, _ = Bounds(split2, []byte("a"), []byte("ab"), buf)
	require.Equal(t, "a", string(lo))
	require.Equal(t, "ab", string(hi))
	lo, hi, _ = Bounds(nil, nil, []byte("xyz"), nil)
	require.Nil(t, lo)
	require.Equal(t, "xyz", string(hi))
	lo, hi, _ = Bounds(split2, []byte{}, nil, nil)
	require.NotNil(t, lo)
	require.Empty(t, lo)
	require.Nil(t, hi)
}
