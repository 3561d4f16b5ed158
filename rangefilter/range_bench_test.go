// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/pebblerf/pebble/internal/tableprops"
)

// The filter-alone measurements: key kinds built from integer key positions,
// empty queries of L positions, random or placed just after a stored key.
// BenchmarkRangeFilter* time build and query; TestRangeFilterReport, with
// -rangefilter.report, prints the false-positive tables of the report.

var rangeReportFlag = flag.Bool("rangefilter.report", false, "print the range-filter FPR report (slow: 1M keys per kind)")
var rangeReportKeys = flag.Int("rangefilter.keys", 1_000_000, "keys per kind in the report and the benchmarks")

// rangeWorkloadKind turns key positions into keys.
type rangeWorkloadKind struct {
	name string
	// space is the number of key positions (0: all of uint64); keys are drawn
	// from [base, base+space).
	space func(n int) uint64
	base  uint64
	enc   func(i uint64) []byte
}

var rangeLongPrefix = []byte("/tenant/00000042/table/user_events/index/primary/")

func rangeWorkloadKinds() []rangeWorkloadKind {
	// 0.1% of positions hold a key, so that empty ranges of 1024 positions
	// exist (at 1% they would be rarer than 1 in 20,000).
	dense := func(n int) uint64 { return 1000 * uint64(n) }
	return []rangeWorkloadKind{
		{name: "dbbench", space: dense, enc: rangeDBBenchKey},
		// CockroachDB Split prefixes with integer primary keys of one varint
		// length (ids from 2^24), and spanning all lengths (ids from 0).
		{name: "crdb", space: dense, base: 1 << 24, enc: rangeCRDBPrefix},
		{name: "crdb-varlen", space: dense, enc: rangeCRDBPrefix},
		{name: "longprefix", space: dense, enc: func(i uint64) []byte {
			k := binary.BigEndian.AppendUint64(slices.Clone(rangeLongPrefix), i)
			return append(k, "/v1"...)
		}},
		// Sparse ids over all of uint64: 8-byte varints, hashed, not exact.
		{name: "crdb-sparse", space: func(int) uint64 { return 0 }, enc: rangeCRDBPrefix},
		{name: "binary", space: func(int) uint64 { return 0 }, enc: func(i uint64) []byte {
			return binary.BigEndian.AppendUint64(nil, i) // uniform over 2^64: 0x00 and 0xff bytes
		}},
	}
}

// rangeWorkload is one key set with its positions.
type rangeWorkload struct {
	kind rangeWorkloadKind
	pos  []uint64 // sorted distinct positions
	keys [][]byte
	rng  *rand.Rand
}

func newRangeWorkload(kind rangeWorkloadKind, n int, seed uint64) *rangeWorkload {
	rng := rand.New(rand.NewPCG(seed, 0xbeef))
	space := kind.space(n)
	set := make(map[uint64]struct{}, n)
	for len(set) < n {
		var p uint64
		if space == 0 {
			p = rng.Uint64()
		} else {
			p = kind.base + rng.Uint64N(space)
		}
		set[p] = struct{}{}
	}
	w := &rangeWorkload{kind: kind, rng: rng, pos: make([]uint64, 0, n)}
	for p := range set {
		w.pos = append(w.pos, p)
	}
	slices.Sort(w.pos)
	w.keys = make([][]byte, n)
	for i, p := range w.pos {
		w.keys[i] = kind.enc(p)
	}
	return w
}

// empty reports whether no stored position lies in [lo, hi).
func (w *rangeWorkload) empty(lo, hi uint64) bool {
	i := sort.Search(len(w.pos), func(i int) bool { return w.pos[i] >= lo })
	return i == len(w.pos) || w.pos[i] >= hi
}

// Query kinds.
const (
	rangeQueryRandom = iota // [p, p+L) at a random position
	rangeQueryNext          // [s+1, s+1+L) just after a stored key s
	rangeQuerySucc          // [key(s)+"\x00", key(s+1+L)): the byte successor of a key
	rangeQueryKinds
)

var rangeQueryNames = [rangeQueryKinds]string{"random", "next", "succ"}

