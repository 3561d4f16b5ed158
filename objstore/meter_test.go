package objstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/internal/readctx"
	"github.com/stretchr/testify/require"
)

// writeTable writes an sstable of n keys into store s under name, with
// small blocks (many data blocks, a two-level index) and a Bloom filter.
func writeTable(t *testing.T, s remote.Storage, name string, n int, format sstable.TableFormat) {
	t.Helper()
	w, err := s.CreateObject(name)
	require.NoError(t, err)
	tw := sstable.NewWriter(objstorageprovider.NewRemoteWritable(w), sstable.WriterOptions{
		TableFormat:    format,
		BlockSize:      512,
		IndexBlockSize: 512,
		FilterPolicy:   bloom.FilterPolicy(10),
	})
	for i := range n {
		require.NoError(t, tw.Set(fmt.Appendf(nil, "k%06d", i), fmt.Appendf(nil, "value-%d-%s", i, strings.Repeat("x", i%50))))
	}
	require.NoError(t, tw.Close())
}

// readLayout reads a table's layout through Pebble's reader, independently
// of the meter.
func readLayout(t *testing.T, s remote.Storage, name string) (*sstable.Layout, int64) {
	t.Helper()
	r, size, err := s.ReadObject(context.Background(), name)
	require.NoError(t, err)
	reader, err := sstable.NewReader(context.Background(), objstorageprovider.NewRemoteReadable(r, size), sstable.ReaderOptions{})
	require.NoError(t, err)
	defer reader.Close()
	l, err := reader.Layout()
	require.NoError(t, err)
	return l, size
}

// stillOptions are testOptions for a DB that makes no request of its own
// between the test's: no automatic compactions, and no table stats (which
// load a new table's properties in the background, a GET that would land
// in the middle of the reads a test measures).
func stillOptions(fs vfs.FS) *pebble.Options {
	o := testOptions(fs)
	o.DisableAutomaticCompactions = true
	o.DisableTableStats = true
	return o
}

func end(h block.Handle) int64 { return int64(h.Offset + h.Length + block.TrailerLen) }

// TestClassify issues the reads Pebble makes of a remote table through a
// meter and checks the kind of each against the table's real layout.
func TestClassify(t *testing.T) {
	for _, format := range []sstable.TableFormat{sstable.TableFormatPebblev4, sstable.TableFormatPebblev5} {
		t.Run(format.String(), func(t *testing.T) {
			inner := NewMem()
			writeTable(t, inner, "000001.sst", 3000, format)
			l, size := readLayout(t, inner, "000001.sst")
			require.Greater(t, len(l.Data), 20)
			require.NotZero(t, l.TopIndex.Length, "a two-level index")
			require.Len(t, l.Filter, 1)
			filter := l.Filter[0].Handle
			dataEnd := end(l.Data[len(l.Data)-1].Handle)
			topEnd := end(l.TopIndex)

			m := NewMeter(inner, DefaultPrices)
			var kinds []kind
			m.trace = func(_ string, _, _ int64, _ bool, k kind) { kinds = append(kinds, k) }
			r, _, err := m.readObject(context.Background(), "000001.sst")
			require.NoError(t, err)
			d := l.Data[len(l.Data)/2].Handle
			cases := []struct {
				name     string
				off, end int64
				want     kind
			}{
				// Rule 1: the table open's footer read with 32 KiB read-before.
				{"open", max(0, size-32<<10), size, kindOpen},
				// Rule 2: the top-level index with 512 KiB read-before.
				{"index-read-before", max(0, topEnd-512<<10), topEnd, kindIndex},
				{"lower-index", int64(l.Index[1].Offset), end(l.Index[1]), kindIndex},
				{"filter", int64(filter.Offset), end(filter), kindFilter},
				{"properties", int64(l.Properties.Offset), end(l.Properties), kindOpen},
				// Rule 3: data blocks, exact or with read-ahead.
				{"data", int64(d.Offset), end(d), kindData},
				{"data-read-ahead", int64(d.Offset), int64(d.Offset) + 1000, kindData},
				{"data-read-ahead-to-the-end", int64(d.Offset), size, kindData},
				{"compaction", 0, size, kindData},
				{"first-data-block", 0, end(l.Data[0].Handle), kindData},
			}
			var want []kind
			before := m.Snapshot()
			for _, c := range cases {
				require.NoError(t, r.ReadAt(context.Background(), make([]byte, c.end-c.off), c.off), c.name)
				want = append(want, c.want)
			}
			require.Equal(t, want, kinds)
			delta := m.Snapshot().Sub(before)
			for i, c := range cases {
				require.Equal(t, c.want, kinds[i], c.name)
			}
			// Bytes are split by block: the whole-table read alone brings
			// every data byte once, and the sum is what was read.
			var total int64
			for _, c := range cases {
				total += c.end - c.off
			}
			require.Equal(t, total, delta.Gets().Bytes)
			require.GreaterOrEqual(t, delta.Data.Bytes, dataEnd)
			require.Equal(t, int64(len(cases)), delta.Gets().Requests)
			require.Zero(t, delta.Other.Requests)
			require.NotZero(t, m.Snapshot().LayoutReads, "the meter learned the layout")
		})
	}
}

