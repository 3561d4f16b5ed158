// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

// Tables on object storage: -remote, -remote_levels and
// -secondary_cache_size, and what each run's requests to the store cost.
//
// With -remote every engine keeps its tables on an object store named by
// URL (objstore.Open's forms), put into its options by objstore.Configure,
// the one call a program makes. Under -engine=both each engine gets its own
// store built from the same URL: a fresh in-memory store each for sim://
// and mem:// (the same latency model and seed, so the same draws in the
// same order of requests), and <location>/<engine> for file://, sim+file://
// and s3://, as the DBs are <db>/<engine>. Both start with cold caches, as
// every DB pebblebench opens does.
//
// A store lives as long as the process, by DB directory: a reopen within a
// run, and a scenario's later phases, find the tables an in-memory store
// holds. A store holding another program's objects is never emptied: a
// fill that replaces a DB deletes the objects of the store's location only
// when every one is a Pebble object (a table or its reference marker).
//
// Every run reports its requests to the engine's store, counted by
// objstore's meter from just before the run starts to its end, whatever
// made them (the benchmark's reads, and the flushes and compactions that
// ran meanwhile): see remoteLegend for the figures.

import (
	"flag"
	"fmt"
	"io"
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

func registerRemoteFlags(fs *flag.FlagSet, c *config.Config) {
	fs.StringVar(&c.Remote, "remote", "", "both engines' tables on an object store, each its own (cold caches): sim://?latency=20ms&jitter=5ms&seed=1\n"+
		"(simulated; price_get= etc.), mem://, file:///dir, s3://bucket/prefix?endpoint=host:port (AWS_* credentials); runs print a Legend")
	fs.StringVar(&c.RemoteLevels, "remote_levels", "all", "with -remote, the tables created on the store: all, or lower (L5 and L6, as CockroachDB; L0-L4 stay local)")
	fs.Int64Var(&c.SecondaryCacheSize, "secondary_cache_size", 0, "with -remote, bytes of Pebble's secondary cache: a local on-disk cache of remote blocks (32 KiB each),\n"+
		"consulted before a GET (at least 1 MiB per shard, 2 shards per GOMAXPROCS); 0 = off")
	fs.Int64Var(&c.WriteCacheSize, "write_cache_size", 0, "with -remote, bytes of objstore's write cache on pebblerf: the tables it wrote last, kept in memory\n"+
		"and read without a GET (objstore.Config.WriteCacheSize; upstream reads through Pebble's caches alone); 0 = off")
}

// validateRemote checks the flags of object storage, naming the one at
// fault. The URL is parsed, not opened: nothing is created or dialled
// before the run starts.
func validateRemote(c *config.Config) error {
	if c.Remote == "" {
		for _, name := range []string{"remote_levels", "secondary_cache_size", "write_cache_size"} {
			if c.Given[name] {
				return config.BadFlag(name, "has no effect without -remote")
			}
		}
		return nil
	}
	if err := objstore.CheckURL(c.Remote); err != nil {
		return config.BadFlag("remote", "%v", err)
	}
	if _, err := objstore.ParseLevels(c.RemoteLevels); err != nil {
		return config.BadFlag("remote_levels", "%q is not one of all, lower", c.RemoteLevels)
	}
	if c.SecondaryCacheSize < 0 {
		return config.BadFlag("secondary_cache_size", "%d must not be negative", c.SecondaryCacheSize)
	}
	if c.WriteCacheSize < 0 {
		return config.BadFlag("write_cache_size", "%d must not be negative", c.WriteCacheSize)
	}
	return nil
}

// remoteInMemory reports whether the -remote URL names a store that lives
// in this process's memory.
func remoteInMemory(rawURL string) bool {
	return strings.HasPrefix(rawURL, "sim:") || strings.HasPrefix(rawURL, "mem:")
}

// engineRemoteURL is the URL of engine name's store: -remote itself with one
// engine or an in-memory store (each Open is a new store), else -remote
// with the engine's name added to its location.
func engineRemoteURL(c *config.Config, name string) (string, error) {
	if c.Engine != config.EngineBoth || remoteInMemory(c.Remote) {
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

// remoteStores are the stores of the DBs the process has opened, by
// absolute DB directory.
var remoteStores = struct {
	sync.Mutex
	m map[string]*remoteStore
}{m: map[string]*remoteStore{}}

// configureRemote puts the engine's tables on its store (-remote), through
// objstore.Configure, before opts opens the DB. It refuses a DB whose
// tables live elsewhere than the flags say: without -remote it needs local
// tables, and with it the store the DB was filled with.
func (s *engineState) configureRemote(opts *upstream.Options) error {
	c := s.cfg
	existing := hasDB(s.dir)
	var fill *fillRecord
	if existing {
		var err error
		if fill, err = readFillRecord(s.dir); err != nil {
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
	store, err := openRemoteStore(c, s.name, s.dir, existing)
	if err != nil {
		return err
	}
	s.store = store.meter
	levels, _ := objstore.ParseLevels(c.RemoteLevels) // validated
	// A new DB (a fill replaces the old one) replaces its store's tables too.
	fresh := !existing && !remoteInMemory(store.url)
	var writeCache int64
	if s.name == config.EnginePebbleRF {
		writeCache = c.WriteCacheSize
	}
	return objstore.Configure(s.dir, opts, objstore.Config{
		Store: store.meter, Levels: levels, SecondaryCacheSize: c.SecondaryCacheSize, WriteCacheSize: writeCache,
		CreatorID: 1, Fresh: fresh,
	})
}

// openRemoteStore returns the store of the DB in dir: the one the process
// already has for it, or a new one from the engine's URL. A new DB
// (existing false) gets an empty store.
func openRemoteStore(c *config.Config, name, dir string, existing bool) (*remoteStore, error) {
	u, err := engineRemoteURL(c, name)
	if err != nil {
		return nil, err
	}
	key, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	remoteStores.Lock()
	defer remoteStores.Unlock()
	if st := remoteStores.m[key]; st != nil && st.url == u {
		if existing || !remoteInMemory(u) {
			return st, nil
		}
	}
	if existing && remoteInMemory(u) {
		return nil, config.BadFlag("remote", "%s keeps its tables in this process's memory, and the DB in %s was filled by another one: "+
			"refill it, or fill and read it with a store that outlives the process (file://, sim+file://, s3://)", c.Remote, dir)
	}
	m, err := objstore.Open(u)
	if err != nil {
		return nil, errors.Wrapf(err, "-remote")
	}
	st := &remoteStore{url: u, meter: m}
	remoteStores.m[key] = st
	return st, nil
}

// remoteSnapshot is the engine's store's counts so far, with its
// iterators' GETs in Reads; zero without -remote.
func (s *engineState) remoteSnapshot() result.Remote {
	if s.store == nil {
		return result.Remote{}
	}
	return result.Remote{Snapshot: s.store.Snapshot(), Reads: s.db.ReadGets()}
}

// finishRemote records in res the requests the engine's store saw since
// before, the snapshot taken as the run started.
func (s *engineState) finishRemote(res *result.Result, before result.Remote) {
	if s.store == nil {
		return
	}
	now := s.remoteSnapshot()
	res.Remote = &result.Remote{Snapshot: now.Snapshot.Sub(before.Snapshot), Reads: now.Reads.Sub(before.Reads)}
}

// printRemoteHeader prints the header's line about the store, and the
// legend of the remote lines.
func printRemoteHeader(w io.Writer, c *config.Config) {
	if c.Remote == "" {
		return
	}
	each := ""
	if c.Engine == config.EngineBoth {
		each = "; each engine its own store"
		if !remoteInMemory(c.Remote) {
			each += " at <location>/<engine>"
		}
	}
	sc := "off"
	if c.SecondaryCacheSize > 0 {
		sc = fmt.Sprintf("%d bytes", c.SecondaryCacheSize)
	}
	wc := ""
	if c.WriteCacheSize > 0 {
		wc = fmt.Sprintf("; write cache %d bytes on pebblerf", c.WriteCacheSize)
	}
	fmt.Fprintf(w, "Remote:     %s%s; tables on the store: %s levels; secondary cache %s%s\n", c.Remote, each, c.RemoteLevels, sc, wc)
	fmt.Fprintf(w, "Legend:     %s\n", result.RemoteLegend)
}
