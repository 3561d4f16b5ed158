// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// TestPickDue runs testdata/many_runs_pick: the many-runs driver's choice of
// units once the ages are staggered, on L0s given by their units' depths, so
// that each rule of pickDue shows on its own.
//
//	units runs=N               L0's units, by depth in key order (the input);
//	                           a merge is due at depth N-1
//	pick [slices=S] [from=I]   what pickDue merges, looking from unit I on,
//	                           with S slices (default: the number of units);
//	                           merged units leave L0 (depth 0)
//	flush                      every unit one deeper, merged ones back in L0
func TestPickDue(t *testing.T) {
	var depths []int
	var runs, from int
	show := func() string {
		return fmt.Sprintf("runs=%d (deepest unit %d)", maxDepth(depths)+1, maxDepth(depths))
	}
	datadriven.RunTest(t, "testdata/many_runs_pick", func(t *testing.T, td *datadriven.TestData) string {
		switch td.Cmd {
		case "units":
			td.ScanArgs(t, "runs", &runs)
			depths, from = nil, 0
			for _, f := range strings.Fields(td.Input) {
				d, err := strconv.Atoi(f)
				require.NoError(t, err)
				depths = append(depths, d)
			}
			return show()
		case "flush":
			for k := range depths {
				depths[k]++
			}
			return fmt.Sprintf("%v %s", depths, show())
		case "pick":
			slices := len(depths)
			if td.HasArg("slices") {
				td.ScanArgs(t, "slices", &slices)
			}
			if td.HasArg("from") {
				td.ScanArgs(t, "from", &from)
			}
			units := make([]l0Unit, len(depths))
			for k, d := range depths {
				units[k] = l0Unit{Smallest: keyOf(2 * k), Largest: keyOf(2*k + 1), Depth: d}
			}
			i, j := pickDue(units, from, slices, runs-1)
			if i == j {
				return "wait: " + show()
			}
			taken := fmt.Sprint(depths[i:j])
			for k := i; k < j; k++ {
				depths[k] = 0
			}
			from = j % len(depths)
			return fmt.Sprintf("merge units %d-%d, depths %s; %s", i, j-1, taken, show())
		default:
			return "unknown command " + td.Cmd
		}
	})
}

func maxDepth(depths []int) int {
	d := 0
	for _, x := range depths {
		d = max(d, x)
	}
	return d
}

// keySpan is a unit over keys [lo, hi] (see keyOf), depth deep.
func keySpan(lo, hi, depth int) l0Unit {
	return l0Unit{Smallest: keyOf(lo), Largest: keyOf(hi), Depth: depth}
}

// evenUnits is n units of width keys each from key 0, all at depth.
func evenUnits(n, width, depth int) []l0Unit {
	units := make([]l0Unit, n)
	for k := range units {
		units[k] = keySpan(k*width, (k+1)*width-1, depth)
	}
	return units
}

// bottomEvery is n bottom-level tables (slices) of width keys each from
// key 0.
func bottomEvery(n, width int) []pebble.SSTableInfo {
	bottom := make([]pebble.SSTableInfo, n)
	for s := range bottom {
		bottom[s] = table(s*width, (s+1)*width-1, 1)
	}
	return bottom
}

// TestPickWarmUp: the first sweep paces its merges by the slices of the key
// space, and by units where they are no smaller than slices: with Runs-1 = 3,
// each flush moves it over a third of the measure.
func TestPickWarmUp(t *testing.T) {
	const deep = 3
	six := bottomEvery(6, 100) // slices of keys [100s, 100s+99]
	for _, tc := range []struct {
		name    string
		units   []l0Unit
		from    int
		bottom  []pebble.SSTableInfo
		flushes int64
		want    int
	}{{
		// Five units a slice, each counted as one: a third of 30.
		name: "small units", units: evenUnits(30, 20, 1), bottom: six,
		flushes: 1, want: 10,
	}, {
		// From the cursor at the start of slice 3: the three slices
		// behind it and the 15 units ahead make 18, a third of it 6.
		name: "from the cursor", units: evenUnits(30, 20, 1), from: 15, bottom: six,
		flushes: 1, want: 21,
	}, {
		// One old unit over four slices counts four: two flushes call for
		// no more. Counted as one unit of three, the merge would have
		// taken the next one too.
		name: "a wide unit", units: []l0Unit{keySpan(0, 399, 2), keySpan(400, 499, 2), keySpan(500, 599, 2)},
		bottom: six, flushes: 2, want: 1,
	}, {
		// The first unit counts the two slices before it and its own:
		// 3 and 19 units more make 22, and a third of it (8) is that unit
		// and five more.
		name: "keys before the first unit", units: evenUnits(30, 20, 1)[10:], bottom: six,
		flushes: 1, want: 6,
	}, {
		// A new DB before its first merge has no bottom level: each unit
		// counts as a slice.
		name: "no bottom level", units: evenUnits(12, 10, 1), flushes: 1, want: 4,
	}, {
		// A sequential load past the bottom level's last key: 30 units
		// side by side, each a slice, the first with the 6 slices before
		// it. A third of 36 is that unit and six more.
		name: "past the bottom level", units: evenUnits(36, 10, 1)[6:], bottom: bottomEvery(6, 10),
		flushes: 1, want: 7,
	}, {
		name: "no flushes", units: evenUnits(30, 20, 1), bottom: six, flushes: 0, want: 0,
	}, {
		// A unit that is deep already, two after the last the pace calls
		// for, is taken too, and the ones between.
		name: "deep soon",
		units: func() []l0Unit {
			u := evenUnits(30, 20, 1)
			u[12].Depth = deep
			return u
		}(),
		bottom: six, flushes: 1, want: 13,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := pickWarmUp(tc.units, tc.from, tc.bottom, tc.flushes, deep, bytes.Compare)
			require.Equal(t, tc.want, got)
		})
	}
}

