// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	pebblerf "github.com/pebblerf/pebble"
)

// openPebbleRF opens dir with pebblerf's OpenWithPlugins: the plug-ins Open
// installs by default, except that seek statistics are collected only with
// -statistics, as db_bench creates RocksDB's statistics object only then
// (collecting them costs a little on every read, in both systems).
func openPebbleRF(dir string, opts *pebblerf.Options, statistics bool) (engine, error) {
	plugins := pebblerf.DefaultPlugins()
	plugins.Statistics = statistics
	db, err := pebblerf.OpenWithPlugins(dir, opts, plugins)
	if err != nil {
		return nil, err
	}
	a := &adapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch]{name: enginePebbleRF, db: db}
	if statistics {
		a.extra = func() []ticker {
			sn := db.Statistics().Snapshot()
			named := sn.Tickers()
			out := make([]ticker, len(named))
			for i, t := range named {
				out[i] = ticker{Name: t.Name, Count: int64(t.Count)}
			}
			return out
		}
	}
	return a, nil
}
