package metamorphic

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

var (
	flagOps      = flag.Int("metamorphic.ops", 100_000, "operations to run across configurations")
	flagDuration = flag.Duration("metamorphic.duration", 0, "run for this long instead of -metamorphic.ops (soak)")
	flagSeed     = flag.Uint64("metamorphic.seed", 0, "first seed (0: from the clock)")
)

const opsPerRun = 2000

// TestMetamorphic runs random op sequences under random configurations on
// upstream Pebble and pebblerf and fails on the first differing result, with
// a shrunk, replayable sequence.
func TestMetamorphic(t *testing.T) {
	seed := *flagSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	budget := *flagOps
	if testing.Short() {
		budget /= 10
	}
	deadline := time.Time{}
	if *flagDuration > 0 {
		deadline = time.Now().Add(*flagDuration)
	}
	var ran, configs int
	keyKinds := map[KeyKind]int{}
	for ; deadline.IsZero() && ran < budget || !deadline.IsZero() && time.Now().Before(deadline); seed++ {
		cfg := RandomConfig(seed)
		ops := Generate(cfg, opsPerRun)
		m, err := Compare(cfg, ops)
		require.NoError(t, err, "config %s", cfg)
		if m != nil {
			t.Fatalf("%v\n(shrunk from %d ops; rerun with -metamorphic.seed=%d)", Shrink(m), len(ops), seed)
		}
		ran += len(ops)
		configs++
		keyKinds[cfg.Keys]++
	}
	t.Logf("ran %d operations in %d configurations (key kinds %v), 0 mismatches", ran, configs, keyKinds)
}

// TestHarnessCatchesLostWrite checks the harness itself: a pebblerf that
// silently loses one write in fifty must be caught, and the failure shrunk
// to a handful of ops that still show it.
func TestHarnessCatchesLostWrite(t *testing.T) {
	cfg := RandomConfig(7)
	cfg.Keys, cfg.Universe, cfg.loseSetsEvery = DBBench, 20, 50
	ops := Generate(cfg, 1000)
	m, err := Compare(cfg, ops)
	require.NoError(t, err)
	require.NotNil(t, m, "a lost write went unnoticed")
	shrunk := Shrink(m)
	require.Less(t, len(shrunk.Ops), len(m.Ops[:m.Index+1]))
	require.True(t, valid(shrunk.Ops))
	again, err := Replay(cfg, formatOps(shrunk.Ops))
	require.NoError(t, err)
	require.NotNil(t, again, "the shrunk sequence no longer fails:\n%s", formatOps(shrunk.Ops))
}

// TestGeneratedSequencesAreValid guards the shrinker's premise: everything
// the generator emits passes valid, and valid rejects the misuse it exists
// to catch.
func TestGeneratedSequencesAreValid(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		ops := Generate(RandomConfig(seed), 500)
		require.True(t, valid(ops), "seed %d", seed)
		parsed, err := parseOps(formatOps(ops))
		require.NoError(t, err)
		require.Equal(t, ops, parsed, "text form round trip, seed %d", seed)
	}
	twice := []op{{"set", []string{"k", "1"}}, {"set", []string{"k", "2"}}, {"singledel", []string{"k"}}}
	require.False(t, valid(twice), "SingleDelete after two sets")
	orphan := []op{{"iter.op", []string{"i1", "first"}}}
	require.False(t, valid(orphan), "iterator op without iterator")
}

// TestReplay runs the op sequences in testdata/: regressions found by the
// harness, and stories that pin what both engines return.
func TestReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.ops"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			cfg := RandomConfig(1)
			for _, arg := range d.CmdArgs {
				switch arg.Key {
				case "keys":
					for k := KeyKind(0); k < numKeyKinds; k++ {
						if k.String() == arg.Vals[0] {
							cfg.Keys = k
						}
					}
				case "rangefilter":
					bits, err := strconv.ParseFloat(arg.Vals[0], 64)
					require.NoError(t, err)
					cfg.Plugins.RangeFilter = &rangefilter.Config{BitsPerKey: bits}
				case "stats":
					cfg.Plugins.Statistics = arg.Vals[0] != "off"
					cfg.Plugins.StatisticsConfig.ExactAttribution = arg.Vals[0] == "exact"
				}
			}
			switch d.Cmd {
			case "run":
				ops, err := parseOps(d.Input)
				require.NoError(t, err)
				m, err := Compare(cfg, ops)
				require.NoError(t, err)
				if m != nil {
					return m.Error()
				}
				return renderUpstream(t, cfg, ops)
			}
			return fmt.Sprintf("unknown command %q", d.Cmd)
		})
	}
}

// renderUpstream returns each op's result on upstream Pebble, one per line,
// so a story shows what both engines agreed on.
func renderUpstream(t *testing.T, cfg Config, ops []op) string {
	var b strings.Builder
	r, err := newUpstreamRunner(cfg)
	require.NoError(t, err)
	defer r.close()
	for _, o := range ops {
		fmt.Fprintf(&b, "%s -> %s\n", o.name, r.exec(o))
	}
	return b.String()
}
