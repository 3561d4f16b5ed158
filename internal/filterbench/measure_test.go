// Copyright 2026 The pebblerf Authors. All rights reserved.

package filterbench

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// recordingPolicy answers every query with answer and records the keys it
// was asked for, and the filter bytes it was given.
type recordingPolicy struct {
	answer bool
	asked  [][]byte
	data   [][]byte
}

func (*recordingPolicy) Name() string                                    { return "recording" }
func (*recordingPolicy) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p *recordingPolicy) MayContain(_ pebble.FilterType, data, key []byte) bool {
	p.asked = append(p.asked, key)
	p.data = append(p.data, data)
	return p.answer
}

// recorded returns, for each query p was asked, the index of the negative
// key of s it was asked for.
func recorded(t *testing.T, p *recordingPolicy, s *KeySet) []int {
	var keys []int
	for _, k := range p.asked {
		i := 0
		for i < s.Negatives() && !bytes.Equal(s.Negative(i), k) {
			i++
		}
		require.Less(t, i, s.Negatives(), "asked for a key that is not a negative")
		keys = append(keys, i)
	}
	return keys
}

// TestHotQueries checks that hot queries cycle through the first keys
// negatives, in order, and count the answers.
func TestHotQueries(t *testing.T) {
	s, err := NewKeySet("dbbench", 10, 20, 1)
	require.NoError(t, err)
	p := &recordingPolicy{answer: true}
	require.Equal(t, 17, HotQueries(&Filter{Policy: p, Data: []byte{0}}, s, 3, 17))
	keys := recorded(t, p, s)
	for j, k := range keys {
		require.Equal(t, j%3, k)
	}
}

// TestColdQueries checks that both walks make the same queries, the keys in
// order (wrapping around the negatives) and the copies by the
// multiplicative walk, so that their figures compare the same work.
func TestColdQueries(t *testing.T) {
	s, err := NewKeySet("dbbench", 10, 7, 1)
	require.NoError(t, err)
	const n = 50
	walk := func(w Walk, answer bool) (keys, copies []int) {
		p := &recordingPolicy{answer: answer}
		var cs []Filter
		for i := range 5 {
			cs = append(cs, Filter{Policy: p, Data: []byte{byte(i)}})
		}
		yes := ColdQueries(cs, s, n, w)
		if answer {
			require.Equal(t, n, yes)
		} else {
			require.Zero(t, yes)
		}
		for _, d := range p.data {
			copies = append(copies, int(d[0]))
		}
		return recorded(t, p, s), copies
	}
	keys, copies := walk(Overlapped, false)
	require.Len(t, keys, n)
	seen := map[int]bool{}
	for j := range keys {
		require.Equal(t, j%s.Negatives(), keys[j])
		if j > 0 {
			require.NotEqual(t, copies[j-1], copies[j], "consecutive queries share a copy")
		}
		seen[copies[j]] = true
	}
	require.Len(t, seen, 5, "the walk visits every copy")
	for _, w := range []Walk{Overlapped, OneAtATime} {
		k, c := walk(w, true)
		require.Equal(t, keys, k, "walk %d", w)
		require.Equal(t, copies, c, "walk %d", w)
	}
}

// TestSpread checks that the copies hold the filter's bytes in memory of
// their own, each starting on a cache line and ending with the filter,
// spanning at least the bytes asked for in all, in huge pages too where this machine
// has them, and that an empty filter is refused.
func TestSpread(t *testing.T) {
	f := Filter{Policy: &recordingPolicy{}, Data: []byte("a filter of 24 bytes....")}
	for _, huge := range []bool{false, true} {
		copies, release, err := Spread(f, 1000, huge)
		if huge && err != nil {
			t.Logf("no huge pages here: %v", err)
			continue
		}
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(copies)*cacheLine, 1000, "the copies span less than asked")
		for i := range copies {
			require.Equal(t, f.Data, copies[i].Data)
			require.Equal(t, f.Size(), cap(copies[i].Data), "a copy reaches past its filter")
			require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(copies[i].Data)))%cacheLine, "copy %d starts mid-line", i)
			copies[i].Data[0] = byte(i)
		}
		require.Equal(t, byte('a'), f.Data[0], "a copy shares the filter's memory")
		require.Equal(t, byte(1), copies[1].Data[0])
		require.Equal(t, byte(0), copies[0].Data[0], "copies share memory")
		release()
	}
	_, _, err := Spread(Filter{Policy: f.Policy}, 1000, false)
	require.Error(t, err)
}

// TestMeasure runs the whole measurement on a small key set: every figure
// is filled in, no filter denies a key it holds, and the false-positive
// rates are the filters' own.
func TestMeasure(t *testing.T) {
	cands, err := ParseCandidates("pebble-bloom:10,bloom:10,fuse8")
	require.NoError(t, err)
	s, err := NewKeySet("dbbench", 5000, 50_000, 1)
	require.NoError(t, err)
	cfg := Config{BuildRuns: 1, Rounds: 2, HotQueries: 1000, HotKeys: 64, ColdQueries: 1000, ColdBytes: 1 << 20}
	results, err := Measure(cands, s, cfg)
	require.NoError(t, err)
	require.Len(t, results, len(cands))
	for _, r := range results {
		require.Zero(t, r.FalseNegatives, r.Candidate)
		require.Greater(t, r.HotNs, 0.0, r.Candidate)
		require.Greater(t, r.ColdNs, 0.0, r.Candidate)
		if CanSerialize {
			require.Greater(t, r.ColdOneAtATimeNs, 0.0, r.Candidate)
		}
		require.InDelta(t, 10, r.BitsPerKey, 1.5, r.Candidate)
		// About 1% for the Bloom filters, 0.39% for fuse: 500 and 195 of
		// the 50,000 negatives, with room for chance.
		require.Less(t, r.FPR, 0.02, r.Candidate)
		require.Greater(t, r.FPR, 0.002, r.Candidate)
	}
	require.InDelta(t, 1.0/256, results[2].FPR, 0.0015, "fuse8")
}

// TestParseCandidatesErrors checks that a bad filter list names the entry.
func TestParseCandidatesErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"bloom":            `"bloom"`,
		"pebble-bloom:2.5": `"2.5"`,
		"cuckoo:8":         `"cuckoo"`,
	} {
		_, err := ParseCandidates(spec)
		require.ErrorContains(t, err, want, spec)
	}
}