// TestMeterGetAfterReopen: after a flush and a reopen, a Get of a present
// key opens the table, reads its index (the filter comes with the index's
// read-before) and one data block, each where the table's layout puts it;
// a Get of an absent key that the filter rules out reads no data block.
func TestMeterGetAfterReopen(t *testing.T) {
	m := NewMeter(NewMem(), DefaultPrices)
	fs := vfs.NewMem()
	opts := func() *pebble.Options {
		o := stillOptions(fs)
		o.MemTableSize = 4 << 20
		return o
	}
	d := openRemote(t, "db", opts(), m, AllLevels)
	for i := range 2000 {
		require.NoError(t, d.Set(key(i*2), fmt.Appendf(nil, "value-%d", i), nil))
	}
	require.NoError(t, d.Flush())
	require.NoError(t, d.Close())

	type get struct {
		off, end int64
		kind     kind
	}
	var gets []get
	m.trace = func(_ string, off, end int64, _ bool, k kind) { gets = append(gets, get{off, end, k}) }
	d = openRemote(t, "db", opts(), m, AllLevels)
	defer d.Close()
	levels, err := d.SSTables()
	require.NoError(t, err)
	require.Len(t, levels[0], 1, "one flushed table in L0")
	before := m.Snapshot()
	gets = nil
	v, closer, err := d.Get(key(1000))
	require.NoError(t, err)
	require.Equal(t, "value-500", string(v))
	require.NoError(t, closer.Close())
	delta := m.Snapshot().Sub(before)
	require.Equal(t, int64(1), delta.Open.Requests, "%s", delta)
	require.Equal(t, int64(1), delta.Index.Requests+delta.Filter.Requests, "%s", delta)
	require.Equal(t, int64(1), delta.Data.Requests, "%s", delta)
	require.NotZero(t, delta.Filter.Bytes, "the filter came with the index read")

	// Check each GET against the layout, read independently.
	objs, err := m.inner.List("", "")
	require.NoError(t, err)
	var table string
	for _, o := range objs {
		if strings.HasSuffix(o, ".sst") {
			table = o
		}
	}
	l, size := readLayout(t, m.inner, table)
	dataEnd := end(l.Data[len(l.Data)-1].Handle)
	indexEnd := end(l.TopIndex)
	if l.TopIndex.Length == 0 {
		indexEnd = end(l.Index[0])
	}
	for _, g := range gets {
		switch g.kind {
		case kindOpen:
			require.Equal(t, size, g.end, "the open reads up to the footer")
		case kindIndex:
			require.Equal(t, indexEnd, g.end, "the index read ends at the top-level index")
		case kindData:
			require.LessOrEqual(t, g.end, dataEnd, "a data read lies among the data blocks")
		default:
			t.Fatalf("unexpected %s GET [%d, %d)", g.kind, g.off, g.end)
		}
	}

	// An absent key in the table's range: the filter (cached now) rules it
	// out, and no data block is fetched.
	before = m.Snapshot()
	_, _, err = d.Get(key(1001))
	require.ErrorIs(t, err, pebble.ErrNotFound)
	delta = m.Snapshot().Sub(before)
	require.Zero(t, delta.Data.Requests, "%s", delta)
}

