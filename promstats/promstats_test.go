// Copyright 2026 The pebblerf Authors. All rights reserved.

package promstats

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/objstore"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"
)

// openDB opens an in-memory DB with Bloom filters on every level and, if
// perLevel, the per-level statistics in exact mode (which also credits
// values read from the memtables), without automatic compactions, so that
// the levels hold what the test puts there.
func openDB(t *testing.T, perLevel bool) *pebble.DB {
	t.Helper()
	opts := &pebble.Options{FS: vfs.NewMem(), DisableAutomaticCompactions: true, L0StopWritesThreshold: 100,
		Logger: quietLogger{}}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	db, err := pebble.OpenWithPlugins("db", opts, pebble.Plugins{
		Statistics: perLevel, StatisticsConfig: seekstats.Config{ExactAttribution: true},
	})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

// readEverywhere puts keys in L6, L0 and the memtable, then reads them
// with Gets (present and absent) and bounded scans that read values, so
// that several rows of the statistics count.
func readEverywhere(t *testing.T, db *pebble.DB) {
	t.Helper()
	key := func(i int) []byte { return fmt.Appendf(nil, "key%05d", i) }
	set := func(from, to, step int) {
		for i := from; i < to; i += step {
			require.NoError(t, db.Set(key(i), []byte("v"), nil))
		}
	}
	set(0, 4000, 4) // multiples of 4: L6
	require.NoError(t, db.Flush())
	require.NoError(t, db.Compact(context.Background(), key(0), key(4000), false))
	set(1, 2000, 4) // 1 mod 4, the lower half: L0
	require.NoError(t, db.Flush())
	set(2, 400, 4) // 2 mod 4, the lowest tenth: the memtable

	for i := 0; i < 4000; i += 3 { // present and absent keys alike
		v, closer, err := db.Get(key(i))
		if err == nil {
			require.Equal(t, []byte("v"), v)
			require.NoError(t, closer.Close())
		} else {
			require.ErrorIs(t, err, pebble.ErrNotFound)
		}
	}
	for i := 0; i < 4000; i += 97 {
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: key(i), UpperBound: key(i + 5)})
		require.NoError(t, err)
		for valid := it.First(); valid; valid = it.Next() {
			require.Equal(t, []byte("v"), it.Value())
		}
		require.NoError(t, it.Close())
	}
}

// gather scrapes c through a pedantic registry, which also checks that
// Collect sends only what Describe described.
func gather(t *testing.T, c prometheus.Collector) []*dto.MetricFamily {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	require.NoError(t, reg.Register(c))
	mfs, err := reg.Gather()
	require.NoError(t, err)
	return mfs
}

// levelFields are the per-level metrics and the LevelCounts field each
// must equal, written out here rather than derived from the collector's
// tables, so that a kind exported under another kind's name fails.
var levelFields = map[string]func(seekstats.LevelCounts) uint64{
	"pebblerf_seek_filtered_total":                 func(c seekstats.LevelCounts) uint64 { return c.Filtered },
	"pebblerf_seek_filter_match_total":             func(c seekstats.LevelCounts) uint64 { return c.FilterMatch },
	"pebblerf_seek_data_total":                     func(c seekstats.LevelCounts) uint64 { return c.Data },
	"pebblerf_seek_data_useful_no_filter_total":    func(c seekstats.LevelCounts) uint64 { return c.UsefulNoFilter },
	"pebblerf_seek_data_useful_filter_match_total": func(c seekstats.LevelCounts) uint64 { return c.UsefulFilterMatch },
	"pebblerf_seek_filtered_range_total":           func(c seekstats.LevelCounts) uint64 { return c.FilteredRange },
	"pebblerf_seek_data_bounded_total":             func(c seekstats.LevelCounts) uint64 { return c.DataBounded },
	"pebblerf_seek_data_useful_bounded_total":      func(c seekstats.LevelCounts) uint64 { return c.UsefulBounded },
	"pebblerf_seek_data_needed_total":              func(c seekstats.LevelCounts) uint64 { return c.Needed },
	"pebblerf_seek_data_needed_filter_match_total": func(c seekstats.LevelCounts) uint64 { return c.NeededFilterMatch },
	"pebblerf_seek_data_needed_bounded_total":      func(c seekstats.LevelCounts) uint64 { return c.NeededBounded },
	"pebblerf_get_filter_useful_total":             func(c seekstats.LevelCounts) uint64 { return c.GetUseful },
	"pebblerf_get_filter_positive_total":           func(c seekstats.LevelCounts) uint64 { return c.GetPositive },
	"pebblerf_get_filter_true_positive_total":      func(c seekstats.LevelCounts) uint64 { return c.GetTruePositive },
}

