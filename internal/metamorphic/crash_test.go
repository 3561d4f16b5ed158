package metamorphic

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/stretchr/testify/require"
)

// crashModel is the key-value state a sequence of writes should leave.
type crashModel map[string]string

func (m crashModel) String() string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%q=%q ", k, m[k])
	}
	return b.String()
}

func (m crashModel) clone() crashModel {
	c := make(crashModel, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestCrashRecovery writes with a mix of synced and unsynced writes, crashes
// at a random point (keeping a random share of unsynced data), reopens with
// pebblerf and with upstream, and checks each sees a state that some prefix
// of the writes would leave, no shorter than the last synced write: what was
// synced is there, and nothing appears that was never written.
func TestCrashRecovery(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 2))
			cfg := RandomConfig(uint64(seed))
			cfg.Keys, cfg.Universe = DBBench, 200
			space := keySpace{kind: DBBench, universe: cfg.Universe}
			fs := vfs.NewCrashableMem()
			opts := cfg.options(fs)
			db, err := pebblerf.OpenWithPlugins("db", opts, cfg.Plugins)
			require.NoError(t, err)

			// states[i] is the model after the first i writes.
			states := []crashModel{{}}
			lastSynced := 0
			n := 50 + rng.IntN(300)
			rng2 := newGenerator(uint64(seed), space, bytes.Compare).rng
			for i := 0; i < n; i++ {
				m := states[len(states)-1].clone()
				wo := pebble.NoSync
				if rng.IntN(3) == 0 {
					wo = pebble.Sync
				}
				k := string(space.key(rng2))
				switch r := rng.IntN(10); {
				case r < 7:
					v := fmt.Sprintf("v%d", i)
					require.NoError(t, db.Set([]byte(k), []byte(v), wo))
					m[k] = v
				case r < 9:
					require.NoError(t, db.Delete([]byte(k), wo))
					delete(m, k)
				default:
					end := string(space.key(rng2))
					if k > end {
						k, end = end, k
					}
					require.NoError(t, db.DeleteRange([]byte(k), []byte(end), wo))
					for key := range m {
						if key >= k && key < end {
							delete(m, key)
						}
					}
				}
				states = append(states, m)
				if wo == pebble.Sync {
					lastSynced = len(states) - 1
				}
				if rng.IntN(40) == 0 {
					require.NoError(t, db.Flush())
				}
			}
			crashCfg := vfs.CrashCloneCfg{UnsyncedDataPercent: rng.IntN(100), RNG: rng}
			crashedForRF, crashedForUp := fs.CrashClone(crashCfg), fs.CrashClone(crashCfg)
			require.NoError(t, db.Close())

			reopenedRF := recoveredState(t, crashedForRF, cfg, true)
			reopenedUp := recoveredState(t, crashedForUp, cfg, false)
			for name, got := range map[string]string{"pebblerf": reopenedRF, "upstream": reopenedUp} {
				ok := false
				for i := lastSynced; i < len(states) && !ok; i++ {
					ok = states[i].String() == got
				}
				require.True(t, ok, "%s recovered a state no write prefix from %d of %d leaves:\n%s",
					name, lastSynced, len(states)-1, got)
			}
		})
	}
}

// recoveredState opens a crashed file system and renders its contents in
// crashModel's form.
func recoveredState(t *testing.T, fs vfs.FS, cfg Config, usePebblerf bool) string {
	opts := cfg.options(fs)
	var it iterator
	if usePebblerf {
		db, err := pebblerf.OpenWithPlugins("db", opts, cfg.Plugins)
		require.NoError(t, err)
		defer db.Close()
		it, err = db.NewIter(nil)
		require.NoError(t, err)
	} else {
		db, err := pebble.Open("db", opts)
		require.NoError(t, err)
		defer db.Close()
		it, err = db.NewIter(nil)
		require.NoError(t, err)
	}
	m := crashModel{}
	for valid := it.First(); valid; valid = it.Next() {
		v, err := it.ValueAndErr()
		require.NoError(t, err)
		m[string(it.Key())] = string(v)
	}
	require.NoError(t, it.Close())
	return m.String()
}
