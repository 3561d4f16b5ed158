// Copyright 2026 The pebblerf Authors. All rights reserved.

package dbbench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseBenchmarkList(t *testing.T) {
	specs, err := ParseBenchmarks("fillrandom, readrandom[X3],seekrandom[X5-W1],seekrandom[-X1000],stats[W2]")
	require.NoError(t, err)
	require.Equal(t, []Spec{
		{"fillrandom", 1, 0},
		{"readrandom", 3, 0},
		{"seekrandom", 5, 1},
		{"seekrandom", 1000, 0},
		{"stats", 1, 2},
	}, specs)
}

// TestParseBenchmarksErrors: each malformed list is refused with a message
// that quotes the entry at fault.
func TestParseBenchmarksErrors(t *testing.T) {
	for _, tc := range []struct{ list, want string }{
		{",", "no benchmark named"},
		{"readrandom]", `"readrandom]" has ']' without '['`},
		{"readrandom[X3", `"readrandom[X3": arguments must be one trailing [...]`},
		{"readrandom[X3][W1]", `arguments must be one trailing [...]`},
		{"readrandom[Xa]", `bad count in argument "Xa"`},
		{"readrandom[X0]", "X needs a count of at least 1"},
		{"readrandom[Y3]", `unknown argument "Y3" (X<n> repeats, W<n> warm-ups)`},
	} {
		_, err := ParseBenchmarks(tc.list)
		require.ErrorContains(t, err, tc.want, tc.list)
	}
}
