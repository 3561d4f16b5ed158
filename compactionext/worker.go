// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"sync"
	"time"
)

// worker is the loop both background drivers share: wake on an LSM change or
// a poll tick, skip while writes are stalled, keep a minimum interval between
// two actions, and stop promptly.
type worker struct {
	clock       clock
	monitor     *monitor
	wake        <-chan struct{}
	poll        time.Duration
	minInterval time.Duration
	// step looks at the DB and maybe acts; it reports whether it acted
	// (an action starts the minimum interval).
	step func(ctx context.Context) bool
	// stepped, if set, is told after each wake-up whether the loop acted
	// (false also when it skipped); tests use it to know the loop is idle.
	stepped func(acted bool)

	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// start runs the loop in a goroutine.
func (w *worker) start() {
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	w.done = make(chan struct{})
	go w.loop(ctx)
}

func (w *worker) loop(ctx context.Context) {
	defer close(w.done)
	var last time.Time
	for {
		wait := w.poll
		if !last.IsZero() {
			// Look again as soon as the rate limit allows an action, in
			// case one was held back by it.
			if left := w.minInterval - w.clock.Now().Sub(last); left > 0 && left < wait {
				wait = left
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-w.clock.After(wait):
		}
		if ctx.Err() != nil {
			return
		}
		acted := w.tryStep(ctx, last)
		if acted {
			last = w.clock.Now()
			// Drop the wake-up our own compaction caused (Pebble fires
			// its events before Compact returns). A flush that ended
			// meanwhile loses its wake-up too; the poll covers it.
			select {
			case <-w.wake:
			default:
			}
		}
		if w.stepped != nil {
			w.stepped(acted)
		}
	}
}

// tryStep runs step unless writes are stalled or the last action was less
// than minInterval ago.
func (w *worker) tryStep(ctx context.Context, last time.Time) bool {
	if w.monitor.Stalled() {
		return false
	}
	if !last.IsZero() && w.clock.Now().Sub(last) < w.minInterval {
		return false
	}
	return w.step(ctx)
}

// stop cancels the loop (and a compaction it has queued but Pebble has not
// started) and waits for it to return. It is idempotent.
func (w *worker) stop() {
	w.stopOnce.Do(func() {
		w.cancel()
		<-w.done
	})
}