func TestSnapshot(t *testing.T) {
	m := openURL(t, "mem://?price_get=1&price_put=10&price_list=100&price_delete=1000")
	put(t, meterStorage{m}, "a.sst", []byte("not really a table"))
	put(t, meterStorage{m}, "b", []byte("bb"))
	r, _, err := m.readObject(context.Background(), "b")
	require.NoError(t, err)
	require.NoError(t, r.ReadAt(context.Background(), make([]byte, 2), 0))
	ra, _, err := m.readObject(context.Background(), "a.sst")
	require.NoError(t, err)
	require.NoError(t, ra.ReadAt(context.Background(), make([]byte, 4), 0))
	_, err = m.size("b")
	require.NoError(t, err)
	_, err = m.list("", "")
	require.NoError(t, err)
	require.NoError(t, m.delete("b"))
	s := m.Snapshot()
	require.Equal(t, Counts{Requests: 2, Bytes: 6}, Counts{Requests: s.Other.Requests, Bytes: s.Other.Bytes},
		"a GET of a non-table and of a table whose layout cannot be read are both other")
	require.EqualValues(t, 1, s.LayoutErrors)
	require.EqualValues(t, 3, s.Stat.Requests)
	require.EqualValues(t, 2, s.Write.Requests)
	require.EqualValues(t, 20, s.Write.Bytes)
	require.EqualValues(t, 1, s.List.Requests)
	require.EqualValues(t, 1, s.Delete.Requests)
	require.InDelta(t, (5*1+2*10+1*100+1*1000)/1000.0, s.Cost(), 1e-12)
	out := s.String()
	for _, want := range []string{"other", "stat", "write", "list", "delete", "GETs", "cost USD 1.125000", "unknown layout"} {
		require.Contains(t, out, want)
	}
	require.NotContains(t, out, "filter", "kinds without requests are left out")
	zero := s.Sub(s)
	require.Equal(t, Counts{}, zero.Total())
	require.Zero(t, zero.Cost())

	_, err = m.size("missing")
	require.Error(t, err)
	require.EqualValues(t, 1, m.Snapshot().Sub(s).Stat.Errors)
}

