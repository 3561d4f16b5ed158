// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// Backfill: filters for the tables written before bounded reads came.
//
// Under an OnDemand plan, a DB loaded while nothing read it has tables
// without range filters, and its own compactions rewrite them only as
// writes come: the bottom level, most of a leveled DB, least often, and a
// DB that is only read never. Pebble's exported API cannot rewrite a table
// in place (DB.Compact moves the levels above down into the bottom one and
// never rewrites a bottom table alone), and a filter cannot be added to a
// table once written. So Backfill derives the filter instead: a bounded
// read that meets a table without a filter notes it (its property names
// it, usage.go), and Backfill reads the noted table's keys once, with
// Pebble's sstable reader over the DB's own object provider, and keeps the
// filter built from them in memory, where the table's bounds filters find
// it by the table's number. The table is not rewritten; the filter is
// dropped when the table is deleted, and rebuilt, if reads still want it,
// after a reopen.
//
// A derived filter is the filter the table would have been written with:
// built from every point key of the table (tombstones included), so it
// has no false negative. It costs what a property filter costs in memory,
// and a read of the table once.
//
// What it reads, and what it leaves:
//
//   - Tables on local storage. A remote table's read is a GET of the whole
//     table, which the reads it serves may never win back.
//   - Tables whose level, in their key region, is not known to gain
//     nothing from filters. While a level of a region is not judged yet,
//     one table at a time is read there, a probe, and the next waits until
//     the reads judge the probe's filter or probeWait passes.
//   - Tables pebblerf wrote with this plug-in: their property names them.
//     Tables written without it (by upstream Pebble, say) get filters when
//     compactions rewrite them.
//
// Each table is read at most once while it lives, so a backfill reads at
// most the DB's own bytes (what a full compaction of it reads), and writes
// nothing.

// backfillWake is how often Backfill looks for noted tables when no read
// wakes it; probeWait is how long a probe's level of a region may stay
// unjudged before another table there is read.
const (
	backfillWake = time.Second
	probeWait    = 30 * time.Second
)

// derivedFilters are the filters Backfill derived, by table number.
type derivedFilters struct {
	m sync.Map // uint64 -> []byte
	// tables and bytes count what Backfill read to derive them; held and
	// heldBytes the filters in m.
	tables, bytes   atomic.Uint64
	held, heldBytes atomic.Int64
}

func (d *derivedFilters) put(num uint64, filter []byte) {
	if _, loaded := d.m.Swap(num, filter); !loaded {
		d.held.Add(1)
		d.heldBytes.Add(int64(len(filter)))
	}
}

func (d *derivedFilters) drop(num uint64) {
	if f, ok := d.m.LoadAndDelete(num); ok {
		d.held.Add(-1)
		d.heldBytes.Add(-int64(len(f.([]byte))))
	}
}

// get returns the derived filter of table num, if there is one.
func (d *derivedFilters) get(num uint64) ([]byte, bool) {
	f, ok := d.m.Load(num)
	if !ok {
		return nil, false
	}
	return f.([]byte), true
}

// BackfillStats are what Backfill did.
type BackfillStats struct {
	// Tables and Bytes are the tables Backfill read to derive their
	// filters, and their bytes, since the policy was made.
	Tables, Bytes uint64
	// Held is the number of derived filters held now (a deleted table's is
	// dropped), and HeldBytes their bytes, in the Go heap.
	Held, HeldBytes int64
}

// Backfilled returns what Backfill did.
func (p *Policy) Backfilled() BackfillStats {
	d := &p.derived
	return BackfillStats{Tables: d.tables.Load(), Bytes: d.bytes.Load(), Held: d.held.Load(), HeldBytes: d.heldBytes.Load()}
}

// Backfill starts deriving, under an OnDemand plan, the filters of the
// tables of db that bounded reads consult without one (see above). ro are
// the reader options of db (pebble.Options.MakeReaderOptions), with which
// it reads the tables. It returns the function that stops it, which waits
// for it to end: call it before closing db. Under other plans it only
// waits.
func (p *Policy) Backfill(db *pebble.DB, ro sstable.ReaderOptions) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := backfiller{p: p, db: db, ro: ro, probes: make(map[probeKey]time.Time)}
		b.run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

