package iterhooks

import (
	"bytes"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// boundsObserver records what an IterHooks tells its Observer about bounds.
type boundsObserver struct {
	setBounds  [][2]string
	setOptions int
}

func (o *boundsObserver) SetOptions(up *pebble.IterOptions) *pebble.IterOptions {
	o.setOptions++
	return up
}
func (o *boundsObserver) SetBounds(lower, upper []byte) {
	o.setBounds = append(o.setBounds, [2]string{string(lower), string(upper)})
}
func (o *boundsObserver) BeginSeek(bool)       {}
func (o *boundsObserver) EndSeek(bool, []byte) {}
func (o *boundsObserver) OnValue([]byte)       {}
func (o *boundsObserver) Release()             {}

// TestHooksTellObserverOfBounds checks that an Observer learns every bounds
// change: through SetBounds when Pebble keeps the filters (bounds within
// the range filter's, or no range filters at all), through SetOptions when
// the iterator is rebuilt.
func TestHooksTellObserverOfBounds(t *testing.T) {
	for _, withRange := range []bool{false, true} {
		obs := &boundsObserver{}
		h := &Hooks{
			Compare: bytes.Compare,
			Observe: func(o *pebble.IterOptions) (Observer, *pebble.IterOptions) { return obs, o },
		}
		if withRange {
			h.RangeFilters = func(lower, upper []byte) []pebble.BlockPropertyFilter { return nil }
		}
		var s IterHooks
		s.Init(h, &pebble.IterOptions{LowerBound: []byte("a"), UpperBound: []byte("z")}, true)
		require.Nil(t, s.SetBounds([]byte("b"), []byte("c")), "within: Pebble's SetBounds")
		require.Equal(t, [][2]string{{"b", "c"}}, obs.setBounds)
		if withRange {
			require.NotNil(t, s.SetBounds([]byte("0"), []byte("zz")), "wider: a rebuild")
			require.Equal(t, 1, obs.setOptions)
			require.Len(t, obs.setBounds, 1)
		}
		s.Release()
	}
}

// fakeGate admits as told and keeps what it is asked and told.
type fakeGate struct {
	admit   bool
	asked   int
	reports [][]pebble.BlockPropertyFilter
}

func (g *fakeGate) Admit(_, _ []byte) bool { g.asked++; return g.admit }
func (g *fakeGate) Report(f []pebble.BlockPropertyFilter) {
	g.reports = append(g.reports, f)
}

// gateFilter stands for a range filter.
type gateFilter struct{ lower, upper string }

func (gateFilter) Name() string                    { return "gate-test" }
func (gateFilter) Intersects([]byte) (bool, error) { return true, nil }
func (gateFilter) SyntheticSuffixIntersects([]byte, []byte) (bool, error) {
	return true, nil
}

// TestHooksGate checks how iterators use the hooks' Gate: a plain iterator
// (under LimitRebuilds) opened with bounds asks it; one turned away gets no
// range filter and keeps none on wider bounds (it reads as upstream's), one
// admitted gets its filter and reports it at Release. Iterators without
// bounds, planned iterators (no LimitRebuilds) and batch hooks do not ask.
func TestHooksGate(t *testing.T) {
	gate := &fakeGate{}
	h := &Hooks{
		Compare: bytes.Compare,
		RangeFilters: func(lower, upper []byte) []pebble.BlockPropertyFilter {
			return []pebble.BlockPropertyFilter{gateFilter{string(lower), string(upper)}}
		},
		Gate: gate,
	}
	bounded := &pebble.IterOptions{LowerBound: []byte("b"), UpperBound: []byte("c")}

	var s IterHooks
	s.LimitRebuilds()
	up := s.Init(h, bounded, false)
	require.Equal(t, 1, gate.asked)
	require.Empty(t, up.PointKeyFilters, "turned away: no range filter")
	require.Nil(t, s.SetBounds([]byte("a"), []byte("z")), "wider bounds need no rebuild without filters")
	up = s.SetOptions(&pebble.IterOptions{LowerBound: []byte("0"), UpperBound: []byte("zz")})
	require.Empty(t, up.PointKeyFilters)
	s.Release()
	require.Empty(t, gate.reports, "an iterator turned away reports nothing")

	gate.admit = true
	s.LimitRebuilds()
	up = s.Init(h, bounded, false)
	require.Equal(t, 2, gate.asked)
	want := []pebble.BlockPropertyFilter{gateFilter{"b", "c"}}
	require.Equal(t, want, up.PointKeyFilters)
	require.NotNil(t, s.SetBounds([]byte("a"), []byte("z")), "admitted: wider bounds rebuild")
	s.Release()
	require.Equal(t, [][]pebble.BlockPropertyFilter{want}, gate.reports, "the filters it was opened with")

	// Not asked: no bounds; a planned iterator; a batch's hooks.
	s.LimitRebuilds()
	s.Init(h, nil, false)
	s.Release()
	s.Init(h, bounded, false)
	s.Release()
	batch := h.ForBatch()
	s.LimitRebuilds()
	s.Init(&batch, bounded, false)
	s.Release()
	require.Equal(t, 2, gate.asked)
	require.Len(t, gate.reports, 1)

	// Opened without bounds: the first bounds given ask the gate, once.
	gate.admit = false
	s.LimitRebuilds()
	s.Init(h, nil, false)
	up = s.SetBounds([]byte("b"), []byte("c"))
	require.Equal(t, 3, gate.asked, "the first bounds ask the gate")
	if up != nil {
		require.Empty(t, up.PointKeyFilters, "turned away: no range filter")
	}
	up = s.SetOptions(&pebble.IterOptions{LowerBound: []byte("0"), UpperBound: []byte("zz")})
	require.Empty(t, up.PointKeyFilters)
	require.Equal(t, 3, gate.asked, "asked once per iterator")
	s.Release()
	gate.admit = true
	s.LimitRebuilds()
	s.Init(h, nil, false)
	up = s.SetOptions(bounded)
	require.Equal(t, 4, gate.asked)
	require.Equal(t, want, up.PointKeyFilters)
	s.Release()
	require.Len(t, gate.reports, 2, "admitted later, it reports too")

	// A clone asks for itself.
	gate.admit = false
	var parent, clone IterHooks
	parent.LimitRebuilds()
	parent.Init(h, nil, false)
	up = clone.InitClone(&parent, bounded)
	require.Equal(t, 5, gate.asked, "a clone asks the gate")
	require.Empty(t, up.PointKeyFilters, "a clone turned away gets no filter")
	clone.Release()
	parent.Release()
}
