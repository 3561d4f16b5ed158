// Copyright 2026 The pebblerf Authors. All rights reserved.

package sortedruns

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

func tbl(num int, smallest, largest string, exclusive bool, smallestSeq, largestSeq int) Table {
	return Table{Num: pebble.TableNum(num), Backing: uint64(num), Size: 1,
		Smallest: []byte(smallest), Largest: []byte(largest), LargestExclusive: exclusive,
		SmallestSeqNum: pebble.SeqNum(smallestSeq), LargestSeqNum: pebble.SeqNum(largestSeq)}
}

// sublevelOf maps each table number to its sublevel.
func sublevelOf(subs [][]Table) map[pebble.TableNum]int {
	m := make(map[pebble.TableNum]int)
	for s, sub := range subs {
		for _, t := range sub {
			m[t.Num] = s
		}
	}
	return m
}

// TestSublevelsTieBreak: tables with one largest seqnum are ordered by
// smallest seqnum, then by table number, whatever order they come in (the
// planner's rule used to keep the input order, the shape report's did not).
func TestSublevelsTieBreak(t *testing.T) {
	l0 := []Table{
		tbl(3, "a", "z", false, 1, 5),
		tbl(1, "a", "z", false, 2, 5),
		tbl(2, "a", "z", false, 2, 5),
		tbl(9, "a", "z", false, 1, 4),
	}
	want := map[pebble.TableNum]int{9: 0, 3: 1, 1: 2, 2: 3}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 10; i++ {
		rng.Shuffle(len(l0), func(i, j int) { l0[i], l0[j] = l0[j], l0[i] })
		require.Equal(t, want, sublevelOf(Sublevels(bytes.Compare, l0)))
	}
}

// TestSublevelsExclusiveEnd: a table ending exclusively at k does not
// overlap one starting at k; ending inclusively at k, it does.
func TestSublevelsExclusiveEnd(t *testing.T) {
	subs := Sublevels(bytes.Compare, []Table{
		tbl(1, "a", "c", true, 1, 1),
		tbl(2, "c", "e", false, 2, 2),
	})
	require.Equal(t, map[pebble.TableNum]int{1: 0, 2: 0}, sublevelOf(subs))
	require.Len(t, subs[0], 2)
	require.Equal(t, pebble.TableNum(1), subs[0][0].Num, "key order within a sublevel")

	subs = Sublevels(bytes.Compare, []Table{
		tbl(1, "a", "c", false, 1, 1),
		tbl(2, "c", "e", false, 2, 2),
	})
	require.Equal(t, map[pebble.TableNum]int{1: 0, 2: 1}, sublevelOf(subs))

	// A table of a single key overlaps one ending inclusively at that key
	// and one starting at it, not one ending exclusively there.
	subs = Sublevels(bytes.Compare, []Table{
		tbl(1, "a", "c", true, 1, 1),
		tbl(2, "c", "c", false, 2, 2),
		tbl(3, "c", "d", false, 3, 3),
	})
	require.Equal(t, map[pebble.TableNum]int{1: 0, 2: 0, 3: 1}, sublevelOf(subs))
}

// TestSublevelsRule compares Sublevels on random tables, with many seqnum
// ties, to the rule stated plainly: in age order, each table goes one above
// the highest sublevel of an older table it overlaps.
func TestSublevelsRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	k := func(i int) string { return fmt.Sprintf("k%03d", i) }
	for iter := 0; iter < 300; iter++ {
		var l0 []Table
		for n := 1 + rng.IntN(40); len(l0) < n; {
			lo := rng.IntN(100)
			hi := lo + rng.IntN(20)
			exclusive := hi > lo && rng.IntN(2) == 0
			seq := 1 + rng.IntN(10)
			l0 = append(l0, tbl(len(l0)+1, k(lo), k(hi), exclusive, seq-rng.IntN(seq), seq))
		}
		got := sublevelOf(Sublevels(bytes.Compare, l0))

		overlap := func(a, b Table) bool {
			before := func(x, y Table) bool { // x ends before y starts
				c := bytes.Compare(x.Largest, y.Smallest)
				return c < 0 || (c == 0 && x.LargestExclusive)
			}
			return !before(a, b) && !before(b, a)
		}
		order := slices.Clone(l0)
		slices.SortStableFunc(order, func(a, b Table) int {
			switch {
			case a.LargestSeqNum != b.LargestSeqNum:
				return int(a.LargestSeqNum) - int(b.LargestSeqNum)
			case a.SmallestSeqNum != b.SmallestSeqNum:
				return int(a.SmallestSeqNum) - int(b.SmallestSeqNum)
			default:
				return int(a.Num) - int(b.Num)
			}
		})
		want := make(map[pebble.TableNum]int)
		for i, a := range order {
			s := 0
			for _, b := range order[:i] {
				if overlap(a, b) {
					s = max(s, want[b.Num]+1)
				}
			}
			want[a.Num] = s
		}
		require.Equal(t, want, got, "iteration %d", iter)
	}
}

func TestViewRuns(t *testing.T) {
	levels := [][]Table{
		{tbl(1, "a", "m", false, 1, 1), tbl(2, "c", "d", false, 2, 2), tbl(3, "x", "z", false, 3, 3)},
		nil,
		nil,
		{tbl(5, "p", "q", false, 0, 0), tbl(4, "a", "b", true, 0, 0)},
	}
	v := New(bytes.Compare, levels)
	require.Equal(t, 3, v.SortedRuns())
	require.Equal(t, 2, v.Sublevels())
	require.Equal(t, "L0.1", v.Runs[0].String())
	require.Equal(t, "L0.0", v.Runs[1].String())
	require.Equal(t, "L3", v.Runs[2].String())
	require.Equal(t, -1, v.Runs[2].Sublevel)
	require.Same(t, &v.Runs[1], v.Sublevel(0))
	require.Nil(t, v.Sublevel(2))

	// L0.0 is a-m then x-z; L3 is sorted by key.
	lo, hi := v.Sublevel(0).Bounds()
	require.Equal(t, "a", string(lo))
	require.Equal(t, "z", string(hi))
	require.Equal(t, uint64(2), v.Sublevel(0).Bytes())
	require.Equal(t, pebble.TableNum(4), v.Runs[2].Tables[0].Num)
	require.Equal(t, pebble.TableNum(5), levels[3][0].Num, "the input is not reordered")

	l3 := &v.Runs[2]
	require.Equal(t, pebble.TableNum(4), l3.Find(bytes.Compare, []byte("a")).Num)
	require.Nil(t, l3.Find(bytes.Compare, []byte("b")), "b is L3's first table's exclusive end")
	require.Equal(t, pebble.TableNum(5), l3.Find(bytes.Compare, []byte("q")).Num)
	require.Nil(t, l3.Find(bytes.Compare, []byte("0")))
	require.Nil(t, l3.Find(bytes.Compare, []byte("r")))
}
