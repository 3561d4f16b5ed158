// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"math/rand/v2"
	"testing"

	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/keyspace"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

func TestParsePluginFlags(t *testing.T) {
	c, err := parseFlags(nil, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, int64(1), c.KeyStride)
	require.False(t, c.SeekTargets(nil).Bounded())
	// By default pebblerf is opened as its Open opens it: no plug-in.
	require.False(t, c.PebbleRFStatistics)
	p := c.PebbleRFPlugins(nil)
	require.Equal(t, pebblerf.Plugins{}, p)
	require.Nil(t, p.RangeFilter)
	require.Nil(t, p.Shape)
	require.Nil(t, p.Advisor)

	c, err = parseFlags([]string{"-engine=pebblerf", "-range_filter_bits=16", "-compaction_style=1", "-num_levels=9",
		"-compaction_advisor", "-pebblerf_statistics", "-use_query_builder", "-query_plan=stepped", "-key_stride=16",
		"-seek_upper_bound_len=8", "-empty_range_fraction=0.9", "-seek_target_range_multiplier=10"}, &bytes.Buffer{})
	require.NoError(t, err)
	p = c.PebbleRFPlugins(nil)
	require.Equal(t, 16.0, p.RangeFilter.BitsPerKey)
	require.Equal(t, 9, p.Shape.(*compactionext.ManyRuns).Runs)
	require.NotNil(t, p.Advisor)
	plan, err := c.Plan()
	require.NoError(t, err)
	require.Equal(t, querybuilder.PlanStepped, plan)
	require.Contains(t, c.PluginDescription(), "many-runs (9 runs)")

	// -num_levels left at db_bench's default keeps the profile's own count.
	c, err = parseFlags([]string{"-compaction_style=1"}, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, compactionext.DefaultRuns, c.PebbleRFPlugins(nil).Shape.(*compactionext.ManyRuns).Runs)
	c, err = parseFlags([]string{"-engine=pebblerf", "-compaction_style=3", "-pebblerf_statistics=false"}, &bytes.Buffer{})
	require.NoError(t, err)
	require.Equal(t, "none", c.PebbleRFPlugins(nil).Shape.Name())
	require.False(t, c.PebbleRFPlugins(nil).Statistics)

	// -get_l6_filters: Plugins.GetL6Filters, and L6 filters written on both
	// engines, upstream's policy on pebblerf too.
	require.Nil(t, c.PebbleRFPlugins(nil).GetL6Filters)
	require.False(t, c.WriteL6Filters())
	for value, auto := range map[string]bool{"on": false, "auto": true} {
		c, err = parseFlags([]string{"-engine=both", "-bloom_bits=10", "-get_l6_filters=" + value}, &bytes.Buffer{})
		require.NoError(t, err)
		require.Equal(t, &pebblerf.GetL6Config{Auto: auto}, c.PebbleRFPlugins(nil).GetL6Filters, value)
		require.True(t, c.WriteL6Filters())
		require.True(t, c.DefaultPath(), "the filters stay upstream's")
		require.Contains(t, c.FilterDescription(), "bloom.FilterPolicy(10) on L0-L6")
		require.Contains(t, c.PluginDescription(), "Gets consult L6 filters "+value)
	}
}

func TestBadPluginFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-key_stride=0"}, "-key_stride"},
		{[]string{"-key_stride=2", "-prefix_size=4", "-keys_per_prefix=10"}, "-key_stride"},
		{[]string{"-seek_upper_bound_len=-1"}, "-seek_upper_bound_len"},
		{[]string{"-empty_range_fraction=2"}, "-empty_range_fraction"},
		{[]string{"-empty_range_fraction=0.5"}, "-empty_range_fraction"},
		{[]string{"-empty_range_fraction=0.5", "-seek_upper_bound_len=8", "-key_stride=8"}, "-empty_range_fraction"},
		{[]string{"-fillseq_overwrite_window=-1"}, "-fillseq_overwrite_window"},
		{[]string{"-seek_target_range_multiplier=0"}, "-seek_target_range_multiplier"},
		{[]string{"-range_filter_bits=2"}, "-range_filter_bits"},
		{[]string{"-range_filter_bits=NaN"}, "-range_filter_bits"},
		{[]string{"-query_plan=fast"}, "-query_plan"},
		{[]string{"-compaction_style=2"}, "-compaction_style"},
		{[]string{"-compaction_style=7"}, "-compaction_style"},
		{[]string{"-compaction_style=1", "-num_levels=1"}, "-num_levels"},
		{[]string{"-compaction_advisor", "-pebblerf_statistics=false"}, "-compaction_advisor"},
		{[]string{"-use_query_builder=maybe"}, "-use_query_builder"},
		{[]string{"-seek_hot_fraction=1.5"}, "-seek_hot_fraction"},
		{[]string{"-seek_hot_fraction=0.5", "-seek_hot_range=0"}, "-seek_hot_range"},
		{[]string{"-seek_hot_fraction=0.5", "-seek_hot_start=0.95"}, "-seek_hot_start"},
		{[]string{"-compaction_advisor_interval_ms=-1"}, "-compaction_advisor_interval_ms"},
		{[]string{"-compaction_advisor_write_budget=NaN"}, "-compaction_advisor_write_budget"},
		{[]string{"-compaction_advisor_write_budget=+Inf"}, "-compaction_advisor_write_budget"},
		{[]string{"-lsm_sample_ms=-5"}, "-lsm_sample_ms"},
		{[]string{"-many_runs_slice_bytes=-1"}, "-many_runs_slice_bytes"},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, exitUsage, realMain(tc.args, &stdout, &stderr))
			require.Contains(t, stderr.String(), tc.want)
			require.Empty(t, stdout.String())
		})
	}
}

