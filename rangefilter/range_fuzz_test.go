// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// rangeFuzzKeys splits data into keys at 0xfe bytes (so keys may hold 0x00
// and 0xff) and returns them sorted and distinct.
func rangeFuzzKeys(data []byte) [][]byte {
	return rangeSortedDistinct(bytes.Split(data, []byte{0xfe}))
}

func rangeFuzzSeeds(f *testing.F) {
	f.Add([]byte("a\xfeab\xfeb\xfe\x00\xfe\xff\xff"), []byte("a\x00"), []byte("b"), uint8(16))
	f.Add(bytes.Join([][]byte{rangeDBBenchKey(5), rangeDBBenchKey(9), rangeDBBenchKey(700)}, []byte{0xfe}),
		rangeDBBenchKey(6), rangeDBBenchKey(9), uint8(8))
	f.Add(bytes.Join([][]byte{rangeCRDBPrefix(3), rangeCRDBPrefix(300), rangeCRDBPrefix(70000)}, []byte{0xfe}),
		append(rangeCRDBPrefix(3), 0), rangeCRDBPrefix(70000), uint8(12))
	u := make([]byte, 0, 200)
	for i := range 20 {
		u = binary.BigEndian.AppendUint64(u, uint64(i)*0x0123456789abcdef)
		u = append(u, 0xfe)
	}
	f.Add(u, []byte{0x12}, []byte{0x80}, uint8(4))
	// Enough keys of two lengths to make two key-map segments.
	var seg [][]byte
	for i := range 80 {
		seg = append(seg, rangeCRDBPrefix(uint64(i*300)))
	}
	f.Add(bytes.Join(seg, []byte{0xfe}), append(rangeCRDBPrefix(300), 0), rangeCRDBPrefix(9000), uint8(12))
}

// FuzzRangeFilterNoFalseNegatives builds a filter from fuzzed keys and
// checks a fuzzed query against the exact answer.
func FuzzRangeFilterNoFalseNegatives(f *testing.F) {
	rangeFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data, lower, upper []byte, bpk uint8) {
		keys := rangeFuzzKeys(data)
		cfg := Config{BitsPerKey: float64(4 + bpk%37), Seed: 1}
		filter := rangeBuild(t, cfg, keys)
		if len(upper) == 0 {
			upper = nil
		}
		queries := [][2][]byte{{lower, upper}}
		// Also probe every key's neighbourhood with the fuzzed bound.
		for _, k := range keys {
			for _, nb := range rangeNeighbours(k) {
				queries = append(queries, [2][]byte{nb, upper}, [2][]byte{lower, nb})
			}
		}
		for _, q := range queries {
			if rangeOracle(keys, q[0], q[1]) && !MayIntersect(filter, q[0], q[1]) {
				t.Fatalf("false negative for [%x, %x) over %d keys", q[0], q[1], len(keys))
			}
		}
	})
}

// FuzzRangeFilterDecode feeds arbitrary bytes, and valid filters with one
// byte changed, to the query. It must never panic; a changed header byte
// must make the filter answer "may intersect" (the header is checksummed).
func FuzzRangeFilterDecode(f *testing.F) {
	rangeFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data, lower, upper []byte, pos uint8) {
		MayIntersect(data, lower, upper)
		_, _ = Describe(data)

		keys := rangeFuzzKeys(data)
		filter := rangeBuild(t, Config{BitsPerKey: 10, Seed: 2}, keys)
		v, ok := rangeParse(filter)
		if !ok {
			t.Fatalf("fresh filter does not parse")
		}
		// The fixed header is checked on every query; segment records only
		// when used, the Elias-Fano body never.
		headerLen := len(filter) - len(v.segs.area) - len(v.ef.high) - len(v.ef.low) - len(v.ef.samples)
		i := int(pos) % len(filter)
		corrupt := bytes.Clone(filter)
		corrupt[i] ^= 1 + pos/64
		got := MayIntersect(corrupt, lower, upper)
		if i < headerLen && !got {
			t.Fatalf("header byte %d changed but the filter still excludes [%x, %x)", i, lower, upper)
		}
		// Body corruption may change answers (Pebble's block checksums guard
		// the body) but must not panic: also query around every key.
		for _, k := range keys {
			MayIntersect(corrupt, k, nil)
			MayIntersect(corrupt, nil, k)
		}
	})
}
