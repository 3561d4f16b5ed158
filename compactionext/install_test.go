// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// countingProps is a user table-property collector that counts the keys it
// sees across all tables.
type countingProps struct{ keys *atomic.Int64 }

func (c countingProps) Name() string { return "test.counting" }
func (c countingProps) Add(pebble.InternalKey, []byte) error {
	c.keys.Add(1)
	return nil
}
func (c countingProps) Finish(props map[string]string) error {
	props["seen"] = "yes"
	return nil
}

// fakeStatistics records the level-0 filter it found when installed, to
// check the order: the filter plan must come first.
type fakeStatistics struct{ sawFilter pebble.FilterPolicy }

func (s *fakeStatistics) Install(opts *pebble.Options) {
	s.sawFilter = opts.Levels[0].FilterPolicy
}

func collectorNames(opts *pebble.Options) []string {
	var names []string
	for _, c := range opts.BlockPropertyCollectors {
		names = append(names, c().Name())
	}
	return names
}

func TestInstall(t *testing.T) {
	rf, err := rangefilter.NewPolicy(nil, rangefilter.Config{BitsPerKey: 16})
	require.NoError(t, err)
	var keys atomic.Int64
	stats := &fakeStatistics{}
	plan := &pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: 3}
	policies, err := plan.Policies()
	require.NoError(t, err)
	opts := testOptions()
	in, err := Install(opts, Config{
		Profile:         &ManyRuns{Runs: 6},
		FilterPlan:      plan,
		Statistics:      stats,
		RangeFilter:     rf,
		TableProperties: []func() tableprops.Collector{func() tableprops.Collector { return countingProps{&keys} }},
	})
	require.NoError(t, err)
	require.Equal(t, policies[0], stats.sawFilter, "statistics installed before the filter plan")
	require.Equal(t, policies[3], opts.Levels[3].FilterPolicy)
	require.Equal(t, []string{rangefilter.Name, "test.counting"}, collectorNames(opts))
	require.True(t, opts.DisableAutomaticCompactions)
	require.Equal(t, "many-runs", in.Profile().Name())
	require.Nil(t, in.Advisor())

	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	stop, err := in.Start(db)
	require.NoError(t, err)
	w := newWriter(t, 1, db)
	w.seqFlush(0, 100)
	require.Equal(t, int64(100), keys.Load(), "user collector saw every flushed key")
	stop()
	require.NoError(t, db.Close())
}

func TestInstallZeroConfig(t *testing.T) {
	opts := testOptions()
	in, err := Install(opts, Config{})
	require.NoError(t, err)
	require.Empty(t, opts.BlockPropertyCollectors)
	require.False(t, opts.DisableAutomaticCompactions)
	require.Equal(t, "leveled", in.Profile().Name())
}

func TestInstallErrors(t *testing.T) {
	var keys atomic.Int64
	dup := func() tableprops.Collector { return countingProps{&keys} }
	_, err := Install(testOptions(), Config{
		TableProperties: []func() tableprops.Collector{dup, dup},
	})
	require.ErrorContains(t, err, `both named "test.counting"`)

	_, err = Install(testOptions(), Config{FilterPlan: &pointfilter.Plan{BitsPerKey: -1}})
	require.ErrorContains(t, err, "filter plan")

	_, err = Install(testOptions(), Config{Profile: &ManyRuns{Runs: 0}})
	require.ErrorContains(t, err, "at least 2 runs")

	_, err = Install(testOptions(), Config{Advisor: &AdvisorConfig{}})
	require.ErrorContains(t, err, "WasteSource")
}

// TestInstallStartsAdvisor checks that Start runs the advisor next to the
// profile's driver, and that stop ends both before the DB closes.
func TestInstallStartsAdvisor(t *testing.T) {
	clock := newFakeClock()
	decided := make(chan Decision, 1)
	source := &fakeWaste{}
	opts := testOptions()
	in, err := Install(opts, Config{
		Profile: NoCompaction{},
		Advisor: &AdvisorConfig{Source: source, MinWaste: 10, MinRuns: 2, Clock: clock,
			OnDecision: func(d Decision) { decided <- d }},
	})
	require.NoError(t, err)
	require.NotNil(t, in.Advisor())
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	// The runs and their waste exist before the advisor starts: a flush
	// after Start would wake it for a look of its own, which could take
	// the poll timer this test means to fire and leave it waiting on one
	// made after the Advance below.
	w := newWriter(t, 2, db)
	w.randomFlush(100, 1000)
	w.randomFlush(100, 1000)
	levels, err := db.SSTables()
	require.NoError(t, err)
	source.add(100, levels[0]...)
	stop, err := in.Start(db)
	require.NoError(t, err)
	clock.awaitAfters(1)
	clock.Advance(time.Hour)
	d := <-decided
	require.NoError(t, d.Err)
	require.Equal(t, 2, d.RunsBefore)
	require.Equal(t, 1, d.RunsAfter)
	stop()
	require.NoError(t, db.Close())
}

// TestInstallPassesShapeMergeDepth checks that the advisor learns the depth
// at which ManyRuns merges a unit, which its write budget counts on, and
// that a depth the caller set, or a shape with no such rule, is left alone.
func TestInstallPassesShapeMergeDepth(t *testing.T) {
	for _, tc := range []struct {
		profile    Profile
		set, depth int
	}{
		{profile: &ManyRuns{Runs: 12}, depth: 11},
		{profile: &ManyRuns{Runs: 5}, depth: 4},
		{profile: &ManyRuns{Runs: 12}, set: 3, depth: 3},
		{profile: &ManyRuns{Runs: 12}, set: -1, depth: -1}, // opted out
		{profile: Leveled{}, depth: 0},
		{profile: NoCompaction{}, depth: 0},
	} {
		in, err := Install(testOptions(), Config{Profile: tc.profile,
			Advisor: &AdvisorConfig{Source: &fakeWaste{}, ShapeMergeDepth: tc.set}})
		require.NoError(t, err)
		require.Equal(t, tc.depth, in.Advisor().cfg.ShapeMergeDepth, "%s, set %d", tc.profile.Name(), tc.set)
	}
}