// TestSeekTargets checks the empty ranges really are empty of written keys
// and the others start at a written key, and that the draws depend only on
// the random source (which is how both engines get the same targets).
func TestSeekTargets(t *testing.T) {
	c, err := parseFlags([]string{"-num=1000", "-key_stride=16", "-seek_upper_bound_len=8",
		"-empty_range_fraction=0.5"}, &bytes.Buffer{})
	require.NoError(t, err)
	g := c.KeyGen()
	written := map[string]bool{}
	key := make([]byte, c.KeySize)
	for i := uint64(0); i < uint64(c.Num); i++ {
		g.Fill(key, g.Written(i))
		written[string(key)] = true
	}
	targets := c.SeekTargets(nil)
	draw := func(seed uint64) (keys []string, empties int) {
		rng := rand.New(rand.NewPCG(seed, 1))
		upper := make([]byte, c.KeySize)
		for i := 0; i < 2000; i++ {
			empty := targets.Next(rng, key, upper)
			keys = append(keys, string(key)+string(upper))
			if !empty {
				require.True(t, written[string(key)])
				continue
			}
			empties++
			// Every key number in [target, upper) is absent.
			lo, hi := bigEndian(key[:8]), bigEndian(upper[:8])
			require.Equal(t, uint64(8), hi-lo)
			for v := lo; v < hi; v++ {
				g.Fill(key, v)
				require.False(t, written[string(key)], "key %d in an empty range", v)
			}
		}
		return keys, empties
	}
	a, empties := draw(5)
	b, _ := draw(5)
	require.Equal(t, a, b)
	require.InDelta(t, 1000, empties, 150)
}

// TestSeekTargetsHot checks -seek_hot_fraction: that share of the targets,
// and about the hot range's share of the rest, fall in the first
// -seek_hot_range of the filled keys; the others spread over the whole
// target range.
func TestSeekTargetsHot(t *testing.T) {
	c, err := parseFlags([]string{"-num=10000", "-seek_target_range_multiplier=10",
		"-seek_hot_fraction=0.8", "-seek_hot_range=0.05"}, &bytes.Buffer{})
	require.NoError(t, err)
	targets := c.SeekTargets(nil)
	g := c.KeyGen()
	hotEnd := make([]byte, c.KeySize)
	g.Fill(hotEnd, g.Written(500))
	key := make([]byte, c.KeySize)
	rng := rand.New(rand.NewPCG(3, 1))
	hot, past := 0, 0
	const n = 20000
	for i := 0; i < n; i++ {
		targets.Next(rng, key, nil)
		if bytes.Compare(key, hotEnd) < 0 {
			hot++
		}
		if bytes.Compare(key[:8], hotEnd[:8]) > 0 && bigEndian(key[:8]) >= 10000 {
			past++
		}
	}
	// 0.8 + 0.2 * (500 / 100000) of the targets are hot.
	require.InDelta(t, 0.801*n, hot, 0.02*n)
	// The cold ones spread over 10x the filled range: 90% of them past it.
	require.InDelta(t, 0.2*0.9*n, past, 0.02*n)
}

// TestSeekTargetsHotStart checks -seek_hot_start: the hot targets move to
// [start, start+range) of the filled keys, here its last tenth.
func TestSeekTargetsHotStart(t *testing.T) {
	c, err := parseFlags([]string{"-num=10000", "-seek_target_range_multiplier=10",
		"-seek_hot_fraction=0.8", "-seek_hot_range=0.1", "-seek_hot_start=0.9"}, &bytes.Buffer{})
	require.NoError(t, err)
	targets := c.SeekTargets(nil)
	key := make([]byte, c.KeySize)
	rng := rand.New(rand.NewPCG(5, 1))
	hot := 0
	const n = 20000
	for i := 0; i < n; i++ {
		targets.Next(rng, key, nil)
		if v := bigEndian(key[:8]); v >= 9000 && v < 10000 {
			hot++
		}
	}
	// 0.8 + 0.2 * (1000 / 100000) of the targets are hot.
	require.InDelta(t, 0.802*n, hot, 0.02*n)
}

