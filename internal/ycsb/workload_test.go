// Copyright 2026 The pebblerf Authors. All rights reserved.

package ycsb

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// newWorkload parses spec and builds its workload with the given counts.
func newWorkload(t testing.TB, spec string, records, ops uint64, edit func(*Config)) *Workload {
	t.Helper()
	c, err := Parse(spec)
	require.NoError(t, err)
	c.RecordCount, c.OperationCount, c.Seed = records, ops, 7
	if edit != nil {
		edit(&c)
	}
	w, err := New(c)
	require.NoError(t, err)
	return w
}

func newSource(t testing.TB, w *Workload, thread, threads int) *Source {
	t.Helper()
	s, err := w.Source(thread, threads)
	require.NoError(t, err)
	return s
}

// TestMix checks that each workload's operations come in the shares of its
// definition (YCSB's for A-F, written out here rather than read from the
// package's table).
func TestMix(t *testing.T) {
	const ops = 200_000
	for spec, want := range map[string]map[Kind]float64{
		"A": {Read: 0.5, Update: 0.5},
		"B": {Read: 0.95, Update: 0.05},
		"C": {Read: 1},
		"D": {Read: 0.95, Insert: 0.05},
		"E": {Scan: 0.95, Insert: 0.05},
		"F": {Read: 0.5, ReadModifyWrite: 0.5},
		"read=1,update=1,insert=1,scan=1,rscan=1,rmw=1": {
			Read: 1.0 / 6, Update: 1.0 / 6, Insert: 1.0 / 6, Scan: 1.0 / 6, ReverseScan: 1.0 / 6, ReadModifyWrite: 1.0 / 6,
		},
		"scan=3,rmw=1": {Scan: 0.75, ReadModifyWrite: 0.25},
	} {
		t.Run(spec, func(t *testing.T) {
			w := newWorkload(t, spec, 10_000, ops, nil)
			s := newSource(t, w, 0, 1)
			var counts [numKinds]int
			var op Op
			n := 0
			for s.Next(&op) {
				counts[op.Kind]++
				n++
			}
			require.Equal(t, ops, n)
			for _, k := range Kinds() {
				// 0.01 is over five standard deviations of a share
				// estimated from 200,000 draws.
				require.InDelta(t, want[k], float64(counts[k])/ops, 0.01, "share of %s", k)
				if want[k] == 0 {
					require.Zero(t, counts[k], "%s is not in the mix", k)
				}
			}
		})
	}
}

// opRecord is what an Op says, copied out of the source's buffers.
type opRecord struct {
	kind       Kind
	record     uint64
	key, value string
	scanLength int
}

func drain(t testing.TB, s *Source) []opRecord {
	var out []opRecord
	var op Op
	for s.Next(&op) {
		out = append(out, opRecord{op.Kind, op.Record, string(op.Key), string(op.Value), op.ScanLength})
	}
	return out
}

// TestDeterminism checks that a seed fixes each thread's sequence, values
// included, and that seeds and threads give different sequences.
func TestDeterminism(t *testing.T) {
	for _, spec := range []string{"A", "D", "E", "read=1,update=1,insert=1,scan=1,rscan=1,rmw=1"} {
		t.Run(spec, func(t *testing.T) {
			a := drain(t, newSource(t, newWorkload(t, spec, 1000, 20_000, nil), 1, 3))
			b := drain(t, newSource(t, newWorkload(t, spec, 1000, 20_000, nil), 1, 3))
			require.Equal(t, a, b, "same seed, same thread")
			other := drain(t, newSource(t, newWorkload(t, spec, 1000, 20_000, func(c *Config) { c.Seed = 8 }), 1, 3))
			require.NotEqual(t, a, other, "another seed")
			thread0 := drain(t, newSource(t, newWorkload(t, spec, 1000, 20_000, nil), 0, 3))
			require.NotEqual(t, a, thread0, "another thread")
		})
	}
}