// TestSimLatency: a simulated request sleeps its latency, so the meter's
// wait (and anything waiting on the request) includes it.
func TestSimLatency(t *testing.T) {
	dir := t.TempDir()
	lat := filepath.Join(dir, "latencies")
	require.NoError(t, os.WriteFile(lat, []byte("# measured\n4ms\n6\n"), 0o644))
	for _, c := range []struct {
		url string
		min time.Duration
	}{
		{"sim://?latency=3ms&jitter=2ms", 3 * time.Millisecond},
		{"sim://?latency_file=" + lat, 4 * time.Millisecond},
		{"sim://?bandwidth=1MiB", 10 * time.Millisecond}, // 10 KiB at 1 MiB/s
	} {
		m := openURL(t, c.url)
		put(t, meterStorage{m}, "o", randBytes(5, 10<<10))
		r, _, err := m.readObject(context.Background(), "o")
		require.NoError(t, err)
		before := m.Snapshot()
		start := time.Now()
		for range 3 {
			require.NoError(t, r.ReadAt(context.Background(), make([]byte, 10<<10), 0))
		}
		took := time.Since(start)
		wait := m.Snapshot().Sub(before).Other.Wait
		require.GreaterOrEqual(t, took, 3*c.min, c.url)
		require.GreaterOrEqual(t, wait, 3*c.min, c.url)
	}
	// A request's context ends a simulated wait.
	m := openURL(t, "sim://?latency=1h")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	_, _, err := m.readObject(ctx, "o")
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ url, want string }{
		{"", "no scheme"},
		{"ftp://x", `unknown scheme "ftp"`},
		{"mem://host", "takes no host or path"},
		{"mem://?latency=2ms", `unknown parameter "latency"`},
		{"file://relative/dir", "not a host"},
		{"file://", "needs an absolute directory"},
		{"sim://?latency=fast", "latency"},
		{"sim://?get_error=2", "get_error"},
		{"sim://?get_error=0.6&get_truncate=0.6", "exceed 1"},
		{"sim://?seed=-1", "seed"},
		{"sim://?latency=1ms&latency=2ms", "given 2 times"},
		{"sim://?latency_file=/does/not/exist", "latency_file"},
		{"sim://?latency_file=" + dir + "&latency=1ms", "not both"},
		{"sim+file://?latency=1ms", "absolute directory"},
		{"s3://", "needs a bucket"},
		{"s3://b/p?timeout=soon", "timeout"},
		{"s3://b/p?retries=0", "retries"},
		{"s3://b/p?part_size=1MiB", "part_size"},
		{"s3://b/p?lookup=sideways", "lookup"},
		{"s3://b/p?colour=blue", `unknown parameter "colour"`},
		{"s3://key:secret@b/p", "carries credentials"},
		{"mem://?price_get=-1", "price_get"},
	} {
		_, err := Open(c.url)
		require.Error(t, err, c.url)
		require.Contains(t, err.Error(), c.want, c.url)
		require.NotContains(t, err.Error(), "secret", "an error must not echo credentials")
		require.EqualError(t, CheckURL(c.url), err.Error(), "CheckURL refuses what Open refuses, in the same words")
	}
	// A bad parameter builds nothing.
	fresh := filepath.Join(dir, "fresh")
	_, err := Open("file://" + fresh + "?bogus=1")
	require.ErrorContains(t, err, `unknown parameter "bogus"`)
	require.NoDirExists(t, fresh)
	// CheckURL builds nothing even for a good URL: no directory, no dial.
	require.NoError(t, CheckURL("file://"+fresh))
	require.NoDirExists(t, fresh)
	require.NoError(t, CheckURL("s3://b/p?endpoint=127.0.0.1:1&secure=false"))

	m, err := Open("sim+file://" + dir + "?latency=0&seed=9&price_put=0.01")
	require.NoError(t, err)
	require.Equal(t, uint64(9), m.inner.(*sim).config().Seed)
	require.Equal(t, 0.01, m.Snapshot().Prices.PutPer1000)
	require.Equal(t, DefaultPrices.GetPer1000, m.Snapshot().Prices.GetPer1000)
}

// TestMeterCountsAReadsOwnGets: a compaction's GETs, made under Pebble's
// own context, do not count in a readctx.Counter, and the GETs of an
// iterator made with the Counter in its context (its table open and block
// reads, on a cold cache) all do.
func TestMeterCountsAReadsOwnGets(t *testing.T) {
	m := NewMeter(NewMem(), DefaultPrices)
	fs := vfs.NewMem()
	d := openRemote(t, "db", stillOptions(fs), m, AllLevels)
	for round := range 2 {
		for i := range 2000 {
			require.NoError(t, d.Set(key(i), fmt.Appendf(nil, "value-%d-%d", round, i), nil))
		}
		require.NoError(t, d.Flush())
	}
	var reads readctx.Counter
	ctx := readctx.With(context.Background(), &reads)
	before := m.Snapshot()
	require.NoError(t, d.Compact(ctx, key(0), key(2000), false))
	delta := m.Snapshot().Sub(before)
	require.NotZero(t, delta.Gets().Requests, "the compaction read its inputs: %s", delta)
	require.Zero(t, reads.Load().Requests, "the compaction's GETs are Pebble's, whatever context Compact got")
	require.NoError(t, d.Close())

	d = openRemote(t, "db", stillOptions(fs), m, AllLevels)
	defer d.Close()
	before = m.Snapshot()
	it, err := d.NewIterWithContext(ctx, &pebble.IterOptions{})
	require.NoError(t, err)
	n := 0
	for valid := it.First(); valid; valid = it.Next() {
		n++
	}
	require.NoError(t, it.Close())
	require.Equal(t, 2000, n)
	delta = m.Snapshot().Sub(before)
	got := reads.Load()
	require.Equal(t, delta.Gets().Requests, got.Requests, "every GET of the scan is the iterator's: %s", delta)
	require.GreaterOrEqual(t, got.Requests, int64(2), "the table opened and read: %s", delta)
	require.Equal(t, delta.Gets().Bytes, got.Bytes)
}
