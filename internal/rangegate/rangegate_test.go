// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangegate

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGateVerdicts checks the gate's rule: no verdict before a window
// (Window checks open, Window/SampleEvery closed) is full; a
// full window with fewer than one check in MinRuledOut ruling
// its table out closes the gate, one at that rate opens it; while closed,
// exactly one iterator in SampleEvery is admitted.
func TestGateVerdicts(t *testing.T) {
	var gate Gate
	g := &gate.regions[0]
	for range 100 {
		require.True(t, g.admit(), "an open gate admits every iterator")
	}
	g.add(Window-1, 0)
	require.False(t, g.closed.Load(), "no verdict before the window is full")
	g.add(1, 0)
	require.True(t, g.closed.Load(), "a window with nothing ruled out closes the gate")

	admitted := 0
	for range 10 * SampleEvery {
		if g.admit() {
			admitted++
		}
	}
	require.Equal(t, 10, admitted, "one iterator in SampleEvery while closed")

	// At the threshold: Window/MinRuledOut ruled out keeps it open.
	g.add(Window, Window/MinRuledOut)
	require.False(t, g.closed.Load())
	g.add(Window, Window/MinRuledOut-1)
	require.True(t, g.closed.Load(), "just below the threshold closes it")
	g.add(Window, Window)
	require.False(t, g.closed.Load(), "a window of samples that rule tables out opens it")

	// A report larger than the window gives a verdict on all of it.
	g.add(3*Window, 0)
	require.True(t, g.closed.Load())
	g.add(0, 0)
	require.True(t, g.closed.Load(), "an empty report changes nothing")

	// Closed, the window is SampleEvery times shorter.
	g.add(Window/SampleEvery-1, 0)
	require.True(t, g.closed.Load(), "no verdict before the closed window is full")
	g.add(1, 1)
	require.False(t, g.closed.Load(), "one table in MinRuledOut ruled out reopens it")
	g.add(Window/SampleEvery, 0)
	require.False(t, g.closed.Load(), "open, the window is Window checks")
}
