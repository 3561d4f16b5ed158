// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/stretchr/testify/require"
)

// TestTurns runs two workers of 10 and 4 operations, in turns of 3: they
// alternate turn by turn until the shorter one finishes, and then the
// other runs its remaining operations without waiting, while each side
// counts only the time it waited after it started.
func TestTurns(t *testing.T) {
	a, b := newTurns(3)
	var order strings.Builder // written only by the side holding the turn
	var wg sync.WaitGroup
	side := func(tu *turns, name string, ops int) {
		defer wg.Done()
		tu.Wait()
		defer tu.Finish()
		for range ops {
			order.WriteString(name)
			tu.Done(1)
		}
	}
	wg.Add(2)
	go side(b, "b", 4) // started first, it still waits for a's first turn
	go side(a, "a", 10)
	wg.Wait()
	require.Equal(t, "aaabbbaaabaaaa", order.String())
	require.Positive(t, a.Waited())
	require.Positive(t, b.Waited())

	// A side that finishes within its first turn never hands one over
	// before its last.
	a, b = newTurns(100)
	order.Reset()
	wg.Add(2)
	go side(b, "b", 5)
	go side(a, "a", 5)
	wg.Wait()
	require.Equal(t, "aaaaabbbbb", order.String())
	require.Zero(t, a.Waited())
	require.Zero(t, b.Waited())

	// Without -interleave a worker has no turns, and has waited for none.
	require.Zero(t, (&benchmarks.Worker{}).Waited())
}

// TestInterleavedTimes checks that a worker's times leave out its waits:
// the other side's operations take 2ms each, and all of that is counted
// as waited by this side, and taken out of its run's seconds.
func TestInterleavedTimes(t *testing.T) {
	a, b := newTurns(2)
	var wg sync.WaitGroup
	wg.Add(2)
	start := time.Now()
	go func() {
		defer wg.Done()
		a.Wait()
		defer a.Finish()
		for range 6 {
			a.Done(1)
		}
	}()
	go func() {
		defer wg.Done()
		b.Wait()
		defer b.Finish()
		for range 6 {
			time.Sleep(2 * time.Millisecond)
			b.Done(1)
		}
	}()
	wg.Wait()
	finish := time.Now()
	// a waited for b's first two turns (4 ops); b's last turn came after
	// a finished.
	require.GreaterOrEqual(t, a.Waited(), 8*time.Millisecond)
	w := &benchmarks.Worker{Start: start, Finish: finish, Ops: 6, Turns: a}
	rr, _ := benchmarks.ByName("readrandom")
	res := mergeWorkers(&config.Config{}, rr, "pebble", []*benchmarks.Worker{w})
	require.InDelta(t, (finish.Sub(start) - a.Waited()).Seconds(), res.Seconds, 1e-9)
	require.InDelta(t, res.Seconds, res.ThreadSeconds, 1e-9)
	require.Less(t, res.Seconds, finish.Sub(start).Seconds())
}
