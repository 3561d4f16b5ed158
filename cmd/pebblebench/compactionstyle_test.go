// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

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
		p, err := parseCompactionStyle(tc.value)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.name, p.Name())
	}
	p, err := parseCompactionStyle(1)
	require.NoError(t, err)
	require.Equal(t, compactionext.DefaultRuns, p.(*compactionext.ManyRuns).Runs)
}
