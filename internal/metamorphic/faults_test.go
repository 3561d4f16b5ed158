package metamorphic

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/stretchr/testify/require"
)

// TestReadFaults injects read errors under pebblerf (upstream runs the same
// ops without faults) and requires every result to be upstream's result or
// an error: a failed read may fail an operation, never change its answer
// (faultWatch says which results compare).
func TestReadFaults(t *testing.T) {
	var injected, compared int
	for seed := uint64(1); seed <= 6; seed++ {
		cfg := RandomConfig(seed)
		ops := Generate(cfg, 1000)

		up, err := newUpstreamRunner(cfg)
		require.NoError(t, err)
		toggle := &errorfs.Toggle{Injector: errorfs.ErrInjected.If(
			errorfs.And(errorfs.Reads, errorfs.PathMatch("db/*.sst"), errorfs.Randomly(0.02, int64(seed))))}
		fs := errorfs.Wrap(vfs.NewMem(), toggle)
		opts := cfg.options(fs)
		rf, err := newRunner(fs, opts, func() (engine, error) {
			toggle.Off()
			defer toggle.On()
			db, err := pebblerf.OpenWithPlugins("db", opts, cfg.Plugins)
			if err != nil {
				return nil, err
			}
			return genericEngine[*pebblerf.Iterator, *pebblerf.Batch, *pebblerf.Snapshot, *pebblerf.DB]{d: db}, nil
		})
		require.NoError(t, err)

		watch := newFaultWatch()
		for i, o := range ops {
			want, got := up.exec(o), rf.exec(o)
			compare, failed, stop := watch.check(o, got, errorfs.ErrInjected.Error())
			if failed {
				injected++
			}
			if stop {
				// The write did not happen here but did upstream: from
				// now on the two databases legitimately differ.
				break
			}
			if !compare {
				continue
			}
			compared++
			require.Equal(t, want, got, "seed %d op %d: %s\nops:\n%s", seed, i, o, formatOps(ops[:i+1]))
		}
		toggle.Off()
		require.NoError(t, up.close())
		_ = rf.close()
	}
	t.Logf("%d results compared, %d operations failed by injected read errors", compared, injected)
	require.Positive(t, injected, "no fault was injected: the test tested nothing")
}

// faultWatch follows a sequence run under injected faults: which results
// can be compared with upstream's, and when the two databases start to
// differ. After an iterator reports an error, its relative moves (next,
// prev, nextprefix) are not compared until it is repositioned absolutely,
// since Pebble defines no position for an iterator that failed; a write
// that fails (an ingest reads the tables it may overlap) ends the
// comparison, since the write happened upstream only.
type faultWatch struct{ failedIters map[string]bool }

func newFaultWatch() *faultWatch { return &faultWatch{failedIters: map[string]bool{}} }

// faultWrites are the ops after whose failure the databases differ.
var faultWrites = map[string]bool{"ingest": true, "batch.commit": true, "set": true,
	"delete": true, "singledel": true, "delrange": true, "merge": true}

// check takes op o's result got under faults whose errors contain marker,
// and says whether it can be compared with upstream's, whether a fault
// failed it, and whether the comparison must stop here.
func (w *faultWatch) check(o op, got, marker string) (compare, failed, stop bool) {
	if strings.Contains(got, marker) {
		if o.name == "iter.op" {
			w.failedIters[o.args[0]] = true
		}
		return false, true, faultWrites[o.name]
	}
	if o.name == "iter.op" {
		switch o.args[1] {
		case "next", "prev", "nextprefix":
			if w.failedIters[o.args[0]] {
				return false, false, false
			}
		default:
			delete(w.failedIters, o.args[0])
		}
	}
	return true, false, false
}
