package pebble

import (
	"io"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
)

// Seek and filter statistics (package seekstats) are wired in here: Open
// installs them on the private copy of the options when Plugins.Statistics
// is set, and the wrappers report seeks, value reads and Gets to them. With
// statistics off every wrapper costs one nil check.

// newStatistics returns statistics for a DB about to be opened (install
// puts them on the private options), or nil if the plug-in is off.
func newStatistics(plugins Plugins) *seekstats.Statistics {
	if !plugins.Statistics {
		return nil
	}
	return seekstats.New(plugins.StatisticsConfig)
}

// Statistics returns the DB's seek and filter statistics, or nil if they
// are off (Plugins.Statistics). A nil *seekstats.Statistics is usable: it
// answers zero for every ticker.
func (d *DB) Statistics() *seekstats.Statistics {
	return d.stats
}

// trackIter returns the tracker of an iterator about to be opened with o and
// the options to open it with; (nil, o) when statistics are off.
func trackIter(s *seekstats.Statistics, o *IterOptions) (*seekstats.IterTracker, *IterOptions) {
	if s == nil {
		return nil, o
	}
	return s.NewIter(o)
}

// wrapTracked is wrapIter for an iterator followed by t (nil: not followed).
func wrapTracked(it *upstream.Iterator, err error, t *seekstats.IterTracker) (*Iterator, error) {
	w, err := wrapIter(it, err)
	if w != nil {
		w.stats = t
	}
	return w, err
}

// get runs a Get through fn, reporting its filter checks to s.
func get(s *seekstats.Statistics, key []byte, fn func([]byte) ([]byte, io.Closer, error)) ([]byte, io.Closer, error) {
	g := s.BeginGet(key)
	v, c, err := fn(key)
	g.End(err)
	return v, c, err
}

// Get is upstream's DB.Get.
func (d *DB) Get(key []byte) ([]byte, io.Closer, error) {
	if d.stats == nil {
		return d.DB.Get(key)
	}
	return get(d.stats, key, d.DB.Get)
}

// Get is upstream's Batch.Get.
func (b *Batch) Get(key []byte) ([]byte, io.Closer, error) {
	if b.stats == nil {
		return b.Batch.Get(key)
	}
	return get(b.stats, key, b.Batch.Get)
}

// Get is upstream's Snapshot.Get.
func (s *Snapshot) Get(key []byte) ([]byte, io.Closer, error) {
	if s.stats == nil {
		return s.Snapshot.Get(key)
	}
	return get(s.stats, key, s.Snapshot.Get)
}

// Get is upstream's EventuallyFileOnlySnapshot.Get.
func (s *EventuallyFileOnlySnapshot) Get(key []byte) ([]byte, io.Closer, error) {
	if s.stats == nil {
		return s.EventuallyFileOnlySnapshot.Get(key)
	}
	return get(s.stats, key, s.EventuallyFileOnlySnapshot.Get)
}
