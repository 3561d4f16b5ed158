// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"log"
	"sync"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/lsm"
)

// failAfter is how many failed flushes and compactions in a row, with none
// done between them, mean that the DB's store keeps failing.
// Pebble retries a failed flush or compaction at once, so a store that is
// down fails a few hundred of them a second, while one that fails now and
// then lets one through within a few.
const failAfter = 64

// health watches an open DB's flushes and compactions for a store that
// keeps failing. Pebble retries them for as long as the DB is open, and a
// write waits for room in the memtables, which only a flush makes: on a
// store that is down, a run, a flush or a settle would wait forever, and
// the DB cannot be closed. A run that sees the DB fail ends with the
// store's error instead; the DB is left open, and pebblebench exits. Only
// flushes and compactions count: Pebble's other background work (loading
// table stats, say) also fails on such a store, but nothing waits on it,
// and a read that meets the store's error is the run's error.
type health struct {
	name string
	mu   sync.Mutex
	// streak counts the failed flushes and compactions since the last one
	// that succeeded.
	streak int
	err    error
	// failed is closed once streak reaches failAfter; err is the error
	// that did it.
	failed chan struct{}
}

func newHealth(name string) *health { return &health{name: name, failed: make(chan struct{})} }

// attach adds the health's listeners to o's event listener, keeping the
// ones o has. Its first error of a streak is logged, as Pebble logs every
// one of them by default; the rest, the same retries, are not.
func (h *health) attach(o *upstream.Options) {
	own := upstream.EventListener{
		FlushEnd: func(info upstream.FlushInfo) {
			if emptyFlush(info.Err) {
				// The flush worked; it had nothing to write.
				h.ended(nil)
				return
			}
			h.ended(info.Err)
		},
		CompactionEnd: func(info upstream.CompactionInfo) {
			if !errors.Is(info.Err, upstream.ErrCancelledCompaction) {
				h.ended(info.Err)
			}
		},
	}
	lsm.AddListener(o, own)
}

// emptyFlush reports whether err is the error Pebble gives a flush that
// succeeded but wrote no table (its memtables held only keys that a range
// deletion in them removed, say). Pebble does not export that error, so it
// is known by its message, as Pebble's own metamorphic test knows it.
func emptyFlush(err error) bool {
	return err != nil && err.Error() == "pebble: empty table"
}

// ended counts a flush or compaction that ended with err.
func (h *health) ended(err error) {
	if err == nil {
		h.succeeded()
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streak++
	switch h.streak {
	case 1:
		log.Printf("pebble: flush or compaction failed on %s (retried): %s", h.name, err)
	case failAfter:
		h.err = errors.Wrapf(err, "the %s engine's store keeps failing (%d flushes or compactions in a row)", h.name, failAfter)
		close(h.failed)
	}
}

func (h *health) succeeded() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err == nil {
		h.streak = 0
	}
}

// failure is the error that failed the DB, nil while it has not.
func (h *health) failure() error {
	select {
	case <-h.failed:
		return h.err
	default:
		return nil
	}
}

// wait calls f, and returns its error, or the DB's failure if the DB fails
// first: f is then left to itself, as whatever it waits for never comes.
func (h *health) wait(f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-h.failed:
		return h.err
	}
}
