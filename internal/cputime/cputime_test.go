// Copyright 2026 The pebblerf Authors. All rights reserved.

package cputime

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClocksAdvanceWithWork: a locked thread that spins sees its own clock
// and the process clock move forward, and never backward.
func TestClocksAdvanceWithWork(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, p0 := Thread(), Process()
	x := uint64(1)
	for i := 0; i < 20_000_000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	require.NotZero(t, x)
	t1, p1 := Thread(), Process()
	require.Greater(t, t1, t0, "thread clock")
	require.Greater(t, p1, p0, "process clock")
}
