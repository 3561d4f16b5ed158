// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"github.com/cockroachdb/pebble/v2"
)

// FuseQueryParts returns the binary fuse query taken apart, for
// BenchmarkFuseQueryParts: policies that answer for the fuse filter fuse
// (fuse-fingerprints-only for it alone, since it holds fuse's parameters).
//
//   - fuse-generic: the generic path, the trailer decoded before the
//     fingerprint loads (what fusePolicy.MayContain does for a filter the
//     library built otherwise);
//   - fuse-first: fusePolicy.MayContain itself;
//   - fuse-fingerprints-only: the three fingerprint loads alone, with the
//     filter's seed and segment shift given, no trailer read.
func FuseQueryParts(fuse []byte) (names []string, policies []pebble.FilterPolicy) {
	_, tr, fault := pointDecode(fuse)
	if fault != pointOK || tr.kind != pointKindFuse {
		panic("FuseQueryParts: not a fuse filter")
	}
	return []string{"fuse-generic", "fuse-first", "fuse-fingerprints-only"},
		[]pebble.FilterPolicy{pointPartsGeneric{}, Fuse(), pointPartsNoTrailer{a: tr.a, q: tr.q}}
}

// pointPartsGeneric queries through the generic path, mayContain.
type pointPartsGeneric struct{ pointReader }

func (pointPartsGeneric) Name() string                                    { return "generic" }
func (pointPartsGeneric) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p pointPartsGeneric) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return p.mayContain(filter, key)
}

// pointPartsNoTrailer loads the fingerprints only, with the filter's seed
// and shift given.
type pointPartsNoTrailer struct {
	a uint32
	q uint8
}

func (pointPartsNoTrailer) Name() string                                    { return "no-trailer" }
func (pointPartsNoTrailer) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p pointPartsNoTrailer) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return fuseMayContain(filter[:len(filter)-pointTrailerLen], fuseFirstSeed, p.a, p.q, pointHash(key))
}

// bindTo is p counted into c, as a DB counts its policies (Counted).
func bindTo(p pebble.FilterPolicy, c *Counts) pebble.FilterPolicy {
	b, _ := Counted(p, c)
	return b
}