// TestConcurrentSources runs sources of one Workload on goroutines at once
// and checks that each yields what it yields alone: the workload's shared
// state is read-only.
func TestConcurrentSources(t *testing.T) {
	const threads = 4
	for _, spec := range []string{"D", "E"} {
		w := newWorkload(t, spec, 1000, 40_000, nil)
		got := make([][]opRecord, threads)
		var wg sync.WaitGroup
		for i := range threads {
			s := newSource(t, w, i, threads)
			wg.Go(func() { got[i] = drain(t, s) })
		}
		wg.Wait()
		for i := range threads {
			require.Equal(t, drain(t, newSource(t, w, i, threads)), got[i], "%s thread %d", spec, i)
		}
	}
}

// TestThreadsShareOperations checks that the threads' sources together
// yield OperationCount operations.
func TestThreadsShareOperations(t *testing.T) {
	w := newWorkload(t, "B", 100, 1001, nil)
	total := uint64(0)
	for i := range 7 {
		s := newSource(t, w, i, 7)
		n := s.Remaining()
		require.InDelta(t, 1001/7, n, 1)
		total += n
		require.Len(t, drain(t, s), int(n))
		require.Zero(t, s.Remaining())
	}
	require.Equal(t, uint64(1001), total)
}

// load returns the loaded keys of w, by record number.
func load(t testing.TB, w *Workload) []string {
	l, err := w.Loader(0, 1)
	require.NoError(t, err)
	var keys []string
	for key, value, ok := l.Next(); ok; key, value, ok = l.Next() {
		require.Len(t, value, w.Config().ValueSize)
		keys = append(keys, string(key))
	}
	require.Len(t, keys, int(w.Config().RecordCount))
	return keys
}

// TestOperationsOnExistingRecords runs every distribution with inserts on
// several threads and checks that an insert's key was never loaded nor
// inserted before, and that every other operation's key was loaded or
// inserted before by the same thread, so no read misses by construction.
func TestOperationsOnExistingRecords(t *testing.T) {
	const threads = 3
	for d := range Distribution(numDistributions) {
		for _, order := range []InsertOrder{Hashed, Ordered} {
			t.Run(fmt.Sprintf("%s/%s", d, order), func(t *testing.T) {
				w := newWorkload(t, "read=40,update=10,insert=20,scan=10,rscan=10,rmw=10", 2000, 60_000,
					func(c *Config) { c.Distribution, c.InsertOrder = d, order })
				loaded := map[string]bool{}
				for _, k := range load(t, w) {
					require.False(t, loaded[k], "two loaded records share key %q", k)
					loaded[k] = true
				}
				inserted := map[string]bool{}
				for thread := range threads {
					mine := map[string]bool{}
					var op Op
					for s := newSource(t, w, thread, threads); s.Next(&op); {
						key := string(op.Key)
						require.Equal(t, key, string(w.AppendKey(nil, op.Record)))
						if op.Kind == Insert {
							require.False(t, loaded[key], "insert of loaded key %q", key)
							require.False(t, inserted[key], "second insert of key %q", key)
							inserted[key], mine[key] = true, true
							continue
						}
						require.True(t, loaded[key] || mine[key], "%s of key %q, never written by this thread", op.Kind, key)
					}
				}
				require.InDelta(t, 60_000*0.2, len(inserted), 60_000*0.01)
			})
		}
	}
}

// recordCounts counts the records of n operations of a read-only source.
func recordCounts(t testing.TB, w *Workload) map[uint64]int {
	counts := map[uint64]int{}
	var op Op
	for s := newSource(t, w, 0, 1); s.Next(&op); {
		counts[op.Record]++
	}
	return counts
}

// hottest returns the k most frequent records, most frequent first.
func hottest(counts map[uint64]int, k int) []uint64 {
	recs := make([]uint64, 0, len(counts))
	for r := range counts {
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool {
		if counts[recs[i]] != counts[recs[j]] {
			return counts[recs[i]] > counts[recs[j]]
		}
		return recs[i] < recs[j]
	})
	return recs[:k]
}

// deciles counts how many of recs fall in each tenth of [0, n), by
// position.
func deciles(recs []uint64, position func(uint64) int, n int) [10]int {
	var d [10]int
	for _, r := range recs {
		d[position(r)*10/n]++
	}
	return d
}

