package querybuilder

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
func (o *boundsObserver) BeginSeek(bool) {}
func (o *boundsObserver) EndSeek(bool)   {}
func (o *boundsObserver) OnValue([]byte) {}
func (o *boundsObserver) Release()       {}

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
