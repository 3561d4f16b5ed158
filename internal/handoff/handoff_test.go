// Copyright 2026 The pebblerf Authors. All rights reserved.

package handoff

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

func TestGoroutineID(t *testing.T) {
	id := goroutineID()
	require.Positive(t, id)
	require.Equal(t, id, goroutineID())
	var other int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); other = goroutineID() }()
	wg.Wait()
	require.Positive(t, other)
	require.NotEqual(t, id, other)

	// Hand-offs on different goroutines do not mix.
	h := New()
	h.Put(Table{Num: 1, Level: 3})
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.Put(Table{Num: 2})
		require.EqualValues(t, 2, h.Take().Num)
	}()
	wg.Wait()
	require.Equal(t, Table{Num: 1, Level: 3}, h.Peek())
	require.Equal(t, Table{Num: 1, Level: 3}, h.Take())
	require.Equal(t, Unknown, h.Take())
}

// TestLevels opens a DB whose collectors record what the handoff tells them,
// and checks it against the DB's own view: every flushed table learns L0,
// every compaction output its output level, each its own file number.
func TestLevels(t *testing.T) {
	h := New()
	var mu sync.Mutex
	seen := make(map[uint64]int) // file number -> level learned
	var unknown int
	opts := &pebble.Options{FS: vfs.NewMem(), L0CompactionThreshold: 2, Logger: quiet{}}
	opts.AddEventListener(h.Listener())
	opts.BlockPropertyCollectors = []func() pebble.BlockPropertyCollector{func() pebble.BlockPropertyCollector {
		tbl := h.Take()
		mu.Lock()
		defer mu.Unlock()
		if tbl == Unknown {
			unknown++
		} else {
			seen[tbl.Num] = tbl.Level
		}
		return nopCollector{}
	}}
	opts.EnsureDefaults()
	opts.TargetFileSizes[0] = 4 << 10
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	for round := 0; round < 6; round++ {
		for i := 0; i < 500; i++ {
			require.NoError(t, db.Set([]byte(fmt.Sprintf("k%05d", (i*37+round*11)%3000)), make([]byte, 50), pebble.NoSync))
		}
		require.NoError(t, db.Flush())
	}
	require.NoError(t, db.Compact(context.Background(), []byte("k"), []byte("l"), true))
	tables, err := db.SSTables()
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Zero(t, unknown, "every table written by a flush or compaction was announced")
	below := 0
	for level, ts := range tables {
		for _, tbl := range ts {
			learned, ok := seen[uint64(tbl.FileNum)]
			require.True(t, ok, "table %s", tbl.FileNum)
			// A move compaction hands a table down unchanged: it learned the
			// level it was written for, at or above where it is now.
			require.LessOrEqual(t, learned, level, "table %s", tbl.FileNum)
			if learned > 0 {
				below++
			}
		}
	}
	require.Positive(t, below, "some tables were written by compactions below L0")
	require.Empty(t, h.jobs, "finished jobs are forgotten")
	require.NoError(t, db.Close())
}

type nopCollector struct{}

func (nopCollector) Name() string                                                   { return "handoff.test" }
func (nopCollector) AddPointKey(pebble.InternalKey, []byte) error                   { return nil }
func (nopCollector) AddRangeKeys(sstable.Span) error                                { return nil }
func (nopCollector) FinishDataBlock(buf []byte) ([]byte, error)                     { return buf, nil }
func (nopCollector) AddPrevDataBlockToIndexBlock()                                  {}
func (nopCollector) FinishIndexBlock(buf []byte) ([]byte, error)                    { return buf, nil }
func (nopCollector) FinishTable(buf []byte) ([]byte, error)                         { return buf, nil }
func (nopCollector) AddCollectedWithSuffixReplacement([]byte, []byte, []byte) error { return nil }
func (nopCollector) SupportsSuffixReplacement() bool                                { return false }

type quiet struct{}

func (quiet) Infof(string, ...interface{})  {}
func (quiet) Errorf(string, ...interface{}) {}
func (quiet) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}
