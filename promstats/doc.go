// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package promstats exports a pebblerf DB's statistics (DB.Statistics) as
// Prometheus metrics, so that a Go service reads them where it reads its
// other metrics. NewCollector returns a prometheus.Collector for one DB; a
// program registers it (prometheus.MustRegister, or its own Registry) and
// serves the registry as it already does (promhttp).
//
// Every ticker is a counter, read at each scrape from one call of
// Statistics.Tickers: each counter is read atomically, but a scrape that
// runs while the DB reads may see one count a few reads ahead of another,
// as a seekstats.Snapshot may. The counts live in memory and start from
// zero when the DB is opened; Statistics.Reset and Pop lower them, which
// Prometheus reads as a counter reset.
//
// # Names and the level label
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
// # Statistics off
//
// A DB always keeps its DB-wide tickers ("pebblerf.dbwide.*"), so they are
// exported whatever the plug-ins, as are the LSM's gauges. With the
// per-level statistics off, the collector exports those alone: no
// per-level counters, rather than zeros that would read as "nothing was
// filtered".
//
// A collector reads its DB at every scrape: unregister it before closing
// the DB.
package promstats
