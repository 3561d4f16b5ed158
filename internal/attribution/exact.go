// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/pebblerf/pebble/internal/sortedruns"
)

// location is where the newest version of a user key lives, as the exact
// mode's probe finds it.
type location struct {
	found    bool
	memtable bool
	// f is the table, or nil if the key is not in a table, or the table is
	// not in the file-to-level map.
	f *fileInfo
	// failed: the probe could not run, and the rest is unknown.
	failed bool
}

var errStopProbe = errors.New("seekstats: probe done")

// probe asks DB.ScanInternal for the level of key's newest version, and maps
// (level, sublevel) to the table through the file-to-level map (and, for L0,
// the sublevels of an sortedruns.View of DB.SSTables, numbered as ScanInternal
// numbers them). It reads the DB's current state, not an iterator's
// snapshot: exact only while nothing writes the key meanwhile, which is how
// tests use it.
//
// ScanInternal panics when it meets a merge operand or a single delete as
// the newest entry of a user key ("cannot process merge key in point
// collapsing iterator"); it closes its iterator on the way out, so the panic
// is recovered here and the probe reported as failed, and counted.
func (s *Stats) probe(key []byte) (loc location) {
	db := s.dbForProbe()
	if db == nil {
		return location{}
	}
	defer func() {
		if r := recover(); r != nil {
			s.c().ShardFor(key).AddTicker(VerifyProbeFailed, 1)
			loc = location{failed: true}
		}
	}()
	upper := append(append(make([]byte, 0, len(key)+1), key...), 0)
	var level pebble.IteratorLevel
	noop := func([]byte, []byte, pebble.SeqNum) error { return nil }
	err := db.ScanInternal(probeCtx, block.CategoryUnknown, key, upper,
		func(k *pebble.InternalKey, _ pebble.LazyValue, info pebble.IteratorLevel) error {
			if s.cmp(k.UserKey, key) != 0 {
				return nil
			}
			loc.found, level = true, info
			return errStopProbe
		},
		noop, nil, nil, nil)
	if err != nil && !errors.Is(err, errStopProbe) {
		return location{}
	}
	if !loc.found {
		return loc
	}
	switch level.Kind {
	case pebble.IteratorLevelFlushable:
		loc.memtable = true
	case pebble.IteratorLevelLSM:
		loc.f = s.locate(db, level.Level, level.Sublevel, key)
	}
	return loc
}

// locate returns the table of the given level (and L0 sublevel) that spans
// key.
func (s *Stats) locate(db *pebble.DB, level, sublevel int, key []byte) *fileInfo {
	if level > 0 {
		var buf [1]*fileInfo
		if c := s.files.current.Load().covering(s.cmp, level, key, buf[:0]); len(c) == 1 {
			return c[0]
		}
		return nil
	}
	tables, err := db.SSTables()
	if err != nil {
		return nil
	}
	run := sortedruns.FromSSTables(s.cmp, tables).Sublevel(sublevel)
	if run == nil {
		return nil
	}
	if t := run.Find(s.cmp, key); t != nil {
		// Tables are tagged with the number of the file they were written
		// as, which a virtual table shares with its backing.
		return s.files.lookup(t.Backing)
	}
	return nil
}
