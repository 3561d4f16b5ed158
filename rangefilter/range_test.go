// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/stretchr/testify/require"
)

// rangeOracle answers a query exactly over sorted keys.
func rangeOracle(keys [][]byte, lower, upper []byte) bool {
	i := sort.Search(len(keys), func(i int) bool { return bytes.Compare(keys[i], lower) >= 0 })
	return i < len(keys) && (upper == nil || bytes.Compare(keys[i], upper) < 0)
}

// rangeSortedDistinct sorts keys and drops repeats.
func rangeSortedDistinct(keys [][]byte) [][]byte {
	slices.SortFunc(keys, bytes.Compare)
	return slices.CompactFunc(keys, bytes.Equal)
}

func rangeBuild(t testing.TB, cfg Config, keys [][]byte) []byte {
	b, err := NewBuilder(cfg)
	require.NoError(t, err)
	for _, k := range keys {
		require.NoError(t, b.Add(k))
	}
	return b.Finish(nil)
}

// rangeTestKeySets returns key sets of several shapes, meant to stress the
// key map: prefixes of each other, 0x00 and 0xff bytes, long shared prefixes,
// tails beyond the digits, and long random keys that overflow 64 bits.
func rangeTestKeySets(rng *rand.Rand) map[string][][]byte {
	sets := map[string][][]byte{}
	gen := func(name string, n int, f func(i int) []byte) {
		keys := make([][]byte, 0, n)
		for i := range n {
			keys = append(keys, f(i))
		}
		sets[name] = rangeSortedDistinct(keys)
	}
	small := func(maxLen int, alphabet string) func(int) []byte {
		return func(int) []byte {
			k := make([]byte, rng.IntN(maxLen+1))
			for j := range k {
				k[j] = alphabet[rng.IntN(len(alphabet))]
			}
			return k
		}
	}
	gen("tiny-alphabet", 300, small(6, "\x00\x01\xfe\xff"))
	gen("ab", 200, small(8, "ab"))
	gen("binary-var", 2000, small(12, string(rangeAllBytes())))
	gen("binary-long", 2000, small(40, string(rangeAllBytes())))
	gen("dbbench", 3000, func(int) []byte { return rangeDBBenchKey(rng.Uint64N(300000)) })
	gen("crdb", 3000, func(int) []byte { return rangeCRDBPrefix(rng.Uint64N(1 << 26)) })
	gen("long-prefix", 2000, func(int) []byte {
		k := append(bytes.Repeat([]byte("shared/prefix/"), 5), binary.BigEndian.AppendUint32(nil, rng.Uint32N(1<<20))...)
		return append(k, []byte("/tail")...)
	})
	gen("mixed-tails", 2000, func(int) []byte {
		k := binary.BigEndian.AppendUint64(nil, rng.Uint64())
		return append(k, bytes.Repeat([]byte{byte(rng.IntN(3))}, rng.IntN(4))...)
	})
	gen("u64", 3000, func(int) []byte { return binary.BigEndian.AppendUint64(nil, rng.Uint64()) })
	gen("one", 1, func(int) []byte { return []byte("only") })
	gen("empty-key", 2, func(i int) []byte { return []byte("x")[:i] })
	return sets
}

func rangeAllBytes() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// rangeDBBenchKey is db_bench's 16-byte key: 8-byte big-endian int, '0' padding.
func rangeDBBenchKey(i uint64) []byte {
	return append(binary.BigEndian.AppendUint64(nil, i), "00000000"...)
}

// rangeCRDBPrefix is the Split prefix of a CockroachDB-style key: a table
// and index prefix, an ascending varint-encoded integer primary key (its
// length depends on its magnitude), a column family byte and the 0x00
// sentinel that ends the roachKey.
func rangeCRDBPrefix(i uint64) []byte {
	k := []byte{0xfe, 0x92, 0xf0, 0x89}
	if i <= 109 {
		k = append(k, byte(136+i))
	} else {
		var be [8]byte
		binary.BigEndian.PutUint64(be[:], i)
		n := (bits.Len64(i) + 7) / 8
		k = append(k, byte(0xf5+n))
		k = append(k, be[8-n:]...)
	}
	return append(k, 0x88, 0x00)
}

