// Copyright 2026 The pebblerf Authors. All rights reserved.

package promstats_test

import (
	"fmt"
	"log"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/promstats"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// Example registers a DB's collector and reads three of its metrics after
// one flushed table and one bounded scan. A service would serve the
// registry instead: http.Handle("/metrics", promhttp.HandlerFor(reg,
// promhttp.HandlerOpts{})).
func Example() {
	db, err := pebble.OpenWithPlugins("db", &pebble.Options{FS: vfs.NewMem()}, pebble.Plugins{Statistics: true})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	reg := prometheus.NewRegistry()
	collector := promstats.NewCollector(db)
	reg.MustRegister(collector)
	defer reg.Unregister(collector) // runs before db.Close: a collector reads its DB

	for _, k := range []string{"a", "b", "c"} {
		if err := db.Set([]byte(k), []byte("v"), nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		log.Fatal(err)
	}
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: []byte("b"), UpperBound: []byte("c")})
	if err != nil {
		log.Fatal(err)
	}
	for valid := it.First(); valid; valid = it.Next() {
		_ = it.Value()
	}
	if err := it.Close(); err != nil {
		log.Fatal(err)
	}

	families, err := reg.Gather()
	if err != nil {
		log.Fatal(err)
	}
	for _, mf := range families {
		for _, m := range mf.GetMetric() {
			switch mf.GetName() {
			case "pebblerf_dbwide_number_db_seek_total":
				fmt.Println(mf.GetName(), m.GetCounter().GetValue())
			case "pebblerf_seek_data_bounded_total":
				if v := m.GetCounter().GetValue(); v > 0 {
					fmt.Printf("%s{level=%q} %v\n", mf.GetName(), m.GetLabel()[0].GetValue(), v)
				}
			case "pebblerf_lsm_tables":
				if v := m.GetGauge().GetValue(); v > 0 {
					fmt.Printf("%s{level=%q} %v\n", mf.GetName(), m.GetLabel()[0].GetValue(), v)
				}
			}
		}
	}
	// 14 per-level kinds times 9 levels, 24 other per-level tickers (the
	// 26 less the two seek tickers the DB-wide ones export), 10 DB-wide,
	// and 3 gauges of the LSM's shape times 7 levels.
	fmt.Println("series:", testutil.CollectAndCount(collector))
	// Output:
	// pebblerf_dbwide_number_db_seek_total 1
	// pebblerf_lsm_tables{level="L0"} 1
	// pebblerf_seek_data_bounded_total{level="L0"} 1
	// series: 181
}
