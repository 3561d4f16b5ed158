// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// pointTestKeys returns n distinct random keys of 8 to 24 bytes.
func pointTestKeys(rng *rand.Rand, n int) [][]byte {
	seen := make(map[string]struct{}, n)
	keys := make([][]byte, 0, n)
	for len(keys) < n {
		k := make([]byte, 8+rng.IntN(17))
		for i := range k {
			k[i] = byte(rng.Uint32())
		}
		if _, ok := seen[string(k)]; ok {
			continue
		}
		seen[string(k)] = struct{}{}
		keys = append(keys, k)
	}
	return keys
}

// pointBuild writes keys through policy's writer, as Pebble does.
func pointBuild(policy pebble.FilterPolicy, keys [][]byte) []byte {
	w := policy.NewWriter(pebble.TableFilter)
	for _, k := range keys {
		w.AddKey(k)
	}
	return w.Finish(nil)
}

// pointTestPolicies are the policies every property test runs against.
func pointTestPolicies() []pebble.FilterPolicy {
	return []pebble.FilterPolicy{Bloom(1), Bloom(6.5), Bloom(10), Bloom(23), Ribbon(1), Ribbon(7), Ribbon(10), Ribbon(20), Ribbon(100), Fuse()}
}

func pointPolicyName(p pebble.FilterPolicy) string {
	switch p := p.(type) {
	case *bloomPolicy:
		return fmt.Sprintf("bloom(%g)", p.BitsPerKey())
	case *ribbonPolicy:
		return fmt.Sprintf("ribbon(%g)", p.bloomEquivalentBitsPerKey())
	}
	return p.Name()
}

// requireNoFalseNegatives checks every key against filter with policy.
func requireNoFalseNegatives(t testing.TB, policy pebble.FilterPolicy, filter []byte, keys [][]byte) {
	t.Helper()
	for _, k := range keys {
		if !policy.MayContain(pebble.TableFilter, filter, k) {
			t.Fatalf("%s: false negative for key %x among %d keys", pointPolicyName(policy), k, len(keys))
		}
	}
}

func TestPointNoFalseNegatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	sizes := []int{1, 2, 3, 50, 127, 128, 129, 600, 1000, 5000, 40000}
	for _, p := range pointTestPolicies() {
		for _, n := range sizes {
			keys := pointTestKeys(rng, n)
			filter := pointBuild(p, keys)
			require.NoError(t, validate(filter))
			requireNoFalseNegatives(t, p, filter, keys)
		}
	}
}

// TestPointHugeSet builds one filter per policy over a set large enough that
// the Ribbon builder sorts keys and the filters span many megabytes.
func TestPointHugeSet(t *testing.T) {
	if testing.Short() || pointRaceEnabled {
		t.Skip("huge set: too slow under -short or -race")
	}
	const n = 1 << 20
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = binary.BigEndian.AppendUint64(nil, uint64(i)*0x9e3779b97f4a7c15)
	}
	for _, p := range []pebble.FilterPolicy{Bloom(10), Ribbon(10)} {
		filter := pointBuild(p, keys)
		requireNoFalseNegatives(t, p, filter, keys)
	}
}

func TestPointEmptyAndDuplicates(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	probe := pointTestKeys(rng, 1000)
	for _, p := range pointTestPolicies() {
		// No keys: the filter holds nothing and says so for every key.
		empty := pointBuild(p, nil)
		require.NoError(t, validate(empty))
		for _, k := range probe {
			require.False(t, p.MayContain(pebble.TableFilter, empty, k))
		}

		// Each key repeated, consecutively (as Pebble passes one AddKey per
		// point key sharing a prefix) and then the whole set again: the
		// repeats must not make the filter bigger than one without them,
		// beyond what the non-consecutive repeats cost.
		keys := pointTestKeys(rng, 3000)
		var repeated [][]byte
		for _, k := range keys {
			for range 1 + rng.IntN(5) {
				repeated = append(repeated, k)
			}
		}
		once := pointBuild(p, keys)
		consecutive := pointBuild(p, repeated)
		require.Equal(t, once, consecutive, "%s: consecutive repeats changed the filter", pointPolicyName(p))
		twice := pointBuild(p, append(append([][]byte{}, keys...), keys...))
		requireNoFalseNegatives(t, p, twice, keys)
	}
}

func TestPointWriterReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	a, b := pointTestKeys(rng, 20000), pointTestKeys(rng, 700)
	for _, p := range pointTestPolicies() {
		w := p.NewWriter(pebble.TableFilter)
		for _, k := range a {
			w.AddKey(k)
		}
		fa := w.Finish(nil)
		for _, k := range b {
			w.AddKey(k)
		}
		// The second filter must hold b only and equal a fresh writer's.
		prefix := []byte("existing block bytes")
		fb := w.Finish(append([]byte{}, prefix...))
		require.Equal(t, prefix, fb[:len(prefix)])
		require.Equal(t, pointBuild(p, b), fb[len(prefix):])
		requireNoFalseNegatives(t, p, fa, a)
	}
}

// TestPointCrossRead checks that each policy answers filters written by the
// other exactly as the writing policy does.
func TestPointCrossRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	keys := pointTestKeys(rng, 5000)
	probe := pointTestKeys(rng, 20000)
	bloom, ribbon, fuse := Bloom(10), Ribbon(10), Fuse()
	for _, writer := range []pebble.FilterPolicy{bloom, ribbon, fuse} {
		filter := pointBuild(writer, keys)
		for _, k := range probe {
			want := writer.MayContain(pebble.TableFilter, filter, k)
			require.Equal(t, want, bloom.MayContain(pebble.TableFilter, filter, k))
			require.Equal(t, want, ribbon.MayContain(pebble.TableFilter, filter, k))
			require.Equal(t, want, fuse.MayContain(pebble.TableFilter, filter, k))
		}
	}
}

func TestPointPolicyValidation(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 0.99, 100.5} {
		_, err := NewBloom(bad)
		require.ErrorContains(t, err, fmt.Sprintf("Bloom bits per key %v is outside [1, 100]", bad))
		_, err = NewRibbon(bad)
		require.ErrorContains(t, err, fmt.Sprintf("Ribbon Bloom-equivalent bits per key %v is outside [1, 100]", bad))
		require.Panics(t, func() { Bloom(bad) })
		require.Panics(t, func() { Ribbon(bad) })
	}
	for _, good := range []float64{1, 7.3, 10, 100} {
		b, err := NewBloom(good)
		require.NoError(t, err)
		require.Equal(t, good, b.(*bloomPolicy).BitsPerKey())
		r, err := NewRibbon(good)
		require.NoError(t, err)
		require.Equal(t, good, r.(*ribbonPolicy).bloomEquivalentBitsPerKey())
	}
	// Names are stable (they are written to disk) and distinct from each
	// other and from Pebble's built-in filter.
	require.Equal(t, "pebblerf.Bloom", Bloom(10).Name())
	require.Equal(t, "pebblerf.Ribbon", Ribbon(10).Name())
	require.Equal(t, "pebblerf.BinaryFuse", Fuse().Name())
	require.Equal(t, Bloom(5).Name(), Bloom(20).Name())
}

