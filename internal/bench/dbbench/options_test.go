// Copyright 2026 The pebblerf Authors. All rights reserved.

package dbbench

import (
	"testing"

	"github.com/pebblerf/pebble/compactionext"
	"github.com/stretchr/testify/require"
)

func TestParseCompactionStyle(t *testing.T) {
	for _, tc := range []struct {
		value int
		name  string
		err   string
	}{
		{value: 0, name: "leveled"},
		{value: 1, name: "many-runs"},
		{value: 2, err: "FIFO"},
		{value: 3, name: "none"},
		{value: 4, err: "unknown -compaction_style=4"},
		{value: -1, err: "unknown -compaction_style=-1"},
	} {
		p, err := CompactionStyle(tc.value)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.name, p.Name())
	}
	p, err := CompactionStyle(1)
	require.NoError(t, err)
	require.Equal(t, compactionext.DefaultRuns, p.(*compactionext.ManyRuns).Runs)
}

// TestCompression: Pebble's codecs by db_bench's names, any case; db_bench's
// codecs Pebble lacks are refused as such, other names as unknown.
func TestCompression(t *testing.T) {
	for _, name := range []string{"none", "snappy", "ZSTD", "minlz"} {
		p, err := Compression(name)
		require.NoError(t, err, name)
		require.NotNil(t, p, name)
	}
	_, err := Compression("lz4")
	require.ErrorContains(t, err, `"lz4" is a db_bench codec Pebble does not have`)
	_, err = Compression("brotli")
	require.ErrorContains(t, err, `unknown codec "brotli"`)
}
