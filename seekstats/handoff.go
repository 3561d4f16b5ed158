// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"runtime"
	"strconv"
	"sync"
)

// handoff passes a new table's file number from Pebble's TableCreated event
// to the filter writer and the block-property collector of that table.
//
// Neither the filter writer nor the collector is told which file it writes.
// But Pebble fires TableCreated synchronously on the goroutine that then
// constructs the sstable writer, which constructs the filter writer and then
// the collectors on the same goroutine, before any other table can be started
// there. So the number is stored under the goroutine's id; the filter writer
// reads it and the collector, built last, takes it. Parsing the id costs
// about 1.7µs, three times per table written, which is nothing next to
// writing a table.
type handoff struct {
	mu      sync.Mutex
	pending map[int64]uint64
}

func newHandoff() *handoff {
	return &handoff{pending: make(map[int64]uint64)}
}

// put records num for the calling goroutine.
func (h *handoff) put(num uint64) {
	id := goroutineID()
	h.mu.Lock()
	h.pending[id] = num
	h.mu.Unlock()
}

// peek returns the calling goroutine's number, or 0 (no table has number 0)
// if there is none.
func (h *handoff) peek() uint64 {
	id := goroutineID()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pending[id]
}

// take is peek, and forgets the number.
func (h *handoff) take() uint64 {
	id := goroutineID()
	h.mu.Lock()
	defer h.mu.Unlock()
	num := h.pending[id]
	delete(h.pending, id)
	return num
}

// goroutineID parses the calling goroutine's id from the first line of its
// stack trace, "goroutine 123 [running]:". Go exports no cheaper way.
func goroutineID() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) < len(prefix) {
		return -1
	}
	b = b[len(prefix):]
	end := 0
	for end < len(b) && b[end] >= '0' && b[end] <= '9' {
		end++
	}
	id, err := strconv.ParseInt(string(b[:end]), 10, 64)
	if err != nil {
		return -1
	}
	return id
}