// rangeNeighbours returns query bounds around k that probe the key map's
// rounding: k itself, its byte successor, k with its last byte moved, and
// its prefixes.
func rangeNeighbours(k []byte) [][]byte {
	out := [][]byte{k, append(slices.Clone(k), 0), append(slices.Clone(k), 0xff, 0xff)}
	if len(k) > 0 {
		out = append(out, k[:len(k)-1], k[:len(k)/2])
		for _, d := range []int{-1, 1} {
			c := slices.Clone(k)
			c[len(c)-1] += byte(d)
			out = append(out, c)
		}
	}
	return out
}

// rangeRandomQuery draws a query, half of them adversarial: bounds next to
// table keys.
func rangeRandomQuery(rng *rand.Rand, keys [][]byte) (lower, upper []byte) {
	pick := func() []byte {
		switch rng.IntN(4) {
		case 0:
			k := make([]byte, rng.IntN(20))
			for j := range k {
				k[j] = byte(rng.Uint32())
			}
			return k
		default:
			nb := rangeNeighbours(keys[rng.IntN(len(keys))])
			return nb[rng.IntN(len(nb))]
		}
	}
	lower, upper = pick(), pick()
	if bytes.Compare(lower, upper) > 0 {
		lower, upper = upper, lower
	}
	if rng.IntN(10) == 0 {
		upper = nil
	}
	return lower, upper
}

func TestRangeFilterNoFalseNegatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, keys := range rangeTestKeySets(rng) {
		for _, bpk := range []float64{4, 8, 12, 16, 24} {
			t.Run(fmt.Sprintf("%s/bpk=%g", name, bpk), func(t *testing.T) {
				f := rangeBuild(t, Config{BitsPerKey: bpk, Seed: 7}, keys)
				info, err := Describe(f)
				require.NoError(t, err)
				require.Equal(t, uint64(len(keys)), info.Keys)
				fp, empty := 0, 0
				queries := 4000
				if rangeRace {
					queries = 400
				}
				for range queries {
					lo, hi := rangeRandomQuery(rng, keys)
					want := rangeOracle(keys, lo, hi)
					got := MayIntersect(f, lo, hi)
					if want {
						require.True(t, got, "false negative for [%x, %x)", lo, hi)
					} else {
						empty++
						if got {
							fp++
						}
					}
					if !info.Hashed && info.FullMap && info.Values == info.Keys {
						// Exactly stored, whole keys mapped: the filter is exact.
						require.Equal(t, want, got, "[%x, %x)", lo, hi)
					}
				}
				t.Logf("hashed=%v full=%v bits/key=%.1f fp=%d/%d", info.Hashed, info.FullMap, info.BitsPerKey(), fp, empty)
			})
		}
	}
}

// TestRangeKeyMapBounds checks the key map's contract directly: for every
// table key k and query key q, k >= q implies m(k) >= lowerBound(q) and
// k < q implies m(k) <= upperBound(q); and m is nondecreasing.
func TestRangeKeyMapBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for name, keys := range rangeTestKeySets(rng) {
		t.Run(name, func(t *testing.T) {
			m := rangeTestKeyMap(keys)
			ds := m.tableDigits(nil)
			vals := make([]uint64, len(keys))
			for i, k := range keys {
				v, rel := m.mapKey(k)
				// The builder's shortcut for table keys gives the same values.
				require.Equal(t, v, rangeTableValue(k, len(m.lcp), ds), "table key %x", k)
				if len(k) > m.end {
					require.Equal(t, rangeTied, rel, "table key %x", k)
				} else {
					require.Equal(t, rangeExact, rel, "table key %x", k)
				}
				vals[i] = v
				if i > 0 {
					require.LessOrEqual(t, vals[i-1], v, "map not monotone at %x", k)
				}
			}
			// The map is monotone, so checking the keys on either side of q is
			// enough: the first key >= q has the smallest value of all keys
			// >= q, the last key < q the largest of all keys < q.
			queries := 20000
			if rangeRace {
				queries = 2000
			}
			for range queries {
				q, _ := rangeRandomQuery(rng, keys)
				lo, lok := m.lowerBound(q)
				hi, hok := m.upperBound(q)
				i := sort.Search(len(keys), func(i int) bool { return bytes.Compare(keys[i], q) >= 0 })
				if i < len(keys) && (!lok || vals[i] < lo) {
					t.Fatalf("key %x >= %x has value %d below lowerBound %d (ok=%v)", keys[i], q, vals[i], lo, lok)
				}
				if i > 0 && (!hok || vals[i-1] > hi) {
					t.Fatalf("key %x < %x has value %d above upperBound %d (ok=%v)", keys[i-1], q, vals[i-1], hi, hok)
				}
			}
		})
	}
}

