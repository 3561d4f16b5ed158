// Copyright 2026 The pebblerf Authors. All rights reserved.

// Tables on object storage (-remote): every engine keeps its tables on an
// object store named by URL (objstore.Open's forms), put into its options
// by objstore.Configure, the one call a program makes. Under -engine=both
// each engine gets its own store built from the same URL: a fresh
// in-memory store each for sim:// and mem:// (the same latency model and
// seed, so the same draws in the same order of requests), and
// <location>/<engine> for file://, sim+file:// and s3://, as the DBs are
// <db>/<engine>. Both start with cold caches, as every DB pebblebench opens
// does. A store holding another program's objects is never emptied: a fill
// that replaces a DB deletes the objects of the store's location only when
// every one is a Pebble object (a table or its reference marker).
//
// Every run reports its requests to the engine's store, counted by
// objstore's meter from just before the run starts to its end, whatever
// made them (the benchmark's reads, and the flushes and compactions that
// ran meanwhile): see result.RemoteLegend for the figures.
package runner

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/objstore"
)

// RemoteInMemory reports whether the -remote URL names a store that lives
// in this process's memory.
func RemoteInMemory(rawURL string) bool {
	return strings.HasPrefix(rawURL, "sim:") || strings.HasPrefix(rawURL, "mem:")
}

// engineRemoteURL is the URL of engine name's store: -remote itself with one
// engine or an in-memory store (each Open is a new store), else -remote
// with the engine's name added to its location.
func engineRemoteURL(c *config.Config, name string) (string, error) {
	if c.Engine != config.EngineBoth || RemoteInMemory(c.Remote) {
		return c.Remote, nil
	}
	u, err := url.Parse(c.Remote)
	if err != nil {
		return "", config.BadFlag("remote", "%v", err) // checked by validateRemote
	}
	u.Path = path.Join("/", u.Path, name)
	return u.String(), nil
}

// remoteStore is the store of one DB directory.
type remoteStore struct {
	url   string
	meter *objstore.Meter
}

// Stores are the object stores of the DBs a process has opened, by
// absolute DB directory. A store lives as long as its process: a reopen
// within a run, and a scenario's later phases, find the tables a store in
// memory holds. Under -engine=both each engine's process has its own.
type Stores struct {
	mu sync.Mutex
	m  map[string]*remoteStore
}

// NewStores returns an empty set of stores.
func NewStores() *Stores { return &Stores{m: map[string]*remoteStore{}} }

// configureRemote puts the engine's tables on its store (-remote), through
// objstore.Configure, before opts opens the DB. It refuses a DB whose
// tables live elsewhere than the flags say: without -remote it needs local
// tables, and with it the store the DB was filled with.
func (s *Engine) configureRemote(opts *upstream.Options) error {
	c := s.cfg
	existing := HasDB(s.dir)
	var fill *FillRecord
	if existing {
		var err error
		if fill, err = ReadFillRecord(s.dir); err != nil {
			return err
		}
	}
	if c.Remote == "" {
		s.store = nil
		if fill != nil && fill.Remote != "" {
			return config.BadFlag("remote", "the DB in %s keeps its tables on -remote=%s: pass it", s.dir, fill.Remote)
		}
		return nil
	}
	if fill != nil && (fill.Remote != c.Remote || fill.RemoteLevels != c.RemoteLevels) {
		was := "local tables"
		if fill.Remote != "" {
			was = fmt.Sprintf("-remote=%s -remote_levels=%s", fill.Remote, fill.RemoteLevels)
		}
		return config.BadFlag("remote", "the DB in %s was filled with %s; pass the same", s.dir, was)
	}
	store, err := s.stores.open(c, s.name, s.dir, existing)
	if err != nil {
		return err
	}
	s.store = store.meter
	levels, _ := objstore.ParseLevels(c.RemoteLevels) // validated
	// A new DB (a fill replaces the old one) replaces its store's tables too.
	fresh := !existing && !RemoteInMemory(store.url)
	var writeCache int64
	if s.name == config.EnginePebbleRF {
		writeCache = c.WriteCacheSize
	}
	return objstore.Configure(s.dir, opts, objstore.Config{
		Store: store.meter, Levels: levels, SecondaryCacheSize: c.SecondaryCacheSize, WriteCacheSize: writeCache,
		CreatorID: 1, Fresh: fresh,
	})
}

// open returns the store of the DB in dir: the one the process already has
// for it, or a new one from the engine's URL. A new DB (existing false)
// gets an empty store.
func (ss *Stores) open(c *config.Config, name, dir string, existing bool) (*remoteStore, error) {
	u, err := engineRemoteURL(c, name)
	if err != nil {
		return nil, err
	}
	key, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if st := ss.m[key]; st != nil && st.url == u {
		if existing || !RemoteInMemory(u) {
			return st, nil
		}
	}
	if existing && RemoteInMemory(u) {
		return nil, config.BadFlag("remote", "%s keeps its tables in this process's memory, and the DB in %s was filled by another one: "+
			"refill it, or fill and read it with a store that outlives the process (file://, sim+file://, s3://)", c.Remote, dir)
	}
	m, err := objstore.Open(u)
	if err != nil {
		return nil, errors.Wrapf(err, "-remote")
	}
	st := &remoteStore{url: u, meter: m}
	ss.m[key] = st
	return st, nil
}

// remoteSnapshot is the engine's store's counts so far, with its
// iterators' GETs in Reads; zero without -remote.
func (s *Engine) remoteSnapshot() result.Remote {
	if s.store == nil {
		return result.Remote{}
	}
	return result.Remote{Snapshot: s.store.Snapshot(), Reads: s.db.ReadGets()}
}

// finishRemote records in res the requests the engine's store saw since
// before, the snapshot taken as the run started.
func (s *Engine) finishRemote(res *result.Result, before result.Remote) {
	if s.store == nil {
		return
	}
	now := s.remoteSnapshot()
	res.Remote = &result.Remote{Snapshot: now.Snapshot.Sub(before.Snapshot), Reads: now.Reads.Sub(before.Reads)}
}
