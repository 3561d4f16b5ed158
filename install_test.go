// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// countingProps is a user table-property collector that counts the keys it
// sees across all tables.
type countingProps struct{ keys *atomic.Int64 }

func (c countingProps) Name() string { return "test.counting" }
func (c countingProps) Add(InternalKey, []byte) error {
	c.keys.Add(1)
	return nil
}
func (c countingProps) Finish(props map[string]string) error {
	props["seen"] = "yes"
	return nil
}

func installOptions() *Options {
	return &Options{FS: vfs.NewMem(), MemTableSize: 1 << 20}
}

func collectorNames(opts *Options) []string {
	var names []string
	for _, c := range opts.BlockPropertyCollectors {
		names = append(names, c().Name())
	}
	return names
}

// flushKeys writes the keys key<i> for each i and flushes.
func flushKeys(t *testing.T, db *upstream.DB, keys ...int) {
	for _, i := range keys {
		require.NoError(t, db.Set(fmt.Appendf(nil, "key%06d", i), []byte("v"), upstream.NoSync))
	}
	require.NoError(t, db.Flush())
}

// keyRange returns from, from+step, ... below to.
func keyRange(from, to, step int) []int {
	var keys []int
	for i := from; i < to; i += step {
		keys = append(keys, i)
	}
	return keys
}

func TestInstall(t *testing.T) {
	var keys atomic.Int64
	planner := pointfilter.MustNewPlanner(pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: 3})
	opts := installOptions()
	in, err := install(opts, Plugins{
		Shape:           &compactionext.ManyRuns{Runs: 6},
		Filters:         planner,
		RangeFilter:     &rangefilter.Config{BitsPerKey: 16},
		TableProperties: []func() TablePropertyCollector{func() TablePropertyCollector { return countingProps{&keys} }},
	})
	require.NoError(t, err)
	planned, ok := opts.Levels[3].FilterPolicy.(interface {
		Level() (int, pointfilter.LevelFilter)
	})
	require.True(t, ok, "the planner's level-3 policy")
	require.Equal(t, pointfilter.PlannedPolicyName, opts.Levels[3].FilterPolicy.Name())
	level, filter := planned.Level()
	require.Equal(t, 3, level)
	require.Equal(t, pointfilter.LevelFilter{Kind: pointfilter.KindRibbon, Bits: 10}, filter)
	require.Same(t, in.planner, planner)
	require.Equal(t, []string{rangefilter.Name, "test.counting"}, collectorNames(opts))
	require.True(t, opts.DisableAutomaticCompactions)
	require.Equal(t, "many-runs", in.profile.Name())
	require.Nil(t, in.advisor)

	db, err := upstream.Open("db", opts)
	require.NoError(t, err)
	stop, err := in.start(db)
	require.NoError(t, err)
	flushKeys(t, db, keyRange(0, 100, 1)...)
	require.Equal(t, int64(100), keys.Load(), "user collector saw every flushed key")
	stop()
	require.NoError(t, db.Close())

	// Statistics come after the filter plan, so they wrap the filters it
	// chose (tables then carry pebblerf.tagged.<policy>).
	opts = installOptions()
	_, err = install(opts, Plugins{Statistics: true, Filters: planner})
	require.NoError(t, err)
	for _, level := range []int{0, 3} {
		require.Equal(t, "pebblerf.tagged."+pointfilter.PlannedPolicyName, opts.Levels[level].FilterPolicy.Name(),
			"statistics installed before the filter plan")
	}
}

func TestInstallZeroConfig(t *testing.T) {
	opts := installOptions()
	in, err := install(opts, Plugins{})
	require.NoError(t, err)
	require.Empty(t, opts.BlockPropertyCollectors)
	require.False(t, opts.DisableAutomaticCompactions)
	require.Equal(t, "leveled", in.profile.Name())
}

// TestInstallLeavesCallerCollectors checks that install judges only the
// collectors the plug-ins add: the caller's own, even two of one name, are
// upstream's business, and Open with no plug-in accepts what upstream does.
func TestInstallLeavesCallerCollectors(t *testing.T) {
	var keys atomic.Int64
	dup := tableprops.Adapt(func() TablePropertyCollector { return countingProps{&keys} })
	opts := installOptions()
	opts.BlockPropertyCollectors = []func() BlockPropertyCollector{dup, dup}
	_, err := install(opts, Plugins{})
	require.NoError(t, err)
	require.Len(t, opts.BlockPropertyCollectors, 2)

	opts = installOptions()
	opts.BlockPropertyCollectors = []func() BlockPropertyCollector{dup}
	_, err = install(opts, Plugins{
		TableProperties: []func() TablePropertyCollector{func() TablePropertyCollector { return countingProps{&keys} }},
	})
	require.ErrorContains(t, err, `both named`)
}

func TestInstallErrors(t *testing.T) {
	var keys atomic.Int64
	dup := func() TablePropertyCollector { return countingProps{&keys} }
	_, err := install(installOptions(), Plugins{
		TableProperties: []func() TablePropertyCollector{dup, dup},
	})
	require.ErrorContains(t, err, `both named "test.counting"`)

	_, err = install(installOptions(), Plugins{RangeFilterLevels: &rangefilter.Plan{}})
	require.ErrorContains(t, err, "Plugins.RangeFilterLevels needs Plugins.RangeFilter")
	_, err = install(installOptions(), Plugins{RangeFilter: &rangefilter.Config{},
		RangeFilterLevels: &rangefilter.Plan{Levels: [rangefilter.PlanLevels]float64{2: 1}}})
	require.ErrorContains(t, err, "Plan.Levels[2]")

	_, err = install(installOptions(), Plugins{Shape: &compactionext.ManyRuns{Runs: 0}})
	require.ErrorContains(t, err, "at least 2 runs")

	_, err = install(installOptions(), Plugins{Statistics: true,
		Advisor: &compactionext.AdvisorConfig{WriteBudget: math.NaN()}})
	require.ErrorContains(t, err, "WriteBudget")
}

// TestInstallStartsAdvisor checks that start runs the advisor next to the
// profile's driver, reading the statistics' per-table waste, and that stop
// ends both before the DB closes.
func TestInstallStartsAdvisor(t *testing.T) {
	decided := make(chan compactionext.Decision, 1)
	opts := installOptions()
	in, err := install(opts, Plugins{
		Statistics: true,
		Shape:      compactionext.NoCompaction{},
		Advisor: &compactionext.AdvisorConfig{MinWaste: 10, MinRuns: 2,
			MinInterval: time.Millisecond, OnDecision: func(d compactionext.Decision) { decided <- d }},
	})
	require.NoError(t, err)
	require.NotNil(t, in.advisor)
	up, err := upstream.Open("db", opts)
	require.NoError(t, err)
	// Two flushes over one key range: two L0 sublevels.
	flushKeys(t, up, keyRange(0, 1000, 10)...)
	flushKeys(t, up, keyRange(5, 1000, 10)...)
	stop, err := in.start(up)
	require.NoError(t, err)
	db := newDB(up, in, stop)
	// Seeks that load blocks of both sublevels and read no value: waste
	// the statistics count per table, once each iterator is closed.
	for i := range 50 {
		it, err := db.NewIter(nil)
		require.NoError(t, err)
		require.True(t, it.SeekGE(fmt.Appendf(nil, "key%06d", 3+20*i)))
		require.NoError(t, it.Close())
	}
	d := <-decided
	require.NoError(t, d.Err)
	require.Equal(t, 2, d.RunsBefore)
	require.Equal(t, 1, d.RunsAfter)
	require.NoError(t, db.Close(), "Close stops the advisor and the profile's driver first")
}
