// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/internal/attribution"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/pebblerf/pebble/seekstats"
)

// The plug-ins meet here, and only here. Each plug-in package knows nothing
// of the others (the statistics do not know the advisor reads them, the
// shape profiles do not know a filter plan chose the filters), so what one
// needs of another is wired in this file: the advisor's waste counts come
// from the statistics, its write budget from the shape's merge depth, and the
// statistics wrap whatever filters the plan chose.
//
// When a memtable is flushed, or a compaction writes an sstable, Pebble runs
// the block-property collectors listed in Options.BlockPropertyCollectors
// over every key it writes. That is the one moment a table's contents pass
// through code we control, so everything a reader later wants to know about
// a table is gathered there: the small tag the statistics read to attribute
// filter checks to tables, the range filter's summary of the table's keys,
// and any user collectors. install puts them, and the per-level point filter
// plan, into one set of options, so that opening a DB is one call.

// Plugins selects what pebblerf installs when a DB is opened. The zero value,
// which Open uses, installs nothing: a DB opened with it writes the files
// upstream Pebble writes (same filter block names and bytes, same index
// shape) and costs what upstream costs. Every field below that is set either
// changes what is written to disk or costs CPU on reads, and says which.
// Tables written with a plug-in on stay readable by Open (see Statistics).
type Plugins struct {
	// Statistics turns on the per-level seek and filter statistics
	// (package seekstats; DB.Statistics().PerLevel()). On disk: every
	// table's filter is stored as "pebblerf.tagged.<policy>", which upstream
	// Pebble does not read (it reads such tables without their filters, so
	// correctly but slower), and every data block's index entry carries a
	// table tag (the index block size is widened by the tag's share, so an
	// index keeps its shape). Cost: CPU on every seek and Get (figures in
	// docs/benchmarks.md). Off, pebblerf still reads the tagged filters, at
	// no cost per read. The way back to upstream's format is
	// seekstats.RewriteForUpstream. The DB-wide tickers of DB.Statistics are
	// kept either way.
	Statistics bool
	// StatisticsConfig tunes them, e.g. exact attribution for tests.
	StatisticsConfig seekstats.Config
	// Filters, if set, chooses each level's point filter and its bits (Bloom,
	// Ribbon or binary fuse; the presets pointfilter.Uniform and
	// Progressive, and pointfilter.Optimal for a memory budget) in place of
	// the policies in Options.Levels. A fixed plan is a planner never re-set:
	// pointfilter.NewPlanner(plan). To re-plan while the DB runs, Set a new
	// plan on the planner (DB.FilterPlanner returns it; DB.PointFilterLoads
	// gives pointfilter.Optimal the DB's current levels). New tables get the
	// plan current when they are written; older ones keep their filters and
	// stay readable. On disk: every table's filter is stored under the one
	// name pointfilter.PlannedPolicyName (what it is, is in its own trailer);
	// a level the plan leaves without a filter gets an 80-byte filter that
	// matches every key, since the name is fixed at Open. Cost: the filters'
	// own, no more.
	Filters *pointfilter.Planner
	// RangeFilter, if set, writes a range filter into the tables of the
	// levels RangeFilterLevels names and attaches a filter for its bounds
	// to every bounded iterator, so that tables holding no key in range are
	// never read (readerHooks.rangeFilters). On disk: a table property in
	// every table, holding the level and number it was written with and,
	// where the plan gives it one, the filter (about BitsPerKey bits per
	// key, fewer when the keys fit exactly), which stays in the Go heap of
	// every open table, outside the block cache. Cost: building the filter
	// when a table is written, and a filter check per table a bounded read
	// opens.
	RangeFilter *rangefilter.Config
	// RangeFilterLevels, if set, is the per-level plan of range filters
	// (rangefilter.OnDemand: every level, only where bounded reads come;
	// rangefilter.OverlappingRuns: L0 only; rangefilter.ForBudget: where
	// the statistics saw bounded reads skip loads, within a memory budget);
	// nil gives every level RangeFilter.BitsPerKey. It needs RangeFilter.
	// DB.RangeFilterPolicy().SetPlan re-plans while the DB runs; tables
	// written without a range filter read as "may intersect". Under an
	// OnDemand plan the DB also derives, from their keys, the filters of
	// the local tables that bounded reads consult without one
	// (rangefilter.Policy.Backfill): it reads each such table once, writes
	// nothing, and holds the filters in the Go heap.
	RangeFilterLevels *rangefilter.Plan
	// Shape, if set, is the LSM shape profile (compactionext.Leveled,
	// compactionext.ManyRuns, ...); nil leaves Pebble's own compactions.
	Shape compactionext.Profile
	// Advisor, if set, runs the compaction advisor, which compacts key
	// ranges where the statistics see seeks wasted across many sorted runs.
	// It needs Statistics, whose per-table waste counts it reads; its
	// ShapeMergeDepth, if zero, is Shape's (ManyRuns merges at Runs-1).
	Advisor *compactionext.AdvisorConfig
	// TableProperties are user table-property collectors in the style of
	// Pebble v1's TablePropertyCollector, one instance per table written.
	TableProperties []func() TablePropertyCollector
	// GetL6Filters, if set, makes Gets of the DB and of its snapshots and
	// eventually-file-only snapshots consult L6 filters, which upstream's
	// Get never reads: each routed Get is a SeekPrefixGE on an iterator with
	// IterOptions.UseL6Filters and an exact comparison of the key found, with
	// Get's results (the Comparer's Split and Equal must keep Pebble's
	// prefix contract; getl6.go). An absent key whose L6 table's filter rules
	// it out then costs no L6 index or data block: a remote request saved
	// when L6 lives on object storage. Cost: an iterator per Get (pooled),
	// which seeks every level where Get stops at the first that holds the
	// key, and L6 filter blocks in the block cache. Gets are routed only
	// while L6's filters fit in a quarter of the block cache, where they
	// stay cached: a filter block read again per Get would cost more bytes
	// than the data block it saves. GetL6Config.Auto routes only while the
	// DB's counts say it pays (most Gets find nothing, L6 has filters,
	// routed Gets read no more from storage than upstream's). Batch Gets
	// stay upstream's. Nothing on disk changes: leaving it unset is the way
	// back. The statistics count a routed Get as the prefix seek it is.
	GetL6Filters *GetL6Config
}

