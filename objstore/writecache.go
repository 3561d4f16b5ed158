// Copyright 2026 The pebblerf Authors. All rights reserved.

package objstore

import (
	"container/list"
	"context"
	"io"
	"sync"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
)

// The write cache keeps the objects a DB wrote most recently, whole, in
// memory, and serves reads of them without a request to the store.
//
// Pebble's block cache and secondary cache fill on reads only, so the
// first read of every block of a new table (a flush's or a compaction's
// output) is a GET, though this process wrote the bytes a moment before.
// Under writes those first reads are most of what reads still GET: a read
// that spans new L0 tables opens each one and reads its index and a data
// block, and a compaction of L0 reads tables flushed seconds earlier. The
// write cache tees each object's bytes as Pebble writes it and, once the
// store has accepted the object (its writer's Close returned nil), keeps
// them, oldest out first, within a byte budget; a read of a kept object,
// its open included (no HEAD), is served from memory, and a delete drops
// it. Objects larger than a quarter of the budget are not kept, so that one
// large compaction output does not empty it.
//
// It is not a general cache: an object is kept only if written through it,
// so after a restart it starts empty, and it never holds what was read.
// Pebble's maintainers found that adding every compaction output to the
// secondary cache does not pay in general (cockroachdb/pebble#2543); the
// write cache is a small budget for the newest tables, which are the ones
// reads and compactions meet before any other. Objects are immutable once
// written, so a kept copy never goes stale.
type writeCache struct {
	budget int64

	mu    sync.Mutex
	size  int64
	objs  map[string]*list.Element // of *cachedObject
	order list.List                // oldest at the front
}

type cachedObject struct {
	name string
	data []byte
}

func newWriteCache(budget int64) *writeCache {
	return &writeCache{budget: budget, objs: make(map[string]*list.Element)}
}

// maxObject is the largest object the cache keeps.
func (c *writeCache) maxObject() int64 { return c.budget / 4 }

// get returns a kept object's bytes, nil if it is not kept.
func (c *writeCache) get(name string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.objs[name]; ok {
		return e.Value.(*cachedObject).data
	}
	return nil
}

// put keeps data as name's bytes, dropping the oldest objects to fit.
func (c *writeCache) put(name string, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(name)
	// The budget counts the memory held, the buffer's capacity.
	for c.size+int64(cap(data)) > c.budget && c.order.Len() > 0 {
		c.dropLocked(c.order.Front().Value.(*cachedObject).name)
	}
	c.objs[name] = c.order.PushBack(&cachedObject{name: name, data: data})
	c.size += int64(cap(data))
}

// drop forgets name, if kept.
func (c *writeCache) drop(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(name)
}

func (c *writeCache) dropLocked(name string) {
	if e, ok := c.objs[name]; ok {
		c.size -= int64(cap(e.Value.(*cachedObject).data))
		c.order.Remove(e)
		delete(c.objs, name)
	}
}

// teeWriter writes an object to the store and, while it stays small enough
// to keep, into a buffer that Close hands to the cache.
type teeWriter struct {
	c     *writeCache
	name  string
	inner io.WriteCloser
	buf   []byte
	// spilled is set once the object outgrew maxObject.
	spilled bool
}

func (w *teeWriter) Write(p []byte) (int, error) {
	n, err := w.inner.Write(p)
	if !w.spilled {
		if int64(len(w.buf)+n) > w.c.maxObject() {
			w.buf, w.spilled = nil, true
		} else {
			w.buf = append(w.buf, p[:n]...)
		}
	}
	return n, err
}

// Close keeps the bytes only if the store accepted the object: a failed
// write must not be served as if it had landed.
func (w *teeWriter) Close() error {
	if err := w.inner.Close(); err != nil {
		return err
	}
	if !w.spilled {
		w.c.put(w.name, w.buf)
	}
	return nil
}

// cachedReader serves a kept object's reads from memory.
type cachedReader struct {
	m    *Meter
	data []byte
}

func (r *cachedReader) ReadAt(_ context.Context, p []byte, off int64) error {
	if off < 0 || off+int64(len(p)) > int64(len(r.data)) {
		return errors.Newf("objstore: read [%d, %d) past the end of a %d-byte object", off, off+int64(len(p)), len(r.data))
	}
	copy(p, r.data[off:])
	r.m.cachedReads.Add(1)
	r.m.cachedBytes.Add(int64(len(p)))
	return nil
}

func (r *cachedReader) Close() error { return nil }

var _ remote.ObjectReader = (*cachedReader)(nil)
