// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"testing"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/stretchr/testify/require"
)

func TestParseFlagsDefaults(t *testing.T) {
	c, err := parseFlags(nil, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, int64(1000000), c.Num)
	require.Equal(t, c.Num, c.Reads, "-reads=-1 means -num")
	require.Equal(t, 16, c.KeySize)
	require.Equal(t, 100, c.ValueSize)
	require.Equal(t, float64(-1), c.BloomBits)
	require.False(t, c.FiltersEnabled())
	require.False(t, c.DBGiven)
	require.Equal(t, []string{config.EnginePebble}, c.Engines())

	// Go's flag package takes db_bench's double-dash spelling too.
	c, err = parseFlags([]string{"--engine=both", "--benchmarks=fillrandom,seekrandom[X3-W1]", "-db=/x", "-reads=7"}, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, []string{config.EnginePebble, config.EnginePebbleRF}, c.Engines())
	require.True(t, c.DBGiven)
	require.Equal(t, int64(7), c.Reads)
}

// TestBadFlags checks that each bad flag or value is a usage error (status 2
// in realMain) whose message names the flag.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-nosuchflag=1"}, "nosuchflag"},
		{[]string{"-num=abc"}, "-num"},
		{[]string{"-num=0"}, "-num"},
		{[]string{"-reads=0"}, "-reads"},
		{[]string{"-threads=0"}, "-threads"},
		{[]string{"-engine=rocksdb"}, "-engine"},
		{[]string{"-compression_type=lz4"}, "-compression_type"},
		{[]string{"-compression_type=brotli"}, "-compression_type"},
		{[]string{"-prefix_size=17"}, "-prefix_size"},
		{[]string{"-keys_per_prefix=10"}, "-keys_per_prefix"},
		{[]string{"-prefix_size=4", "-keys_per_prefix=10", "-num=5"}, "-keys_per_prefix"},
		{[]string{"-missing_fraction=1.5"}, "-missing_fraction"},
		{[]string{"-key_size=8", "-missing_fraction=0.5"}, "-missing_fraction"},
		{[]string{"-bloom_bits=NaN"}, "-bloom_bits"},
		{[]string{"-bloom_before_level=-2"}, "-bloom_before_level"},
		{[]string{"-compression_ratio=0"}, "-compression_ratio"},
		{[]string{"-write_buffer_size=10"}, "-write_buffer_size"},
		{[]string{"-benchmarks=readrandom,nosuch"}, "nosuch"},
		{[]string{"-benchmarks=readrandom[Y3]"}, "-benchmarks"},
		{[]string{"-benchmarks=readrandom[X0]"}, "-benchmarks"},
		{[]string{"-benchmarks=readrandom[X3"}, "-benchmarks"},
		{[]string{"-benchmarks=,"}, "-benchmarks"},
		{[]string{"-db="}, "-db"},
		{[]string{"stray"}, "stray"},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			var stderr bytes.Buffer
			_, err := parseFlags(tc.args, &bytes.Buffer{})
			require.Error(t, err)
			require.True(t, config.IsUsageError(err), "%v", err)
			require.Contains(t, err.Error(), tc.want)

			var stdout bytes.Buffer
			require.Equal(t, exitUsage, realMain(tc.args, &stdout, &stderr))
			require.Contains(t, stderr.String(), tc.want)
			require.Empty(t, stdout.String())
		})
	}
}
