// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package promstats exports what a pebblerf DB counts as Prometheus
// metrics, so that a Go service reads its DB where it reads its other
// metrics.
//
// The idea: a DB's statistics (DB.Statistics) are tickers, counts in
// memory that only grow; Prometheus scrapes counters and derives rates from
// them. So every ticker becomes a counter, read at each scrape, under a name
// derived from the ticker's by one fixed rule, so that a ticker's meaning
// (package seekstats, DB.Statistics) is found from its metric and back. A
// per-level ticker becomes one series of its kind's family with a "level"
// label, so that PromQL sums, compares and joins levels. Beside the
// counters, gauges give the LSM's shape per level (DB.Metrics), and the
// requests to an object store (package objstore), when the tables live on
// one, are counters by kind.
//
// NewCollector returns a prometheus.Collector of one DB: its tickers and
// its LSM's gauges. NewStoreCollector returns one of an objstore.Meter: a
// store is opened before the DBs on it, outlives them and may serve
// several, so it is a collector of its own, registered once per store. A
// program registers them (prometheus.MustRegister, or its own Registry) and
// serves the registry as it already does (promhttp).
//
// # Counters and their names
//
// Every ticker is a counter, read at each scrape from one call of
// Statistics.Tickers: each counter is read atomically, but a scrape that
// runs while the DB reads may see one count a few reads ahead of another,
// as a seekstats.Snapshot may. The counts live in memory and start from
// zero when the DB is opened; Statistics.Reset and Pop lower them, which
// Prometheus reads as a counter reset.
//
// The per-level statistics (package seekstats, with Plugins.Statistics)
// are one counter per kind, with a label "level" whose values are the
// rows' names: "memtables", "L0" to "L6" and "unattributed" (tables whose
// level or tag is unknown; seekstats.RowUnattributed). The kind's name
// gives the metric's: kind seek.data, ticker "pebblerf.l0.seek.data", is
//
//	pebblerf_seek_data_total{level="L0"}
//
// Every other ticker is its own counter, named by one rule: "pebblerf_",
// then the words of the ticker's name without a leading "pebblerf." (words
// are separated by dots, or any character but a letter or digit), with a
// base unit ("bytes", "seconds") moved to the end as Prometheus' convention
// puts it, joined by underscores, then "_total":
//
//	rocksdb.bloom.filter.useful            pebblerf_rocksdb_bloom_filter_useful_total
//	pebblerf.dbwide.filter.useful          pebblerf_dbwide_filter_useful_total
//	pebblerf.dbwide.iter.block.bytes.read  pebblerf_dbwide_iter_block_read_bytes_total
//
// One count is one family. RocksDB's group tickers (rocksdb.last.level.*,
// rocksdb.non.last.level.* and pebblerf's of the same form) are sums of
// rows and are not exported: sum the per-level counter over its level label
// instead (L6 is the last level; the other rows but memtables are
// non-last). The per-level statistics' rocksdb.number.db.seek and
// rocksdb.number.db.seek.found count the seeks the DB-wide
// pebblerf.dbwide.number.db.seek[.found] count, and are not exported
// either: the DB-wide family is there whatever the plug-ins, so a
// dashboard reads the same series with the per-level statistics on or off.
// It counts an iterator's seeks when the iterator is closed. The names are
// stable: a ticker keeps its metric name as long as it keeps its own.
//
// Each metric's help text is the ticker's definition as the code that
// counts it keeps it, in one line, followed by the ticker's own name;
// package seekstats' documentation says in full what the per-level ones
// count and which are inferred.
//
// # The LSM's shape
//
// Three gauges per level, read from one call of DB.Metrics at each scrape,
// with the level label of the per-level counters ("L0" to "L6"), so that
// the two join on it:
//
//	pebblerf_lsm_tables{level="L0"}       tables in the level
//	pebblerf_lsm_table_bytes{level="L0"}  their bytes (blob files aside)
//	pebblerf_lsm_sublevels{level="L0"}    sorted runs in the level
//
// pebblerf_lsm_sublevels is L0's sublevels for L0, and 1 or 0 for the other
// levels (non-empty or not): summed over level it is the read amplification
// of the tables. Gauges name what they measure, unit last, without
// "_total"; these names are fixed, not derived from a ticker's.
//
// # The object store
//
// A store's collector exports the fields of the meter's Snapshot, four
// counters with a label "kind", the kinds of request the meter tells apart
// ("open", "index", "filter", "data", "other": GETs; "stat": HEADs;
// "write", "list", "delete"):
//
//	pebblerf_objstore_requests_total{kind="data"}      requests, failed ones included
//	pebblerf_objstore_errors_total{kind="data"}        failed requests
//	pebblerf_objstore_bytes_total{kind="data"}         bytes moved
//	pebblerf_objstore_wait_seconds_total{kind="data"}  time in requests
//
// A GET counts as a request of one kind, and its bytes under the kinds of
// the blocks they belong to (package objstore says how), so the bytes of a
// kind may be non-zero where its requests are zero: a table's filter that
// came with the GET that opened it. Waits of concurrent requests add up,
// so the wait's rate may exceed one second per second. The counts start
// from zero when the meter is made (objstore.Open, NewMeter) and do not
// reset while it lives. The write cache's reads, the meter's own layout
// reads and the price model are not exported: the first two are no
// requests, and a price is requests times a price list, which a query
// can apply.
//
// # Statistics off
//
// A DB always keeps its DB-wide tickers ("pebblerf.dbwide.*"), so they are
// exported whatever the plug-ins, as are the LSM's gauges. With the
// per-level statistics off, the collector exports those alone: no
// per-level counters, rather than zeros that would read as "nothing was
// filtered".
//
// # Several DBs or stores
//
// Two DBs' collectors, or two stores', export the same series, which one
// registry refuses: register each through
// prometheus.WrapRegistererWith(prometheus.Labels{"db": name}, reg), or
// with any label that tells them apart.
//
// A DB's collector reads its DB at every scrape: unregister it before
// closing the DB. A store's reads only the meter, and may outlive the DBs.
package promstats
