// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package filterbench measures point filters side by side: this module's
// Bloom, Ribbon and binary fuse policies against Pebble's built-in Bloom
// filter as the anchor. It is shared by the pointfilter Go benchmarks and
// cmd/filterreport, which prints the comparison table; nothing in the
// storage engine imports it.
//
// Every filter is built and queried the way Pebble would use it: one call per
// key through the FilterPolicy interface, hashing and trailer decoding
// included.
package filterbench

import (
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/pointfilter"
)

// Filter is a built filter under test: a policy and the bytes its writer
// produced.
type Filter struct {
	// Policy is the policy that built the filter and answers for it.
	Policy pebble.FilterPolicy
	// Data is the filter as stored.
	Data []byte
	// ExpectedFPR is the false-positive rate the filter's own math predicts,
	// or 0 where there is none to state.
	ExpectedFPR float64
}

// MayContain queries the filter as Pebble's table reader does, with one
// call through the FilterPolicy interface.
func (f *Filter) MayContain(key []byte) bool {
	return f.Policy.MayContain(pebble.TableFilter, f.Data, key)
}

// Size is the filter's size as stored, in bytes.
func (f *Filter) Size() int { return len(f.Data) }

// Candidate is a filter construction under test.
type Candidate struct {
	Name  string
	Build func(keys [][]byte) (Filter, error)
}

// ParseCandidates parses a comma-separated list of kind:bits entries:
// bloom:B, ribbon:B (this module's policies), pebble-bloom:B (Pebble's
// bloom.FilterPolicy, integer B) and fuse8 (this module's binary fuse
// policy, no bits).
func ParseCandidates(spec string) ([]Candidate, error) {
	var out []Candidate
	for _, item := range strings.Split(spec, ",") {
		kind, arg, _ := strings.Cut(strings.TrimSpace(item), ":")
		var bits float64
		if kind != "fuse8" {
			var err error
			if bits, err = strconv.ParseFloat(arg, 64); err != nil {
				return nil, errors.Wrapf(err, "filterbench: bits of %q", item)
			}
		}
		switch kind {
		case "bloom":
			p, err := pointfilter.NewBloom(bits)
			if err != nil {
				return nil, err
			}
			out = append(out, PolicyCandidate("bloom("+arg+")", p))
		case "ribbon":
			p, err := pointfilter.NewRibbon(bits)
			if err != nil {
				return nil, err
			}
			out = append(out, PolicyCandidate("ribbon("+arg+")", p))
		case "pebble-bloom":
			if bits != math.Trunc(bits) || bits < 1 {
				return nil, errors.Newf("filterbench: pebble-bloom takes whole bits per key >= 1, not %q", arg)
			}
			out = append(out, PolicyCandidate("pebble-bloom("+arg+")", bloom.FilterPolicy(int(bits))))
		case "fuse8":
			out = append(out, PolicyCandidate("fuse8", pointfilter.Fuse()))
		default:
			return nil, errors.Newf("filterbench: unknown filter kind %q in %q", kind, item)
		}
	}
	return out, nil
}

// PolicyCandidate measures a pebble.FilterPolicy through its interface.
func PolicyCandidate(name string, p pebble.FilterPolicy) Candidate {
	return Candidate{Name: name, Build: func(keys [][]byte) (Filter, error) {
		w := p.NewWriter(pebble.TableFilter)
		for _, k := range keys {
			w.AddKey(k)
		}
		return policyFilter(p, w.Finish(nil)), nil
	}}
}

func policyFilter(p pebble.FilterPolicy, data []byte) Filter {
	f := Filter{Policy: p, Data: data}
	if info, err := pointfilter.Describe(data); err == nil {
		f.ExpectedFPR = info.ExpectedFPR
		if info.Kind == "bloom" {
			if b, ok := p.(interface{ BitsPerKey() float64 }); ok {
				f.ExpectedFPR = pointfilter.BloomExpectedFPR(b.BitsPerKey())
			}
		}
	}
	return f
}