// Recommended returns the plug-ins to turn on without studying each one.
// It is
//
//   - range filters of rangefilter.DefaultBitsPerKey, built where bounded
//     reads come (rangefilter.OnDemand): a flush or compaction writes a
//     table's filter only if a bounded read came to the table's key region
//     within rangefilter.DemandHorizon and its level's filters there have
//     not been judged useless; tables written before the reads came get
//     their filters derived in memory (rangefilter.Policy.Backfill), each
//     table read once. Bounded iterators skip the tables that hold no key
//     in their range, and stop checking while the filters rule out almost
//     nothing for their key region; unbounded ones have nothing to check;
//   - Gets that consult L6 filters, decided per DB (GetL6Config.Auto): only
//     while L6's filters fit in the block cache and routed Gets miss fewer
//     block bytes than upstream's.
//
// Point filters stay the ones Options.Levels names, and the per-level
// statistics stay off (the DB-wide tickers of DB.Statistics are kept).
//
// What it writes: in every table a small range-filter property (the
// table's number and level), holding the filter, about BitsPerKey bits per
// key, where the table was built with one. What it costs, as measured in
// docs/benchmarks.md ("The recommended set"): a DB that takes no bounded
// reads builds no filter, and its flushes and compactions cost what
// upstream's do; where bounded reads come, a filter build per table
// written there, the backfill's one read of each older table, the filters
// in the Go heap of the open tables, and a filter check per table a
// bounded read opens, which then skips the tables that hold no key in its
// range. The way back is to open the DB with Open (or with Plugins{}):
// tables with the property stay readable, by upstream Pebble too, which
// ignores it. The set may grow as the measurements do; what it turns on is
// named here.
func Recommended() Plugins {
	onDemand := rangefilter.OnDemand(0)
	return Plugins{
		RangeFilter:       &rangefilter.Config{},
		RangeFilterLevels: &onDemand,
		GetL6Filters:      &GetL6Config{Auto: true},
	}
}

