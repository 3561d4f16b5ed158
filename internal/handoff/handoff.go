// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package handoff tells the filter writers and block-property collectors of
// a table being written which table it is and which level it is for.
//
// Pebble tells neither a FilterPolicy's writer nor a block-property
// collector which file it writes or for which level. But Pebble v2 fires
// TableCreated synchronously on the goroutine that then constructs the
// sstable writer, and the writer constructs its filter writer and then its
// collectors on the same goroutine, before any other table is started there.
// TableCreated names the file and the job; the job's level was named just
// before, on FlushBegin (a flush writes L0) or CompactionBegin (its output
// level). So a Handoff keeps each running job's level, and at TableCreated
// stores the table's number and level under the goroutine's id, where the
// writer's parts pick them up.
//
// Parsing the goroutine id (from runtime.Stack) costs far more than a map
// lookup, but it is done a few times per table written, which is nothing
// next to writing a table. Tables written by anyone else (an
// ingested file, a user's sstable.Writer) find nothing: their Table is
// Unknown.
package handoff

import (
	"runtime"
	"strconv"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// Table is what a table's writer learns about the table it writes.
type Table struct {
	// Num is the table's file number; 0 (no table has number 0) if unknown.
	Num uint64
	// Level is the level the table is written for (0 to 6), or -1 if
	// unknown.
	Level int
}

// Unknown is the Table of a writer no flush or compaction announced.
var Unknown = Table{Level: -1}

// Handoff passes tables from Pebble's events to their writers. Safe for
// concurrent use; one Handoff serves one DB.
type Handoff struct {
	mu      sync.Mutex
	pending map[int64]Table
	// jobs are the output levels of the running flushes and compactions.
	jobs map[int]int
}

// New returns an empty handoff; its Listener must be added to the DB's
// options before Open.
func New() *Handoff {
	return &Handoff{pending: make(map[int64]Table), jobs: make(map[int]int)}
}

// Listener returns the events the handoff needs. Ingested tables were written
// before their event, by someone else, so nothing of ours would pick their
// number up: they are not recorded.
func (h *Handoff) Listener() pebble.EventListener {
	return pebble.EventListener{
		FlushBegin: func(info pebble.FlushInfo) {
			if !info.Ingest {
				h.setJob(info.JobID, 0)
			}
		},
		FlushEnd: func(info pebble.FlushInfo) { h.endJob(info.JobID) },
		CompactionBegin: func(info pebble.CompactionInfo) {
			h.setJob(info.JobID, info.Output.Level)
		},
		CompactionEnd: func(info pebble.CompactionInfo) { h.endJob(info.JobID) },
		TableCreated: func(info pebble.TableCreateInfo) {
			if info.Reason != "ingesting" {
				h.put(info.JobID, uint64(info.FileNum))
			}
		},
	}
}

func (h *Handoff) setJob(job, level int) {
	h.mu.Lock()
	h.jobs[job] = level
	h.mu.Unlock()
}

func (h *Handoff) endJob(job int) {
	h.mu.Lock()
	delete(h.jobs, job)
	h.mu.Unlock()
}

// put records table num of job for the calling goroutine.
func (h *Handoff) put(job int, num uint64) {
	id := goroutineID()
	h.mu.Lock()
	level, ok := h.jobs[job]
	if !ok {
		level = -1
	}
	h.pending[id] = Table{Num: num, Level: level}
	h.mu.Unlock()
}

// Put records t for the calling goroutine, as TableCreated does; for tests
// and for callers that learn of tables in other ways.
func (h *Handoff) Put(t Table) {
	id := goroutineID()
	h.mu.Lock()
	h.pending[id] = t
	h.mu.Unlock()
}

// Peek returns the calling goroutine's table, or Unknown.
func (h *Handoff) Peek() Table {
	id := goroutineID()
	h.mu.Lock()
	defer h.mu.Unlock()
	if t, ok := h.pending[id]; ok {
		return t
	}
	return Unknown
}

// Take is Peek, and forgets the table: the part of the writer built last
// takes it, so that the goroutine's entry does not outlive the table.
func (h *Handoff) Take() Table {
	id := goroutineID()
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.pending[id]
	if !ok {
		return Unknown
	}
	delete(h.pending, id)
	return t
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
