package metamorphic

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/tableprops"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// Corrupt filters and properties on disk. Pebble checksums every block, so
// bytes flipped on disk surface as corruption errors before a filter sees
// them; what reaches a filter undecodable is what a buggy or foreign writer
// produced under its name. These tests write such tables with upstream
// Pebble (a policy and a collector that carry pebblerf's names but write
// garbage), reopen them with pebblerf's real filters, and require every key
// to be found and the corruption to be counted: corrupt bytes fail open.

// garbagePolicy writes random bytes under another policy's name.
type garbagePolicy struct {
	name string
	rng  *rand.Rand
}

func (g garbagePolicy) Name() string { return g.name }
func (g garbagePolicy) MayContain(pebble.FilterType, []byte, []byte) bool {
	return true
}
func (g garbagePolicy) NewWriter(pebble.FilterType) pebble.FilterWriter {
	return &garbageWriter{rng: g.rng}
}

type garbageWriter struct{ rng *rand.Rand }

func (w *garbageWriter) AddKey([]byte) {}
func (w *garbageWriter) Finish(dst []byte) []byte {
	n := w.rng.IntN(80)
	for i := 0; i < n; i++ {
		dst = append(dst, byte(w.rng.Uint32()))
	}
	return dst
}

// garbageRangeProps stores random bytes as the range filter's property.
type garbageRangeProps struct{ rng *rand.Rand }

func (g garbageRangeProps) Name() string                         { return rangefilter.Name }
func (g garbageRangeProps) Add(pebble.InternalKey, []byte) error { return nil }
func (g garbageRangeProps) Finish(props map[string]string) error {
	b := make([]byte, 1+g.rng.IntN(64))
	for i := range b {
		b[i] = byte(g.rng.Uint32())
	}
	props["rangefilter.v1"] = string(b)
	return nil
}

func TestCorruptFiltersFailOpen(t *testing.T) {
	for _, ribbon := range []bool{false, true} {
		t.Run(fmt.Sprintf("ribbon=%t", ribbon), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(fmt.Sprint(ribbon)))))
			plan := &pointfilter.Plan{BitsPerKey: 10, RibbonFromLevel: pointfilter.NoRibbon, L6Filters: true}
			if ribbon {
				plan.RibbonFromLevel = 0
			}
			var real pebble.Options
			require.NoError(t, plan.Apply(&real))
			fs := vfs.NewMem()
			opts := &pebble.Options{FS: fs, DisableAutomaticCompactions: true}
			for i := range opts.Levels {
				opts.Levels[i].FilterPolicy = garbagePolicy{name: real.Levels[i].FilterPolicy.Name(), rng: rng}
			}
			opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors,
				tableprops.Adapt(func() tableprops.Collector {
					return garbageRangeProps{rng: rng}
				}))
			db, err := pebble.Open("db", opts)
			require.NoError(t, err)
			var keys [][]byte
			for table := 0; table < 8; table++ {
				for i := 0; i < 50; i++ {
					k := []byte(fmt.Sprintf("key%05d", table+8*i))
					keys = append(keys, k)
					require.NoError(t, db.Set(k, k, nil))
				}
				require.NoError(t, db.Flush())
			}
			require.NoError(t, db.Close())

			// No compactions: they would rewrite the tables with sound filters.
			rf, err := pebblerf.OpenWithPlugins("db", &pebble.Options{FS: fs, DisableAutomaticCompactions: true}, pebblerf.Plugins{
				Filters: pointfilter.MustNewPlanner(*plan), RangeFilter: &rangefilter.Config{BitsPerKey: 16},
			})
			require.NoError(t, err)
			defer rf.Close()
			it, err := rf.NewIter(&pebble.IterOptions{UseL6Filters: true})
			require.NoError(t, err)
			for _, k := range keys {
				v, closer, err := rf.Get(k)
				require.NoError(t, err, "Get(%s) lost to a corrupt filter", k)
				require.Equal(t, k, v)
				require.NoError(t, closer.Close())
				require.True(t, it.SeekPrefixGE(k), "SeekPrefixGE(%s) lost to a corrupt filter", k)
				bounded, err := rf.NewIter(&pebble.IterOptions{LowerBound: k, UpperBound: append(k, 0)})
				require.NoError(t, err)
				require.True(t, bounded.First(), "bounded scan of %s lost to a corrupt range filter", k)
				require.NoError(t, bounded.Close())
			}
			require.NoError(t, it.Close())
			counts := rf.FilterCounters()
			require.Positive(t, counts.CorruptFilters, "corrupt point filters were not counted")
			require.Positive(t, counts.CorruptRangeFilters, "corrupt range filters were not counted")
		})
	}
}