// levelRows are the level label's values and the rows they name.
var levelRows = map[string]seekstats.Row{
	"memtables": seekstats.RowMemtables, "L0": seekstats.RowL0, "L1": seekstats.RowL1, "L2": seekstats.RowL2,
	"L3": seekstats.RowL3, "L4": seekstats.RowL4, "L5": seekstats.RowL5, "L6": seekstats.RowL6,
	"unattributed": seekstats.RowUnattributed,
}

// TestScrapeEqualsStatistics scrapes a DB whose reads touched the
// memtable, L0 and L6 and finds every per-level series equal to the
// per-level statistics and every other counter equal to its ticker.
func TestScrapeEqualsStatistics(t *testing.T) {
	db := openDB(t, true)
	readEverywhere(t, db)
	c := NewCollector(db)
	mfs := gather(t, c)
	stats := db.Statistics()
	sn := stats.PerLevel().Snapshot()

	tickerOf := tickerNames(t, stats)
	countedLevels := map[string]bool{}
	levelSeries, tickerSeries := 0, 0
	for _, mf := range mfs {
		require.NotEmpty(t, mf.GetHelp(), mf.GetName())
		if lsmGauges[mf.GetName()] {
			continue // TestLSMGauges
		}
		require.Equal(t, dto.MetricType_COUNTER, mf.GetType(), mf.GetName())
		if field, ok := levelFields[mf.GetName()]; ok {
			require.Len(t, mf.GetMetric(), int(seekstats.NumRows), mf.GetName())
			for _, m := range mf.GetMetric() {
				require.Len(t, m.GetLabel(), 1)
				require.Equal(t, "level", m.GetLabel()[0].GetName())
				level := m.GetLabel()[0].GetValue()
				row, ok := levelRows[level]
				require.True(t, ok, "level %q", level)
				want := field(sn.Rows[row])
				require.Equal(t, float64(want), m.GetCounter().GetValue(), "%s{level=%q}", mf.GetName(), level)
				if want > 0 {
					countedLevels[level] = true
				}
				levelSeries++
			}
			continue
		}
		name, ok := tickerOf[mf.GetName()]
		require.True(t, ok, "metric %s names no ticker", mf.GetName())
		require.Len(t, mf.GetMetric(), 1)
		require.Empty(t, mf.GetMetric()[0].GetLabel())
		require.Equal(t, float64(stats.Get(name)), mf.GetMetric()[0].GetCounter().GetValue(), "%s (%s)", mf.GetName(), name)
		tickerSeries++
	}
	require.Equal(t, len(levelFields)*int(seekstats.NumRows), levelSeries)
	require.Equal(t, len(tickerOf), tickerSeries)
	// The workload reached the memtable, L0 and L6, and the tickers saw it.
	for _, level := range []string{"memtables", "L0", "L6"} {
		require.True(t, countedLevels[level], "nothing counted at %s: %v", level, countedLevels)
	}
	require.NotZero(t, stats.Get("rocksdb.bloom.filter.useful"))
	require.NotZero(t, stats.Get("pebblerf.dbwide.number.db.seek"))
	require.Equal(t, levelSeries+tickerSeries+len(lsmGauges)*7, testutil.CollectAndCount(c))
	problems, err := testutil.CollectAndLint(c)
	require.NoError(t, err)
	require.Empty(t, problems)
}

// tickerNames returns, for each DB-wide or non-row ticker of stats that is
// exported (not a twin), the metric the naming rule gives it, written out
// here independently of the collector's: "pebblerf_", the name less
// "pebblerf.", dots as "_" with a word "bytes" moved last, "_total".
func tickerNames(t *testing.T, stats *pebble.Statistics) map[string]string {
	out := map[string]string{}
	for _, tk := range stats.Tickers() {
		if perRowOrGroup(tk.Name) || tk.Name == "rocksdb.number.db.seek" || tk.Name == "rocksdb.number.db.seek.found" {
			continue
		}
		words := strings.Split(strings.TrimPrefix(tk.Name, "pebblerf."), ".")
		if i := slices.Index(words, "bytes"); i >= 0 {
			words = append(slices.Delete(words, i, i+1), "bytes")
		}
		m := "pebblerf_" + strings.Join(words, "_") + "_total"
		_, dup := out[m]
		require.False(t, dup, "two tickers named %s", m)
		out[m] = tk.Name
	}
	return out
}

