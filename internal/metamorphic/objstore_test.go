// Copyright 2026 The pebblerf Authors. All rights reserved.

package metamorphic

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/objstore"
	"github.com/stretchr/testify/require"
)

// flagCutBodies adds cut bodies to faultyStore's faults. It is off by
// default. With it, about one run in twelve once found a snapshot Get that
// returned an empty value where upstream returns the written one (seed 2,
// op 178): upstream's Get returns an empty value and a nil error when the
// read of a value kept in a value block fails, and leaves the error to its
// closer. pebblerf's Get now returns that error (readwrite.go,
// upstreamGet; TestGetReturnsValueReadErrors reproduces it every time),
// and 112 runs with the flag found no mismatch; it stays off because the
// faults depend on background compactions' timing, so the evidence is runs,
// not a proof. go test -run TestObjectStorage -count=20
// ./internal/metamorphic -metamorphic.cut_bodies runs it.
var flagCutBodies = flag.Bool("metamorphic.cut_bodies", false, "TestObjectStorage: cut GET bodies too")

// errRemoteFault is what faultyStore's failed reads return.
var errRemoteFault = errors.New("injected remote read fault")

// faultyStore is an in-memory object store whose reads take a latency and,
// while on, fail: a share of GETs return an error, another share deliver a
// cut body (which a client reports as an error, as objstore's S3 store
// does). Decisions are a hash of the seed, the object, the offset and a
// count of reads, which background compactions also advance, so which
// operations fail moves a little from run to run; what must hold does not.
type faultyStore struct {
	remote.Storage
	seed    uint64
	on      atomic.Bool
	latency time.Duration
	calls   atomic.Uint64
	faults  atomic.Int64
}

func (s *faultyStore) ReadObject(
	ctx context.Context, name string,
) (remote.ObjectReader, int64, error) {
	r, size, err := s.Storage.ReadObject(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	return &faultyReader{ObjectReader: r, s: s, name: name}, size, nil
}

type faultyReader struct {
	remote.ObjectReader
	s    *faultyStore
	name string
}

func (r *faultyReader) ReadAt(ctx context.Context, p []byte, offset int64) error {
	time.Sleep(r.s.latency)
	if r.s.on.Load() {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d/%s/%d/%d", r.s.seed, r.name, offset, r.s.calls.Add(1))
		switch v := h.Sum64() % 100; {
		case v < 2:
			r.s.faults.Add(1)
			return errRemoteFault
		case v < 3 && *flagCutBodies:
			// A cut body: some bytes arrived, then the stream ended.
			r.s.faults.Add(1)
			_ = r.ObjectReader.ReadAt(ctx, p[:len(p)/2], offset)
			return errors.Wrap(io.ErrUnexpectedEOF, errRemoteFault.Error())
		}
	}
	return r.ObjectReader.ReadAt(ctx, p, offset)
}

// TestObjectStorage runs the comparison with pebblerf's tables on an object
// store (every level, through objstore.Configure) whose reads are slow and
// fail: every result is upstream's (a local DB, no faults) or an error.
// Then the faults stop, the DB is reopened on the same store, and it must
// hold exactly what upstream holds: every acknowledged write reads back.
// Even seeds add objstore's write cache, small enough that some tables are
// read from memory and the others from the faulty store.
func TestObjectStorage(t *testing.T) {
	var compared, failed, reopened int
	for seed := uint64(1); seed <= 4; seed++ {
		cfg := RandomConfig(seed)
		ops := Generate(cfg, 600)
		up, err := newUpstreamRunner(cfg)
		require.NoError(t, err)

		store := &faultyStore{Storage: objstore.NewMem(), seed: seed, latency: 20 * time.Microsecond}
		meter := objstore.NewMeter(store, objstore.DefaultPrices)
		fs := vfs.NewMem()
		opts := cfg.options(fs)
		storeCfg := objstore.Config{Store: meter}
		if seed%2 == 0 {
			storeCfg.WriteCacheSize = 256 << 10
		}
		require.NoError(t, objstore.Configure("db", opts, storeCfg))
		open := func() (engine, error) {
			// Opening reads every table's footer and properties; a DB that
			// cannot open is no comparison, so opens see no faults.
			store.on.Store(false)
			defer store.on.Store(true)
			return openPebblerf(opts, cfg)
		}
		rf, err := newRunner(fs, opts, open)
		require.NoError(t, err)

		watch := newFaultWatch()
		stopped := false
		for i, o := range ops {
			want, got := up.exec(o), rf.exec(o)
			compare, fault, stop := watch.check(o, got, errRemoteFault.Error())
			if fault {
				failed++
			}
			if stop {
				// The final state can no longer be compared.
				stopped = true
				break
			}
			if !compare {
				continue
			}
			compared++
			require.Equal(t, want, got, "seed %d op %d: %s\nops:\n%s", seed, i, o, formatOps(ops[:i+1]))
		}

		// The faults stop; the DB reopens on the same store and directory.
		store.on.Store(false)
		_ = rf.close()
		require.NoError(t, objstore.Configure("db", opts, storeCfg))
		rf, err = newRunner(fs, opts, func() (engine, error) { return openPebblerf(opts, cfg) })
		require.NoError(t, err, "seed %d: reopening after the faults", seed)
		if !stopped {
			reopened++
			scan := op{name: "iter.new", args: []string{"final", "", "", "db"}}
			require.Equal(t, up.exec(scan), rf.exec(scan))
			step := op{name: "iter.op", args: []string{"final", "first"}}
			for keys := 0; ; keys++ {
				want, got := up.exec(step), rf.exec(step)
				require.Equal(t, want, got, "seed %d: key %d after the reopen", seed, keys)
				if want == "invalid" {
					break
				}
				step.args[1] = "next"
			}
		}
		require.NoError(t, up.close())
		require.NoError(t, rf.close())
		require.Positive(t, meter.Snapshot().Write.Requests, "seed %d wrote no table to the store", seed)
		if storeCfg.WriteCacheSize > 0 {
			require.Positive(t, meter.Snapshot().Cached.Requests, "seed %d: the write cache served no read", seed)
		}
		require.NoError(t, meter.Close())
	}
	t.Logf("%d results compared, %d operations failed by injected remote faults, %d final states compared after a reopen",
		compared, failed, reopened)
	require.Positive(t, reopened, "no sequence reached its reopen: the acknowledged writes were never checked")
	require.Positive(t, failed, "no fault reached an operation: the test tested nothing")
	require.Positive(t, compared)
}
