package metamorphic

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// TestMVCCTimeBound runs MVCC-key sequences with the filter plug-ins on (and
// on every other run the shape profile and the advisor), under
// each way pebblerf's iterators read, so that time-bound iterators (a
// caller's time-interval PointKeyFilters entry and SkipPoint) meet the
// range filter and the planner on every run, not only when the random
// configuration happens to draw them.
func TestMVCCTimeBound(t *testing.T) {
	n := opsPerRun
	if testing.Short() {
		n /= 2
	}
	timeBound := 0
	for i, plan := range []string{"newiter", "auto", "prefix", "stepped"} {
		cfg := Config{
			Seed: uint64(1000 + i), Keys: MVCC, Universe: 200, MemTableSize: 64 << 10, BlockSize: 512,
			AutoCompactions: i%2 == 0, UpstreamFilterBits: 10, Plan: plan,
			Plugins: pebblerf.Plugins{
				Statistics:  true,
				Filters:     pointfilter.MustNewPlanner(pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: 1, L6Filters: true}),
				RangeFilter: &rangefilter.Config{BitsPerKey: 8},
			},
		}
		if i%2 == 1 {
			// The shape profile and the advisor over MVCC keys.
			cfg.Plugins.Shape = &compactionext.ManyRuns{Runs: 3, MinInterval: time.Millisecond}
			cfg.Plugins.Advisor = &compactionext.AdvisorConfig{MinInterval: time.Millisecond, MinWaste: 1,
				MinRuns: 2, WriteBudget: -1}
		}
		ops := Generate(cfg, n)
		for _, o := range ops {
			if o.name == "iter.new" && len(o.args) > 4 {
				timeBound++
			}
		}
		m, err := Compare(cfg, ops)
		require.NoError(t, err, "config %s", cfg)
		if m != nil {
			t.Fatalf("%v", Shrink(m))
		}
	}
	require.Positive(t, timeBound, "no time-bound iterator was generated")
}

// TestTimeBoundHidesOtherVersions checks the time bound itself on one
// engine: a time-bound iterator returns exactly the versions in its
// interval, whatever was flushed.
func TestTimeBoundHidesOtherVersions(t *testing.T) {
	cfg := Config{Keys: MVCC, Universe: 20, MemTableSize: 64 << 10, BlockSize: 64}
	var ops []op
	for ts := 1; ts <= maxWallTime; ts++ {
		for i := 0; i < 20; i++ {
			key := cockroachkvs.EncodeMVCCKey(nil, fmt.Appendf(nil, "/table/%03d", i), uint64(ts), 0)
			ops = append(ops, op{name: "set", args: []string{string(key), "v"}})
		}
		ops = append(ops, op{name: "flush"})
	}
	ops = append(ops, op{name: "iter.new", args: []string{"i1", "", "", "db", "2-3"}})
	ops = append(ops, op{name: "iter.op", args: []string{"i1", "first"}})
	for range 60 {
		ops = append(ops, op{name: "iter.op", args: []string{"i1", "next"}})
	}
	up, err := newUpstreamRunner(cfg)
	require.NoError(t, err)
	defer up.close()
	var valid int
	for _, o := range ops {
		res := up.exec(o)
		if o.name == "iter.op" && !strings.HasPrefix(res, "invalid") && res != "ok" {
			valid++
		}
	}
	require.Equal(t, 40, valid, "20 keys with 2 versions each in [2, 3]")
}