// perRowOrGroup reports whether name is a per-row ticker
// ("pebblerf.<row>.<kind>") or a sum of rows ("*.last.level.*",
// "*.non.last.level.*").
func perRowOrGroup(name string) bool {
	if strings.Contains(name, ".last.level.") {
		return true
	}
	for _, row := range []string{"memtable", "l0", "l1", "l2", "l3", "l4", "l5", "l6", "unattributed"} {
		if strings.HasPrefix(name, "pebblerf."+row+".") {
			return true
		}
	}
	return false
}

// TestStatisticsOff: without the per-level statistics the collector
// exports the DB-wide tickers alone, equal to them, and the LSM's gauges.
func TestStatisticsOff(t *testing.T) {
	db := openDB(t, false)
	readEverywhere(t, db)
	stats := db.Statistics()
	require.Nil(t, stats.PerLevel())
	tickerOf := tickerNames(t, stats)
	mfs := gather(t, NewCollector(db))
	require.Len(t, mfs, len(stats.Tickers())+len(lsmGauges))
	for _, mf := range mfs {
		if lsmGauges[mf.GetName()] {
			continue
		}
		require.True(t, strings.HasPrefix(mf.GetName(), "pebblerf_dbwide_"), mf.GetName())
		require.Len(t, mf.GetMetric(), 1)
		name, ok := tickerOf[mf.GetName()]
		require.True(t, ok, "metric %s names no ticker", mf.GetName())
		require.Equal(t, float64(stats.Get(name)), mf.GetMetric()[0].GetCounter().GetValue(), mf.GetName())
	}
	require.NotZero(t, stats.Get("pebblerf.dbwide.number.db.seek"))
}

