// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"fmt"
	"math"
)

// Info describes an encoded point filter: what its trailer says.
type Info struct {
	// Kind is "empty", "bloom", "ribbon" or "fuse".
	Kind string
	// Bytes is the whole filter's size, trailer included.
	Bytes int
	// Probes is the Bloom probe count (0 for other kinds).
	Probes int
	// Lines is the number of 64-byte Bloom lines (0 for other kinds).
	Lines int
	// Version is the trailer's format version (see trailer.go).
	Version int
	// ColumnBytes, LowBytes, ResultBits and Seed are the Ribbon layout of
	// format version 2: bytes per result column, bytes missing from the
	// front of the last column, r result bits, and the hash seed ordinal
	// (all 0 for other kinds).
	ColumnBytes, LowBytes, ResultBits, Seed int
	// Segments and SegmentLength are a fuse filter's layout: segment count
	// and slots per segment (0 for other kinds); its ResultBits is the
	// fingerprint width.
	Segments, SegmentLength int
	// Blocks and LowerBlocks are a version 1 Ribbon layout's blocks of 128
	// slots and how many leading blocks hold only r−1 columns.
	Blocks, LowerBlocks int
	// ExpectedFPR is the false-positive rate the layout implies: for Ribbon
	// equation (2) of ribbon.go; for Bloom the estimate of bloom.go at the
	// filter's actual bits per key, which needs the key count and is
	// therefore left 0 here; 0 for the empty filter.
	ExpectedFPR float64
}

// String formats the description on one line.
func (i Info) String() string {
	switch i.Kind {
	case "bloom":
		return fmt.Sprintf("bloom lines=%d probes=%d bytes=%d", i.Lines, i.Probes, i.Bytes)
	case "ribbon":
		if i.Version == 1 {
			return fmt.Sprintf("ribbon v1 blocks=%d r=%d lower=%d seed=%d bytes=%d fpr=%.4g%%",
				i.Blocks, i.ResultBits, i.LowerBlocks, i.Seed, i.Bytes, 100*i.ExpectedFPR)
		}
		return fmt.Sprintf("ribbon column=%d r=%d low=%d seed=%d bytes=%d fpr=%.4g%%",
			i.ColumnBytes, i.ResultBits, i.LowBytes, i.Seed, i.Bytes, 100*i.ExpectedFPR)
	case "fuse":
		return fmt.Sprintf("fuse segments=%d segment=%d bits=%d bytes=%d fpr=%.4g%%",
			i.Segments, i.SegmentLength, i.ResultBits, i.Bytes, 100*i.ExpectedFPR)
	}
	return fmt.Sprintf("%s bytes=%d", i.Kind, i.Bytes)
}

// Describe decodes the trailer of a point filter written by this
// package, or says why filter is not a well-formed one: truncated,
// extended, or with a damaged or unknown trailer. MayContain makes the same
// checks silently, and fails open.
func Describe(filter []byte) (Info, error) {
	if err := validate(filter); err != nil {
		return Info{}, err
	}
	_, t, _ := pointDecode(filter)
	info := Info{Kind: t.kind.String(), Bytes: len(filter), Version: int(t.version)}
	switch {
	case t.kind == pointKindBloom:
		info.Lines, info.Probes = int(t.a), int(t.p)
	case t.kind == pointKindRibbon && t.version == 1:
		info.Blocks, info.LowerBlocks, info.ResultBits, info.Seed = int(t.a), int(t.b), int(t.p), int(t.q)
		info.ExpectedFPR = ribbonV1ExpectedFPR(ribbonV1Layout{blocks: t.a, upper: t.b, r: t.p, seed: t.q})
	case t.kind == pointKindFuse:
		info.Segments, info.SegmentLength, info.ResultBits = int(t.a), 1<<t.q, int(t.p)
		info.ExpectedFPR = FuseFPR
	case t.kind == pointKindRibbon:
		info.ColumnBytes, info.LowBytes, info.ResultBits, info.Seed = int(t.a), int(t.b), int(t.p), int(t.q)
		info.ExpectedFPR = ribbonExpectedFPR(ribbonLayout{colBytes: t.a, lowBytes: t.b, r: t.p, seed: t.q})
	}
	return info, nil
}

// BloomExpectedFPR is the false-positive rate a Bloom filter of this package
// is expected to have at bitsPerKey (the estimate explained in bloom.go). It
// is also the rate Ribbon(bitsPerKey) aims for.
func BloomExpectedFPR(bitsPerKey float64) float64 {
	if math.IsNaN(bitsPerKey) || bitsPerKey <= 0 {
		return 1
	}
	return bloomEstimateFPR(bitsPerKey, bloomProbes(bitsPerKey))
}
