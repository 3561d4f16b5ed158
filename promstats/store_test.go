// Copyright 2026 The pebblerf Authors. All rights reserved.

package promstats

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/objstore"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"
)

// kindFields are the kind label's values and the Snapshot field each must
// equal, written out here rather than taken from the collector's table, so
// that a kind exported under another's label fails.
var kindFields = map[string]func(objstore.Snapshot) objstore.Counts{
	"open":   func(s objstore.Snapshot) objstore.Counts { return s.Open },
	"index":  func(s objstore.Snapshot) objstore.Counts { return s.Index },
	"filter": func(s objstore.Snapshot) objstore.Counts { return s.Filter },
	"data":   func(s objstore.Snapshot) objstore.Counts { return s.Data },
	"other":  func(s objstore.Snapshot) objstore.Counts { return s.Other },
	"stat":   func(s objstore.Snapshot) objstore.Counts { return s.Stat },
	"write":  func(s objstore.Snapshot) objstore.Counts { return s.Write },
	"list":   func(s objstore.Snapshot) objstore.Counts { return s.List },
	"delete": func(s objstore.Snapshot) objstore.Counts { return s.Delete },
}

// storeFamilies are the store's families and the Counts figure each
// exports.
var storeFamilies = map[string]func(objstore.Counts) float64{
	"pebblerf_objstore_requests_total":     func(c objstore.Counts) float64 { return float64(c.Requests) },
	"pebblerf_objstore_errors_total":       func(c objstore.Counts) float64 { return float64(c.Errors) },
	"pebblerf_objstore_bytes_total":        func(c objstore.Counts) float64 { return float64(c.Bytes) },
	"pebblerf_objstore_wait_seconds_total": func(c objstore.Counts) float64 { return c.Wait.Seconds() },
}

// openRemoteDB opens an in-memory DB with per-level statistics and Bloom
// filters whose tables live on store, puts keys in a table on the store
// and reads some of them: GETs of every kind a table has, writes and HEADs.
func openRemoteDB(t *testing.T, store *objstore.Meter) *pebble.DB {
	t.Helper()
	opts := &pebble.Options{FS: vfs.NewMem(), Logger: quietLogger{}}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	require.NoError(t, objstore.Configure("db", opts, objstore.Config{Store: store}))
	db, err := pebble.OpenWithPlugins("db", opts, pebble.Plugins{Statistics: true})
	require.NoError(t, err)
	for i := 0; i < 1000; i++ {
		require.NoError(t, db.Set(fmt.Appendf(nil, "key%05d", i), []byte("value"), nil))
	}
	require.NoError(t, db.Flush())
	for i := 0; i < 1000; i += 100 {
		_, closer, err := db.Get(fmt.Appendf(nil, "key%05d", i))
		require.NoError(t, err)
		require.NoError(t, closer.Close())
	}
	return db
}

// scrapeStore returns the store collector's series as
// family -> kind -> value, checking their shape on the way.
func scrapeStore(t *testing.T, m *objstore.Meter) map[string]map[string]float64 {
	t.Helper()
	out := map[string]map[string]float64{}
	for _, mf := range gather(t, NewStoreCollector(m)) {
		require.Equal(t, dto.MetricType_COUNTER, mf.GetType(), mf.GetName())
		require.NotEmpty(t, mf.GetHelp(), mf.GetName())
		out[mf.GetName()] = map[string]float64{}
		for _, s := range mf.GetMetric() {
			require.Len(t, s.GetLabel(), 1)
			require.Equal(t, "kind", s.GetLabel()[0].GetName())
			out[mf.GetName()][s.GetLabel()[0].GetValue()] = s.GetCounter().GetValue()
		}
	}
	return out
}

// TestStoreEqualsMeter: after a DB wrote a table to a simulated store
// (with latency, so that waits are not zero) and read from it, every
// series of the store's collector equals its kind's count in the meter's
// Snapshot, and the kinds add up to the meter's total: none is left out.
func TestStoreEqualsMeter(t *testing.T) {
	store, err := objstore.Open("sim://?latency=1ms&seed=1")
	require.NoError(t, err)
	defer func() { require.NoError(t, store.Close()) }()
	// The DB is closed before the scrape: no background read of the store
	// (table statistics, say) moves a count between the two reads.
	require.NoError(t, openRemoteDB(t, store).Close())

	got := scrapeStore(t, store)
	s := store.Snapshot()
	require.Len(t, got, len(storeFamilies))
	for family, figure := range storeFamilies {
		require.Len(t, got[family], len(kindFields), family)
		var sum float64
		for kind, field := range kindFields {
			require.Contains(t, got[family], kind)
			require.Equal(t, figure(field(s)), got[family][kind], "%s{kind=%q}", family, kind)
			sum += got[family][kind]
		}
		require.InDelta(t, figure(s.Total()), sum, 1e-9, family)
	}
	// The filter block came with the GET that opened the table: its bytes
	// count as filter's, the request as open's.
	for _, kind := range []string{"open", "index", "data", "stat", "write"} {
		require.Positive(t, got["pebblerf_objstore_requests_total"][kind], kind)
		require.GreaterOrEqual(t, got["pebblerf_objstore_wait_seconds_total"][kind], 0.001, kind)
	}
	for _, kind := range []string{"open", "index", "filter", "data", "write"} {
		require.Positive(t, got["pebblerf_objstore_bytes_total"][kind], kind)
	}
	problems, err := testutil.CollectAndLint(NewStoreCollector(store))
	require.NoError(t, err)
	require.Empty(t, problems)
}

// failingList is a store whose List fails; nothing else of it is called.
type failingList struct{ remote.Storage }

func (failingList) List(string, string) ([]string, error) {
	return nil, errors.New("list: service unavailable")
}

// TestStoreErrors: a failed request counts as a request and as an error,
// under its kind. Configure's Fresh lists the store before a new DB.
func TestStoreErrors(t *testing.T) {
	m := objstore.NewMeter(failingList{}, objstore.DefaultPrices)
	err := objstore.Configure("db", &pebble.Options{FS: vfs.NewMem()}, objstore.Config{Store: m, Fresh: true})
	require.ErrorContains(t, err, "service unavailable")
	got := scrapeStore(t, m)
	require.Equal(t, 1.0, got["pebblerf_objstore_requests_total"]["list"])
	require.Equal(t, 1.0, got["pebblerf_objstore_errors_total"]["list"])
	for kind := range kindFields {
		if kind != "list" {
			require.Zero(t, got["pebblerf_objstore_requests_total"][kind], kind)
			require.Zero(t, got["pebblerf_objstore_errors_total"][kind], kind)
		}
	}
}
