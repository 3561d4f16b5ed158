// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// rangeDiffKind is a key kind for the differential test: how to make a user
// key from a key position and a version, and the comparer that orders it.
type rangeDiffKind struct {
	name     string
	comparer *pebble.Comparer
	schema   *pebble.KeySchema
	// key returns the user key of position i, version v (0: unversioned).
	key func(i uint64, v uint64) []byte
}

func rangeDiffKinds() []rangeDiffKind {
	longPrefix := bytes.Repeat([]byte("tenant/0042/table/users/"), 3)
	return []rangeDiffKind{
		{name: "dbbench", key: func(i, _ uint64) []byte { return rangeDBBenchKey(i) }},
		{name: "long-prefix", key: func(i, _ uint64) []byte {
			return binary.BigEndian.AppendUint32(slices.Clone(longPrefix), uint32(i))
		}},
		{name: "binary", key: func(i, _ uint64) []byte {
			// Variable length, 0x00 and 0xff bytes, keys that prefix others.
			k := binary.BigEndian.AppendUint16(nil, uint16(i>>3))
			return append(k, bytes.Repeat([]byte{0xff}, int(i&7)>>1)...)
		}},
		{name: "crdb", comparer: &cockroachkvs.Comparer, schema: &cockroachkvs.KeySchema,
			key: func(i, v uint64) []byte { return cockroachkvs.AppendTimestamp(rangeCRDBPrefix(i), v, 0) }},
	}
}

// TestRangeFilterPebbleDifferential runs random writes (sets, merges,
// deletions, single deletions, range deletions, ingests) with flushes and
// compactions on upstream Pebble with the range-filter collector, and random
// bounded scans in both directions, each with and without the bounds filter
// (fresh iterators, and one iterator re-bounded through SetOptions): the
// results must be identical, and the filter must have saved block reads.
func TestRangeFilterPebbleDifferential(t *testing.T) {
	queries := 3000
	if testing.Short() || rangeRace {
		queries = 300
	}
	for _, kind := range rangeDiffKinds() {
		t.Run(kind.name, func(t *testing.T) {
			rangeDifferential(t, kind, queries, uint64(len(kind.name)))
		})
	}
}

