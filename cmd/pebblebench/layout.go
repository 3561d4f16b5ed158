// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"os"
	"path/filepath"

	"github.com/cockroachdb/errors/oserror"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/runner"
)

// Where the DBs live, and what pebblebench records about their fill.
//
// With one engine, -db is the DB directory itself, as in db_bench. With
// -engine=both the two DBs are <db>/pebble and <db>/pebblerf. A directory
// pebblebench is about to replace must hold a Pebble DB, be empty or not
// exist: a fill removes the DB directory first, so a mistyped -db naming a
// directory of other files is refused rather than deleted. -use_existing_db
// needs a DB holding keys in every engine's directory, as db_bench's does,
// and a DB in the older layout (<db>/<engine> with one engine) is refused
// with the -db that reads it.

// isEmptyDir reports whether dir is a directory with no entries.
func isEmptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// checkDBLayout checks -db against -engine and -use_existing_db before
// anything is printed or removed. Its errors are usage errors.
func checkDBLayout(c *config.Config) error {
	if !c.DBGiven {
		return nil
	}
	info, err := os.Stat(c.DB)
	switch {
	case err == nil && !info.IsDir():
		return config.BadFlag("db", "%s is a file, not a directory", c.DB)
	case err != nil && !oserror.IsNotExist(err):
		return config.BadFlag("db", "%v", err)
	}
	exists := err == nil
	if c.Engine == config.EngineBoth {
		if exists && runner.HasDB(c.DB) {
			return config.BadFlag("db", "%s holds a single engine's DB; -engine=both keeps its DBs in <db>/pebble and <db>/pebblerf, so name another directory", c.DB)
		}
		for _, name := range c.Engines() {
			if err := checkEngineDir(c, filepath.Join(c.DB, name)); err != nil {
				return err
			}
		}
		return nil
	}
	if !runner.HasDB(c.DB) {
		if old := filepath.Join(c.DB, c.Engine); runner.HasDB(old) {
			return config.BadFlag("db", "%s holds its DB in %s (the layout of -engine=both); pass -db=%s", c.DB, old, old)
		}
	}
	return checkEngineDir(c, c.DB)
}

// checkEngineDir checks one engine's DB directory.
func checkEngineDir(c *config.Config, dir string) error {
	if runner.HasDB(dir) {
		return nil
	}
	_, err := os.Stat(dir)
	exists := err == nil
	if c.UseExistingDB {
		if !exists {
			return config.BadFlag("use_existing_db", "%s does not exist; fill it first, without -use_existing_db", dir)
		}
		return config.BadFlag("use_existing_db", "%s holds no Pebble DB; fill it first, without -use_existing_db", dir)
	}
	if exists && !isEmptyDir(dir) {
		return config.BadFlag("db", "%s is a non-empty directory without a Pebble DB; a fill replaces the DB in it, so name a DB, an empty directory or a new one", dir)
	}
	return nil
}