// table is a bottom-level table over keys [lo, hi].
func table(lo, hi int, size uint64) pebble.SSTableInfo {
	var t pebble.SSTableInfo
	t.Smallest = pebble.MakeInternalKey(keyOf(lo), 0, pebble.InternalKeyKindSet)
	t.Largest = pebble.MakeInternalKey(keyOf(hi), 0, pebble.InternalKeyKindSet)
	t.Size = size
	return t
}

// TestUnslicedUnit: the driver merges out of turn a unit of more than two
// slices' bytes that no bottom table lies under, and no other.
func TestUnslicedUnit(t *testing.T) {
	const slice = 1000
	bottom := []pebble.SSTableInfo{table(0, 99, slice), table(200, 299, slice)}
	sized := func(u l0Unit, bytes uint64) l0Unit { u.Bytes = bytes; return u }
	for _, tc := range []struct {
		name   string
		units  []l0Unit
		bottom []pebble.SSTableInfo
		want   int
	}{{
		name:  "past the last bottom table",
		units: []l0Unit{sized(keySpan(0, 99, 2), 3*slice), sized(keySpan(300, 900, 2), 3*slice)},
		want:  1,
	}, {
		name:  "before the first bottom table",
		units: []l0Unit{sized(keySpan(0, 9, 1), 3*slice)}, bottom: bottom[1:],
		want: 0,
	}, {
		name:  "between bottom tables",
		units: []l0Unit{sized(keySpan(100, 199, 2), 3*slice)},
		want:  0,
	}, {
		name:  "touching a bottom table",
		units: []l0Unit{sized(keySpan(150, 200, 2), 3*slice), sized(keySpan(299, 400, 2), 3*slice)},
		want:  -1,
	}, {
		name:  "two slices' bytes or less",
		units: []l0Unit{sized(keySpan(300, 900, 2), 2*slice)},
		want:  -1,
	}, {
		name:  "no bottom level",
		units: []l0Unit{sized(keySpan(0, 9, 1), slice), sized(keySpan(10, 900, 1), 3*slice)}, bottom: []pebble.SSTableInfo{},
		want: 1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			b := bottom
			if tc.bottom != nil {
				b = tc.bottom
			}
			require.Equal(t, tc.want, unslicedUnit(tc.units, b, slice, bytes.Compare))
		})
	}
}

// TestPickFirstSweepWaits: a first sweep whose cursor is past every unit in
// L0 but not past the bottom level's last slice waits for flushes to reach
// the keys ahead, not to start over; it ends once a unit is due.
func TestPickFirstSweepWaits(t *testing.T) {
	six := bottomEvery(6, 100)
	driver := func() *ManyRuns {
		// Runs 4: a unit is due at 3 sublevels. The sweep has merged up
		// to key 299, and a merge outside it took keys 300 on.
		return &ManyRuns{Runs: 4, comparer: pebble.DefaultComparer, cursor: keyOf(299), merges: 2, fromFirst: true}
	}

	p := driver()
	i, j, _ := p.pick(evenUnits(15, 20, 2), six, 1)
	require.Equal(t, i, j, "waits")
	require.False(t, p.warm)
	require.Equal(t, keyOf(299), p.cursor)

	// Nothing lies past the cursor in the bottom level either: the sweep
	// starts over at the first key, still warming up.
	p = driver()
	i, j, _ = p.pick(evenUnits(15, 20, 2), bottomEvery(3, 100), 1)
	require.Equal(t, 0, i)
	require.Equal(t, 5, j, "a third of three slices after one flush")
	require.False(t, p.warm)

	// A unit is due: the writes may never reach the keys ahead, so the
	// sweep is over and the due unit is merged.
	p = driver()
	units := evenUnits(15, 20, 2)
	units[7].Depth = 3
	i, j, _ = p.pick(units, six, 1)
	require.True(t, p.warm)
	require.Nil(t, p.cursor)
	require.Equal(t, 7, i)
	require.Equal(t, 8, j)
}