func rangeDifferential(t *testing.T, kind rangeDiffKind, queries int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	policy, err := NewPolicy(kind.comparer, Config{BitsPerKey: 10})
	require.NoError(t, err)
	fs := vfs.NewMem()
	opts := &pebble.Options{
		FS:                          fs,
		Comparer:                    kind.comparer,
		Merger:                      pebble.DefaultMerger,
		MemTableSize:                64 << 10,
		L0CompactionThreshold:       8,
		L0StopWritesThreshold:       1000,
		DisableAutomaticCompactions: true,
		BlockPropertyCollectors:     []func() pebble.BlockPropertyCollector{policy.Collector()},
	}
	if kind.schema != nil {
		opts.KeySchema = kind.schema.Name
		opts.KeySchemas = sstable.MakeKeySchemas(kind.schema)
	}
	opts.EnsureDefaults()
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()

	// Positions are sparse in [0, space) so that tables have gaps.
	const space = 1 << 16
	version := uint64(1)
	setOnce := map[uint64]bool{} // positions set exactly once since a delete
	key := func(i uint64) []byte {
		if kind.comparer != nil {
			version++
			return kind.key(i, version)
		}
		return kind.key(i, 0)
	}
	bare := func(i uint64) []byte { return kind.key(i, 0) }
	clustered := func() uint64 {
		// Writes come in runs, so each flushed table covers a few regions.
		return (rng.Uint64N(64)*1024 + rng.Uint64N(200)) % space
	}
	ingests := 0
	write := func(n int) {
		for range n {
			i := clustered()
			switch r := rng.IntN(100); {
			case r < 65:
				require.NoError(t, db.Set(key(i), []byte(fmt.Sprint(i)), nil))
				setOnce[i] = !setOnce[i] && kind.comparer == nil
			case r < 75:
				require.NoError(t, db.Merge(key(i), []byte("+m"), nil))
				setOnce[i] = false
			case r < 85:
				require.NoError(t, db.Delete(key(i), nil))
				delete(setOnce, i)
			case r < 90:
				if setOnce[i] {
					require.NoError(t, db.SingleDelete(key(i), nil))
					delete(setOnce, i)
				}
			case r < 92:
				j := i + rng.Uint64N(40)
				require.NoError(t, db.DeleteRange(bare(i), bare(j), nil))
				clear(setOnce)
			default:
				if rng.IntN(20) == 0 {
					rangeIngest(t, db, opts, fs, ingests, rng, kind, bare)
					ingests++
				}
			}
		}
	}
	var plainBytes, filteredBytes uint64
	writes := 1500
	if rangeRace {
		writes = 300
	}
	for round := range 10 {
		write(writes)
		require.NoError(t, db.Flush())
		if round%4 == 3 {
			lo := clustered()
			require.NoError(t, db.Compact(context.Background(), bare(lo), bare(lo+5000), false))
		}
		// An iterator reads the state it was created in: one per round,
		// re-bounded with SetOptions for every query.
		reused, err := db.NewIter(nil)
		require.NoError(t, err)
		for q := range queries / 10 {
			var lower, upper []byte
			lo := rng.Uint64N(space)
			if rng.IntN(2) == 0 {
				lo = clustered()
			}
			lower = bare(lo)
			if rng.IntN(3) == 0 {
				lower = append(slices.Clone(lower), 0) // just past a key
			}
			upper = bare(lo + 1 + rng.Uint64N(uint64(2<<rng.IntN(8))))
			if q%50 == 0 {
				lower = nil
			}
			if q%70 == 0 {
				upper = nil
			}
			if lower != nil && upper != nil && bytes.Compare(lower, upper) >= 0 {
				upper = append(slices.Clone(lower), 0)
			}
			reverse := rng.IntN(2) == 0
			io := &pebble.IterOptions{LowerBound: lower, UpperBound: upper}
			want, wb := rangeScan(t, db, io, nil, reverse)
			got, gb := rangeScan(t, db, policy.AttachBoundsFilter(io), nil, reverse)
			rangeRequireSame(t, want, got, "bounds [%x, %x) reverse=%v", lower, upper, reverse)
			// The same through SetOptions on a long-lived iterator.
			got2, _ := rangeScan(t, db, policy.AttachBoundsFilter(io), reused, reverse)
			rangeRequireSame(t, want, got2, "SetOptions, bounds [%x, %x)", lower, upper)
			// And with the filter in a slot, aliasing the bounds.
			owned := &pebble.IterOptions{LowerBound: slices.Clone(lower), UpperBound: slices.Clone(upper)}
			policy.attachOwned(owned, &boundsFilterSlot{})
			got3, _ := rangeScan(t, db, owned, nil, reverse)
			rangeRequireSame(t, want, got3, "owned, bounds [%x, %x)", lower, upper)
			plainBytes += wb
			filteredBytes += gb
		}
		require.NoError(t, reused.Close())
	}
	t.Logf("%d queries, block bytes plain %d, filtered %d; ingests %d", queries, plainBytes, filteredBytes, ingests)
	// Every table written with the collector carries a decodable filter.
	levels, err := db.SSTables(pebble.WithProperties())
	require.NoError(t, err)
	tables := 0
	for _, level := range levels {
		for _, tbl := range level {
			if tbl.Virtual {
				continue // Pebble drops virtual tables' user properties
			}
			f, ok, err := FromUserProperties(tbl.Properties.UserProperties)
			require.NoError(t, err)
			require.True(t, ok, "table %s has no range filter", tbl.FileNum)
			info, err := Describe(f)
			require.NoError(t, err)
			require.False(t, info.Universal)
			tables++
		}
	}
	require.Positive(t, tables)
	require.Less(t, filteredBytes, plainBytes, "the filter never skipped a table")
}

// rangeRequireSame fails with the first difference, not a diff of
// thousands of keys.
func rangeRequireSame(t *testing.T, want, got []string, format string, args ...any) {
	t.Helper()
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			t.Fatalf("%s: result %d is %s, want %s", fmt.Sprintf(format, args...), i, got[i], want[i])
		}
	}
	if len(want) != len(got) {
		t.Fatalf("%s: %d results, want %d", fmt.Sprintf(format, args...), len(got), len(want))
	}
}

// rangeScan returns the key/value pairs within io's bounds and the block
// bytes the scan loaded. With it non-nil the iterator is re-bounded with
// SetOptions instead of created.
func rangeScan(t *testing.T, db *pebble.DB, io *pebble.IterOptions, it *pebble.Iterator, reverse bool) ([]string, uint64) {
	if it == nil {
		var err error
		it, err = db.NewIter(io)
		require.NoError(t, err)
		defer func() { require.NoError(t, it.Close()) }()
	} else {
		it.SetOptions(io)
		it.ResetStats()
	}
	var out []string
	if reverse {
		for valid := it.Last(); valid; valid = it.Prev() {
			out = append(out, fmt.Sprintf("%x=%s", it.Key(), it.Value()))
		}
	} else {
		for valid := it.First(); valid; valid = it.Next() {
			out = append(out, fmt.Sprintf("%x=%s", it.Key(), it.Value()))
		}
	}
	require.NoError(t, it.Error())
	return out, it.Stats().InternalStats.BlockBytes
}