// TestSeekTargetsSparse checks the targets after a sparse fill: empty
// ranges hold no written key, the others start at one, about the asked
// fraction is empty, and the key set read back from keys (as
// -use_existing_db does) equals the one the fill recorded.
func TestSeekTargetsSparse(t *testing.T) {
	c, err := parseFlags([]string{"-num=100000", "-writes=3000", "-seek_upper_bound_len=8",
		"-empty_range_fraction=0.9"}, &bytes.Buffer{})
	require.NoError(t, err)
	set := c.NewWrittenSet()
	require.NotNil(t, set)
	g := c.KeyGen()
	rng := rand.New(rand.NewPCG(1, 2))
	written := map[uint64]bool{}
	key := make([]byte, c.KeySize)
	reread := keyspace.NewSet(c.Num)
	for i := int64(0); i < c.Writes; i++ {
		v := rng.Uint64N(uint64(c.Num))
		set.Add(v)
		written[v] = true
		g.Fill(key, g.Written(v))
		reread.Add(g.Index(key))
	}
	require.Equal(t, set, reread)

	targets := c.SeekTargets(set)
	upper := make([]byte, c.KeySize)
	empties := 0
	const draws = 5000
	for i := 0; i < draws; i++ {
		empty := targets.Next(rng, key, upper)
		lo, hi := bigEndian(key[:8]), bigEndian(upper[:8])
		require.Equal(t, uint64(8), hi-lo)
		if !empty {
			require.True(t, written[lo], "non-empty range starts at unwritten %d", lo)
			continue
		}
		empties++
		for v := lo; v < hi; v++ {
			require.False(t, written[v], "key %d in an empty range", v)
		}
	}
	require.InDelta(t, 0.9*draws, empties, 0.03*draws)
}

func bigEndian(b []byte) uint64 {
	var v uint64
	for _, x := range b {
		v = v<<8 | uint64(x)
	}
	return v
}

// TestRecommendedFlags holds -pebblerf_recommended to pebble.Recommended():
// a field the set gains without a flag that carries it fails here.
func TestRecommendedFlags(t *testing.T) {
	c, err := parseFlags([]string{"-engine=both", "-pebblerf_recommended"}, &bytes.Buffer{})
	require.NoError(t, err)
	got := c.PebbleRFPlugins(nil)
	want := pebblerf.Recommended()
	require.NotNil(t, want.RangeFilter)
	rf := *want.RangeFilter
	if rf.BitsPerKey == 0 {
		rf.BitsPerKey = rangefilter.DefaultBitsPerKey
	}
	rf.Seed = got.RangeFilter.Seed // pebblebench fixes it, for figures the same run to run
	want.RangeFilter = &rf
	require.Equal(t, want, got)
	require.False(t, c.DefaultPath())
	require.True(t, c.WriteL6Filters(), "both engines write the L6 filters the set's Gets may consult")

	// A flag given replaces its part of the set, and only that part.
	c, err = parseFlags([]string{"-engine=both", "-pebblerf_recommended", "-range_filter_bits=0", "-get_l6_filters=on"}, &bytes.Buffer{})
	require.NoError(t, err)
	got = c.PebbleRFPlugins(nil)
	require.Nil(t, got.RangeFilter)
	require.Equal(t, &pebblerf.GetL6Config{}, got.GetL6Filters)
}

// Under -pebblerf_recommended pebblerf keeps upstream's filter policy, as
// pebble.Recommended() keeps Options.Levels' filters; a pebblerf
// point-filter flag still gives it pebblerf's.
func TestRecommendedKeepsUpstreamFilters(t *testing.T) {
	c, err := parseFlags([]string{"-engine=both", "-pebblerf_recommended", "-bloom_bits=10"}, &bytes.Buffer{})
	require.NoError(t, err)
	rf, _, err := c.Options(config.EnginePebbleRF, nil)
	require.NoError(t, err)
	up, _, err := c.Options(config.EnginePebble, nil)
	require.NoError(t, err)
	for i := range rf.Levels {
		require.Equal(t, up.Levels[i].FilterPolicy.Name(), rf.Levels[i].FilterPolicy.Name(), "L%d", i)
	}
	c, err = parseFlags([]string{"-engine=both", "-pebblerf_recommended", "-bloom_bits=10", "-use_ribbon_filter"}, &bytes.Buffer{})
	require.NoError(t, err)
	rf, _, err = c.Options(config.EnginePebbleRF, nil)
	require.NoError(t, err)
	require.NotEqual(t, up.Levels[3].FilterPolicy.Name(), rf.Levels[3].FilterPolicy.Name())
}
