package pebble

import (
	"bytes"
	"testing"

	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// openStaggered opens a DB with plugins and flushes runs overlapping
// staggered key ranges of 80 keys, 50 apart: one L0 sublevel each.
func openStaggered(t *testing.T, plugins Plugins, runs int) *DB {
	db := openTestDB(t, nil, plugins)
	for r := 0; r < runs; r++ {
		flushTable(t, db, "v", keysOf("k%04d", r*50, r*50+80, 1)...)
	}
	return db
}

// TestRangeQueryDropIn reads the same bounded ranges through NewIter and
// NewRangeQuery on a DB with staggered L0 sublevels and expects the same
// keys, under every plan.
func TestRangeQueryDropIn(t *testing.T) {
	db := openStaggered(t, Plugins{Statistics: true}, 8)
	scan := func(it interface {
		SeekGE([]byte) bool
		Next() bool
		Key() []byte
		Close() error
	}, from []byte) (keys [][]byte) {
		for valid := it.SeekGE(from); valid; valid = it.Next() {
			keys = append(keys, bytes.Clone(it.Key()))
		}
		require.NoError(t, it.Close())
		return keys
	}
	for _, plan := range []querybuilder.Plan{querybuilder.PlanAuto, querybuilder.PlanPlain, querybuilder.PlanStepped, querybuilder.PlanPrefix} {
		for _, b := range [][2]string{{"k0100", "k0300"}, {"k0042", "k0042\x00"}, {"", ""}} {
			o := &IterOptions{}
			if b[0] != "" {
				o.LowerBound, o.UpperBound = []byte(b[0]), []byte(b[1])
			}
			it, err := db.NewIter(o)
			require.NoError(t, err)
			q, err := db.NewRangeQuery(o, &RangeQueryOptions{Plan: plan})
			require.NoError(t, err)
			from := []byte("k0120")
			want := scan(it, from)
			require.Equal(t, want, scan(q, from), "plan %s bounds %q", plan, b)
		}
	}
}

// TestRangeQueryStatistics checks that reads through range queries reach
// the seek statistics as ordinary iterator reads do: the same walk through
// NewIter and through a plain-planned NewRangeQuery moves every ticker by
// the same amount, and under the other plans every seek is still counted
// and the L0 tables' data-block loads are still attributed.
func TestRangeQueryStatistics(t *testing.T) {
	db := openStaggered(t, Plugins{Statistics: true}, 4)
	type walker interface {
		SeekGE([]byte) bool
		SeekPrefixGE([]byte) bool
		SeekLT([]byte) bool
		First() bool
		Last() bool
		Next() bool
		Valid() bool
		Value() []byte
		SetBounds(lower, upper []byte)
		Close() error
	}
	walk := func(it walker) {
		for _, k := range []string{"k0010", "k0120", "k0199", "k0300"} {
			for ok, n := it.SeekGE([]byte(k)), 0; ok && n < 3; ok, n = it.Next(), n+1 {
				_ = it.Value()
			}
		}
		if it.SeekPrefixGE([]byte("k0042")) {
			_ = it.Value()
		}
		if it.SeekLT([]byte("k0150")) {
			_ = it.Value()
		}
		require.True(t, it.First())
		_ = it.Value()
		require.True(t, it.Last())
		it.SetBounds([]byte("k0060"), []byte("k0170"))
		if it.SeekGE([]byte("k0100")) {
			_ = it.Value()
		}
		require.NoError(t, it.Close())
	}
	s := db.Statistics().PerLevel()
	tickers := func() map[string]uint64 {
		sn := s.Snapshot()
		m := map[string]uint64{}
		for _, c := range sn.Tickers() {
			m[c.Name] = uint64(c.Count)
		}
		s.Reset()
		return m
	}
	s.Reset()
	it, err := db.NewIter(nil)
	require.NoError(t, err)
	walk(it)
	want := tickers()
	require.EqualValues(t, 9, want["rocksdb.number.db.seek"])
	require.NotZero(t, want["pebblerf.l0.seek.data"])

	for _, plan := range []querybuilder.Plan{querybuilder.PlanPlain, querybuilder.PlanAuto, querybuilder.PlanStepped, querybuilder.PlanPrefix} {
		q, err := db.NewRangeQuery(nil, &RangeQueryOptions{Plan: plan})
		require.NoError(t, err)
		walk(q)
		got := tickers()
		if plan == querybuilder.PlanPlain {
			require.Equal(t, want, got)
			continue
		}
		for _, name := range []string{"rocksdb.number.db.seek", "rocksdb.number.db.seek.found"} {
			require.Equal(t, want[name], got[name], "plan %s: %s", plan, name)
		}
		require.NotZero(t, got["pebblerf.l0.seek.data"], "plan %s", plan)
		require.NotZero(t, got["pebblerf.l0.seek.data.useful.no.filter"], "plan %s", plan)
	}

	// Explain's probes are not the caller's reads.
	_, err = db.RangeQueries(RangeQueryOptions{}).Explain(nil, []byte("k0010"), 1)
	require.NoError(t, err)
	require.Zero(t, tickers()["rocksdb.number.db.seek"])
}

// TestRangeQueryOverBatch checks that a range query over an indexed batch
// sees the batch as upstream's iterator does: widening its bounds must not
// refresh its view of the batch, which rebuilding it for a range filter
// through SetOptions would, so such a query gets no range filter.
func TestRangeQueryOverBatch(t *testing.T) {
	db := openStaggered(t, Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}}, 2)
	count := func(it interface {
		First() bool
		Next() bool
	}) (n int) {
		for valid := it.First(); valid; valid = it.Next() {
			n++
		}
		return n
	}
	for _, plan := range []querybuilder.Plan{querybuilder.PlanAuto, querybuilder.PlanPlain, querybuilder.PlanStepped} {
		b := db.NewIndexedBatch()
		require.NoError(t, b.Set([]byte("k0010a"), []byte("v"), nil))
		narrow := &IterOptions{LowerBound: []byte("k0010"), UpperBound: []byte("k0011")}
		up, err := b.Batch.NewIter(narrow)
		require.NoError(t, err)
		q, err := db.RangeQueries(RangeQueryOptions{Plan: plan}).NewIterFrom(b.Batch, narrow)
		require.NoError(t, err)
		// Written after both iterators were opened: neither may see it.
		require.NoError(t, b.Set([]byte("k0020a"), []byte("v"), nil))
		up.SetBounds([]byte("k0000"), []byte("k0100"))
		q.SetBounds([]byte("k0000"), []byte("k0100"))
		want := count(up)
		require.Equal(t, 101, want, "upstream's view of the batch")
		require.Equal(t, want, count(q), "plan %s", plan)
		require.NoError(t, up.Close())
		require.NoError(t, q.Close())
		require.NoError(t, b.Close())
	}
}
