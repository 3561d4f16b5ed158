package pebble

import (
	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
)

// Open opens a DB whose files live in the given directory, with upstream's
// signature and semantics, and with no plug-in (the zero Plugins): it
// writes what upstream Pebble writes and costs what upstream costs. Tables
// written earlier with plug-ins on stay readable. Its statistics are the
// DB-wide tickers (DB.Statistics), which change nothing on disk and cost
// nothing per read. opts is not modified.
func Open(dirname string, opts *Options) (*DB, error) {
	return OpenWithPlugins(dirname, opts, Plugins{})
}

// OpenWithPlugins is Open with an explicit choice of plug-ins, each of
// which says in Plugins what it writes to disk and what it costs. opts is
// not modified: the plug-ins are installed on a private copy.
func OpenWithPlugins(dirname string, opts *Options, plugins Plugins) (*DB, error) {
	private := privateOptions(opts)
	in, err := install(private, plugins)
	if err != nil {
		return nil, err
	}
	db, err := upstream.Open(dirname, private)
	if err != nil {
		return nil, err
	}
	stop, err := in.start(db)
	if err != nil {
		return nil, errors.CombineErrors(err, db.Close())
	}
	return newDB(db, in, stop), nil
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
