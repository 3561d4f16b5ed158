package querybuilder

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/stretchr/testify/require"
)

// fixedPrefixComparer splits bytewise keys after their first 4 bytes, as a
// fixed-length prefix extractor does. Its ImmediateSuccessor increments the
// prefix: keys of at most 4 bytes are the bare prefixes, and the smallest
// one above a 4-byte prefix is the prefix plus one.
var fixedPrefixComparer = func() *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Name = "querybuilder.fixed4"
	c.Split = func(k []byte) int { return min(len(k), 4) }
	c.ImmediateSuccessor = func(dst, a []byte) []byte {
		n := bytes.Clone(a)
		for i := len(n) - 1; i >= 0; i-- {
			if n[i]++; n[i] != 0 {
				return append(dst, n[:i+1]...)
			}
		}
		return append(dst, a...)
	}
	return &c
}()

func withBloom(o *pebble.Options) {
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
}

func withCockroachKVs(o *pebble.Options) {
	withBloom(o)
	o.KeySchema = cockroachkvs.KeySchema.Name
	o.KeySchemas = sstable.MakeKeySchemas(&cockroachkvs.KeySchema)
}

func TestWithinOnePrefix(t *testing.T) {
	mvcc := func(k string, ts uint64) []byte { return cockroachkvs.EncodeMVCCKey(nil, []byte(k), ts, 0) }
	for _, tc := range []struct {
		cmp          *pebble.Comparer
		lower, upper []byte
		want         bool
	}{
		{pebble.DefaultComparer, []byte("a"), []byte("a\x00"), true},
		{pebble.DefaultComparer, []byte("a"), []byte("b"), false},
		{pebble.DefaultComparer, nil, []byte("a\x00"), false},
		{pebble.DefaultComparer, []byte("a"), nil, false},
		{&cockroachkvs.Comparer, mvcc("a", 9), mvcc("a", 2), true},
		{&cockroachkvs.Comparer, mvcc("a", 0), mvcc("a", 0)[:2:2], true},
		{&cockroachkvs.Comparer, mvcc("a", 0), append(mvcc("a", 0), 0), true},
		{&cockroachkvs.Comparer, mvcc("a", 9), mvcc("b", 0), false},
		{fixedPrefixComparer, []byte("u001"), []byte("u002"), true},
		{fixedPrefixComparer, []byte("u001xyz"), []byte("u001zz"), true},
		{fixedPrefixComparer, []byte("u001"), []byte("u003"), false},
	} {
		require.Equal(t, tc.want, withinOnePrefix(tc.cmp, tc.lower, tc.upper), "[%q, %q)", tc.lower, tc.upper)
	}
}

// mvccLSM writes versions of roachKeys in staggered flushes and returns the
// roach keys it wrote.
func mvccLSM(d *testDB, rng *rand.Rand, keys int) {
	for r := 0; r < 12; r++ {
		b := d.db.NewBatch()
		for k := r * keys / 16; k < r*keys/16+keys/4 && k < keys; k++ {
			if rng.IntN(3) == 0 {
				continue
			}
			key := cockroachkvs.EncodeMVCCKey(nil, fmt.Appendf(nil, "r%04d", k), uint64(1+r*10+rng.IntN(9)), 0)
			require.NoError(d.t, b.Set(key, fmt.Appendf(nil, "v%d.%d", k, r), nil))
		}
		require.NoError(d.t, b.Commit(pebble.NoSync))
		require.NoError(d.t, d.db.Flush())
	}
}

// TestPrefixDifferentialCockroachKVs walks queries over MVCC keys, a third
// of them over one key's versions, against plain iterators.
func TestPrefixDifferentialCockroachKVs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := openTestDB(t, &cockroachkvs.Comparer, withCockroachKVs)
	const keys = 300
	mvccLSM(d, rng, keys)
	roach := func() []byte { return fmt.Appendf(nil, "r%04d", rng.IntN(keys+5)) }
	randKey := func() []byte {
		return cockroachkvs.EncodeMVCCKey(nil, roach(), uint64(rng.IntN(130)), 0)
	}
	w := &walker{t: t, rng: rng, randKey: randKey}
	w.randBounds = func() ([]byte, []byte) {
		switch rng.IntN(3) {
		case 0:
			// One key's versions between two timestamps (newer first).
			// Timestamp 0 would encode the bare key, which sorts before
			// every version, so the lower one is at least 1.
			k := roach()
			hi := uint64(1 + rng.IntN(130))
			lo := uint64(1 + rng.IntN(int(hi)))
			return cockroachkvs.EncodeMVCCKey(nil, k, hi, 0), cockroachkvs.EncodeMVCCKey(nil, k, lo, 0)
		case 1:
			// All of one key's versions: [k\x00, ImmediateSuccessor(k\x00)).
			p := append(roach(), 0)
			return p, cockroachkvs.Comparer.ImmediateSuccessor(nil, p)
		}
		a, b := append(roach(), 0), append(roach(), 0)
		if cockroachkvs.Comparer.Compare(a, b) > 0 {
			a, b = b, a
		}
		return a, b
	}
	var stats QueryStats
	for _, plan := range []Plan{PlanAuto, PlanStepped} {
		addStats(&stats, w.walk(New(d.db, Options{Comparer: &cockroachkvs.Comparer, Plan: plan}), d.db, 15_000))
	}
	require.Greater(t, stats.PrefixSeeks, 500)
	require.Greater(t, stats.Steps, 500)
}