// TestOneFamilyPerCount: the per-level statistics' seek tickers count the
// seeks the DB-wide ones count, so only the DB-wide family is exported,
// with the count both tickers hold once the iterators are closed.
func TestOneFamilyPerCount(t *testing.T) {
	db := openDB(t, true)
	readEverywhere(t, db)
	stats := db.Statistics()
	values := map[string]float64{}
	for _, mf := range gather(t, NewCollector(db)) {
		if len(mf.GetMetric()) == 1 && len(mf.GetMetric()[0].GetLabel()) == 0 {
			values[mf.GetName()] = mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	for dropped, kept := range map[string]string{
		"rocksdb.number.db.seek":       "pebblerf_dbwide_number_db_seek_total",
		"rocksdb.number.db.seek.found": "pebblerf_dbwide_number_db_seek_found_total",
	} {
		require.NotZero(t, stats.Get(dropped), dropped)
		require.Equal(t, float64(stats.Get(dropped)), values[kept], "%s and %s count apart", dropped, kept)
		_, exported := metricOf(dropped)
		require.False(t, exported, dropped)
		require.NotContains(t, values, tickerMetricName(dropped))
	}
}

// TestUnitsLast: every family ends in its base unit, if it has one, then
// "_total" if it is a counter: no unit word mid-name (the rule that moved
// pebblerf_dbwide_iter_block_bytes_read_total to ..._read_bytes_total).
func TestUnitsLast(t *testing.T) {
	db := openDB(t, true)
	readEverywhere(t, db)
	var names []string
	for _, mf := range gather(t, NewCollector(db)) {
		name := mf.GetName()
		names = append(names, name)
		if mf.GetType() == dto.MetricType_COUNTER {
			require.True(t, strings.HasSuffix(name, "_total"), name)
			name = strings.TrimSuffix(name, "_total")
		} else {
			require.False(t, strings.HasSuffix(name, "_total"), name)
		}
		words := strings.Split(name, "_")
		for i, w := range words[:len(words)-1] {
			require.False(t, w == "bytes" || w == "seconds", "%s: unit %q is word %d of %d, not last", mf.GetName(), w, i+1, len(words))
		}
	}
	require.Contains(t, names, "pebblerf_dbwide_iter_block_read_bytes_total")
	require.Contains(t, names, "pebblerf_dbwide_iter_block_bytes_total")
}

// lsmGauges are the gauges of the LSM's shape, seven series each.
var lsmGauges = map[string]bool{"pebblerf_lsm_tables": true, "pebblerf_lsm_table_bytes": true, "pebblerf_lsm_sublevels": true}

// TestLSMGauges puts one table in L6 and two overlapping ones in L0 (two
// sublevels) and finds the gauges saying so per level, equal to Pebble's
// Metrics, with the statistics on or off.
func TestLSMGauges(t *testing.T) {
	for _, perLevel := range []bool{false, true} {
		t.Run(fmt.Sprintf("per-level=%v", perLevel), func(t *testing.T) {
			db := openDB(t, perLevel)
			for _, k := range []string{"a", "m", "z"} {
				require.NoError(t, db.Set([]byte(k), []byte("v"), nil))
			}
			require.NoError(t, db.Flush())
			require.NoError(t, db.Compact(context.Background(), []byte("a"), []byte("zz"), false))
			for i := 0; i < 2; i++ { // two L0 tables over the same keys: two sublevels
				require.NoError(t, db.Set([]byte("b"), []byte("v"), nil))
				require.NoError(t, db.Set([]byte("c"), []byte("v"), nil))
				require.NoError(t, db.Flush())
			}
			gauges := map[string]map[string]float64{}
			for _, mf := range gather(t, NewCollector(db)) {
				if !lsmGauges[mf.GetName()] {
					continue
				}
				require.Equal(t, dto.MetricType_GAUGE, mf.GetType(), mf.GetName())
				gauges[mf.GetName()] = map[string]float64{}
				for _, m := range mf.GetMetric() {
					require.Len(t, m.GetLabel(), 1)
					require.Equal(t, "level", m.GetLabel()[0].GetName())
					gauges[mf.GetName()][m.GetLabel()[0].GetValue()] = m.GetGauge().GetValue()
				}
			}
			require.Len(t, gauges, len(lsmGauges))
			want := func(l0, l6 float64) map[string]float64 {
				return map[string]float64{"L0": l0, "L1": 0, "L2": 0, "L3": 0, "L4": 0, "L5": 0, "L6": l6}
			}
			require.Equal(t, want(2, 1), gauges["pebblerf_lsm_tables"])
			require.Equal(t, want(2, 1), gauges["pebblerf_lsm_sublevels"])
			m := db.Metrics()
			require.Positive(t, m.Levels[0].TablesSize)
			require.Positive(t, m.Levels[6].TablesSize)
			require.Equal(t, want(float64(m.Levels[0].TablesSize), float64(m.Levels[6].TablesSize)), gauges["pebblerf_lsm_table_bytes"])
		})
	}
}

// TestEveryTickerKnown: every ticker the statistics have is exported with
// a help text of its own, or is a group sum, so that a ticker added later
// without a definition fails here rather than vanishing from the scrape.
func TestEveryTickerKnown(t *testing.T) {
	db := openDB(t, true)
	for _, tk := range db.Statistics().Tickers() {
		m, ok := metricOf(tk.Name)
		if !ok {
			_, twin := twins[tk.Name]
			require.True(t, metrics().groups[tk.Name] || twin, "ticker %s is neither exported, nor a group nor a twin", tk.Name)
			continue
		}
		require.Contains(t, m.desc.String(), tk.Name[strings.LastIndexByte(tk.Name, '.')+1:])
	}
	for name, m := range metrics().byTicker {
		// A help text is a definition followed by the ticker's name: one
		// that is the name alone lacks its definition.
		require.NotContains(t, m.desc.String(), `help: " Ticker`, name)
	}
}

// TestNames keeps the metric names stable: testdata/names lists every
// series a DB's collector exports, with the per-level statistics and
// without, and every series of a store's (regenerate with go test -run
// TestNames -rewrite, and mind that a renamed metric breaks its users'
// dashboards: docs/prometheus.md lists the renamed ones).
func TestNames(t *testing.T) {
	datadriven.RunTest(t, "testdata/names", func(t *testing.T, d *datadriven.TestData) string {
		var c prometheus.Collector
		switch d.Cmd {
		case "names":
			c = NewCollector(openDB(t, d.HasArg("per-level")))
		case "store-names":
			store, err := objstore.Open("mem://")
			require.NoError(t, err)
			defer func() { require.NoError(t, store.Close()) }()
			c = NewStoreCollector(store)
		default:
			d.Fatalf(t, "unknown command %q", d.Cmd)
		}
		var lines []string
		for _, mf := range gather(t, c) {
			for _, m := range mf.GetMetric() {
				name := mf.GetName()
				if l := m.GetLabel(); len(l) == 1 {
					name += fmt.Sprintf("{%s=%q}", l[0].GetName(), l[0].GetValue())
				}
				lines = append(lines, name)
			}
		}
		sort.Strings(lines)
		return strings.Join(lines, "\n") + "\n"
	})
}

// TestConcurrentScrapes scrapes while Gets and scans run; under the race
// detector it checks that Collect only reads.
func TestConcurrentScrapes(t *testing.T) {
	db := openDB(t, true)
	readEverywhere(t, db)
	c := NewCollector(db)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			_, closer, err := db.Get(fmt.Appendf(nil, "key%05d", i*4))
			require.NoError(t, err)
			require.NoError(t, closer.Close())
		}
	}()
	for i := 0; i < 20; i++ {
		gather(t, c)
	}
	wg.Wait()
}
