// Copyright 2026 The pebblerf Authors. All rights reserved.

package objstore

import (
	"fmt"
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"strconv"
	"strings"
)

// Levels says which of a DB's tables are created on the object store.
type Levels int8

const (
	// AllLevels creates every table on the store (Pebble's
	// CreateOnSharedAll); only the WAL, the manifest and the catalog stay
	// local.
	AllLevels Levels = iota + 1
	// LowerLevels creates the tables of L5 and L6 on the store and those of
	// L0-L4 locally (Pebble's CreateOnSharedLower), as CockroachDB does: the
	// lower levels hold most of the data and change least.
	LowerLevels
)

// ParseLevels parses "all" or "lower".
func ParseLevels(s string) (Levels, error) {
	switch s {
	case "all":
		return AllLevels, nil
	case "lower":
		return LowerLevels, nil
	}
	return 0, errors.Newf("objstore: levels %q: want all or lower", s)
}

func (l Levels) String() string {
	switch l {
	case AllLevels:
		return "all"
	case LowerLevels:
		return "lower"
	}
	return "unset"
}

// Config is what Configure puts into a DB's options.
type Config struct {
	// Store is the object store, metered (Open returns one; NewMeter wraps
	// any remote.Storage).
	Store *Meter
	// Levels chooses the tables created on the store; 0 means AllLevels.
	Levels Levels
	// SecondaryCacheSize is the size in bytes of Pebble's secondary cache: a
	// local on-disk cache of remote blocks, in 32 KiB blocks, consulted
	// before a GET; 0 leaves it off.
	SecondaryCacheSize int64
	// WriteCacheSize is the byte budget of the write cache: the objects
	// the DB wrote most recently, kept whole in memory and read from there
	// without a request to the store (writecache.go says when that pays).
	// It costs up to this much memory (and, while a table is written, its
	// bytes up to a quarter of it) and nothing on disk, writes nothing
	// different to the store, and starts empty at every process start; 0
	// leaves it off. The cache belongs to Store, so a reopen in the same
	// process with the same budget keeps it.
	WriteCacheSize int64
	// CreatorID names the DB's objects on the store; DBs sharing a store
	// need distinct IDs, and a reopen needs the same one. 0 means 1.
	CreatorID uint64
	// Fresh says the DB is new, its directory made empty (a benchmark's
	// fill that replaces an earlier DB, say): Configure first deletes the
	// objects an earlier DB with the same creator ID left on the store
	// (tables, blob files, their reference markers, and the markers it held
	// on other creators' objects), so that none is taken for one of the new
	// DB's. Other creators' objects, and objects that are not Pebble's,
	// are left alone: DBs that share a store keep theirs. It refuses to
	// delete an object that another creator still references. Never set it
	// for a DB that is reopened: its tables are on the store.
	Fresh bool
}

// Configure makes the DB that is opened next in dirname with opts keep its
// tables on cfg.Store: it fills opts's remote storage options (the factory,
// CreateOnShared, the locator, the secondary cache) and sets the creator ID
// in dirname's object catalog (initCreatorID), so that even the flushes Open
// itself makes go to the store. Call it after the rest of opts is set (the
// meter reads tables with opts's comparer and key schema), then open the DB
// with pebble.Open, pebblerf's Open or OpenWithPlugins alike. It returns an
// error that names what is wrong with cfg.
//
// A reopen calls Configure again with the same store and creator ID, and
// needs the same local directory: its catalog lists the remote tables. The
// caller closes cfg.Store after the DB; Pebble never closes it.
func Configure(dirname string, opts *pebble.Options, cfg Config) error {
	if opts == nil {
		return errors.New("objstore: Configure needs options")
	}
	if cfg.Store == nil {
		return errors.New("objstore: Config.Store is nil")
	}
	strategy := remote.CreateOnSharedAll
	switch cfg.Levels {
	case 0, AllLevels:
	case LowerLevels:
		strategy = remote.CreateOnSharedLower
	default:
		return errors.Newf("objstore: Config.Levels %d is neither AllLevels nor LowerLevels", int(cfg.Levels))
	}
	if cfg.SecondaryCacheSize < 0 {
		return errors.Newf("objstore: Config.SecondaryCacheSize %d is negative", cfg.SecondaryCacheSize)
	}
	if cfg.WriteCacheSize < 0 {
		return errors.Newf("objstore: Config.WriteCacheSize %d is negative", cfg.WriteCacheSize)
	}
	id := cfg.CreatorID
	if id == 0 {
		id = 1
	}
	if cfg.Fresh {
		if err := cfg.Store.deleteCreator(id); err != nil {
			return err
		}
	}
	if !opts.ReadOnly {
		if err := cfg.Store.checkWrites(id); err != nil {
			return err
		}
	}
	switch wc := cfg.Store.wc.Load(); {
	case cfg.WriteCacheSize == 0:
		cfg.Store.wc.Store(nil)
	case wc == nil || wc.budget != cfg.WriteCacheSize:
		cfg.Store.wc.Store(newWriteCache(cfg.WriteCacheSize))
	}
	opts.Experimental.RemoteStorage = cfg.Store.factory()
	opts.Experimental.CreateOnShared = strategy
	opts.Experimental.CreateOnSharedLocator = locator
	opts.Experimental.SecondaryCacheSizeBytes = cfg.SecondaryCacheSize
	if err := initCreatorID(dirname, opts, id); err != nil {
		return err
	}
	ro := opts.Clone()
	ro.EnsureDefaults()
	cfg.Store.setReaderOptions(ro.MakeReaderOptions())
	return nil
}

