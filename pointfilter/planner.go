// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// A Planner holds a Plan that can change while a DB runs: re-planning.
// pebblerf's Plugins.Filters takes one; a plan that never changes is a
// planner never re-set.
//
// Pebble reads Options.Levels[i].FilterPolicy each time it writes a table
// (a flush or a compaction output), and looks a table's filter up by the
// policy name written with it when it reads the table. A Planner therefore
// sets every level to a plannedPolicy of its own: one stable name,
// PlannedPolicyName, whatever the plan; at each NewWriter the policy asks the
// planner for its level's current filter and writes that. What the filter
// is (kind, bits, probes, layout) is in its own trailer, never in the name,
// so tables written under every earlier plan stay readable, as every policy
// of this package reads every kind.
//
// A level the current plan leaves without a filter gets a one-line Bloom
// filter with every bit set: 80 bytes per table that answer "may contain"
// to every key, since a plannedPolicy must write something once Pebble has
// asked it to.
type Planner struct {
	current atomic.Pointer[plannerState]
}

// plannerState is one plan with its policies made.
type plannerState struct {
	plan     Plan
	filters  [planLevels]LevelFilter
	policies [planLevels]pebble.FilterPolicy
}

// PlannedPolicyName is the Name of every policy a Planner sets.
const PlannedPolicyName = "pebblerf.Planned"

// NewPlanner returns a planner holding p, or p's validation error.
func NewPlanner(p Plan) (*Planner, error) {
	pl := new(Planner)
	if err := pl.Set(p); err != nil {
		return nil, err
	}
	return pl, nil
}

// MustNewPlanner is NewPlanner for plans written in code, as
// regexp.MustCompile is for expressions: it panics with p's validation
// error.
func MustNewPlanner(p Plan) *Planner {
	pl, err := NewPlanner(p)
	if err != nil {
		panic(err)
	}
	return pl
}

// String describes the current plan (Plan.String).
func (pl *Planner) String() string { return pl.Plan().String() }

// Set makes p the plan of tables written from now on, or returns p's
// validation error and keeps the current plan. Tables already written keep
// their filters until a compaction rewrites them.
func (pl *Planner) Set(p Plan) error {
	s := &plannerState{plan: p}
	var err error
	if s.filters, err = p.Filters(); err != nil {
		return err
	}
	if s.policies, err = p.policies(); err != nil {
		return err
	}
	pl.current.Store(s)
	return nil
}

// Plan returns the current plan.
func (pl *Planner) Plan() Plan { return pl.current.Load().plan }

// Level returns the current filter of level i (0 to 6).
func (pl *Planner) Level(i int) LevelFilter { return pl.current.Load().filters[i] }

// Apply sets every level of opts to a plannedPolicy of pl, and registers
// the Bloom, Ribbon and binary fuse policies under their own names in
// opts.Filters, so that tables written by those policies directly (by a
// fixed Plan, before the DB used a planner) keep their filters too.
func (pl *Planner) Apply(opts *pebble.Options) {
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = &plannedPolicy{planner: pl, level: i}
	}
	if opts.Filters == nil {
		opts.Filters = make(map[string]pebble.FilterPolicy)
	}
	for _, p := range []pebble.FilterPolicy{Bloom(10), Ribbon(10), Fuse()} {
		if _, ok := opts.Filters[p.Name()]; !ok {
			opts.Filters[p.Name()] = p
		}
	}
}

// plannedPolicy is the filter policy of one level under a Planner (see
// Planner). It reads every kind of this package's filters.
type plannedPolicy struct {
	pointReader
	planner *Planner
	level   int
}

var _ pebble.FilterPolicy = (*plannedPolicy)(nil)

// Name implements pebble.FilterPolicy.
func (p *plannedPolicy) Name() string { return PlannedPolicyName }

// Level returns the level the policy writes for, and its current filter.
func (p *plannedPolicy) Level() (int, LevelFilter) { return p.level, p.planner.Level(p.level) }

// MayContain implements pebble.FilterPolicy.
func (p *plannedPolicy) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return p.mayContain(filter, key)
}

// NewWriter implements pebble.FilterPolicy: a writer of the level's filter
// under the plan current now.
func (p *plannedPolicy) NewWriter(ft pebble.FilterType) pebble.FilterWriter {
	policy := p.planner.current.Load().policies[p.level]
	if policy == pebble.NoFilterPolicy {
		return allWriter{}
	}
	return policy.NewWriter(ft)
}

// allWriter writes a filter that answers "may contain" to every key.
type allWriter struct{}

func (allWriter) AddKey([]byte) {}

func (allWriter) Finish(dst []byte) []byte {
	start := len(dst)
	dst = pointGrow(dst, bloomLineBytes)
	for i := range dst[start:] {
		dst[start+i] = 0xff
	}
	return pointAppendTrailer(dst, pointTrailer{a: 1, p: 1, kind: pointKindBloom, version: pointFormatBloom})
}
