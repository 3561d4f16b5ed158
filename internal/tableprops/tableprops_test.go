// Copyright 2026 The pebblerf Authors. All rights reserved.

package tableprops

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEncoding(t *testing.T) {
	props := map[string]string{"b": "2", "a": "1\x00\xff", "": ""}
	enc := Append(nil, props)
	got, err := Decode(enc)
	require.NoError(t, err)
	require.Equal(t, props, got)
	v, ok, err := Lookup(enc, "a")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "1\x00\xff", string(v))
	_, ok, err = Lookup(enc, "c")
	require.NoError(t, err)
	require.False(t, ok)
	require.Zero(t, testing.AllocsPerRun(10, func() { _, _, _ = Lookup(enc, "b") }))
	for _, bad := range [][]byte{nil, {2}, enc[:len(enc)-1], append(slices.Clone(enc), 0)} {
		_, err := Decode(bad)
		require.Error(t, err)
		_, _, err = Lookup(bad, "c")
		require.Error(t, err, "a name not found in bad bytes")
	}
}