// rangeIngest writes a small sstable with the range-filter collector and
// ingests it.
func rangeIngest(t *testing.T, db *pebble.DB, opts *pebble.Options, fs vfs.FS, n int, rng *rand.Rand, kind rangeDiffKind, key func(uint64) []byte) {
	path := fmt.Sprintf("ingest-%d.sst", n)
	f, err := fs.Create(path, vfs.WriteCategoryUnspecified)
	require.NoError(t, err)
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), opts.MakeWriterOptions(0, db.TableFormat()))
	start := rng.Uint64N(1 << 16)
	var prev []byte
	for i := start; i < start+200; i += 1 + rng.Uint64N(7) {
		k := key(i)
		if kind.comparer != nil {
			k = kind.key(i, 1)
		}
		if bytes.Equal(k, prev) {
			continue // the binary kind maps neighbouring positions to one key
		}
		require.NoError(t, w.Set(k, []byte("ingested")))
		prev = k
	}
	require.NoError(t, w.Close())
	require.NoError(t, db.Ingest(context.Background(), []string{path}))
}

// TestRangeFilterPolicyBounds checks the translation of bounds into Split
// prefixes with CockroachDB keys, and AttachBoundsFilter's slice handling.
func TestRangeFilterPolicyBounds(t *testing.T) {
	p, err := NewPolicy(&cockroachkvs.Comparer, Config{})
	require.NoError(t, err)
	f := p.BoundsFilter(cockroachkvs.AppendTimestamp(rangeCRDBPrefix(5), 10, 0), rangeCRDBPrefix(9)).(*rangeBoundsFilter)
	require.Equal(t, rangeCRDBPrefix(5), f.lower)
	require.Equal(t, rangeCRDBPrefix(9), f.upper) // a bare prefix stays exclusive
	f = p.BoundsFilter(nil, cockroachkvs.AppendTimestamp(rangeCRDBPrefix(9), 10, 0)).(*rangeBoundsFilter)
	require.Nil(t, f.lower)
	require.Equal(t, append(rangeCRDBPrefix(9), 0), f.upper) // versions of 9 below upper count

	other := p.BoundsFilter(nil, nil)
	io := &pebble.IterOptions{LowerBound: rangeCRDBPrefix(1), UpperBound: rangeCRDBPrefix(2), PointKeyFilters: []pebble.BlockPropertyFilter{other}}
	o1 := p.AttachBoundsFilter(io)
	require.Len(t, o1.PointKeyFilters, 1, "the old bounds filter is replaced")
	require.GreaterOrEqual(t, cap(o1.PointKeyFilters), len(o1.PointKeyFilters)+1)
	require.Same(t, io.PointKeyFilters[0], other, "the caller's options are not changed")
	o2 := p.AttachBoundsFilter(&pebble.IterOptions{})
	require.Empty(t, o2.PointKeyFilters)
}

// TestAttachOwned checks that the in-place attach builds the same
// filter as AttachBoundsFilter, keeps the caller's other filters with room
// for one more, and allocates nothing where bounds are whole prefixes.
func TestAttachOwned(t *testing.T) {
	crdb, err := NewPolicy(&cockroachkvs.Comparer, Config{})
	require.NoError(t, err)
	lower, upper := rangeCRDBPrefix(5), cockroachkvs.AppendTimestamp(rangeCRDBPrefix(9), 10, 0)
	var slot boundsFilterSlot
	o := &pebble.IterOptions{LowerBound: lower, UpperBound: upper}
	crdb.attachOwned(o, &slot)
	want := crdb.BoundsFilter(lower, upper).(*rangeBoundsFilter)
	require.Equal(t, []pebble.BlockPropertyFilter{&slot.f}, o.PointKeyFilters)
	require.Equal(t, want.lower, slot.f.lower)
	require.Equal(t, want.upper, slot.f.upper)

	other := crdb.BoundsFilter(nil, nil)
	keep := []pebble.BlockPropertyFilter{rangeOtherFilter{}, other}
	o = &pebble.IterOptions{LowerBound: lower, PointKeyFilters: keep}
	crdb.attachOwned(o, &boundsFilterSlot{})
	require.Len(t, o.PointKeyFilters, 2, "the old bounds filter is replaced")
	require.Equal(t, rangeOtherFilter{}, o.PointKeyFilters[0])
	require.GreaterOrEqual(t, cap(o.PointKeyFilters), len(o.PointKeyFilters)+1)
	many := []pebble.BlockPropertyFilter{rangeOtherFilter{}, rangeOtherFilter{}, rangeOtherFilter{}}
	o = &pebble.IterOptions{UpperBound: upper, PointKeyFilters: many}
	crdb.attachOwned(o, &boundsFilterSlot{})
	require.Len(t, o.PointKeyFilters, 4, "more filters than the slot holds")
	require.GreaterOrEqual(t, cap(o.PointKeyFilters), 5)

	plain, err := NewPolicy(nil, Config{})
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		o := pebble.IterOptions{LowerBound: lower, UpperBound: upper}
		plain.attachOwned(&o, &slot)
	})
	require.Zero(t, allocs)
}

