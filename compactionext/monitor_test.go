package compactionext

import (
	"context"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestMonitorCountsWrittenBytes checks the Monitor's byte counts, which the
// advisor's write budget is earned from, against Pebble's own metrics: a
// compaction that merges counts what it wrote, and a move, which Pebble
// lists with its table as output but which writes nothing, counts nothing.
func TestMonitorCountsWrittenBytes(t *testing.T) {
	opts := testOptions()
	m := newMonitor()
	m.Attach(opts)
	require.NoError(t, NoCompaction{}.Apply(opts))
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	w := newWriter(t, 3, db)
	ctx := context.Background()

	metrics := func() (flushed, compacted, moved uint64) {
		for _, l := range db.Metrics().Levels {
			flushed += l.TableBytesFlushed
			compacted += l.TableBytesCompacted
			moved += l.TableBytesMoved
		}
		return flushed, compacted, moved
	}
	// One table alone in the LSM: compacting it moves it down.
	w.seqFlush(0, 1000)
	require.NoError(t, db.Compact(ctx, keyOf(0), keyOf(1000), false))
	flushed, compacted, moved := metrics()
	require.NotZero(t, moved, "the lone table was moved, not rewritten")
	require.Equal(t, flushed, m.FlushedBytes())
	require.Equal(t, compacted, m.CompactedBytes())

	// Two overlapping flushes: compacting them rewrites both.
	w.randomFlush(500, 1000)
	w.randomFlush(500, 1000)
	require.NoError(t, db.Compact(ctx, keyOf(0), keyOf(1000), false))
	flushed, compacted, _ = metrics()
	require.NotZero(t, compacted)
	require.Equal(t, flushed, m.FlushedBytes())
	require.Equal(t, compacted, m.CompactedBytes())
}
