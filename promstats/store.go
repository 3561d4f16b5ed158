// Copyright 2026 The pebblerf Authors. All rights reserved.

package promstats

import (
	"github.com/pebblerf/pebble/objstore"
	"github.com/prometheus/client_golang/prometheus"
)

// NewStoreCollector returns a collector of the requests m counted, by kind
// (see the package documentation). It is a collector of its own, not part
// of a DB's, because a store is not a DB's: it is opened before the DBs
// that keep tables on it, outlives them, and may serve several; register
// it once per store, for as long as the store is open.
func NewStoreCollector(m *objstore.Meter) prometheus.Collector {
	return storeCollector{m}
}

type storeCollector struct{ m *objstore.Meter }

// storeKinds are the kinds of request a Meter counts, as its Snapshot has
// them, with their label values: the five kinds of GET first.
var storeKinds = []struct {
	name   string
	counts func(*objstore.Snapshot) objstore.Counts
}{
	{"open", func(s *objstore.Snapshot) objstore.Counts { return s.Open }},
	{"index", func(s *objstore.Snapshot) objstore.Counts { return s.Index }},
	{"filter", func(s *objstore.Snapshot) objstore.Counts { return s.Filter }},
	{"data", func(s *objstore.Snapshot) objstore.Counts { return s.Data }},
	{"other", func(s *objstore.Snapshot) objstore.Counts { return s.Other }},
	{"stat", func(s *objstore.Snapshot) objstore.Counts { return s.Stat }},
	{"write", func(s *objstore.Snapshot) objstore.Counts { return s.Write }},
	{"list", func(s *objstore.Snapshot) objstore.Counts { return s.List }},
	{"delete", func(s *objstore.Snapshot) objstore.Counts { return s.Delete }},
}

var (
	storeRequests = prometheus.NewDesc("pebblerf_objstore_requests_total",
		"Requests to the object store, failed ones included, by kind: open, index, filter, data and other are GETs, "+
			"told apart by what they read of a table; stat are HEADs, write objects created, list and delete their calls.",
		[]string{"kind"}, nil)
	storeErrors = prometheus.NewDesc("pebblerf_objstore_errors_total",
		"Requests to the object store that returned an error, by kind.",
		[]string{"kind"}, nil)
	storeBytes = prometheus.NewDesc("pebblerf_objstore_bytes_total",
		"Bytes the object store's requests moved, by kind: for a GET kind, the bytes of blocks of that kind in every GET "+
			"(a GET counts under one kind, its bytes under the kinds of the blocks they belong to); for write, the bytes written.",
		[]string{"kind"}, nil)
	storeWait = prometheus.NewDesc("pebblerf_objstore_wait_seconds_total",
		"Seconds spent in requests to the object store, by kind, summed over concurrent requests.",
		[]string{"kind"}, nil)
)

// Describe sends the descriptions of the store's four counters.
func (c storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{storeRequests, storeErrors, storeBytes, storeWait} {
		ch <- d
	}
}

// Collect reads the meter once and sends four counters per kind.
func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.m.Snapshot()
	for _, k := range storeKinds {
		n := k.counts(&s)
		ch <- prometheus.MustNewConstMetric(storeRequests, prometheus.CounterValue, float64(n.Requests), k.name)
		ch <- prometheus.MustNewConstMetric(storeErrors, prometheus.CounterValue, float64(n.Errors), k.name)
		ch <- prometheus.MustNewConstMetric(storeBytes, prometheus.CounterValue, float64(n.Bytes), k.name)
		ch <- prometheus.MustNewConstMetric(storeWait, prometheus.CounterValue, n.Wait.Seconds(), k.name)
	}
}