// rangeOtherFilter stands for a caller's own block-property filter.
type rangeOtherFilter struct{}

func (rangeOtherFilter) Name() string                    { return "other" }
func (rangeOtherFilter) Intersects([]byte) (bool, error) { return true, nil }
func (rangeOtherFilter) SyntheticSuffixIntersects([]byte, []byte) (bool, error) {
	return true, nil
}

// TestPolicyCountsUniversal checks that a table whose prefixes arrive out
// of bytewise order gets a universal filter, counted by the policy that
// wrote it and by no other.
func TestPolicyCountsUniversal(t *testing.T) {
	policy, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	other, err := NewPolicy(nil, Config{BitsPerKey: 16})
	require.NoError(t, err)
	write := func(keys ...string) []byte {
		c := policy.Collector()()
		for _, k := range keys {
			require.NoError(t, c.AddPointKey(pebble.MakeInternalKey([]byte(k), 1, pebble.InternalKeyKindSet), nil))
		}
		prop, err := c.FinishTable(nil)
		require.NoError(t, err)
		return prop
	}
	write("a", "b", "c")
	require.Zero(t, policy.Counts().Universal)
	prop := write("b", "a")
	require.Equal(t, uint64(1), policy.Counts().Universal)
	require.Zero(t, other.Counts().Universal)
	ok, err := policy.BoundsFilter([]byte("x"), []byte("y")).Intersects(prop)
	require.NoError(t, err)
	require.True(t, ok, "a universal filter intersects every range")
	require.Zero(t, policy.Counts().Corrupt, "a universal filter is not a corrupt one")
}

// TestPolicyReusesBuilders checks that a builder kept between tables
// carries nothing of the table before into the next one's filter (not its
// keys, not a disorder, not its bits per key), also into another policy's,
// and that the process keeps a bounded number of bounded builders.
func TestPolicyReusesBuilders(t *testing.T) {
	p, err := NewPolicy(nil, Config{Seed: 7})
	require.NoError(t, err)
	// n random keys over 64 bits, so that the filters are hashed, where
	// the bits per key decide their size.
	keys := func(seed uint64, n int) [][]byte {
		rng := rand.New(rand.NewPCG(seed, 0))
		vs := make([]uint64, n)
		for i := range vs {
			vs[i] = rng.Uint64()
		}
		slices.Sort(vs)
		var ks [][]byte
		for _, v := range vs {
			ks = append(ks, binary.BigEndian.AppendUint64([]byte("key"), v))
		}
		return ks
	}
	build := func(b *Builder, ks [][]byte) []byte {
		for _, k := range ks {
			_ = b.Add(k)
		}
		return b.Finish(nil)
	}
	fresh := func(bits float64, ks [][]byte) []byte {
		b, err := NewBuilder(Config{Seed: 7, BitsPerKey: bits})
		require.NoError(t, err)
		return build(b, ks)
	}

	other, err := NewPolicy(nil, Config{Seed: 7})
	require.NoError(t, err)
	for len(spareBuilders) > 0 { // other tests' spares
		<-spareBuilders
	}
	b := other.builder(16)
	build(b, append(keys(1, 3000), []byte("a"))) // out of order: universal
	release(b)
	for _, tc := range []struct {
		bits float64
		keys [][]byte
	}{
		{8, keys(2, 200)},
		{24, keys(3, 5000)},
		{16, keys(4, 10)},
	} {
		r := p.builder(tc.bits)
		require.Same(t, b, r, "the spare is taken")
		want := fresh(tc.bits, tc.keys)
		info, err := Describe(want)
		require.NoError(t, err)
		require.True(t, info.Hashed, "the test needs hashed filters")
		require.Equal(t, want, build(r, tc.keys), "bits %v", tc.bits)
		release(r)
	}

	for range 2 * maxSpares {
		release(&Builder{})
	}
	require.Len(t, spareBuilders, maxSpares)
	for range maxSpares {
		<-spareBuilders
	}
	big := &Builder{}
	big.keys.arena = make([]byte, 0, spareMaxBytes+1)
	release(big)
	require.Empty(t, spareBuilders, "a builder holding more than spareMaxBytes is not kept")
}