// queries returns count empty queries of length L of the given kind.
func (w *rangeWorkload) queries(kind int, length uint64, count int) [][2][]byte {
	out := make([][2][]byte, 0, count)
	space := w.kind.space(len(w.pos))
	for attempts := 0; len(out) < count && attempts < 100*count; attempts++ {
		var lo uint64
		if kind == rangeQueryRandom {
			if space == 0 {
				lo = w.rng.Uint64()
			} else {
				lo = w.kind.base + w.rng.Uint64N(space)
			}
		} else {
			lo = w.pos[w.rng.IntN(len(w.pos))] + 1
		}
		hi := lo + length
		if hi < lo || !w.empty(lo, hi) {
			continue
		}
		lower := w.kind.enc(lo)
		if kind == rangeQuerySucc {
			lower = append(w.kind.enc(lo-1), 0)
		}
		out = append(out, [2][]byte{lower, w.kind.enc(hi)})
	}
	return out
}

// build builds a filter and returns it with the build's thread-CPU ns per key.
func (w *rangeWorkload) build(tb testing.TB, bpk float64) (filter []byte, nsPerKey float64) {
	b, err := NewBuilder(Config{BitsPerKey: bpk, Seed: 42})
	if err != nil {
		tb.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := cputime.Thread()
	for _, k := range w.keys {
		if err := b.Add(k); err != nil {
			tb.Fatal(err)
		}
	}
	filter = b.Finish(nil)
	return filter, float64((cputime.Thread() - start).Nanoseconds()) / float64(len(w.keys))
}

// oracleCPU returns the thread-CPU ns per query of answering exactly by
// binary search over the sorted keys.
func (w *rangeWorkload) oracleCPU(qs [][2][]byte) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	hits := 0
	start := cputime.Thread()
	for _, q := range qs {
		if rangeOracle(w.keys, q[0], q[1]) {
			hits++
		}
	}
	if hits != 0 {
		panic("empty queries hit the oracle")
	}
	return float64((cputime.Thread() - start).Nanoseconds()) / float64(len(qs))
}

// rangeFPR returns the false-positive rate over empty queries, and the
// wall-clock and thread-CPU nanoseconds per query.
func rangeFPR(filter []byte, qs [][2][]byte) (fpr, wallNs, cpuNs float64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fp := 0
	start, cpu := time.Now(), cputime.Thread()
	for _, q := range qs {
		if MayIntersect(filter, q[0], q[1]) {
			fp++
		}
	}
	n := float64(len(qs))
	return float64(fp) / n, float64(time.Since(start).Nanoseconds()) / n, float64((cputime.Thread() - cpu).Nanoseconds()) / n
}

func rangePct(x float64) string {
	if x == 0 {
		return "0"
	}
	return fmt.Sprintf("%.3f%%", 100*x)
}

