// Copyright 2026 The pebblerf Authors. All rights reserved.

package engine

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/cockroachdb/errors"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/objstore"
	"github.com/pebblerf/pebble/promstats"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricsServer is -metrics_addr: GET /metrics answers, in Prometheus'
// format, the statistics and LSM shape of the pebblerf engine's open DB
// and, with -remote, the requests to its object store by kind (package
// promstats). The benchmarks close and reopen the DB between them; the
// server follows each open, and answers 503 while no pebblerf DB is open.
// The DB's counts start from zero at every open, which Prometheus reads as
// a counter reset; the store's from when the process opened the store
// (remote.go), which a fill on an in-memory store does anew. Upstream
// Pebble's engine keeps no such statistics and is not served.
type MetricsServer struct {
	srv  *http.Server
	addr net.Addr
	// mu is held for reading through a scrape and for writing while the
	// DB is swapped, so that no scrape reads a DB being closed.
	mu      sync.RWMutex
	handler http.Handler // nil while no pebblerf DB is open
}

// checkMetricsAddr checks -metrics_addr's form, HOST:PORT; whether the
// address can be listened on is startMetrics' to find.
func CheckMetricsAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return config.BadFlag("metrics_addr", "%q is not HOST:PORT (e.g. 127.0.0.1:9100)", addr)
	}
	if host == "" {
		return config.BadFlag("metrics_addr", "%q names no host (e.g. 127.0.0.1:9100)", addr)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return config.BadFlag("metrics_addr", "%q: port %q is not a number in [0, 65535]", addr, port)
	}
	return nil
}

// startMetrics listens on c's -metrics_addr and serves /metrics; nil
// without the flag. An address that cannot be listened on is a usage
// error, found before the run prints anything.
func StartMetrics(c *config.Config) (*MetricsServer, error) {
	if c.MetricsAddr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", c.MetricsAddr)
	if err != nil {
		return nil, config.BadFlag("metrics_addr", "%s", err)
	}
	m := &MetricsServer{addr: ln.Addr()}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m)
	m.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = m.srv.Serve(ln) }() // ErrServerClosed once close is called
	return m, nil
}

// ServeHTTP answers a scrape of the open DB.
func (m *MetricsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.handler == nil {
		http.Error(w, "pebblebench: no pebblerf DB is open (between benchmarks, or not yet)", http.StatusServiceUnavailable)
		return
	}
	m.handler.ServeHTTP(w, r)
}

// Follow serves db's statistics from now on, and store's counts unless it
// is nil (no -remote); db nil before the DB is closed. A nil server does
// nothing.
func (m *MetricsServer) Follow(db *pebblerf.DB, store *objstore.Meter) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if db == nil {
		m.handler = nil
		return
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(promstats.NewCollector(db))
	if store != nil {
		reg.MustRegister(promstats.NewStoreCollector(store))
	}
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

// url is where the server answers, for the header.
func (m *MetricsServer) URL() string { return fmt.Sprintf("http://%s/metrics", m.addr) }

// close stops the server; a nil server does nothing.
func (m *MetricsServer) Close() error {
	if m == nil {
		return nil
	}
	return errors.Wrap(m.srv.Close(), "-metrics_addr")
}
