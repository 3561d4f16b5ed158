// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParse checks that every flag is checked before anything is measured,
// and that an error names what was wrong.
func TestParse(t *testing.T) {
	req, err := parse("1000, 20", "dbbench,random", "pebble-bloom:10,fuse8", 100, 1, 2)
	require.NoError(t, err)
	require.Equal(t, []int{1000, 20}, req.sizes)
	require.Equal(t, []string{"dbbench", "random"}, req.kinds)
	require.Len(t, req.candidates, 2)
	require.Equal(t, 2, req.cfg.Rounds)

	for _, c := range []struct {
		sizes, kinds, filters     string
		negatives, builds, rounds int
		want                      string
	}{
		{"x", "dbbench", "fuse8", 1, 1, 1, `"x" in -n`},
		{"0", "dbbench", "fuse8", 1, 1, 1, `"0" in -n`},
		{"10", "dbbench,zipf", "fuse8", 1, 1, 1, `"zipf"`},
		{"10", "dbbench", "fuse8,cuckoo:8", 1, 1, 1, `"cuckoo"`},
		{"10", "dbbench", "fuse8", 0, 1, 1, "-negatives must"},
		{"10", "dbbench", "fuse8", 1, 0, 1, "-build-runs must"},
		{"10", "dbbench", "fuse8", 1, 1, 0, "-rounds must"},
	} {
		_, err := parse(c.sizes, c.kinds, c.filters, c.negatives, c.builds, c.rounds)
		require.ErrorContains(t, err, c.want)
	}
}
