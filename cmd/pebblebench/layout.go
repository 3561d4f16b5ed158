// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/errors/oserror"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/internal/bench/config"
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

// engineDir is the DB directory of engine name under root.
func engineDir(c *config.Config, root, name string) string {
	if c.Engine == config.EngineBoth {
		return filepath.Join(root, name)
	}
	return root
}

// hasDB reports whether dir holds a Pebble DB.
func hasDB(dir string) bool {
	desc, err := upstream.Peek(dir, vfs.Default)
	return err == nil && desc.Exists
}

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
		if exists && hasDB(c.DB) {
			return config.BadFlag("db", "%s holds a single engine's DB; -engine=both keeps its DBs in <db>/pebble and <db>/pebblerf, so name another directory", c.DB)
		}
		for _, name := range c.Engines() {
			if err := checkEngineDir(c, filepath.Join(c.DB, name)); err != nil {
				return err
			}
		}
		return nil
	}
	if !hasDB(c.DB) {
		if old := filepath.Join(c.DB, c.Engine); hasDB(old) {
			return config.BadFlag("db", "%s holds its DB in %s (the layout of -engine=both); pass -db=%s", c.DB, old, old)
		}
	}
	return checkEngineDir(c, c.DB)
}

// checkEngineDir checks one engine's DB directory.
func checkEngineDir(c *config.Config, dir string) error {
	if hasDB(dir) {
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

// checkHoldsKeys opens the engine's DB and checks it has at least one key:
// reads of an empty DB would measure nothing.
func checkHoldsKeys(s *engineState) error {
	if err := s.open(); err != nil {
		return err
	}
	it, err := s.db.NewIter(nil)
	empty := false
	if err == nil {
		// First, not SeekGE(nil): an empty key is not a valid MVCC key.
		empty = !it.First()
		err = errors.CombineErrors(it.Error(), it.Close())
	}
	if err = errors.CombineErrors(err, s.close()); err != nil {
		return err
	}
	if empty {
		return config.BadFlag("use_existing_db", "the %s DB in %s holds no keys; fill it first, without -use_existing_db", s.name, s.dir)
	}
	return nil
}

// fillRecordFile is the file in a DB directory that records its last fill.
// Pebble ignores files it does not know.
const fillRecordFile = "PEBBLEBENCH-FILL.json"

// fillRecord is what a fill benchmark leaves next to the DB: the flags that
// decide which keys it wrote, so a later -use_existing_db run can say what
// it reads and refuse flags that would read other keys.
type fillRecord struct {
	Benchmark     string `json:"benchmark"`
	Engine        string `json:"engine"`
	Seed          int64  `json:"seed"`
	Num           int64  `json:"num"`
	Writes        int64  `json:"writes"`
	KeySize       int    `json:"key_size"`
	KeyStride     int64  `json:"key_stride"`
	PrefixSize    int    `json:"prefix_size"`
	KeysPerPrefix int    `json:"keys_per_prefix"`
	// Remote and RemoteLevels are -remote and -remote_levels: where the
	// DB's tables are, which every later open must name.
	Remote       string `json:"remote,omitempty"`
	RemoteLevels string `json:"remote_levels,omitempty"`
}

func newFillRecord(c *config.Config, bench, engineName string) fillRecord {
	r := fillRecord{Benchmark: bench, Engine: engineName, Seed: c.Seed, Num: c.Num, Writes: c.Writes,
		KeySize: c.KeySize, KeyStride: c.KeyStride, PrefixSize: c.PrefixSize, KeysPerPrefix: c.KeysPerPrefix}
	if c.Remote != "" {
		r.Remote, r.RemoteLevels = c.Remote, c.RemoteLevels
	}
	return r
}

func writeFillRecord(dir string, r fillRecord) error {
	b, err := json.Marshal(r)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, fillRecordFile), append(b, '\n'), 0o644)
	}
	return errors.Wrapf(err, "recording the fill of %s", dir)
}

// readFillRecord returns the fill recorded in dir, or nil if none is (a DB
// filled by an older pebblebench or another program).
func readFillRecord(dir string) (*fillRecord, error) {
	b, err := os.ReadFile(filepath.Join(dir, fillRecordFile))
	if oserror.IsNotExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var r fillRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, errors.Wrapf(err, "reading %s", filepath.Join(dir, fillRecordFile))
	}
	return &r, nil
}

// checkFill compares the fill recorded with each engine's DB against the
// flags that decide which keys a read looks for. A DB filled with other
// keys would be read as if it were empty, so a difference is a usage error;
// a smaller -num reads a part of the keys and is allowed. It returns the
// recorded fill, nil when none is recorded.
func checkFill(c *config.Config, dirs []string) (*fillRecord, error) {
	var first *fillRecord
	for _, dir := range dirs {
		r, err := readFillRecord(dir)
		if err != nil || r == nil {
			return nil, err
		}
		if first == nil {
			first = r
		} else if r.Seed != first.Seed || r.Num != first.Num || r.Writes != first.Writes || r.KeyStride != first.KeyStride || r.Benchmark != first.Benchmark {
			return nil, config.BadFlag("use_existing_db", "%s and %s were filled differently (%s and %s), so the engines would not read the same data",
				dirs[0], dir, first, r)
		}
	}
	if first == nil {
		return nil, nil
	}
	for _, m := range []struct {
		name       string
		now, fill  int64
		largerOnly bool
	}{
		{"key_size", int64(c.KeySize), int64(first.KeySize), false},
		{"key_stride", c.KeyStride, first.KeyStride, false},
		{"keys_per_prefix", int64(c.KeysPerPrefix), int64(first.KeysPerPrefix), false},
		{"num", c.Num, first.Num, true},
	} {
		if m.now != m.fill && (!m.largerOnly || m.now > m.fill) {
			return nil, config.BadFlag(m.name, "%d, but the DB in %s was filled with -%s=%d (%s): pass -%s=%d", m.now, dirs[0], m.name, m.fill, first, m.name, m.fill)
		}
	}
	return first, nil
}

// String is the fill as a command line fragment.
func (r *fillRecord) String() string {
	s := fmt.Sprintf("%s -seed=%d -num=%d", r.Benchmark, r.Seed, r.Num)
	if r.Writes != r.Num {
		s += fmt.Sprintf(" -writes=%d", r.Writes)
	}
	if r.KeyStride != 1 {
		s += fmt.Sprintf(" -key_stride=%d", r.KeyStride)
	}
	return s
}
