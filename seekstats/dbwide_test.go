// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIterTotalsConcurrent closes iterators (adds their stats) on many
// goroutines while another Pops: every seek added must be handed out exactly
// once, by a Pop or the final read, and a ticker nobody pops must be exact.
// Goroutines alive at once must spread over more than one shard. Then Resets
// race with adds and Pops: no Pop may hand out more than was added (a count
// read below its base would wrap around).
func TestIterTotalsConcurrent(t *testing.T) {
	w := NewDBWide(func() *pebble.Metrics { return nil })
	const workers, rounds = 8, 2000
	const seek, next = "pebblerf.dbwide.number.db.seek", "pebblerf.dbwide.number.db.next"

	// addAll adds workers*rounds iterators, each of 3 seeks and 1 step, and
	// returns the shard each goroutine's first add went to.
	addAll := func() []*iterShard {
		var adders, added sync.WaitGroup
		added.Add(workers)
		shards := make([]*iterShard, workers)
		for g := 0; g < workers; g++ {
			adders.Add(1)
			go func() {
				defer adders.Done()
				for r := 0; r < rounds; r++ {
					var st pebble.IteratorStats
					st.ForwardSeekCount[pebble.InterfaceCall] = 2
					st.ReverseSeekCount[pebble.InterfaceCall] = 1
					st.ForwardStepCount[pebble.InterfaceCall] = 1
					w.Iterators().Add(&st, 1)
					if r == 0 {
						shards[g] = w.Iterators().shardOf(&st)
					}
				}
				// Stay alive until every adder has added, so that no two
				// of them ran on the same stack.
				added.Done()
				added.Wait()
			}()
		}
		adders.Wait()
		return shards
	}
	// concurrently runs addAll while read runs in a loop on another
	// goroutine, and returns addAll's shards.
	concurrently := func(read func()) []*iterShard {
		stop := make(chan struct{})
		var reader sync.WaitGroup
		reader.Add(1)
		go func() {
			defer reader.Done()
			for {
				select {
				case <-stop:
					return
				default:
					read()
				}
			}
		}()
		shards := addAll()
		close(stop)
		reader.Wait()
		return shards
	}

	var popped uint64
	shards := concurrently(func() {
		n, ok := w.Pop(seek)
		assert.True(t, ok)
		popped += n
	})
	rest, _ := w.Get(seek)
	require.Equal(t, uint64(workers*rounds*3), popped+rest)
	steps, _ := w.Get(next)
	require.Equal(t, uint64(workers*rounds), steps)
	distinct := map[*iterShard]bool{}
	for _, s := range shards {
		distinct[s] = true
	}
	require.Greater(t, len(distinct), 1, "goroutines alive at once all added to one shard")

	w.Reset()
	var i int
	concurrently(func() {
		if i++; i%3 == 0 {
			w.Reset()
			return
		}
		n, _ := w.Pop(seek)
		assert.LessOrEqual(t, n, uint64(workers*rounds*3))
	})
	w.Reset()
	for _, c := range w.All() {
		require.Zero(t, c.Count, c.Name)
	}
}

// BenchmarkIterTotalsAdd closes iterators on every goroutine at once, as a
// server that opens an iterator per request does.
func BenchmarkIterTotalsAdd(b *testing.B) {
	var totals IterTotals
	b.RunParallel(func(pb *testing.PB) {
		var st pebble.IteratorStats
		st.ForwardSeekCount[pebble.InterfaceCall] = 1
		st.ForwardStepCount[pebble.InterfaceCall] = 1
		st.InternalStats.BlockBytes = 4096
		for pb.Next() {
			totals.Add(&st, 1)
		}
	})
}