// writeChecker is a store that can find out whether it takes writes.
// Pebble opens a new DB without writing to the store, and retries a flush
// that fails, without end and without failing a write: on a store that
// takes no writes (a full service, a read-only bucket or credentials), the
// DB would open, accept writes until they stall, and log the same error
// at each retry. Checking first makes that one error, from Configure.
type writeChecker interface {
	// checkWrites writes a small object named name, deletes it, and
	// returns the error of either.
	checkWrites(name string) error
}

// checkWrites checks that the store takes writes, if it can tell. The
// object is named by the creator ID, so that DBs sharing the store do not
// race on it, and its requests are not counted: they are no request of the
// DB's.
func (m *Meter) checkWrites(id uint64) error {
	if c, ok := m.inner.(writeChecker); ok {
		return c.checkWrites(fmt.Sprintf("pebblerf-write-check-%d", id))
	}
	return nil
}

// deleteCreator deletes the objects creator id made and the reference
// markers it holds, and nothing else: DBs that share a store tell their
// objects apart by creator ID alone.
func (m *Meter) deleteCreator(id uint64) error {
	names, err := m.list("", "")
	if err != nil {
		return errors.Wrap(err, "objstore: Config.Fresh: listing the store")
	}
	var doomed []string
	for _, n := range names {
		o, ok := parseObjectName(n)
		switch {
		case !ok || (o.creator != id && o.refHolder != id):
		case o.creator == id && o.isRef && o.refHolder != id:
			return errors.Newf("objstore: Config.Fresh: creator ID %d's object is still referenced by "+
				"creator ID %d (marker %q); a new DB cannot replace an object another DB shares", id, o.refHolder, n)
		default:
			doomed = append(doomed, n)
		}
	}
	for _, n := range doomed {
		if err := m.delete(n); err != nil && !m.isNotExistError(err) {
			return errors.Wrapf(err, "objstore: Config.Fresh: deleting %q", n)
		}
	}
	return nil
}

// objectName is what the name of one of Pebble's remote objects says.
// Pebble names a table or blob file "<hash>-<creator ID>-<file number>.sst"
// (or .blob), and a reference marker that name followed by
// ".ref.<holder's creator ID>.<holder's file number>" (the format of
// Pebble's objstorageprovider, which DBs sharing a bucket rely on).
type objectName struct {
	creator   uint64
	isRef     bool
	refHolder uint64
}

// parseObjectName parses a Pebble object's name; ok is false for any other
// name.
func parseObjectName(name string) (_ objectName, ok bool) {
	var o objectName
	hash, rest, ok := strings.Cut(name, "-")
	if !ok || len(hash) != 4 || !isNumber(hash, 16) {
		return o, false
	}
	creator, rest, ok := strings.Cut(rest, "-")
	if !ok || !isNumber(creator, 10) {
		return o, false
	}
	o.creator, _ = strconv.ParseUint(creator, 10, 64)
	fileNum, ref, isRef := strings.Cut(rest, ".ref.")
	num, ext, ok := strings.Cut(fileNum, ".")
	if !ok || !isNumber(num, 10) || (ext != "sst" && ext != "blob") {
		return o, false
	}
	if !isRef {
		return o, true
	}
	holder, holderNum, ok := strings.Cut(ref, ".")
	if !ok || !isNumber(holder, 10) || !isNumber(holderNum, 10) {
		return o, false
	}
	o.isRef = true
	o.refHolder, _ = strconv.ParseUint(holder, 10, 64)
	return o, true
}

// isNumber reports whether s is an unsigned number in base (digits only)
// that fits in 64 bits.
func isNumber(s string, base int) bool {
	_, err := strconv.ParseUint(s, base, 64)
	return err == nil
}
