// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// Fuzz targets for the point filters. `make fuzz` runs each briefly, e.g.
//
//	go test ./pointfilter -run '^$' -fuzz '^FuzzPointNoFalseNegatives$' -fuzztime 20s

// pointFuzzKeys splits data into keys: each byte b starts a key of b%24
// bytes taken from what follows (so empty keys, repeats and long runs of
// one key all occur), and repeat times the whole list is appended again.
func pointFuzzKeys(data []byte, repeat uint8) [][]byte {
	var keys [][]byte
	for len(data) > 0 {
		n := min(int(data[0]%24), len(data)-1)
		keys = append(keys, data[1:1+n])
		data = data[1+n:]
	}
	base := keys
	for range repeat % 3 {
		keys = append(keys, base...)
	}
	return keys
}

// pointFuzzPolicy picks a policy and bits/key from two fuzzed bytes.
func pointFuzzPolicy(kind, bits uint8) pebble.FilterPolicy {
	b := 1 + float64(bits%200)/2 // 1 to 100.5 in halves, clamped below
	b = min(b, pointMaxBitsPerKey)
	switch kind % 3 {
	case 0:
		return Bloom(b)
	case 1:
		return Ribbon(b)
	}
	return Fuse()
}

func FuzzPointNoFalseNegatives(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0), uint8(18))
	f.Add([]byte("\x03abc\x03abc\x00\x05hello"), uint8(1), uint8(1), uint8(18))
	f.Add([]byte("\x10aaaaaaaaaaaaaaaa\x02zz"), uint8(2), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, repeat, kind, bits uint8) {
		p := pointFuzzPolicy(kind, bits)
		keys := pointFuzzKeys(data, repeat)
		filter := pointBuild(p, keys)
		if err := validate(filter); err != nil {
			t.Fatal(err)
		}
		requireNoFalseNegatives(t, p, filter, keys)
	})
}

// FuzzPointCorrupt damages a valid filter by truncating it, extending it or
// changing one trailer byte, and checks that no key of the set is ever
// answered "no". (A changed body byte inside an intact filter is not
// detected; Pebble's block checksums guard against that on disk.)
func FuzzPointCorrupt(f *testing.F) {
	f.Add([]byte("\x05apple\x06banana\x06cherry"), uint8(1), uint8(18), uint8(0), uint16(3), uint8(1))
	f.Add([]byte("\x05apple\x06banana\x06cherry"), uint8(0), uint8(18), uint8(2), uint16(9), uint8(0x80))
	f.Fuzz(func(t *testing.T, data []byte, kind, bits, how uint8, at uint16, x uint8) {
		p := pointFuzzPolicy(kind, bits)
		keys := pointFuzzKeys(data, 0)
		filter := pointBuild(p, keys)
		switch how % 4 {
		case 0: // truncate the end
			filter = filter[:int(at)%len(filter)]
		case 1: // drop a prefix
			filter = filter[1+int(at)%len(filter):]
		case 2: // extend
			filter = append(filter, make([]byte, 1+int(at)%64)...)
		case 3: // change a trailer byte
			if x == 0 {
				x = 1
			}
			filter[len(filter)-pointTrailerLen+int(at)%pointTrailerLen] ^= x
		}
		requireNoFalseNegatives(t, p, filter, keys)
	})
}

// FuzzPointMayContainArbitrary hands MayContain arbitrary bytes: it must not
// panic, and bytes that do not validate must be answered "may contain".
func FuzzPointMayContainArbitrary(f *testing.F) {
	f.Add(pointBuild(Ribbon(10), [][]byte{[]byte("a"), []byte("b")}), []byte("a"))
	f.Add(pointBuild(Bloom(10), [][]byte{[]byte("a"), []byte("b")}), []byte("c"))
	f.Add(pointBuild(Fuse(), [][]byte{[]byte("a"), []byte("b")}), []byte("a"))
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, filter, key []byte) {
		for _, p := range []pebble.FilterPolicy{Bloom(10), Ribbon(10), Fuse()} {
			got := p.MayContain(pebble.TableFilter, filter, key)
			if validate(filter) != nil && !got {
				t.Fatalf("invalid filter answered \"no\"")
			}
		}
	})
}