// add adds k, which must sort after every key in l, as Builder.Add does
// once it has checked the order.
func (l *rangeKeyList) add(k []byte) { l.push(k, rangeCommonPrefix(k, l.last())) }

// rangeTestKeyMap returns the key map chosen for sorted keys.
func rangeTestKeyMap(keys [][]byte) rangeKeyMap {
	var l rangeKeyList
	for _, k := range keys {
		l.add(k)
	}
	return rangeChooseKeyMap(&l, 0, l.len())
}

// TestRangeKeyMapConstTail checks that comparing the constant digits
// (constTail) maps every key as the full digit loop does.
func TestRangeKeyMapConstTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sawTail := false
	for name, keys := range rangeTestKeySets(rng) {
		t.Run(name, func(t *testing.T) {
			m := rangeTestKeyMap(keys)
			ref := m
			ref.constTail = 0
			sawTail = sawTail || m.constTail > 0
			for i := range 5000 {
				q := keys[i%len(keys)]
				if i%2 == 1 {
					q, _ = rangeRandomQuery(rng, keys)
				}
				// Every prefix of q, and each with its last byte set to 0,
				// 0xff or one more, so that some digit rounds down or up
				// right before the constant run.
				for n := range len(q) + 1 {
					p := slices.Clone(q[:n])
					last := byte(0)
					if n > 0 {
						last = p[n-1]
					}
					for _, b := range []byte{last, 0, 0xff, last + 1} {
						if n > 0 {
							p[n-1] = b
						}
						wv, wrel := ref.mapKey(p)
						v, rel := m.mapKey(p)
						require.Equal(t, wv, v, "q=%x constTail=%d", p, m.constTail)
						require.Equal(t, wrel, rel, "q=%x constTail=%d", p, m.constTail)
					}
				}
			}
		})
	}
	require.True(t, sawTail, "no key set has constant digits: the test tests nothing")
	// A digit that rounds up just before the constant run (found by
	// FuzzRangeFilterNoFalseNegatives): "2" is above both keys.
	m := rangeTestKeyMap([][]byte{[]byte("00"), []byte("10")})
	require.Equal(t, 1, m.constTail)
	ref := m
	ref.constTail = 0
	for _, q := range []string{"2", "1", "0", "00", "01", "0/", "1\x00", "10\x00", ""} {
		wv, wrel := ref.mapKey([]byte(q))
		v, rel := m.mapKey([]byte(q))
		require.Equal(t, wv, v, "q=%q", q)
		require.Equal(t, wrel, rel, "q=%q", q)
	}
}

// TestRangeKeyMapDense checks that the map does not spread neighbours apart
// on the key kinds it is designed for: db_bench's padding and CockroachDB's
// sentinel cost nothing, and distinct keys get distinct values.
func TestRangeKeyMapDense(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  func(uint64) []byte
	}{
		{"dbbench", rangeDBBenchKey},
		{"crdb", rangeCRDBPrefix},
		{"u64", func(i uint64) []byte { return binary.BigEndian.AppendUint64(nil, i<<20) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l rangeKeyList
			for i := uint64(1 << 24); i < 1<<24+5000; i += 1 + i%3 {
				l.add(tc.key(i))
			}
			m := rangeChooseKeyMap(&l, 0, l.len())
			prev := uint64(0)
			for i := range l.len() {
				v, _ := m.mapKey(l.at(i))
				if i > 0 {
					require.Greater(t, v, prev, "collision at %x", l.at(i))
					// Neighbours at most 3 key positions apart are at most a
					// few hundred values apart (one varint byte at worst).
					require.LessOrEqual(t, v-prev, uint64(3*256))
				}
				prev = v
			}
		})
	}
}

// TestRangeKeyMapSegments checks that keys of several shapes get a segment
// each, and that keys of random length stay in one.
func TestRangeKeyMapSegments(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	var varlen, random rangeKeyList
	var ids []uint64
	for range 5000 {
		ids = append(ids, rng.Uint64N(1<<26)) // 1- to 4-byte varints
	}
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		varlen.add(rangeCRDBPrefix(id))
	}
	for _, k := range rangeTestKeySets(rng)["binary-var"] {
		random.add(k)
	}
	starts := rangeSegmentStarts(&varlen)
	require.GreaterOrEqual(t, len(starts), 2)
	for i, s := range starts[1:] {
		// Every cut is at a change of key length.
		require.NotEqual(t, len(varlen.at(s-1)), len(varlen.at(s)), "cut %d", i)
	}
	require.Len(t, rangeSegmentStarts(&random), 1)
}

func TestEliasFanoAnyInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ n, u uint64 }{{1, 1}, {1, 10}, {10, 10}, {100, 1000}, {1000, 1 << 20}, {3000, 1 << 40}, {5000, 5001}, {2000, 1 << 63}} {
		set := map[uint64]bool{}
		for uint64(len(set)) < tc.n {
			set[rng.Uint64N(tc.u)] = true
		}
		vals := make([]uint64, 0, tc.n)
		for v := range set {
			vals = append(vals, v)
		}
		slices.Sort(vals)
		l := efLowBits(tc.n, tc.u)
		enc := efAppend(nil, vals, tc.u, l)
		e, rest, ok := efParse(enc, tc.n, tc.u, l)
		require.True(t, ok)
		require.Empty(t, rest)
		for range 5000 {
			var lo uint64
			if rng.IntN(2) == 0 {
				lo = vals[rng.IntN(len(vals))] + uint64(rng.IntN(3)) - 1
			} else {
				lo = rng.Uint64N(tc.u)
			}
			hi := lo + rng.Uint64N(min(tc.u, 1<<uint(rng.IntN(40)))+1)
			if hi < lo {
				hi = ^uint64(0)
			}
			i := sort.Search(len(vals), func(i int) bool { return vals[i] >= lo })
			want := i < len(vals) && vals[i] <= hi
			got, ok := e.anyInRange(lo, hi)
			require.True(t, ok)
			require.Equal(t, want, got, "n=%d u=%d [%d, %d]", tc.n, tc.u, lo, hi)
		}
	}
}

func TestRangeHashAnyInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, r := range []uint64{1, 7, 1000, 1 << 30} {
		h := rangeHash{r: r, a: 1 + rng.Uint64N(rangeMersenne61-1), b: rng.Uint64N(rangeMersenne61)}
		xs := make([]uint64, 500)
		for i := range xs {
			xs[i] = rng.Uint64N(1 << 50)
		}
		slices.Sort(xs)
		xs = slices.Compact(xs)
		hs := make([]uint64, len(xs))
		for i, x := range xs {
			hs[i] = h.apply(x)
			require.Less(t, hs[i], r)
		}
		slices.Sort(hs)
		hs = slices.Compact(hs)
		l := efLowBits(uint64(len(hs)), r)
		e, _, ok := efParse(efAppend(nil, hs, r, l), uint64(len(hs)), r, l)
		require.True(t, ok)
		for range 3000 {
			x1 := xs[rng.IntN(len(xs))] - uint64(rng.IntN(40))
			x2 := x1 + uint64(rng.IntN(80))
			i := sort.Search(len(xs), func(i int) bool { return xs[i] >= x1 })
			want := i < len(xs) && xs[i] <= x2
			got, ok := h.anyInRange(&e, x1, x2)
			require.True(t, ok)
			if want {
				require.True(t, got, "false negative r=%d [%d, %d]", r, x1, x2)
			}
		}
	}
}

// TestRangeFilterFPRBound checks the guarantee on an adversarial workload:
// empty queries starting just after each key, on keys that do not fit an
// exact encoding at this budget, must stay near the ℓ/2^(B-2) bound.
func TestRangeFilterFPRBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 20000
	ints := make([]uint64, 0, n)
	keys := make([][]byte, 0, n)
	for range n {
		ints = append(ints, rng.Uint64())
	}
	slices.Sort(ints)
	for _, x := range ints {
		keys = append(keys, binary.BigEndian.AppendUint64(nil, x))
	}
	cfg := Config{BitsPerKey: 12, Seed: 3}
	f := rangeBuild(t, cfg, keys)
	info, err := Describe(f)
	require.NoError(t, err)
	require.True(t, info.Hashed)
	const length = 16
	fp, total := 0, 0
	for i := 0; i+1 < len(ints); i++ {
		lo := ints[i] + 1
		if ints[i+1]-lo < length {
			continue
		}
		total++
		if MayIntersect(f, binary.BigEndian.AppendUint64(nil, lo), binary.BigEndian.AppendUint64(nil, lo+length)) {
			fp++
		}
	}
	bound := cfg.FPRBound(length)
	// The bound is an expectation; allow three standard deviations of a
	// binomial with that mean.
	mean := bound * float64(total)
	require.LessOrEqual(t, float64(fp), mean+3*math.Sqrt(mean)+1, "fp %d of %d, bound %.4f", fp, total, bound)
}

