// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"time"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
)

// turns is one side of two workers that take turns on the machine
// (-interleave): a worker runs every operations, hands the turn to the
// other and waits for it back, so that at any moment only one of them
// runs. A worker that finishes hands its last turn over and is never
// waited for again; the other runs the rest of its operations alone.
//
// Only the worker holding the turn touches its own fields; the hand-over
// on the channels orders one worker's turn before the other's, which also
// makes state the two share (the sparse fill's key set) safe to touch in
// turn.
type turns struct {
	every int64
	// left is the operations left in this turn.
	left int64
	// mine receives the turn; the other side's mine is theirs. Each holds
	// at most one token: only the worker holding the turn sends.
	mine, theirs chan struct{}
	other        *turns
	// finished is set, before its last hand-over, by a worker whose loop
	// has returned.
	finished bool
	// waited is the time the worker spent waiting for its turn after it
	// started, which is the other engine's and is taken out of its times.
	waited time.Duration
}

// NewTurns makes the two sides of a pair that take turns of every
// operations; the first side holds the first turn.
func NewTurns(every int64) [2]benchmarks.Turns {
	a, b := newTurns(every)
	return [2]benchmarks.Turns{a, b}
}

func newTurns(every int64) (*turns, *turns) {
	a := &turns{every: every, left: every, mine: make(chan struct{}, 1), theirs: make(chan struct{}, 1)}
	b := &turns{every: every, left: every, mine: a.theirs, theirs: a.mine, other: a}
	a.other = b
	a.mine <- struct{}{}
	return a, b
}

// Wait blocks until the worker holds the turn; called once, before the
// worker's clock starts.
func (t *turns) Wait() { <-t.mine }

// Done counts ops operations of the turn and, once the turn's are done,
// hands the turn over and waits for it back, unless the other worker has
// finished.
func (t *turns) Done(ops int64) {
	if t.left -= ops; t.left > 0 {
		return
	}
	t.left = t.every
	// The other side's finished is written before its last send on mine,
	// which this side received before it ran: reading it here is ordered
	// after the write.
	if t.other.finished {
		return
	}
	start := time.Now()
	t.theirs <- struct{}{}
	<-t.mine
	t.waited += time.Since(start)
}

// Finish marks the worker done and hands over its last turn.
func (t *turns) Finish() {
	t.finished = true
	select {
	case t.theirs <- struct{}{}:
	default:
	}
}

// Waited is the time the worker waited for its turns, 0 if it took none.
func (t *turns) Waited() time.Duration { return t.waited }
