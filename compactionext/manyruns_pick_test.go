// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"bytes"
	"context"
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
// space, and by units where they are smaller than slices (each counts one):
// with Runs-1 = 3, each flush moves it over a third of the measure.
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
		// side by side, each a slice, the first counting the 6 slices
		// before it instead. A third of 35 is that unit and six more.
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

// table is a table over keys [lo, hi] of size bytes, in any level.
func table(lo, hi int, size uint64) pebble.SSTableInfo {
	var t pebble.SSTableInfo
	t.Smallest = pebble.MakeInternalKey(keyOf(lo), 0, pebble.InternalKeyKindSet)
	t.Largest = pebble.MakeInternalKey(keyOf(hi), 0, pebble.InternalKeyKindSet)
	t.Size = size
	return t
}

// TestUnslicedUnit: the driver merges out of turn a unit whose tables over
// no bottom table hold more than two slices' bytes, and no other.
func TestUnslicedUnit(t *testing.T) {
	const slice = 1000
	bottom := []pebble.SSTableInfo{table(0, 99, slice), table(200, 299, slice)}
	// layers is two layers of tables over [lo, hi], cut at other keys, so
	// that they form one unit, each table of size bytes.
	layers := func(lo, hi int, size uint64) []pebble.SSTableInfo {
		var l0 []pebble.SSTableInfo
		for k := lo; k <= hi; k += 10 {
			l0 = append(l0, table(k, min(k+9, hi), size))
			l0 = append(l0, table(k+5, min(k+14, hi), size))
		}
		return l0
	}
	for _, tc := range []struct {
		name   string
		l0     []pebble.SSTableInfo
		bottom []pebble.SSTableInfo
		want   int
	}{{
		// A random flush joined a load's tail past the last bottom table
		// (25 layered pairs of tables) into one unit; unit 0 lies over
		// the first bottom table.
		name: "past the last bottom table",
		l0:   append(layers(0, 49, 100), layers(300, 549, 100)...),
		want: 1,
	}, {
		// The same, with a table that starts in the last bottom table
		// and runs past it joining the tail: the tables past it count.
		name: "reaching into the last bottom table",
		l0:   append(layers(300, 549, 100), table(250, 305, 100)),
		want: 0,
	}, {
		name: "before the first bottom table",
		l0:   layers(10, 190, 100), bottom: bottom[1:],
		want: 0,
	}, {
		name: "between bottom tables",
		l0:   layers(100, 199, 300),
		want: 0,
	}, {
		// Deep, but over bottom tables: the sweep's to merge.
		name: "over bottom tables",
		l0:   layers(0, 99, 1000),
		want: -1,
	}, {
		// 2 slices' bytes past the last bottom table, and a table over
		// it: not more than two slices.
		name: "two slices' bytes or less",
		l0:   append(layers(300, 399, 100), table(250, 305, 5000)),
		want: -1,
	}, {
		name: "no bottom level",
		l0:   append([]pebble.SSTableInfo{table(0, 9, 100)}, layers(20, 900, 20)...), bottom: []pebble.SSTableInfo{},
		want: 1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			b := bottom
			if tc.bottom != nil {
				b = tc.bottom
			}
			units := l0Units(tc.l0, bytes.Compare)
			require.Equal(t, tc.want, unslicedUnit(units, tc.l0, b, slice, bytes.Compare))
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
	i, j, _ = p.pick(evenUnits(3, 100, 2), bottomEvery(3, 100), 1)
	require.Equal(t, 0, i)
	require.Equal(t, 1, j, "a third of three slices after one flush")
	require.False(t, p.warm)

	// A sweep that has not begun at the first key yet does so rather
	// than wait.
	p = driver()
	p.fromFirst = false
	i, j, _ = p.pick(evenUnits(15, 20, 2), six, 1)
	require.Equal(t, 0, i)
	require.Less(t, i, j)
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

// listedDB is a DB whose tables are what the test lists; Compact records
// its ranges and changes nothing.
type listedDB struct {
	levels    [][]pebble.SSTableInfo
	compacted [][2][]byte
}

func (d *listedDB) Compact(_ context.Context, start, end []byte, _ bool) error {
	d.compacted = append(d.compacted, [2][]byte{start, end})
	return nil
}

func (d *listedDB) Metrics() *pebble.Metrics { return &pebble.Metrics{} }

func (d *listedDB) SSTables(...pebble.SSTablesOption) ([][]pebble.SSTableInfo, error) {
	return d.levels, nil
}

// TestManyRunsFirstSweepKeepsItsPlace drives step over listed tables: a
// first sweep that merged every unit in L0 while L6 holds keys past them
// keeps its cursor and waits, until a unit is due.
func TestManyRunsFirstSweepKeepsItsPlace(t *testing.T) {
	p := &ManyRuns{Runs: 4}
	require.NoError(t, p.Apply(testOptions()))
	p.merges, p.fromFirst = 1, true // past the first merge, warming up

	// L6 holds keys [0, 599] in six slices; L0 holds units over [0, 299].
	units := func(extra ...pebble.SSTableInfo) [][]pebble.SSTableInfo {
		levels := make([][]pebble.SSTableInfo, 7)
		for k := 0; k < 15; k++ {
			levels[0] = append(levels[0], table(20*k, 20*k+19, 10))
		}
		levels[0] = append(levels[0], extra...)
		levels[6] = bottomEvery(6, 100)
		return levels
	}
	db := &listedDB{levels: units()}
	p.monitor.flushes.Store(3) // a whole sweep's worth: every unit
	require.True(t, p.step(context.Background(), db))
	require.Len(t, db.compacted, 1)
	require.Equal(t, keyOf(0), db.compacted[0][0])
	require.Equal(t, keyOf(299), p.cursor, "slices lie ahead: the sweep keeps its place")
	require.False(t, p.warm)

	// Flushes bring units behind the cursor only: nothing to merge yet.
	p.monitor.flushes.Store(4)
	require.False(t, p.step(context.Background(), db))
	require.Len(t, db.compacted, 1)

	// A unit three deep is due: the sweep ends, and it is merged.
	db.levels = units(table(100, 119, 10), table(100, 119, 10))
	p.monitor.flushes.Store(5)
	require.True(t, p.step(context.Background(), db))
	require.True(t, p.warm)
	require.Len(t, db.compacted, 2)
	require.Equal(t, keyOf(100), db.compacted[1][0])
}
