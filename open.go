package pebble

import (
	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
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
	// Filters, if set, chooses each level's point filter (Bloom above a
	// level, Ribbon from it down; see pointfilter.Plan) in place of
	// the policies in Options.Levels.
	Filters *pointfilter.Plan
	// RangeFilter, if set, writes a range filter into every table and
	// attaches a filter for its bounds to every bounded iterator, so that
	// tables holding no key in range are never read (rangefilter_iter.go).
	RangeFilter *rangefilter.Config
	// Shape, if set, is the LSM shape profile (compactionext.Leveled,
	// compactionext.ManyRuns, ...); nil leaves Pebble's own compactions.
	Shape compactionext.Profile
	// Advisor, if set, runs the compaction advisor, which compacts key
	// ranges where the statistics see seeks wasted across many sorted runs.
	// It needs Statistics; its Source is filled in from them.
	Advisor *compactionext.AdvisorConfig
	// TableProperties are user table-property collectors in the style of
	// Pebble v1's TablePropertyCollector, one instance per table written.
	TableProperties []func() TablePropertyCollector
}

// DefaultPlugins returns the plug-ins Open installs: statistics only, which
// change no on-disk format that upstream Pebble cannot read and no result.
func DefaultPlugins() Plugins {
	return Plugins{Statistics: true}
}

// Open opens a DB whose files live in the given directory, with upstream's
// signature and semantics, and installs DefaultPlugins. opts is not modified.
func Open(dirname string, opts *Options) (*DB, error) {
	return OpenWithPlugins(dirname, opts, DefaultPlugins())
}

// OpenWithPlugins is Open with an explicit choice of plug-ins. opts is not
// modified: the plug-ins are installed on a private copy.
func OpenWithPlugins(dirname string, opts *Options, plugins Plugins) (*DB, error) {
	private := privateOptions(opts)
	cmp := DefaultComparer
	if private.Comparer != nil {
		cmp = private.Comparer
	}
	stats := newStatistics(plugins)
	cfg := compactionext.Config{
		Profile:         plugins.Shape,
		FilterPlan:      plugins.Filters,
		TableProperties: plugins.TableProperties,
	}
	counters := new(pointfilter.Counters)
	cfg.Statistics = bindingStatistics{counters, stats} // counters.go
	if plugins.RangeFilter != nil {
		policy, err := rangefilter.NewPolicy(cmp, *plugins.RangeFilter)
		if err != nil {
			return nil, errors.Wrap(err, "pebble: Plugins.RangeFilter")
		}
		cfg.RangeFilter = policy
	}
	if plugins.Advisor != nil {
		if stats == nil {
			return nil, errors.New("pebble: Plugins.Advisor needs Plugins.Statistics")
		}
		advisor := *plugins.Advisor
		if advisor.Source == nil {
			advisor.Source = wasteSource{stats}
		}
		cfg.Advisor = &advisor
	}
	installed, err := compactionext.Install(private, cfg)
	if err != nil {
		return nil, errors.Wrap(err, "pebble: installing plug-ins")
	}
	if stats == nil {
		// Tables written while statistics were on carry tagged filters;
		// registered after the filter plan so its policies are included.
		seekstats.RegisterTagReaders(private)
	}
	db, err := upstream.Open(dirname, private)
	if err != nil {
		return nil, err
	}
	if stats != nil {
		if err := stats.Attach(db); err != nil {
			return nil, errors.CombineErrors(err, db.Close())
		}
	}
	stop, err := installed.Start(db)
	if err != nil {
		return nil, errors.CombineErrors(errors.Wrap(err, "pebble: starting plug-ins"), db.Close())
	}
	return &DB{DB: db, stats: stats, rangeFilter: cfg.RangeFilter, pointCounters: counters,
		cmp: cmp.Compare, comparer: cmp, stopBackground: stop}, nil
}

// Close is upstream's DB.Close. It first stops the plug-ins' background work
// (the shape driver and the compaction advisor), which would otherwise call
// into a closed DB.
func (d *DB) Close() error {
	if stop := d.stopBackground; stop != nil {
		d.stopBackground = nil
		stop()
	}
	return d.DB.Close()
}

// wasteSource adapts the statistics' per-table waste to the advisor.
type wasteSource struct{ s *seekstats.Statistics }

func (w wasteSource) TableWaste(dst []compactionext.TableWaste) []compactionext.TableWaste {
	var buf [64]seekstats.TableWaste
	for _, t := range w.s.TableWaste(buf[:0]) {
		dst = append(dst, compactionext.TableWaste{
			Table: t.Table, EmptyLoads: t.EmptyLoads, FilterFalsePositives: t.FilterFalsePositives,
		})
	}
	return dst
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
