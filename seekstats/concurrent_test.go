// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConcurrentGetsAndSeeks checks that filter checks are told apart by
// purpose while Gets and prefix seeks run at once on many goroutines: every
// Get's check must land in the point tickers and every seek's in the seek
// tickers, exactly.
func TestConcurrentGetsAndSeeks(t *testing.T) {
	d := openTestDB(t, openConfig{bloomBits: 10})
	const keys = 50
	for i := 0; i < keys; i++ {
		require.NoError(t, d.db.Set(fmt.Appendf(nil, "key%03d", i), []byte("v"), nil))
	}
	require.NoError(t, d.db.Flush())
	d.stats.Reset()
	sharedKey := []byte("key007")

	const workers, rounds = 4, 200
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				// A fresh slice each time, as callers usually pass...
				_ = get(d.db, fmt.Sprintf("key%03d", i%keys))
				// ... and one slice shared by every goroutine.
				v, c, err := d.db.Get(sharedKey)
				require.NoError(t, err)
				require.Equal(t, "v", string(v))
				require.NoError(t, c.Close())
			}
		}()
		go func() {
			defer wg.Done()
			it, err := d.db.NewIter(nil)
			require.NoError(t, err)
			defer it.Close()
			for i := 0; i < rounds; i++ {
				if it.SeekPrefixGE(fmt.Appendf(nil, "key%03d", i%keys)) {
					_ = it.Value()
				}
			}
		}()
	}
	wg.Wait()
	sn := d.stats.Snapshot()
	// Every Get's check is counted as a Get's. Gets of the shared slice that
	// overlapped in time share a scope and credit no true positive.
	require.EqualValues(t, 2*workers*rounds, sn.Get("rocksdb.bloom.filter.full.positive"))
	tp := sn.Get("rocksdb.bloom.filter.full.true.positive")
	require.GreaterOrEqual(t, tp, uint64(workers*rounds))
	require.LessOrEqual(t, tp+sn.Get("pebblerf.get.shared.key"), uint64(2*workers*rounds))
	require.EqualValues(t, workers*rounds, sn.Get("pebblerf.l0.seek.filter.match"))
	require.EqualValues(t, workers*rounds, sn.Get("rocksdb.number.db.seek.found"))
	require.Zero(t, sn.Get("pebblerf.filter.check.unclassified"))
}