// TestScrambledZipfian checks YCSB's scrambled Zipfian: its hottest record
// is rank 0 hashed onto the record space, with the share of rank 0 among
// 10^10 items, and its popular records are spread over the record numbers
// and over the key order, where an unscrambled Zipfian bunches them at the
// first records.
func TestScrambledZipfian(t *testing.T) {
	const records, ops = 100_000, 1_000_000
	w := newWorkload(t, "C", records, ops, nil)
	counts := recordCounts(t, w)
	top := hottest(counts, 100)
	require.Equal(t, fnvHash64(0)%records, top[0])
	// Other ranks that hash onto the same record add about 1/records.
	require.InEpsilon(t, 1/Zeta(scrambledItems, ZipfianConstant), float64(counts[top[0]])/ops, 0.03)

	keys := load(t, w)
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	keyPosition := func(r uint64) int {
		i, _ := slices.BinarySearch(sorted, keys[r])
		return i
	}
	byRecord := deciles(top, func(r uint64) int { return int(r) }, records)
	byKey := deciles(top, keyPosition, records)
	for i := range 10 {
		// Ten expected in each; the binomial spread keeps a tenth under 25
		// and over 0 far beyond any doubt.
		require.Positive(t, byRecord[i], "record decile %d of %v", i, byRecord)
		require.Less(t, byRecord[i], 25, "record decile %d of %v", i, byRecord)
		require.Positive(t, byKey[i], "key decile %d of %v", i, byKey)
		require.Less(t, byKey[i], 25, "key decile %d of %v", i, byKey)
	}

	// Unscrambled, the hot records are the first ones and the top share is
	// 1/ζ(records): the scrambling is what spreads them.
	plain := newWorkload(t, "C", records, ops, func(c *Config) { c.Distribution = Zipfian })
	plainCounts := recordCounts(t, plain)
	plainTop := hottest(plainCounts, 10)
	require.ElementsMatch(t, []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, plainTop)
	require.InEpsilon(t, 1/Zeta(records, ZipfianConstant), float64(plainCounts[0])/ops, 0.02)
}

// TestLatest checks that workload D's reads favour the newest records: the
// newest record at the time of a read is read with the share of Zipfian
// rank 0 over the records then known, and most reads go to the records
// inserted during the run, which are a minority of all records.
func TestLatest(t *testing.T) {
	const records, ops = 10_000, 200_000
	w := newWorkload(t, "D", records, ops, nil)
	s := newSource(t, w, 0, 1)
	reads, newest, ofInserted := 0, 0, 0
	known := uint64(records)
	var op Op
	for s.Next(&op) {
		if op.Kind == Insert {
			// With one thread, record numbers are in insertion order.
			require.Equal(t, known, op.Record)
			known++
			continue
		}
		reads++
		if op.Record == known-1 {
			newest++
		}
		if op.Record >= records {
			ofInserted++
		}
	}
	// The newest record's share lies between rank 0's share over the
	// records known at the end and at the start.
	share := float64(newest) / float64(reads)
	require.Greater(t, share, 0.97/Zeta(known, ZipfianConstant))
	require.Less(t, share, 1.03/Zeta(records, ZipfianConstant))
	// Inserted records are at most half of all records at any time, yet
	// draw most reads.
	require.Less(t, float64(known-records)/float64(known), 0.51)
	require.Greater(t, float64(ofInserted)/float64(reads), 0.7)
}

// TestUniform checks that uniform reads spread evenly over the records.
func TestUniform(t *testing.T) {
	const records, ops = 100, 200_000
	w := newWorkload(t, "C", records, ops, func(c *Config) { c.Distribution = Uniform })
	counts := recordCounts(t, w)
	require.Len(t, counts, records)
	for r, c := range counts {
		// 2000 expected each, standard deviation about 45.
		require.InDelta(t, ops/records, c, 300, "record %d", r)
	}
}

// TestScanLengths checks that scan lengths are uniform over their bounds.
func TestScanLengths(t *testing.T) {
	const ops = 100_000
	w := newWorkload(t, "E", 1000, ops, nil)
	var counts [DefaultMaxScanLength + 1]int
	var op Op
	for s := newSource(t, w, 0, 1); s.Next(&op); {
		if op.Kind == Scan {
			require.GreaterOrEqual(t, op.ScanLength, DefaultMinScanLength)
			require.LessOrEqual(t, op.ScanLength, DefaultMaxScanLength)
			counts[op.ScanLength]++
		} else {
			require.Zero(t, op.ScanLength)
		}
	}
	scans := ops * 0.95
	for l := DefaultMinScanLength; l <= DefaultMaxScanLength; l++ {
		// 950 expected each, standard deviation about 31.
		require.InDelta(t, scans/100, counts[l], 200, "length %d", l)
	}
}

