// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// monitor turns a DB's events into the two signals the background drivers
// need: whether writes are stalled right now (a driver never adds compaction
// work while they are), and a wake-up when the LSM changed (a flush,
// compaction or ingest ended), so that a driver looks at the shape right after
// it changed instead of polling often.
//
// Attach it to the Options before the DB is opened. Pebble calls listeners
// synchronously and forbids calling back into the DB from them, so monitor
// only records and signals.
type monitor struct {
	mu      sync.Mutex
	stalled bool
	// subscribers, each a channel of capacity 1 holding a pending wake-up.
	subscribers []chan struct{}
	flushes     atomic.Int64
	// flushing counts the flushes under way.
	flushing atomic.Int64
	// flushedBytes and compactedBytes sum the sizes of the tables flushes
	// and compactions wrote.
	flushedBytes, compactedBytes atomic.Uint64
}

// newMonitor returns a monitor that is not yet attached.
func newMonitor() *monitor {
	return &monitor{}
}

// Attach adds the monitor's callbacks to opts.EventListener, keeping the
// callbacks already there.
func (m *monitor) Attach(opts *pebble.Options) {
	own := pebble.EventListener{
		WriteStallBegin: func(pebble.WriteStallBeginInfo) { m.setStalled(true) },
		WriteStallEnd:   func() { m.setStalled(false) },
		FlushBegin:      func(pebble.FlushInfo) { m.flushing.Add(1) },
		FlushEnd: func(info pebble.FlushInfo) {
			m.flushing.Add(-1)
			m.flushes.Add(1)
			// An ingest "flush" writes nothing; its tables were
			// written elsewhere.
			if info.Err == nil && !info.Ingest {
				for _, t := range info.Output {
					m.flushedBytes.Add(t.Size)
				}
			}
			m.notify()
		},
		CompactionEnd: func(info pebble.CompactionInfo) {
			// A move relinks its table one level down and writes
			// nothing, although Pebble lists the table as output.
			if info.Err == nil && info.Reason != "move" {
				for _, t := range info.Output.Tables {
					m.compactedBytes.Add(t.Size)
				}
			}
			m.notify()
		},
		TableIngested: func(pebble.TableIngestInfo) { m.notify() },
	}
	if opts.EventListener == nil {
		opts.EventListener = &own
		return
	}
	tee := pebble.TeeEventListener(*opts.EventListener, own)
	opts.EventListener = &tee
}

func (m *monitor) setStalled(v bool) {
	m.mu.Lock()
	m.stalled = v
	m.mu.Unlock()
	if !v {
		m.notify()
	}
}

func (m *monitor) notify() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ch := range m.subscribers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Stalled reports whether Pebble is delaying writes right now.
func (m *monitor) Stalled() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stalled
}

// Subscribe returns a channel that receives after the LSM changed or a write
// stall ended. Wake-ups coalesce: many events before a receive give one.
func (m *monitor) Subscribe() <-chan struct{} {
	ch := make(chan struct{}, 1)
	m.mu.Lock()
	m.subscribers = append(m.subscribers, ch)
	m.mu.Unlock()
	return ch
}

// Flushes counts the flushes that have ended since the DB was opened.
func (m *monitor) Flushes() int64 { return m.flushes.Load() }

// Flushing reports whether a flush is under way.
func (m *monitor) Flushing() bool { return m.flushing.Load() > 0 }

// FlushedBytes is the size of the tables flushes have written since the DB
// was opened.
func (m *monitor) FlushedBytes() uint64 { return m.flushedBytes.Load() }

// CompactedBytes is the size of the tables compactions have written since
// the DB was opened; moves, which write nothing, are not counted.
func (m *monitor) CompactedBytes() uint64 { return m.compactedBytes.Load() }