// TestPrefixDifferentialFixedLength does the same under a fixed-length
// prefix comparer.
func TestPrefixDifferentialFixedLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := openTestDB(t, fixedPrefixComparer, withBloom)
	key := func(p, s int) []byte { return fmt.Appendf(nil, "u%03d%03d", p, s) }
	for r := 0; r < 10; r++ {
		for p := r * 8; p < r*8+20; p++ {
			for s := 0; s < 5; s++ {
				require.NoError(t, d.db.Set(key(p, rng.IntN(50)), []byte("v"), pebble.NoSync))
			}
		}
		require.NoError(t, d.db.Flush())
	}
	w := &walker{t: t, rng: rng, randKey: func() []byte { return key(rng.IntN(100), rng.IntN(55)) }}
	w.randBounds = func() ([]byte, []byte) {
		p := rng.IntN(100)
		if rng.IntN(2) == 0 {
			return key(p, 0)[:4], fmt.Appendf(nil, "u%03d", p+1)
		}
		return key(p, 0)[:4], key(p+rng.IntN(3), rng.IntN(55))
	}
	stats := w.walk(New(d.db, Options{Comparer: fixedPrefixComparer}), d.db, 15_000)
	require.Greater(t, stats.PrefixSeeks, 500)
}

// TestPrefixModePrunes checks that prefix mode is what lets the Bloom
// filters skip tables: a scan over the versions of a key that only one run
// holds loads fewer block bytes planned than plain, and the filters report
// hits only for the planned query.
func TestPrefixModePrunes(t *testing.T) {
	d := openTestDB(t, &cockroachkvs.Comparer, withCockroachKVs)
	// Every flush spans the same key range, so bounds alone skip nothing;
	// r0501 exists only in the last flush. Values are random so that data
	// blocks, not filter blocks, dominate the bytes.
	rng := rand.New(rand.NewPCG(1, 1))
	value := make([]byte, 100)
	for r := 0; r < 8; r++ {
		for k := 0; k < 1000; k += 2 {
			key := cockroachkvs.EncodeMVCCKey(nil, fmt.Appendf(nil, "r%04d", k+r/7), uint64(r+1), 0)
			for i := range value {
				value[i] = byte(rng.Uint32())
			}
			require.NoError(t, d.db.Set(key, value, pebble.NoSync))
		}
		require.NoError(t, d.db.Flush())
	}
	p := []byte("r0501\x00")
	o := &pebble.IterOptions{LowerBound: p, UpperBound: cockroachkvs.Comparer.ImmediateSuccessor(nil, p)}
	scan := func(plan Plan) (keys int, blockBytes uint64, filterHits int64) {
		before := d.db.Metrics().Filter.Hits
		q, err := New(d.db, Options{Comparer: &cockroachkvs.Comparer, Plan: plan}).NewIter(o)
		require.NoError(t, err)
		for valid := q.First(); valid; valid = q.Next() {
			keys++
		}
		blockBytes = q.Stats().InternalStats.BlockBytes
		require.NoError(t, q.Close())
		return keys, blockBytes, d.db.Metrics().Filter.Hits - before
	}
	pk, pb, ph := scan(PlanPlain)
	qk, qb, qh := scan(PlanAuto)
	require.Equal(t, 1, pk)
	require.Equal(t, pk, qk)
	require.Zero(t, ph, "a plain scan never consults prefix filters")
	require.GreaterOrEqual(t, qh, int64(6), "prefix mode consults the filters of the runs without the key")
	require.Less(t, qb, pb/2)
	t.Logf("block bytes: plain %d, prefix mode %d; filter hits %d", pb, qb, qh)
}

// TestComparerMismatch checks that a Builder refuses a comparer other than
// the one the DB's tables were written with.
func TestComparerMismatch(t *testing.T) {
	d := openTestDB(t, fixedPrefixComparer, nil)
	q, err := New(d.db, Options{}).NewIter(nil)
	require.NoError(t, err, "nothing to check against before the first table")
	require.NoError(t, q.Close())
	require.NoError(t, d.db.Set([]byte("u001a"), nil, pebble.NoSync))
	require.NoError(t, d.db.Flush())
	_, err = New(d.db, Options{}).NewIter(nil)
	require.ErrorContains(t, err, `comparer "leveldb.BytewiseComparator" given, but the DB's tables use "querybuilder.fixed4"`)
	q, err = New(d.db, Options{Comparer: fixedPrefixComparer}).NewIter(nil)
	require.NoError(t, err)
	require.True(t, q.First())
	require.NoError(t, q.Close())
}
