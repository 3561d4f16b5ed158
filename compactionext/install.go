// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
)

// Config lists what Install puts into a DB's options. Every field is
// optional; the zero Config changes nothing.
type Config struct {
	// Profile sets the LSM shape (nil: Pebble's default, Leveled).
	Profile Profile
	// FilterPlan sets the per-level point filters. It is applied before
	// Statistics so that statistics see, and wrap, the filters it chose.
	FilterPlan *pointfilter.Plan
	// Statistics installs seek statistics: the tag collector and the
	// counting wrappers around the level filters (*seekstats.Statistics).
	Statistics interface{ Install(opts *pebble.Options) }
	// RangeFilter adds the range filter's collector.
	RangeFilter *rangefilter.Policy
	// TableProperties are user table-property collectors, one per table.
	TableProperties []func() tableprops.Collector
	// BlockProperties are user block-property collectors.
	BlockProperties []func() pebble.BlockPropertyCollector
	// Advisor, if set, runs the stats-driven compaction advisor while the
	// DB is open.
	Advisor *AdvisorConfig
}

// Installed is what Install set up; Start runs its background parts once the
// DB is open.
type Installed struct {
	profile Profile
	advisor *Advisor
}

// Install applies cfg to opts, which must be options the caller lets it
// change (the root package passes a private copy). The order matters and is
// fixed here: shape knobs, filter plan, statistics (which wrap the plan's
// filters and add their collector), range filter, user collectors. Collector
// names must be unique: Pebble stores each collector's properties under its
// name, so two of one name would clobber each other.
func Install(opts *pebble.Options, cfg Config) (*Installed, error) {
	in := &Installed{profile: cfg.Profile}
	if in.profile == nil {
		in.profile = Leveled{}
	}
	if err := in.profile.Apply(opts); err != nil {
		return nil, err
	}
	if cfg.FilterPlan != nil {
		if err := cfg.FilterPlan.Apply(opts); err != nil {
			return nil, errors.Wrap(err, "compactionext: applying the filter plan")
		}
	}
	if cfg.Statistics != nil {
		cfg.Statistics.Install(opts)
	}
	if cfg.RangeFilter != nil {
		opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, cfg.RangeFilter.Collector())
	}
	for _, c := range cfg.TableProperties {
		opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, tableprops.Adapt(c))
	}
	opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, cfg.BlockProperties...)
	if err := checkCollectorNames(opts.BlockPropertyCollectors); err != nil {
		return nil, err
	}
	if cfg.Advisor != nil {
		advisorCfg := *cfg.Advisor
		if m, ok := in.profile.(shapeMergeDepth); ok && advisorCfg.ShapeMergeDepth == 0 {
			advisorCfg.ShapeMergeDepth = m.mergeDepth()
		}
		var err error
		if in.advisor, err = NewAdvisor(opts, advisorCfg); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// shapeMergeDepth is implemented by the profiles whose own compactions merge
// a part of L0 into the level below once it is mergeDepth sublevels deep;
// the advisor's write budget counts on it (AdvisorConfig.ShapeMergeDepth).
type shapeMergeDepth interface{ mergeDepth() int }

// checkCollectorNames rejects two collectors of one name. It builds each
// collector once to ask its name; collectors are cheap to build, one is
// built per sstable written.
func checkCollectorNames(collectors []func() pebble.BlockPropertyCollector) error {
	seen := make(map[string]int, len(collectors))
	for i, newCollector := range collectors {
		name := newCollector().Name()
		if j, ok := seen[name]; ok {
			return errors.Newf("compactionext: block property collectors %d and %d are both named %q", j, i, name)
		}
		seen[name] = i
	}
	return nil
}

// Start starts the profile's driver and, if configured, the advisor. stop
// stops both and must be called before db is closed.
func (in *Installed) Start(db DB) (stop func(), err error) {
	stopProfile, err := in.profile.Start(db)
	if err != nil {
		return nil, err
	}
	if in.advisor == nil {
		return stopProfile, nil
	}
	in.advisor.Start(db)
	return func() {
		in.advisor.Close()
		stopProfile()
	}, nil
}

// Profile returns the shape profile installed.
func (in *Installed) Profile() Profile { return in.profile }

// Advisor returns the advisor installed, or nil.
func (in *Installed) Advisor() *Advisor { return in.advisor }