// installed is what install set up for one DB; start runs its background
// parts once the DB is open.
type installed struct {
	comparer    *Comparer
	stats       *attribution.Stats // nil: statistics off
	rangeFilter *rangefilter.Policy
	// gated is set when plain iterators ask the range filter policy's gate
	// whether they get filters (unset: they always do, as while statistics
	// are on).
	gated   bool
	planner *pointfilter.Planner // nil: the options' own filters
	// pointCounts count what the DB's point filters of package pointfilter
	// meet (DB.FilterCounters).
	pointCounts *pointfilter.Counts
	profile     compactionext.Profile // never nil: Leveled by default
	advisor     *compactionext.Advisor
	getL6       *getRouter // nil: Gets are upstream's
	// readerOpts are the DB's options for reading its tables, with which
	// the range filter's backfill reads them.
	readerOpts sstable.ReaderOptions
}

// install applies plugins to opts, which must be options the caller lets it
// change (OpenWithPlugins passes a private copy). The order matters and is
// fixed here: shape knobs, filter plan, the DB's filter counters (bound to
// the plan's point filters and any the caller named), statistics (which wrap the plan's
// filters and add their collector), range filter, user collectors, advisor.
func install(opts *Options, plugins Plugins) (*installed, error) {
	in := &installed{comparer: DefaultComparer, profile: plugins.Shape, pointCounts: new(pointfilter.Counts)}
	if opts.Comparer != nil {
		in.comparer = opts.Comparer
	}
	if in.profile == nil {
		in.profile = compactionext.Leveled
	}
	if plugins.RangeFilter != nil {
		policy, err := rangefilter.NewPolicy(in.comparer, *plugins.RangeFilter)
		if err != nil {
			return nil, errors.Wrap(err, "pebble: Plugins.RangeFilter")
		}
		in.rangeFilter = policy
		if plugins.RangeFilterLevels != nil {
			if err := policy.SetPlan(*plugins.RangeFilterLevels); err != nil {
				return nil, errors.Wrap(err, "pebble: Plugins.RangeFilterLevels")
			}
		}
		// Plain iterators stop getting range filters while those rule out
		// almost nothing (the policy's gate). Not with statistics on: they
		// report what the filters of every iterator rule out.
		in.gated = !plugins.Statistics
	} else if plugins.RangeFilterLevels != nil {
		return nil, errors.New("pebble: Plugins.RangeFilterLevels needs Plugins.RangeFilter")
	}
	in.planner = plugins.Filters
	in.stats = newStatistics(plugins, in.pointCounts)
	if plugins.Advisor != nil && in.stats == nil {
		return nil, errors.New("pebble: Plugins.Advisor needs Plugins.Statistics")
	}
	if err := in.apply(opts, plugins); err != nil {
		return nil, errors.Wrap(err, "pebble: installing plug-ins")
	}
	if in.getL6 = newGetRouter(plugins.GetL6Filters, in.comparer, opts, in.planner); in.getL6 != nil {
		opts.AddEventListener(in.getL6.listener())
	}
	if in.rangeFilter != nil {
		o := opts.Clone()
		o.EnsureDefaults()
		in.readerOpts = o.MakeReaderOptions()
	}
	return in, nil
}

// apply is install's changes to opts, in their order.
func (in *installed) apply(opts *Options, plugins Plugins) error {
	callers := len(opts.BlockPropertyCollectors)
	if err := in.profile.Apply(opts); err != nil {
		return err
	}
	if plugins.Filters != nil {
		plugins.Filters.Apply(opts)
	}
	// Counted before the statistics wrap them, and after the plan chose them.
	countFilters(opts, in.pointCounts)
	if in.stats != nil {
		in.stats.Install(opts)
	} else {
		// Tables written while statistics were on carry tagged filters;
		// registered after the filter plan so its policies are included.
		// This adds names to Options.Filters and nothing else: Pebble looks
		// a table's filter up by name when it opens the table, so neither
		// what is written nor what a read costs changes.
		attribution.RegisterTagReaders(opts)
	}
	if in.rangeFilter != nil {
		opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, in.rangeFilter.Collector())
		opts.AddEventListener(in.rangeFilter.EventListener())
	}
	for _, c := range plugins.TableProperties {
		opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, tableprops.Adapt(c))
	}
	if err := checkCollectorNames(opts.BlockPropertyCollectors, callers); err != nil {
		return err
	}
	if plugins.Advisor != nil {
		var err error
		// The advisor reads the statistics' per-table waste, and takes the
		// shape's merge depth unless the config sets one.
		if in.advisor, err = compactionext.NewAdvisor(opts, *plugins.Advisor, in.profile, in.stats); err != nil {
			return err
		}
	}
	return nil
}

