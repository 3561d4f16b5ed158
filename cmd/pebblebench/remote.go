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

	"github.com/pebblerf/pebble/internal/bench/config"
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
