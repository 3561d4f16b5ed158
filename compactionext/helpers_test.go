// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// fakeClock is a Clock that moves only when the test advances it.
type fakeClock struct {
	mu      sync.Mutex
	cond    sync.Cond // signalled on each After
	now     time.Time
	waiters []fakeWaiter
	afters  int // calls of After so far
}

type fakeWaiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	c := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c.cond.L = &c.mu
	return c
}

// awaitAfters waits until After has been called n times in all, so that a
// test advances the clock only once a timer it means to fire exists.
func (c *fakeClock) awaitAfters(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.afters < n {
		c.cond.Wait()
	}
}

func (c *fakeClock) afterCalls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.afters
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.waiters = append(c.waiters, fakeWaiter{at: c.now.Add(d), ch: ch})
	c.afters++
	c.cond.Broadcast()
	return ch
}

// Advance moves the clock and fires the timers that are due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
}

// testOptions are small options on an in-memory FS.
func testOptions() *pebble.Options {
	return &pebble.Options{
		FS:           vfs.NewMem(),
		MemTableSize: 1 << 20,
		Logger:       quietLogger{},
	}
}

// quietLogger drops Pebble's informational lines and fails loudly on fatal.
type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

// keyOf is a fixed-width key, so that key order is numeric order.
func keyOf(i int) []byte { return []byte(fmt.Sprintf("key%012d", i)) }

// writer applies the same writes to any number of DBs, so that a DB under
// test can be compared with a reference fed identical operations.
type writer struct {
	t   testing.TB
	rng *rand.Rand
	dbs []*pebble.DB
	val []byte
}

func newWriter(t testing.TB, seed uint64, dbs ...*pebble.DB) *writer {
	return &writer{t: t, rng: rand.New(rand.NewPCG(seed, seed)), dbs: dbs}
}

// randomFlush writes n random keys from [0, space), deleting about one in
// ten, and flushes: on a DB with automatic compactions off, each such flush
// overlaps the previous ones and adds an L0 sublevel.
func (w *writer) randomFlush(n, space int) {
	for i := 0; i < n; i++ {
		k := keyOf(w.rng.IntN(space))
		del := w.rng.IntN(10) == 0
		w.val = fmt.Appendf(w.val[:0], "value-%d-%d", w.rng.Uint64(), i)
		for _, db := range w.dbs {
			if del {
				require.NoError(w.t, db.Delete(k, pebble.NoSync))
			} else {
				require.NoError(w.t, db.Set(k, w.val, pebble.NoSync))
			}
		}
	}
	w.flush()
}

// seqFlush writes keys [from, from+n) and flushes.
func (w *writer) seqFlush(from, n int) {
	for i := from; i < from+n; i++ {
		w.val = fmt.Appendf(w.val[:0], "value-%d", i)
		for _, db := range w.dbs {
			require.NoError(w.t, db.Set(keyOf(i), w.val, pebble.NoSync))
		}
	}
	w.flush()
}

func (w *writer) flush() {
	for _, db := range w.dbs {
		require.NoError(w.t, db.Flush())
	}
}

// requireSameContents scans both DBs and requires identical key-value pairs.
func requireSameContents(t *testing.T, got, want *pebble.DB) {
	t.Helper()
	scan := func(db *pebble.DB) []string {
		it, err := db.NewIter(nil)
		require.NoError(t, err)
		defer func() { require.NoError(t, it.Close()) }()
		var kvs []string
		for it.First(); it.Valid(); it.Next() {
			kvs = append(kvs, string(it.Key())+"="+string(it.Value()))
		}
		require.NoError(t, it.Error())
		return kvs
	}
	g, w := scan(got), scan(want)
	require.NotEmpty(t, w)
	require.Equal(t, w, g)
}
