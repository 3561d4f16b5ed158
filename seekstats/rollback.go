// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"bytes"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/attribution"
)

// RewriteForUpstream is the rollback path for tables written with
// statistics on: it copies the DB in src, as its iterators see it, into a
// new DB in dst written by upstream Pebble with the options opts, which are
// the options the DB is to be opened with afterwards (the filter policies
// untagged, as upstream knows them). Upstream Pebble then reads every table
// of dst with its filters, which it would ignore in src: they are stored
// under the name "pebblerf.tagged.<inner name>", which it does not know.
//
// The copy is logical: every live point key with its value (merges
// resolved) and every range key, in batches; tombstones and the history
// kept for snapshots are not copied, since nothing can read them once src
// is closed. src is opened read-only and left as it was, so the rollback
// cannot lose data: switch to dst once it returns without error. src must
// not be open in another process; dst must not hold a DB.
func RewriteForUpstream(src, dst string, opts *pebble.Options) error {
	if opts == nil {
		opts = &pebble.Options{}
	}
	so := opts.Clone()
	so.ReadOnly = true
	so.ErrorIfNotExists = true
	attribution.RegisterTagReaders(so)
	from, err := pebble.Open(src, so)
	if err != nil {
		return errors.Wrapf(err, "seekstats: opening %s", src)
	}
	defer from.Close()
	do := opts.Clone()
	do.ErrorIfExists = true
	to, err := pebble.Open(dst, do)
	if err != nil {
		return errors.Wrapf(err, "seekstats: creating %s", dst)
	}
	if err := copyDB(from, to); err != nil {
		_ = to.Close()
		return err
	}
	// A flush writes the last batch's keys into a table, so that dst's
	// tables hold all of them when it is next opened.
	if err := to.Flush(); err != nil {
		_ = to.Close()
		return errors.Wrap(err, "seekstats: flushing the copy")
	}
	return errors.Wrap(to.Close(), "seekstats: closing the copy")
}

// copyBatchBytes is the size at which the copy commits a batch.
const copyBatchBytes = 4 << 20

func copyDB(from, to *pebble.DB) error {
	it, err := from.NewIter(&pebble.IterOptions{KeyTypes: pebble.IterKeyTypePointsAndRanges})
	if err != nil {
		return errors.Wrap(err, "seekstats: reading the source")
	}
	b := to.NewBatch()
	var lastSpan []byte
	for valid := it.First(); valid; valid = it.Next() {
		hasPoint, hasRange := it.HasPointAndRange()
		if hasRange {
			// A range key span is seen at every position within it: copy it
			// once, at its start.
			start, end := it.RangeBounds()
			if lastSpan == nil || !bytes.Equal(lastSpan, start) {
				lastSpan = append(lastSpan[:0], start...)
				for _, rk := range it.RangeKeys() {
					if err := b.RangeKeySet(start, end, rk.Suffix, rk.Value, nil); err != nil {
						_ = it.Close()
						return errors.Wrap(err, "seekstats: copying a range key")
					}
				}
			}
		}
		if hasPoint {
			v, err := it.ValueAndErr()
			if err != nil {
				_ = it.Close()
				return errors.Wrap(err, "seekstats: reading a value")
			}
			if err := b.Set(it.Key(), v, nil); err != nil {
				_ = it.Close()
				return errors.Wrap(err, "seekstats: copying a key")
			}
		}
		if b.Len() >= copyBatchBytes {
			if err := b.Commit(pebble.NoSync); err != nil {
				_ = it.Close()
				return errors.Wrap(err, "seekstats: writing the copy")
			}
			b = to.NewBatch()
		}
	}
	if err := it.Close(); err != nil {
		return errors.Wrap(err, "seekstats: reading the source")
	}
	return errors.Wrap(b.Commit(pebble.Sync), "seekstats: writing the copy")
}