func TestRangeFilterEdgeCases(t *testing.T) {
	// No keys: nothing intersects.
	f := rangeBuild(t, Config{}, nil)
	require.False(t, MayIntersect(f, nil, nil))
	require.False(t, MayIntersect(f, []byte("a"), []byte("b")))

	// Unordered keys: Add fails and the filter intersects everything.
	b, err := NewBuilder(Config{})
	require.NoError(t, err)
	require.NoError(t, b.Add([]byte("b")))
	err = b.Add([]byte("a"))
	require.ErrorContains(t, err, "bytewise order")
	f = b.Finish(nil)
	info, err := Describe(f)
	require.NoError(t, err)
	require.True(t, info.Universal)
	require.True(t, MayIntersect(f, []byte("x"), []byte("y")))

	// The builder is reusable after Finish.
	require.NoError(t, b.Add([]byte("m")))
	f = b.Finish(nil)
	require.True(t, MayIntersect(f, []byte("m"), []byte("n")))
	require.False(t, MayIntersect(f, []byte("m\x00"), nil))
	require.False(t, MayIntersect(f, nil, []byte("m")))

	// Bad configs are named.
	_, err = NewBuilder(Config{BitsPerKey: 2})
	require.ErrorContains(t, err, "BitsPerKey 2")
	_, err = ConfigFor(0, 0.01)
	require.Error(t, err)
	cfg, err := ConfigFor(32, 0.005)
	require.NoError(t, err)
	require.InDelta(t, 14.75, cfg.BitsPerKey, 0.01)
	require.LessOrEqual(t, cfg.FPRBound(32), 0.005)
}

func TestRangeFilterCorruptFailsOpen(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	keys := rangeTestKeySets(rng)["crdb"]
	f := rangeBuild(t, Config{BitsPerKey: 12, Seed: 1}, keys)
	policy, err := NewPolicy(nil, Config{BitsPerKey: 12, Seed: 1})
	require.NoError(t, err)
	bounds := policy.BoundsFilter([]byte{0xff}, []byte{0xff, 0})
	check := func(bad []byte, msg string) {
		require.True(t, MayIntersect(bad, []byte{0xff}, []byte{0xff, 0}), msg)
		prop := tableprops.Append(nil, map[string]string{rangeFilterProp: string(bad)})
		ok, err := bounds.Intersects(prop)
		require.NoError(t, err)
		require.True(t, ok, msg)
	}
	// Truncations and header flips must answer true, and be counted.
	for _, bad := range [][]byte{nil, f[:3], f[:len(f)/2], f[:len(f)-1], append(slices.Clone(f), 0)} {
		check(bad, "truncated or extended")
	}
	for i := 0; i < 40; i++ {
		c := slices.Clone(f)
		c[i] ^= 1 << (i % 8)
		check(c, fmt.Sprintf("flip at %d", i))
	}
	require.Equal(t, uint64(45), policy.Counts().Corrupt)
	// A property that is not a property map is counted too.
	ok, err := bounds.Intersects([]byte{0xee})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint64(46), policy.Counts().Corrupt)
}

func TestRangeMayIntersectDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	keys := rangeTestKeySets(rng)["binary-long"]
	f := rangeBuild(t, Config{}, keys)
	lo, hi := rangeNeighbours(keys[10])[1], keys[11]
	allocs := testing.AllocsPerRun(100, func() { MayIntersect(f, lo, hi) })
	require.Zero(t, allocs)
}

