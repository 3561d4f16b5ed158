package pebble

import (
	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/seekstats"
)

// Plugins selects what pebblerf installs when a DB is opened. The zero value
// installs nothing, and a DB opened with it behaves, and costs, as upstream
// Pebble does.
type Plugins struct {
	// Statistics turns on per-level seek and filter statistics, returned by
	// DB.Statistics (package seekstats). Off, the wrappers cost a nil check.
	Statistics bool
	// StatisticsConfig tunes them, e.g. exact attribution for tests.
	StatisticsConfig seekstats.Config
}

// DefaultPlugins returns the plug-ins Open installs.
func DefaultPlugins() Plugins {
	return Plugins{Statistics: true}
}

// Open opens a DB whose files live in the given directory, with upstream's
// signature and semantics, and installs DefaultPlugins. opts is not modified.
func Open(dirname string, opts *Options) (*DB, error) {
	return OpenWithPlugins(dirname, opts, DefaultPlugins())
}

// OpenWithPlugins is Open with an explicit choice of plug-ins.
func OpenWithPlugins(dirname string, opts *Options, plugins Plugins) (*DB, error) {
	private := privateOptions(opts)
	stats := installStatistics(private, plugins)
	db, err := upstream.Open(dirname, private)
	if err != nil {
		return nil, err
	}
	if stats != nil {
		if err := stats.Attach(db); err != nil {
			return nil, errors.CombineErrors(err, db.Close())
		}
	}
	return &DB{DB: db, plugins: plugins, stats: stats}, nil
}

// privateOptions returns a copy of opts that plug-ins may change freely.
// Upstream's Clone copies the struct, which leaves the slices, maps and
// pointers plug-ins append to or replace shared with the caller's value; those
// are copied here too.
func privateOptions(opts *Options) *Options {
	private := opts.Clone()
	if opts == nil {
		return private
	}
	private.BlockPropertyCollectors = append(
		[]func() BlockPropertyCollector(nil), opts.BlockPropertyCollectors...)
	if opts.Filters != nil {
		private.Filters = make(map[string]FilterPolicy, len(opts.Filters))
		for name, policy := range opts.Filters {
			private.Filters[name] = policy
		}
	}
	if opts.EventListener != nil {
		listener := *opts.EventListener
		private.EventListener = &listener
	}
	return private
}