// checkCollectorNames rejects a collector the plug-ins added (those from
// index callers on) that shares its name with another: Pebble stores each
// collector's properties under its name, so two of one name would clobber
// each other. The caller's own collectors are left as upstream leaves them,
// and with no plug-in adding one nothing is checked, so Open accepts what
// upstream accepts. It builds each collector once to ask its name;
// collectors are cheap to build, one is built per sstable written.
func checkCollectorNames(collectors []func() BlockPropertyCollector, callers int) error {
	if len(collectors) == callers {
		return nil
	}
	seen := make(map[string]int, len(collectors))
	for i, newCollector := range collectors {
		name := newCollector().Name()
		if j, ok := seen[name]; ok && i >= callers {
			return errors.Newf("block property collectors %d and %d are both named %q", j, i, name)
		}
		seen[name] = i
	}
	return nil
}

// start completes the statistics' setup on the open db and starts the
// shape's driver and, if configured, the advisor. stop stops both and must
// be called before db is closed.
func (in *installed) start(db *upstream.DB) (stop func(), err error) {
	if in.stats != nil {
		if err := in.stats.Attach(db); err != nil {
			return nil, err
		}
	}
	stopProfile, err := in.profile.Start(db)
	if err != nil {
		return nil, errors.Wrap(err, "pebble: starting plug-ins")
	}
	stops := []func(){stopProfile}
	if in.rangeFilter != nil {
		stops = append(stops, in.rangeFilter.Backfill(db, in.readerOpts))
	}
	if in.advisor != nil {
		in.advisor.Start(db)
		stops = append(stops, in.advisor.Close)
	}
	return func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}, nil
}

// readerHooks returns the hooks of the DB's readers: the statistics'
// observer of every iterator (when they are on), and the range filters for
// its bounds (when the plug-in is on), counted by the statistics and gated
// for plain iterators by the policy's gate (when the statistics are off).
func (in *installed) readerHooks() readerHooks {
	r := readerHooks{stats: in.stats, getL6: in.getL6, rangeFilter: in.rangeFilter}
	if in.stats != nil {
		r.hooks.Observers = in.stats
	}
	if in.rangeFilter != nil {
		r.hooks.Compare = in.comparer.Compare
		r.hooks.RangeFilters = true
		r.hooks.Gated = in.gated
	}
	return r
}

// newStatistics returns statistics for a DB about to be opened, or nil if
// the plug-in is off; they read the corruption count of its point filters
// from points, and the range filters in its tables' properties.
func newStatistics(plugins Plugins, points *pointfilter.Counts) *attribution.Stats {
	if !plugins.Statistics {
		return nil
	}
	return attribution.New(plugins.StatisticsConfig, attribution.Sources{
		PointCorrupt: points.Corrupt, RangeFilters: rangefilter.Properties{},
	})
}

// countFilters replaces each point-filter policy of package pointfilter in
// opts (the DB's private copy), in Levels and in Filters, by one that counts
// into c (pointfilter.Counted). A policy named several times gets one
// counted instance, so levels that shared a policy still share one. The
// counted policies have the same names and write the same bytes; only
// where they count changes. Policies of other packages are left as they
// are.
func countFilters(opts *Options, c *pointfilter.Counts) {
	counted := make(map[FilterPolicy]FilterPolicy)
	count := func(p FilterPolicy) FilterPolicy {
		cp, ours := pointfilter.Counted(p, c)
		if !ours {
			return p // possibly not comparable, so never a map key
		}
		if shared, ok := counted[p]; ok {
			return shared
		}
		counted[p] = cp
		return cp
	}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = count(opts.Levels[i].FilterPolicy)
	}
	for name, p := range opts.Filters {
		opts.Filters[name] = count(p)
	}
}