// TestEliasFanoSelect64 checks the branch-free select in a word against
// the bit-by-bit definition.
func TestEliasFanoSelect64(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	words := []uint64{1, 1 << 63, ^uint64(0), 0x8000000000000001, 0x0101010101010101}
	for range 20000 {
		w := rng.Uint64()
		switch rng.IntN(3) {
		case 0:
			w &= rng.Uint64() & rng.Uint64() // sparse
		case 1:
			w |= rng.Uint64() | rng.Uint64() // dense
		}
		words = append(words, w)
	}
	for _, w := range words {
		k := uint(0)
		for i := uint(0); i < 64; i++ {
			if w&(1<<i) != 0 {
				if got := efSelect64(w, k); got != i {
					t.Fatalf("efSelect64(%#x, %d) = %d, want %d", w, k, got, i)
				}
				k++
			}
		}
	}
}

// TestRangeOneSegmentBoundsAtFirstKey checks the one-segment fast path of
// the segment search, which compares a bound with the first key only: both
// bounds at and around the smallest key, for exact and hashed filters, must
// never lose a key, and an exact filter must answer exactly when both bounds
// are table keys.
func TestRangeOneSegmentBoundsAtFirstKey(t *testing.T) {
	var keys [][]byte
	for i := range 200 {
		keys = append(keys, rangeDBBenchKey(uint64(100+7*i)))
	}
	for _, bpk := range []float64{4, 16, 40} {
		f := rangeBuild(t, Config{BitsPerKey: bpk, Seed: 3}, keys)
		info, err := Describe(f)
		require.NoError(t, err)
		require.Equal(t, 1, info.Segments)
		bounds := append(rangeNeighbours(keys[0]), rangeNeighbours(keys[1])...)
		bounds = append(bounds, nil, []byte{}, rangeDBBenchKey(99))
		for _, lo := range bounds {
			for _, hi := range bounds {
				want := rangeOracle(keys, lo, hi)
				got := MayIntersect(f, lo, hi)
				if want && !got {
					t.Fatalf("B=%g: false negative for [%q, %q)", bpk, lo, hi)
				}
			}
		}
		if !info.Hashed {
			for i := range 3 {
				for j := range 3 {
					require.Equal(t, rangeOracle(keys, keys[i], keys[j]), MayIntersect(f, keys[i], keys[j]),
						"B=%g [%q, %q)", bpk, keys[i], keys[j])
				}
			}
		}
	}
}

// TestRangeSegmentBoundsAtSegmentEdges checks the segment search of a
// table of several segments, where the upper bound first tries the lower
// bound's segment: bounds at and around every segment's first and last key,
// in every pair, must never lose a key, and an exact filter must answer
// exactly when both bounds are table keys.
func TestRangeSegmentBoundsAtSegmentEdges(t *testing.T) {
	var list rangeKeyList
	var keys [][]byte
	// Lock-table keys, then ids of three varint lengths: four segments.
	for i := range uint64(8) {
		k := append([]byte("\x01zk"), rangeCRDBPrefix(1000*i)...)
		list.add(k)
		keys = append(keys, k)
	}
	for _, base := range []uint64{200, 20_000, 3_000_000} {
		for i := range uint64(300) {
			k := rangeCRDBPrefix(base + 3*i)
			list.add(k)
			keys = append(keys, k)
		}
	}
	starts := rangeSegmentStarts(&list)
	require.GreaterOrEqual(t, len(starts), 3)
	var edges [][]byte
	for i, s := range starts {
		edges = append(edges, rangeNeighbours(keys[s])...)
		edges = append(edges, rangeNeighbours(keys[max(s, 1)-1])...)
		if i == len(starts)-1 {
			edges = append(edges, rangeNeighbours(keys[len(keys)-1])...)
		}
	}
	edges = append(edges, nil, []byte{})
	for _, bpk := range []float64{4, 16, 40} {
		f := rangeBuild(t, Config{BitsPerKey: bpk, Seed: 7}, keys)
		info, err := Describe(f)
		require.NoError(t, err)
		require.Equal(t, len(starts), info.Segments)
		for _, lo := range edges {
			for _, hi := range edges {
				if rangeOracle(keys, lo, hi) && !MayIntersect(f, lo, hi) {
					t.Fatalf("B=%g: false negative for [%q, %q)", bpk, lo, hi)
				}
			}
		}
		if !info.Hashed {
			for _, i := range starts {
				for _, j := range starts {
					for _, d := range []int{-1, 0, 1} {
						hi := keys[min(max(j+d, 0), len(keys)-1)]
						require.Equal(t, rangeOracle(keys, keys[i], hi), MayIntersect(f, keys[i], hi),
							"B=%g [%q, %q)", bpk, keys[i], hi)
					}
				}
			}
		}
	}
}