// TestRangeFilterReport prints the report's tables. It measures, it does not
// assert: run it with -rangefilter.report.
func TestRangeFilterReport(t *testing.T) {
	if !*rangeReportFlag {
		t.Skip("run with -rangefilter.report")
	}
	n := *rangeReportKeys
	const perCell = 50_000
	bpks := []float64{8, 10, 12, 14, 16, 18, 20}
	lengths := []uint64{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	var sweep, byLen, cost strings.Builder
	fmt.Fprintf(&sweep, "FPR at L=32 by bits/key (n=%d, %d empty queries per cell; bound = 32/2^(B-2); floor = 32/2^bits, the space lower bound)\n\n", n, perCell)
	fmt.Fprintf(&sweep, "| kind | B | bits/key | exact | random | next | succ | bound | floor |\n|---|---|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&byLen, "FPR at B=16 by range length L (key positions)\n\n| kind | query |")
	for _, l := range lengths {
		fmt.Fprintf(&byLen, " %d |", l)
	}
	fmt.Fprintf(&byLen, "\n|---|---|%s\n", strings.Repeat("---|", len(lengths)))
	fmt.Fprintf(&cost, "Build and query cost at B=16, L=32: thread-CPU ns (wall-clock ns in brackets) on a shared, loaded 2-core VM; median of 5 passes\n\n| kind | bits/key | exact | build CPU ns/key | query random | query next | query succ | oracle binary search |\n|---|---|---|---|---|---|---|---|\n")
	for ki, kind := range rangeWorkloadKinds() {
		w := newRangeWorkload(kind, n, uint64(ki+1))
		qs := make(map[[2]uint64][][2][]byte)
		for qk := range rangeQueryKinds {
			for _, l := range lengths {
				qs[[2]uint64{uint64(qk), l}] = w.queries(qk, l, perCell)
			}
		}
		for _, bpk := range bpks {
			f, buildNs := w.build(t, bpk)
			info, err := Describe(f)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sweep, "| %s | %g | %.2f | %v |", kind.name, bpk, info.BitsPerKey(), !info.Hashed)
			for qk := range rangeQueryKinds {
				fpr, _, _ := rangeFPR(f, qs[[2]uint64{uint64(qk), 32}])
				fmt.Fprintf(&sweep, " %s |", rangePct(fpr))
			}
			cfg := Config{BitsPerKey: bpk}
			fmt.Fprintf(&sweep, " %s | %s |\n", rangePct(cfg.FPRBound(32)), rangePct(min(1, 32/math.Exp2(info.BitsPerKey()))))
			if bpk != 16 {
				continue
			}
			for qk := range rangeQueryKinds {
				fmt.Fprintf(&byLen, "| %s | %s |", kind.name, rangeQueryNames[qk])
				for _, l := range lengths {
					fpr, _, _ := rangeFPR(f, qs[[2]uint64{uint64(qk), l}])
					fmt.Fprintf(&byLen, " %s |", rangePct(fpr))
				}
				fmt.Fprintf(&byLen, "\n")
			}
			// Time queries over repeated passes for a stable mean.
			// Query cost: the median of 5 passes over each query kind.
			fmt.Fprintf(&cost, "| %s | %.2f | %v | %.0f |", kind.name, info.BitsPerKey(), !info.Hashed, buildNs)
			for qk := range rangeQueryKinds {
				var wall, cpu []float64
				for range 5 {
					_, w, c := rangeFPR(f, qs[[2]uint64{uint64(qk), 32}])
					wall, cpu = append(wall, w), append(cpu, c)
				}
				slices.Sort(wall)
				slices.Sort(cpu)
				fmt.Fprintf(&cost, " %.0f (%.0f) |", cpu[2], wall[2])
			}
			// Reference on the same machine at the same time: the oracle of
			// the calibration's Q2 (docs/benchmarks.md), a binary search over
			// the table's sorted keys.
			var ref []float64
			for range 5 {
				ref = append(ref, w.oracleCPU(qs[[2]uint64{rangeQueryRandom, 32}]))
			}
			slices.Sort(ref)
			fmt.Fprintf(&cost, " %.0f |\n", ref[2])
		}
	}
	fmt.Fprintf(&byLen, "\nBound L/2^14 at B=16:")
	for _, l := range lengths {
		fmt.Fprintf(&byLen, " L=%d %s;", l, rangePct(min(1, float64(l)/math.Exp2(14))))
	}
	t.Logf("\n%s\n%s\n\n%s", sweep.String(), byLen.String(), cost.String())
}

// rangeBenchKeys is the benchmarks' key count: -rangefilter.keys, 1M by default.
func rangeBenchKeys() int { return *rangeReportKeys }

// BenchmarkRangeFilterBuild measures building a 16 bits/key filter over 1M
// keys of each kind; the metric is ns per key.
func BenchmarkRangeFilterBuild(b *testing.B) {
	for ki, kind := range rangeWorkloadKinds() {
		b.Run(kind.name, func(b *testing.B) {
			w := newRangeWorkload(kind, rangeBenchKeys(), uint64(ki+1))
			b.ResetTimer()
			for range b.N {
				f, _ := w.build(b, 16)
				b.ReportMetric(float64(8*len(f))/float64(len(w.keys)), "bits/key")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(w.keys)), "ns/key")
		})
	}
}

