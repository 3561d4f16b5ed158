// Copyright 2026 The pebblerf Authors. All rights reserved.

package filterbench

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/require"
)

// recordingPolicy answers every query with answer and records the keys it
// was asked for.
type recordingPolicy struct {
	answer bool
	asked  [][]byte
}

func (*recordingPolicy) Name() string                                    { return "recording" }
func (*recordingPolicy) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p *recordingPolicy) MayContain(_ pebble.FilterType, _, key []byte) bool {
	p.asked = append(p.asked, key)
	return p.answer
}

// TestColdWalkChained checks that the chained walk's steps depend on the
// answers, which is what makes its queries wait on each other, and that the
// independent walk's do not.
func TestColdWalkChained(t *testing.T) {
	s, err := NewKeySet("dbbench", 10, 100, 1)
	require.NoError(t, err)
	walk := func(answer, chained bool) []int {
		p := &recordingPolicy{answer: answer}
		cs := []Filter{{Policy: p, Data: []byte{1}}, {Policy: p, Data: []byte{2}}}
		yes := coldWalk(cs, s, 50, chained)
		if answer {
			require.Equal(t, 50, yes)
		} else {
			require.Zero(t, yes)
		}
		var keys []int
		for _, k := range p.asked {
			for i := 0; i < s.Negatives(); i++ {
				if string(s.Negative(i)) == string(k) {
					keys = append(keys, i)
					break
				}
			}
		}
		require.Len(t, keys, 50)
		return keys
	}
	independent := walk(false, false)
	for i, k := range independent {
		require.Equal(t, i, k)
	}
	require.Equal(t, independent, walk(true, false), "the independent walk does not follow answers")
	require.Equal(t, independent, walk(false, true), "a chained walk of all no is the independent one")
	chained := walk(true, true)
	for i, k := range chained {
		// Every "yes" moves the walk one key further.
		require.Equal(t, (2*i)%s.Negatives(), k)
	}
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
		require.Greater(t, r.ColdChainedNs, 0.0, r.Candidate)
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
