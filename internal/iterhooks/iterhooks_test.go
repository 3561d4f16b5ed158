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

// observers hands out one Observer.
type observers struct{ obs Observer }

func (o observers) Observe(up *pebble.IterOptions) (Observer, *pebble.IterOptions) { return o.obs, up }

// TestHooksTellObserverOfBounds checks that an Observer learns every bounds
// change: through SetBounds when Pebble keeps the filters (bounds within
// the range filter's, or no range filters at all), through SetOptions when
// the iterator is rebuilt.
func TestHooksTellObserverOfBounds(t *testing.T) {
	for _, withRange := range []bool{false, true} {
		obs := &boundsObserver{}
		h := &Hooks{Compare: bytes.Compare, Observers: observers{obs}, RangeFilters: withRange}
		var s IterHooks
		own := owner{gate: &fakeGate{admit: true}}
		own.open(&s, h, &pebble.IterOptions{LowerBound: []byte("a"), UpperBound: []byte("z")}, true)
		require.Nil(t, own.setBounds(&s, []byte("b"), []byte("c")), "within: Pebble's SetBounds")
		require.Equal(t, [][2]string{{"b", "c"}}, obs.setBounds)
		if withRange {
			require.NotNil(t, own.setBounds(&s, []byte("0"), []byte("zz")), "wider: a rebuild")
			require.Equal(t, 1, obs.setOptions)
			require.Len(t, obs.setBounds, 1)
		}
		own.release(&s)
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

// owner plays the part of an iterator's owner (the root package, or
// querybuilder): it builds gateFilters for the bounds the state asks them
// for, after asking the gate when told to, and reports what Release hands
// back.
type owner struct{ gate *fakeGate }

func (o owner) filters(s *IterHooks) []pebble.BlockPropertyFilter {
	lower, upper, askGate, ok := s.FilterBounds()
	if !ok {
		return nil
	}
	if askGate && !o.gate.Admit(lower, upper) {
		s.Drop()
		return nil
	}
	return []pebble.BlockPropertyFilter{gateFilter{string(lower), string(upper)}}
}

func (o owner) open(s *IterHooks, h *Hooks, opts *pebble.IterOptions, observe bool) *pebble.IterOptions {
	s.Init(h, opts)
	return s.Open(o.filters(s), observe)
}

// setBounds returns the options of the rebuild SetBounds asks for, or nil.
func (o owner) setBounds(s *IterHooks, lower, upper []byte) *pebble.IterOptions {
	if s.SetBounds(lower, upper) {
		return s.Rebuilt(o.filters(s))
	}
	return nil
}

func (o owner) setOptions(s *IterHooks, opts *pebble.IterOptions) *pebble.IterOptions {
	s.SetOptions(opts)
	return s.Rebuilt(o.filters(s))
}

func (o owner) clone(s, parent *IterHooks, opts *pebble.IterOptions) *pebble.IterOptions {
	s.InitClone(parent, opts)
	return s.OpenClone(o.filters(s))
}

func (o owner) release(s *IterHooks) {
	if gated := s.Release(); gated != nil {
		o.gate.Report(gated)
	}
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
	own := owner{gate: gate}
	h := &Hooks{Compare: bytes.Compare, RangeFilters: true, Gated: true}
	bounded := &pebble.IterOptions{LowerBound: []byte("b"), UpperBound: []byte("c")}

	var s IterHooks
	s.LimitRebuilds()
	up := own.open(&s, h, bounded, false)
	require.Equal(t, 1, gate.asked)
	require.Empty(t, up.PointKeyFilters, "turned away: no range filter")
	require.Nil(t, own.setBounds(&s, []byte("a"), []byte("z")), "wider bounds need no rebuild without filters")
	up = own.setOptions(&s, &pebble.IterOptions{LowerBound: []byte("0"), UpperBound: []byte("zz")})
	require.Empty(t, up.PointKeyFilters)
	own.release(&s)
	require.Empty(t, gate.reports, "an iterator turned away reports nothing")

	gate.admit = true
	s.LimitRebuilds()
	up = own.open(&s, h, bounded, false)
	require.Equal(t, 2, gate.asked)
	want := []pebble.BlockPropertyFilter{gateFilter{"b", "c"}}
	require.Equal(t, want, up.PointKeyFilters)
	require.NotNil(t, own.setBounds(&s, []byte("a"), []byte("z")), "admitted: wider bounds rebuild")
	own.release(&s)
	require.Equal(t, [][]pebble.BlockPropertyFilter{want}, gate.reports, "the filters it was opened with")

	// Not asked: no bounds; a planned iterator; a batch's hooks.
	s.LimitRebuilds()
	own.open(&s, h, nil, false)
	own.release(&s)
	own.open(&s, h, bounded, false)
	own.release(&s)
	batch := h.ForBatch()
	s.LimitRebuilds()
	own.open(&s, &batch, bounded, false)
	own.release(&s)
	require.Equal(t, 2, gate.asked)
	require.Len(t, gate.reports, 1)

	// Opened without bounds: the first bounds given ask the gate, once.
	gate.admit = false
	s.LimitRebuilds()
	own.open(&s, h, nil, false)
	up = own.setBounds(&s, []byte("b"), []byte("c"))
	require.Equal(t, 3, gate.asked, "the first bounds ask the gate")
	if up != nil {
		require.Empty(t, up.PointKeyFilters, "turned away: no range filter")
	}
	up = own.setOptions(&s, &pebble.IterOptions{LowerBound: []byte("0"), UpperBound: []byte("zz")})
	require.Empty(t, up.PointKeyFilters)
	require.Equal(t, 3, gate.asked, "asked once per iterator")
	own.release(&s)
	gate.admit = true
	s.LimitRebuilds()
	own.open(&s, h, nil, false)
	up = own.setOptions(&s, bounded)
	require.Equal(t, 4, gate.asked)
	require.Equal(t, want, up.PointKeyFilters)
	own.release(&s)
	require.Len(t, gate.reports, 2, "admitted later, it reports too")

	// A clone asks for itself.
	gate.admit = false
	var parent, clone IterHooks
	parent.LimitRebuilds()
	own.open(&parent, h, nil, false)
	up = own.clone(&clone, &parent, bounded)
	require.Equal(t, 5, gate.asked, "a clone asks the gate")
	require.Empty(t, up.PointKeyFilters, "a clone turned away gets no filter")
	own.release(&clone)
	own.release(&parent)
}