// BenchmarkRangeFilterQuery measures one query on a 16 bits/key filter over
// 1M keys, for empty queries of 32 positions of each query kind.
func BenchmarkRangeFilterQuery(b *testing.B) {
	for ki, kind := range rangeWorkloadKinds() {
		w := newRangeWorkload(kind, rangeBenchKeys(), uint64(ki+1))
		f, _ := w.build(b, 16)
		for qk := range rangeQueryKinds {
			qs := w.queries(qk, 32, 4096)
			b.Run(kind.name+"/"+rangeQueryNames[qk], func(b *testing.B) {
				// Thread-CPU time beside ns/op: on a shared machine it leaves
				// out the time the thread waited for a core.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				fp := 0
				b.ResetTimer()
				cpu := cputime.Thread()
				for i := range b.N {
					q := qs[i%len(qs)]
					if MayIntersect(f, q[0], q[1]) {
						fp++
					}
				}
				b.ReportMetric(float64((cputime.Thread()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(fp)/float64(b.N), "fpr")
			})
		}
	}
}

// TestRangeWorkloadQueriesAreEmpty keeps the measurement honest: every
// query the workload calls empty holds no stored key.
func TestRangeWorkloadQueriesAreEmpty(t *testing.T) {
	for ki, kind := range rangeWorkloadKinds() {
		w := newRangeWorkload(kind, 5000, uint64(ki+1))
		for qk := range rangeQueryKinds {
			for _, q := range w.queries(qk, 32, 500) {
				if rangeOracle(w.keys, q[0], q[1]) {
					t.Fatalf("%s/%s: query [%x, %x) holds a key", kind.name, rangeQueryNames[qk], q[0], q[1])
				}
				if bytes.Compare(q[0], q[1]) >= 0 {
					t.Fatalf("%s/%s: inverted query", kind.name, rangeQueryNames[qk])
				}
			}
		}
	}
}

// BenchmarkRangeFilterLockSpan measures what a CockroachDB-style lock-table
// span check costs per table it overlaps (the cockroach-locktable scenario
// of cmd/pebblebench): Pebble hands a bounds filter the table's property
// bytes when it opens the table. The table is one flush: a few lock-table
// keys, then many MVCC roach keys (two key-map segments); the spans are
// empty spans of 10 roach keys in the lock table.
func BenchmarkRangeFilterLockSpan(b *testing.B) {
	roach := func(prefix []byte, i uint64) []byte {
		k := append(slices.Clone(prefix), 0xf6, 0x68, 0x89) // table and index ID
		k = binary.BigEndian.AppendUint64(k, i)
		k = append(k, "00000000"...) // db_bench padding to 16 bytes
		return append(k, 0)          // the MVCC sentinel ends a Split prefix
	}
	lock := []byte("\x01zk")
	const keys, lockEvery = 17_895, 3125
	p, err := NewPolicy(nil, Config{BitsPerKey: 16, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	c := &rangeCollector{p: p, bits: p.cfg.bitsPerKey()}
	var locked []uint64
	for i := uint64(0); i < 200_000; i += 4 * lockEvery {
		locked = append(locked, i)
		if err := c.Add(pebble.InternalKey{UserKey: roach(lock, i)}, nil); err != nil {
			b.Fatal(err)
		}
	}
	for i := range uint64(keys) {
		if err := c.Add(pebble.InternalKey{UserKey: roach(nil, 1_000_000+i)}, nil); err != nil {
			b.Fatal(err)
		}
	}
	props := map[string]string{}
	if err := c.Finish(props); err != nil {
		b.Fatal(err)
	}
	prop := tableprops.Append(nil, props)
	var filters []pebble.BlockPropertyFilter
	for i := uint64(0); len(filters) < 1024; i += 191 {
		lo := i % 200_000
		j, _ := slices.BinarySearch(locked, lo)
		if j < len(locked) && locked[j] < lo+10 {
			continue // a span holding a lock
		}
		filters = append(filters, p.BoundsFilter(roach(lock, lo), roach(lock, lo+10)))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fp := 0
	b.ResetTimer()
	cpu := cputime.Thread()
	for i := range b.N {
		if ok, _ := filters[i%len(filters)].Intersects(prop); ok {
			fp++
		}
	}
	b.ReportMetric(float64((cputime.Thread()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(fp)/float64(b.N), "fpr")
	if b.N >= len(filters) && fp == b.N {
		// Every span is empty: a table property without a filter answers
		// "may intersect" to all, and the figure would time nothing.
		b.Fatal("no span was ruled out: the table carries no range filter")
	}
}

// BenchmarkRangeFilterBuildTable measures what a DB pays per table: one
// reused builder (as Policy pools them) over a table's worth of keys, 32,768
// of each kind; the metric is ns per key, Add and Finish together.
func BenchmarkRangeFilterBuildTable(b *testing.B) {
	for ki, kind := range rangeWorkloadKinds() {
		b.Run(kind.name, func(b *testing.B) {
			w := newRangeWorkload(kind, 1<<15, uint64(ki+1))
			bld, err := NewBuilder(Config{BitsPerKey: 16, Seed: 42})
			if err != nil {
				b.Fatal(err)
			}
			var dst []byte
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for _, k := range w.keys {
					if err := bld.Add(k); err != nil {
						b.Fatal(err)
					}
				}
				dst = bld.Finish(dst[:0])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(w.keys)), "ns/key")
		})
	}
}
