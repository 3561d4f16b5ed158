// Copyright 2026 The pebblerf Authors. All rights reserved.

package promstats

import (
	"strings"
	"sync"

	"github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/attribution"
	"github.com/pebblerf/pebble/seekstats"
	"github.com/prometheus/client_golang/prometheus"
)

// NewCollector returns a collector of db's statistics and LSM shape (see
// the package documentation). It exports what db counts: the DB-wide
// tickers always, the per-level ones if db was opened with
// Plugins.Statistics; and the per-level gauges of db.Metrics() always.
func NewCollector(db *pebble.DB) prometheus.Collector {
	c := &collector{db: db, stats: db.Statistics()}
	seen := map[*prometheus.Desc]bool{}
	for _, t := range c.stats.Tickers() {
		if m, ok := metricOf(t.Name); ok && !seen[m.desc] {
			seen[m.desc] = true
			c.descs = append(c.descs, m.desc)
		}
	}
	c.descs = append(c.descs, lsmTables, lsmTableBytes, lsmSublevels)
	return c
}

// collector is one DB's collector. descs are the metrics it exports,
// fixed when it is made: whether a DB keeps per-level statistics is fixed
// when it is opened.
type collector struct {
	db    *pebble.DB
	stats *pebble.Statistics
	descs []*prometheus.Desc
}

// Describe sends the descriptions of every metric c exports.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect reads the statistics once and sends one counter per ticker, then
// reads db.Metrics() once and sends the LSM's gauges.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	for _, t := range c.stats.Tickers() {
		m, ok := metricOf(t.Name)
		if !ok {
			continue
		}
		if m.level == "" {
			ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, float64(t.Count))
		} else {
			ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, float64(t.Count), m.level)
		}
	}
	lm := c.db.Metrics()
	for l := range lm.Levels {
		level := seekstats.RowForLevel(l).String()
		ch <- prometheus.MustNewConstMetric(lsmTables, prometheus.GaugeValue, float64(lm.Levels[l].TablesCount), level)
		ch <- prometheus.MustNewConstMetric(lsmTableBytes, prometheus.GaugeValue, float64(lm.Levels[l].TablesSize), level)
		ch <- prometheus.MustNewConstMetric(lsmSublevels, prometheus.GaugeValue, float64(lm.Levels[l].Sublevels), level)
	}
}

// The LSM's gauges, from Pebble's Metrics.Levels; their level label takes
// the per-level counters' values ("L0" to "L6"), so the two join on it.
var (
	lsmTables = prometheus.NewDesc("pebblerf_lsm_tables",
		"Tables (sstables, virtual ones included) in the level: Pebble's Metrics.Levels[i].TablesCount.",
		[]string{"level"}, nil)
	lsmTableBytes = prometheus.NewDesc("pebblerf_lsm_table_bytes",
		"Bytes of the level's tables, without the blob files they reference: Pebble's Metrics.Levels[i].TablesSize.",
		[]string{"level"}, nil)
	lsmSublevels = prometheus.NewDesc("pebblerf_lsm_sublevels",
		"Sorted runs in the level, each of which a read may have to look at: L0's sublevels, 1 for another non-empty "+
			"level, 0 for an empty one (Pebble's Metrics.Levels[i].Sublevels). Summed over level: the read amplification of the tables.",
		[]string{"level"}, nil)
)

// metric is where one ticker goes: its metric's description and, for a
// per-level ticker, its level label's value.
type metric struct {
	desc  *prometheus.Desc
	level string
}

// metricOf returns the metric of the named ticker; ok is false for the
// group tickers and the twins, which are not exported (and for a name the
// tables below do not know, which a test rules out).
func metricOf(name string) (m metric, ok bool) {
	m, ok = metrics().byTicker[name]
	return m, ok
}

// metricTable maps the name of every exported ticker to its metric; groups
// are the group tickers' names, which the test of the tables reads.
type metricTable struct {
	byTicker map[string]metric
	groups   map[string]bool
}

// twins maps each ticker that counts what another ticker counts to that
// other one, whose metric alone is exported: one family per count, so that
// a sum over families never counts a seek twice. The DB-wide seek tickers
// stay because every DB keeps them, so a dashboard reads the same family
// with the per-level statistics on or off; the per-level statistics'
// rocksdb.number.db.seek[.found] count the same seeks (a test checks it),
// as they are made rather than when the iterator is closed.
var twins = map[string]string{
	"rocksdb.number.db.seek":       "pebblerf.dbwide.number.db.seek",
	"rocksdb.number.db.seek.found": "pebblerf.dbwide.number.db.seek.found",
}

// metrics returns the table, made on first use.
var metrics = sync.OnceValue(func() *metricTable {
	t := &metricTable{byTicker: map[string]metric{}, groups: map[string]bool{}}
	for k := attribution.Kind(0); k < attribution.NumKinds; k++ {
		suffix := attribution.KindSuffixes[k]
		desc := prometheus.NewDesc(tickerMetricName(suffix),
			attribution.KindHelp[k]+" Per level; ticker pebblerf.<level>."+suffix+".", []string{"level"}, nil)
		for r := seekstats.Row(0); r < seekstats.NumRows; r++ {
			t.byTicker[attribution.RowTickerName(int(r), k)] = metric{desc: desc, level: r.String()}
		}
		t.groups[attribution.GroupTickerName(true, k)] = true
		t.groups[attribution.GroupTickerName(false, k)] = true
	}
	for tk := attribution.Ticker(0); tk < attribution.NumTickers; tk++ {
		name := attribution.TickerNames[tk]
		if _, ok := twins[name]; ok {
			continue
		}
		t.byTicker[name] = metric{desc: prometheus.NewDesc(tickerMetricName(name),
			attribution.TickerHelp[tk]+" Ticker "+name+".", nil, nil)}
	}
	for _, name := range seekstats.DBWideNames() {
		help, _ := seekstats.DBWideHelp(name)
		t.byTicker[name] = metric{desc: prometheus.NewDesc(tickerMetricName(name), help+" Ticker "+name+".", nil, nil)}
	}
	return t
})

// tickerMetricName is the naming rule of the package documentation:
// "pebblerf_", then the words of the name without a leading "pebblerf."
// (runs of characters other than [a-zA-Z0-9] separate words), a unit word
// moved last, joined by "_", then "_total".
func tickerMetricName(name string) string {
	words := strings.FieldsFunc(strings.TrimPrefix(name, "pebblerf."), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	var unit string
	kept := words[:0]
	for _, w := range words {
		if baseUnits[w] && unit == "" {
			unit = w
			continue
		}
		kept = append(kept, w)
	}
	if unit != "" {
		kept = append(kept, unit)
	}
	return "pebblerf_" + strings.Join(kept, "_") + "_total"
}

// baseUnits are the words the naming rule moves to the end of a name:
// Prometheus' base units, which its conventions put last, before "_total".
// A ticker's name never holds two.
var baseUnits = map[string]bool{"bytes": true, "seconds": true}