// TestPointCorruptFailsOpen damages filters in the ways that can be
// detected (truncation, extension, any change to the trailer) and checks that
// each is answered "may contain" for every key and counted once per call.
func TestPointCorruptFailsOpen(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	keys := pointTestKeys(rng, 3000)
	probe := pointTestKeys(rng, 200)
	for _, unbound := range []pebble.FilterPolicy{Bloom(10), Ribbon(10), Fuse()} {
		var counters Counts
		p := bindTo(unbound, &counters)
		filter := pointBuild(p, keys)
		var damaged [][]byte
		for _, cut := range []int{1, 5, pointTrailerLen, pointTrailerLen + 1, len(filter) - 1, len(filter)} {
			damaged = append(damaged, filter[:len(filter)-cut], filter[cut:])
		}
		damaged = append(damaged, append(append([]byte{}, filter...), 0), append([]byte{0}, filter...))
		for i := len(filter) - pointTrailerLen; i < len(filter); i++ {
			for _, x := range []byte{1, 0x80, 0xff} {
				d := append([]byte{}, filter...)
				d[i] ^= x
				damaged = append(damaged, d)
			}
		}
		if _, ok := unbound.(*fusePolicy); ok {
			// The seed sits in the 8 bytes before the trailer; its fold
			// in the trailer catches damage to it.
			for i := len(filter) - pointTrailerLen - 8; i < len(filter)-pointTrailerLen; i++ {
				d := append([]byte{}, filter...)
				d[i] ^= 0x10
				damaged = append(damaged, d)
			}
		}
		for _, d := range damaged {
			err := validate(d)
			require.Error(t, err)
			require.True(t, errors.Is(err, errPointCorrupt))
			before := counters.Corrupt()
			for _, k := range append(append([][]byte{}, keys[:100]...), probe...) {
				require.True(t, p.MayContain(pebble.TableFilter, d, k))
				require.True(t, unbound.MayContain(pebble.TableFilter, d, k), "an unbound policy fails open too")
			}
			require.Equal(t, uint64(300), counters.Corrupt()-before, "the unbound policy's calls count nowhere")
		}
	}
}

// TestBind checks that a bound policy is the policy it was bound from as
// far as Pebble can see (name, bytes written, answers), and that counters
// apart count apart.
func TestBind(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	keys := pointTestKeys(rng, 1000)
	for _, p := range []pebble.FilterPolicy{Bloom(10), Ribbon(10), Fuse()} {
		var a, b Counts
		pa, pb := bindTo(p, &a), bindTo(p, &b)
		require.NotSame(t, p, pa)
		require.Equal(t, p.Name(), pa.Name())
		filter := pointBuild(p, keys)
		require.Equal(t, filter, pointBuild(pa, keys), "a bound policy writes the same bytes")
		for _, k := range keys {
			require.True(t, pa.MayContain(pebble.TableFilter, filter, k))
		}
		for i := 0; i < 7; i++ {
			require.True(t, pa.MayContain(pebble.TableFilter, filter[1:], keys[0]))
		}
		require.Equal(t, uint64(7), a.Corrupt())
		require.Zero(t, b.Corrupt(), "counters bound to another instance count nothing")
		require.True(t, pb.MayContain(pebble.TableFilter, filter[1:], keys[0]))
		require.Equal(t, uint64(1), b.Corrupt())
	}
	require.Equal(t, pebble.NoFilterPolicy, bindTo(pebble.NoFilterPolicy, new(Counts)))
}

func TestPointMayContainDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	keys := pointTestKeys(rng, 2000)
	for _, p := range []pebble.FilterPolicy{Bloom(10), Ribbon(10), Fuse()} {
		filter := pointBuild(p, keys)
		corrupt := filter[:len(filter)-1]
		allocs := testing.AllocsPerRun(100, func() {
			for _, k := range keys[:50] {
				p.MayContain(pebble.TableFilter, filter, k)
				p.MayContain(pebble.TableFilter, corrupt, k)
			}
		})
		require.Zero(t, allocs, pointPolicyName(p))
	}
}

// TestPointConcurrentMayContain runs queries from several goroutines on one
// filter; under -race it checks that MayContain shares no mutable state but
// the atomic counters.
func TestPointConcurrentMayContain(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	keys := pointTestKeys(rng, 2000)
	for _, p := range []pebble.FilterPolicy{Bloom(10), Ribbon(10), Fuse()} {
		filter := pointBuild(p, keys)
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for g := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i, k := range keys {
					if !p.MayContain(pebble.TableFilter, filter, k) {
						errs[g] = errors.Newf("false negative at %d", i)
						return
					}
					p.MayContain(pebble.TableFilter, filter[:7], k)
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
	}
}

// TestPointParity checks the parity the Ribbon query uses against a
// population count.
func TestPointParity(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 100000; i++ {
		v := rng.Uint64() >> (i % 65)
		require.Equal(t, uint32(bits.OnesCount64(v))&1, pointParity(v), "%x", v)
	}
}