// TestKeys checks the key formats.
func TestKeys(t *testing.T) {
	hashed := newWorkload(t, "A", 10, 10, nil)
	ordered := newWorkload(t, "A", 10, 10, func(c *Config) { c.InsertOrder = Ordered })
	require.Equal(t, "user00000000000000000042", string(ordered.AppendKey(nil, 42)))
	require.Equal(t, "prefix/user18446744073709551615", string(ordered.AppendKey([]byte("prefix/"), math.MaxUint64)))
	var prev []byte
	for n := uint64(0); n < 2000; n++ {
		k := ordered.AppendKey(nil, n)
		require.Len(t, k, MaxKeyLen)
		require.Negative(t, bytes.Compare(prev, k), "ordered keys in record order")
		prev = k

		h := hashed.AppendKey(nil, n)
		require.LessOrEqual(t, len(h), MaxKeyLen)
		require.Equal(t, fmt.Sprintf("user%d", mix64(n)), string(h))
	}
	// A seed changes values, not keys.
	other := newWorkload(t, "A", 10, 10, func(c *Config) { c.Seed = 99 })
	require.Equal(t, hashed.AppendKey(nil, 5), other.AppendKey(nil, 5))
}

// TestValues checks value sizes and that a value cannot be appended to in
// place, and that loading in parts writes the same records as loading at
// once.
func TestValues(t *testing.T) {
	for _, size := range []int{0, 1, 100, DefaultValueSize} {
		w := newWorkload(t, "read=1,update=1,insert=1,rmw=1", 1000, 1000, func(c *Config) { c.ValueSize = size })
		var op Op
		for s := newSource(t, w, 0, 1); s.Next(&op); {
			if op.Kind == Read {
				require.Nil(t, op.Value)
				continue
			}
			require.Len(t, op.Value, size)
			require.Equal(t, size, cap(op.Value))
		}
	}

	w := newWorkload(t, "A", 1000, 1, nil)
	whole, err := w.Loader(0, 1)
	require.NoError(t, err)
	var parts []*Loader
	for i := range 3 {
		l, err := w.Loader(i, 3)
		require.NoError(t, err)
		parts = append(parts, l)
	}
	distinct := map[string]bool{}
	for _, part := range parts {
		for key, value, ok := part.Next(); ok; key, value, ok = part.Next() {
			wk, wv, wok := whole.Next()
			require.True(t, wok)
			require.Equal(t, wk, key)
			require.Equal(t, wv, value)
			distinct[string(value)] = true
		}
	}
	_, _, ok := whole.Next()
	require.False(t, ok)
	require.Greater(t, len(distinct), 990, "values differ between records")
}

// TestNoAllocations checks that the hot paths reuse their buffers.
func TestNoAllocations(t *testing.T) {
	for _, spec := range StandardNames() {
		w := newWorkload(t, spec, 10_000, 1_000_000, nil)
		s := newSource(t, w, 0, 1)
		var op Op
		require.Zero(t, testing.AllocsPerRun(1000, func() { s.Next(&op) }), spec)
		l, err := w.Loader(0, 1)
		require.NoError(t, err)
		require.Zero(t, testing.AllocsPerRun(1000, func() { l.Next() }), spec)
	}
}

// BenchmarkSourceNext measures the generator's cost per operation, one
// source, for each core workload.
func BenchmarkSourceNext(b *testing.B) {
	for _, spec := range StandardNames() {
		b.Run(spec, func(b *testing.B) {
			w := newWorkload(b, spec, 1_000_000, uint64(b.N), nil)
			s := newSource(b, w, 0, 1)
			var op Op
			b.ReportAllocs()
			b.ResetTimer()
			for s.Next(&op) {
			}
		})
	}
}

// BenchmarkLoaderNext measures the cost of one loaded record.
func BenchmarkLoaderNext(b *testing.B) {
	w := newWorkload(b, "A", uint64(b.N), 1, nil)
	l, err := w.Loader(0, 1)
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for _, _, ok := l.Next(); ok; _, _, ok = l.Next() {
	}
}