type backfiller struct {
	p  *Policy
	db *pebble.DB
	ro sstable.ReaderOptions
	// probes holds when each unjudged level of a region last got a probe.
	probes map[probeKey]time.Time
	nums   []uint64
}

type probeKey struct {
	level  int
	region uint8
}

func (b *backfiller) run(ctx context.Context) {
	wake := time.NewTicker(backfillWake)
	defer wake.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.p.usage.noted:
		case <-wake.C:
		}
		b.nums = b.p.usage.takeUnfiltered(b.nums[:0])
		if len(b.nums) == 0 || !b.p.Plan().OnDemand {
			continue
		}
		// A table that could not be read keeps reading as "may
		// intersect"; the next read that meets it notes it again.
		_ = b.derive(ctx)
	}
}

// derive derives the filters of the noted tables of b.nums that qualify.
func (b *backfiller) derive(ctx context.Context) error {
	levels, err := b.db.SSTables()
	if err != nil {
		return err
	}
	var objects []objstorage.ObjectMetadata
	for _, num := range b.nums {
		if _, ok := b.p.derived.get(num); ok {
			continue
		}
		t, level, ok := findTable(levels, num)
		if !ok || t.BackingType != pebble.BackingTypeLocal {
			continue
		}
		bits := b.p.Plan().Levels[level]
		r := regionOf(t.Smallest.UserKey, nil)
		if bits == 0 || b.p.usage.useless(level, r) {
			continue
		}
		if !b.p.usage.judged(level, r) {
			k := probeKey{level, r}
			if at, ok := b.probes[k]; ok && time.Since(at) < probeWait {
				continue
			}
			b.probes[k] = time.Now()
		}
		if objects == nil {
			objects = b.db.ObjProvider().List()
		}
		filter, size, err := b.read(ctx, objects, num, bits)
		if err != nil {
			return err
		}
		b.p.derived.put(num, filter)
		b.p.derived.tables.Add(1)
		b.p.derived.bytes.Add(size)
	}
	return nil
}

// read builds the filter of table num from its keys, and returns it with
// the table's size.
func (b *backfiller) read(
	ctx context.Context, objects []objstorage.ObjectMetadata, num uint64, bits float64,
) (filter []byte, size uint64, err error) {
	var meta objstorage.ObjectMetadata
	found := false
	for _, o := range objects {
		if uint64(o.DiskFileNum) == num {
			meta, found = o, true
			break
		}
	}
	if !found {
		return nil, 0, errors.Newf("rangefilter: table %d not found", num)
	}
	readable, err := b.db.ObjProvider().OpenForReading(ctx, meta.FileType, meta.DiskFileNum, objstorage.OpenOptions{})
	if err != nil {
		return nil, 0, err
	}
	size = uint64(readable.Size())
	reader, err := sstable.NewReader(ctx, readable, b.ro)
	if err != nil {
		return nil, 0, errors.CombineErrors(err, readable.Close())
	}
	defer func() { err = errors.CombineErrors(err, reader.Close()) }()
	it, err := reader.NewPointIter(ctx, sstable.IterOptions{Env: sstable.NoReadEnv})
	if err != nil {
		return nil, 0, err
	}
	bld := b.p.builder(bits)
	defer release(bld)
	for kv := it.First(); kv != nil; kv = it.Next() {
		// Out-of-order keys make the filter universal, as when written.
		_ = bld.Add(b.p.prefix(kv.K.UserKey))
	}
	if err := errors.CombineErrors(it.Error(), it.Close()); err != nil {
		bld.reset()
		return nil, 0, err
	}
	if bld.unordered {
		b.p.universal.Add(1)
	}
	return bld.Finish(nil), size, nil
}

// findTable returns the table whose backing is numbered num, and its
// level.
func findTable(levels [][]pebble.SSTableInfo, num uint64) (pebble.SSTableInfo, int, bool) {
	for level, tables := range levels {
		for _, t := range tables {
			if uint64(t.BackingSSTNum) == num {
				return t, level, true
			}
		}
	}
	return pebble.SSTableInfo{}, 0, false
}
