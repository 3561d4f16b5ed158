// Copyright 2026 The pebblerf Authors. All rights reserved.

package benchmarks

import (
	"bytes"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/engine"
)

// readRandom looks up uniformly random keys of [0, num), a -missing_fraction
// of them made absent. A found key adds its key and value bytes, as in
// db_bench.
//
// Lookups use DB.Get, which consults table filters except on L6. DB.Get has
// no way to ask for L6 filters, so with -use_l6_filters a lookup is instead a
// new prefix iterator with IterOptions.UseL6Filters, SeekPrefixGE and an
// exact key comparison: what DB.Get does inside, plus the iterator's setup.
func readRandom(r *Run, w *Worker) error {
	c := r.Config
	var iterOpts *upstream.IterOptions
	if c.UseL6Filters {
		iterOpts = &upstream.IterOptions{UseL6Filters: true}
	}
	for w.next() {
		w.keys.RandomKey(w.rng, w.key, c.MissingFraction)
		var n int64
		var err error
		if iterOpts != nil {
			n, err = getWithIterator(r.DB, iterOpts, w.key)
		} else {
			n, err = get(r.DB, w.key)
		}
		if err != nil {
			return err
		}
		if n >= 0 {
			w.Found++
			n += int64(len(w.key))
		}
		w.done(1, max(n, 0))
	}
	return nil
}

// get returns the length of key's value, or -1 if key is absent.
func get(db engine.DB, key []byte) (int64, error) {
	v, closer, err := db.Get(key)
	if errors.Is(err, upstream.ErrNotFound) {
		return -1, nil
	} else if err != nil {
		return 0, err
	}
	n := int64(len(v))
	return n, closer.Close()
}

// getWithIterator is get through a prefix iterator with opts.
func getWithIterator(db engine.DB, opts *upstream.IterOptions, key []byte) (int64, error) {
	it, err := db.NewIter(opts)
	if err != nil {
		return 0, err
	}
	n := int64(-1)
	if it.SeekPrefixGE(key) && bytes.Equal(it.Key(), key) {
		n = int64(len(it.Value()))
	}
	return n, errors.CombineErrors(it.Error(), it.Close())
}

// readSeq is db_bench's readseq: one iterator per thread reads entries in
// key order from the first key, starting over at the end, until -reads
// entries are read; every entry read counts as found.
func readSeq(r *Run, w *Worker) error {
	it, err := r.DB.NewIter(&upstream.IterOptions{})
	if err != nil {
		return err
	}
	valid := it.First()
	for w.next() {
		if !valid {
			// At the end, start over, unless the iterator failed or the
			// DB is empty.
			if it.Error() != nil || !it.First() {
				break
			}
		}
		v := it.Value()
		w.Found++
		w.done(1, int64(len(it.Key())+len(v)))
		valid = it.Next()
	}
	if err := it.Error(); err != nil {
		_ = w.closeIter(it)
		return err
	}
	return w.closeIter(it)
}

// seekRandom seeks to random targets (keyspace.Targets: a -missing_fraction
// of them made absent, -empty_range_fraction of them in gaps between keys,
// drawn from -seek_target_range_multiplier times the filled range), then
// steps -seek_nexts times; a seek is "found" when it lands exactly on its
// target. Each step reads the value (copying up to 256 bytes, so a lazily
// fetched value is really fetched) and adds the key and value bytes, as
// db_bench does.
//
// With -seek_upper_bound_len each seek has an upper bound, set in the
// IterOptions of a new iterator or with SetBounds on a reused one. With
// -prefix_size the seek is SeekPrefixGE, so table filters apply and the
// iterator stops at the end of the target's prefix: db_bench's prefix mode.
// -total_order_seek makes it SeekGE. As in db_bench each seek gets a new
// iterator unless -use_tailing_iterator, which reuses one per thread.
// -use_query_builder makes pebblerf's iterators planned range queries.
//
// The data-block bytes each iterator read (IteratorStats) are summed into
// the worker, the figure range filters and the query builder are meant to
// cut.
func seekRandom(r *Run, w *Worker) error {
	c := r.Config
	opts := &upstream.IterOptions{UseL6Filters: c.UseL6Filters}
	targets := c.SeekTargets(r.Written)
	// A bounded seek's range is [target, upper): the target is also the
	// lower bound, which changes no result of a forward seek and tells a
	// range filter where the range starts. Two buffers each, alternated:
	// Pebble requires that bounds an iterator holds are not modified in
	// place before SetBounds.
	var lowers, uppers [2][]byte
	if targets.Bounded() {
		for i := range uppers {
			lowers[i], uppers[i] = make([]byte, c.KeySize), make([]byte, c.KeySize)
		}
	}
	newIter := r.DB.NewIter
	if c.UseQueryBuilder {
		newIter = r.DB.NewQueryIter
	}
	prefixMode := c.PrefixSize > 0 && !c.TotalOrderSeek
	var valueBuf [256]byte
	var reused engine.Iterator
	defer func() {
		if reused != nil {
			_ = w.closeIter(reused)
		}
	}()
	for seek := 0; w.next(); seek++ {
		lower, upper := lowers[seek%2], uppers[seek%2]
		if targets.Next(w.rng, w.key, upper) {
			w.EmptyRanges++
		}
		if lower != nil {
			copy(lower, w.key)
		}
		it := reused
		if it == nil {
			var err error
			opts.LowerBound, opts.UpperBound = lower, upper
			if it, err = newIter(opts); err != nil {
				return err
			}
			if c.UseTailingIterator {
				reused = it
			}
		} else if upper != nil {
			it.SetBounds(lower, upper)
		}
		var valid bool
		if prefixMode {
			valid = it.SeekPrefixGE(w.key)
		} else {
			valid = it.SeekGE(w.key)
		}
		if valid && bytes.Equal(it.Key(), w.key) {
			w.Found++
		}
		var n int64
		for j := 0; j < c.SeekNexts && it.Valid(); j++ {
			v := it.Value()
			copy(valueBuf[:], v)
			n += int64(len(it.Key()) + len(v))
			it.Next()
		}
		// A failed seek still closes its iterator: one left open keeps
		// its tables referenced, and closing the DB would then panic
		// instead of reporting the error. A reused iterator is closed by
		// the deferred call.
		err := it.Error()
		if reused == nil {
			err = errors.CombineErrors(err, w.closeIter(it))
		}
		if err != nil {
			return err
		}
		w.done(1, n)
	}
	return nil
}
