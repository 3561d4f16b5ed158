// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"math/bits"

	"github.com/cockroachdb/errors"
)

// Every point filter this package writes ends in a fixed 16-byte trailer
// that says what the bytes before it are, so that a reader never has to
// trust the policy name alone and can refuse bytes it does not understand:
//
//	offset  size  field
//	     0     4  a: Bloom: number of 64-byte lines; Ribbon: bytes per column B
//	                (v1: number of 128-slot blocks); fuse: segment count
//	     4     4  b: Bloom: 0; Ribbon: bytes L missing from the last column
//	                (v1: index of the first block with r result columns);
//	                fuse: fold of the seed stored before the trailer
//	     8     1  p: Bloom: probes per key; Ribbon: result bits r;
//	                fuse: fingerprint bits
//	     9     1  q: Bloom: 0; Ribbon: seed ordinal; fuse: log2 segment length
//	    10     1  kind: 0 empty set, 1 cache-local Bloom, 2 Standard Ribbon,
//	                3 binary fuse (version 2 only)
//	    11     1  format version: 1 or 2
//	    12     4  check: pointTrailerCheck of bytes 0..11
//
// Format versions. Version 2 changed only the Ribbon body and hashing
// (column-major storage, ribbon.go); version 1 Ribbon filters are still
// read (ribbon_v1.go). Empty and Bloom filters are the same in both, and are
// still written as version 1 so that a reader that knows only version 1
// keeps filtering with them; Ribbon filters are written as version 2, which
// such a reader answers with "may contain" and counts as undecodable.
//
// All integers are little-endian. The check is a 32-bit fold of the first 12
// bytes XORed with the magic "pRF1", so it both marks the bytes as ours and
// catches a damaged trailer: a changed seed or probe count would otherwise
// decode into a valid-looking filter that answers "no" for keys it holds. The
// body length is fully determined by the trailer, so a truncated or padded
// filter is detected, not misread. A filter whose trailer does not decode is
// answered with "may contain" (fail open) and counted (Counts).
//
// The body itself carries no checksum: verifying one would cost time
// proportional to the filter on every query, and Pebble already checksums
// every block it reads from disk, the filter block included.
const (
	pointTrailerLen = 16
	pointMagic      = 0x31465270 // "pRF1" read as a little-endian uint32
	// pointFormatBloom is the version written with empty and Bloom filters,
	// pointFormatRibbon the one written with Ribbon filters.
	pointFormatBloom  = 1
	pointFormatRibbon = 2
)

// pointTrailerCheck folds the first 12 trailer bytes, given as the trailer's
// first little-endian word x and the low half y of its second, into 32 bits:
// the three 32-bit words XORed after rotating each by a different number of
// bytes. Every input byte lands in its own output byte, so a change to any
// one byte (the common damage) is always caught, and random damage slips
// through with probability 2^-32. It costs a few ALU operations per query,
// where a multiplicative mix would add a dependent multiply chain.
func pointTrailerCheck(x uint64, y uint32) uint32 {
	return uint32(x) ^ bits.RotateLeft32(uint32(x>>32), 8) ^ bits.RotateLeft32(y, 16) ^ pointMagic
}

// pointKind says which structure a filter body holds.
type pointKind uint8

const (
	// pointKindEmpty is the filter of the empty set: it contains nothing.
	pointKindEmpty pointKind = 0
	// pointKindBloom is a cache-local Bloom filter (bloom.go).
	pointKindBloom pointKind = 1
	// pointKindRibbon is a Standard Ribbon filter (ribbon.go).
	pointKindRibbon pointKind = 2
	// pointKindFuse is a binary fuse filter (fuse.go), format version 2 only.
	pointKindFuse pointKind = 3
)

func (k pointKind) String() string {
	switch k {
	case pointKindEmpty:
		return "empty"
	case pointKindBloom:
		return "bloom"
	case pointKindRibbon:
		return "ribbon"
	case pointKindFuse:
		return "fuse"
	}
	return "unknown"
}

// pointTrailer is the decoded trailer. Field meanings depend on kind (see
// the table above).
type pointTrailer struct {
	a, b    uint32
	p, q    uint8
	kind    pointKind
	version uint8
}

// pointAppendTrailer appends the encoded trailer t to dst.
func pointAppendTrailer(dst []byte, t pointTrailer) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, t.a)
	dst = binary.LittleEndian.AppendUint32(dst, t.b)
	dst = append(dst, t.p, t.q, byte(t.kind), t.version)
	tr := dst[len(dst)-12:]
	check := pointTrailerCheck(binary.LittleEndian.Uint64(tr[0:8]), binary.LittleEndian.Uint32(tr[8:12]))
	return binary.LittleEndian.AppendUint32(dst, check)
}

// errPointCorrupt is the cause of every decoding error, so that callers can
// test for it with errors.Is.
var errPointCorrupt = errors.New("pointfilter: corrupt point filter")

// pointFault says why a filter did not decode. The query path sees only this
// small value, so a corrupt filter queried in a hot loop costs no allocation;
// validate turns it into an error for people.
type pointFault uint8

const (
	pointOK pointFault = iota
	pointFaultShort
	pointFaultMagic
	pointFaultVersion
	pointFaultParams
	pointFaultKind
	pointFaultLength
)

// pointDecode splits filter into its body and trailer and checks that the
// two agree. The query path does the same through pointWords and pointCheck,
// without building a pointTrailer (see pointReader.mayContain).
func pointDecode(filter []byte) (body []byte, t pointTrailer, fault pointFault) {
	n, x, y := pointWords(filter)
	if n < 0 {
		return nil, t, pointFaultShort
	}
	t = pointTrailer{a: uint32(x), b: uint32(x >> 32), p: uint8(y), q: uint8(y >> 8), kind: pointKind(y >> 16), version: uint8(y >> 24)}
	if fault = pointCheck(n, x, y); fault != pointOK {
		return nil, t, fault
	}
	return filter[:n], t, pointOK
}

// pointWords returns the body length n of filter and its trailer as two
// little-endian words x (bytes 0-7) and y (bytes 8-15); n < 0 if filter is
// shorter than a trailer.
func pointWords(filter []byte) (n int, x, y uint64) {
	n = len(filter) - pointTrailerLen
	if n < 0 {
		return n, 0, 0
	}
	tr := filter[n:]
	return n, binary.LittleEndian.Uint64(tr[0:8]), binary.LittleEndian.Uint64(tr[8:16])
}

// pointCheck checks trailer words x and y (see pointWords) and that they
// allow a body of n bytes. It works on the two words rather than on a
// pointTrailer because it runs on every query: a struct of five fields is
// kept in memory by the Go compiler, and reading its one-byte fields back
// with wider loads stalls store-to-load forwarding.
func pointCheck(n int, x, y uint64) pointFault {
	if uint32(y>>32) != pointTrailerCheck(x, uint32(y)) {
		return pointFaultMagic
	}
	version := uint8(y >> 24)
	if version != 1 && version != 2 {
		return pointFaultVersion
	}
	a, b, p := uint32(x), uint32(x>>32), uint8(y)
	switch pointKind(y >> 16) {
	case pointKindEmpty:
		if n != 0 {
			return pointFaultLength
		}
		return pointOK
	case pointKindBloom:
		return bloomCheck(n, a, p)
	case pointKindRibbon:
		if version == 1 {
			return ribbonV1Check(n, a, b, p)
		}
		return ribbonCheck(n, a, b, p)
	case pointKindFuse:
		if version != 2 {
			return pointFaultVersion
		}
		return fuseCheck(n, a, p, uint8(y>>8))
	default:
		return pointFaultKind
	}
}

// bloomCheck checks a Bloom trailer's lines a and probes p against a body
// of n bytes.
func bloomCheck(n int, a uint32, p uint8) pointFault {
	if a == 0 || p == 0 || p > bloomMaxProbes {
		return pointFaultParams
	}
	if uint64(n) != uint64(a)*bloomLineBytes {
		return pointFaultLength
	}
	return pointOK
}

// ribbonCheck checks a version 2 Ribbon trailer's column bytes a, missing
// bytes b and result bits p against a body of n bytes. The query reads the
// 16 bytes from a start byte below B−16 in every column, the last from
// byte L on, and the builder writes whole words: anything else was not
// written by this package.
func ribbonCheck(n int, a, b uint32, p uint8) pointFault {
	if p == 0 || p > ribbonMaxResultBits || (b > 0 && p < 2) ||
		a < ribbonMinColumnBytes || (a|b)%8 != 0 || uint64(b) > ribbonStartBytes(uint64(a)) {
		return pointFaultParams
	}
	if uint64(n) != ribbonBodyBytes(a, b, p) {
		return pointFaultLength
	}
	return pointOK
}

// validate reports whether filter is a well-formed point filter written
// by this package, and if not, why not. MayContain does the same checks
// silently (and fails open); Describe returns its error, for tools.
func validate(filter []byte) error {
	body, t, fault := pointDecode(filter)
	if fault == pointOK && t.kind == pointKindFuse {
		if _, ok := fuseSeed(body, t.b); !ok {
			return errors.Wrapf(errPointCorrupt, "fuse seed does not match its trailer's check")
		}
	}
	switch fault {
	case pointOK:
		return nil
	case pointFaultShort:
		return errors.Wrapf(errPointCorrupt, "%d bytes is shorter than the %d-byte trailer",
			len(filter), pointTrailerLen)
	case pointFaultMagic:
		return errors.Wrapf(errPointCorrupt, "trailer check %x does not match (damaged trailer, or not a pebblerf point filter)",
			filter[len(filter)-4:])
	case pointFaultVersion:
		return errors.Wrapf(errPointCorrupt, "unknown format version %d", filter[len(filter)-5])
	case pointFaultParams:
		return errors.Wrapf(errPointCorrupt, "%s filter with impossible parameters a=%d b=%d p=%d q=%d",
			t.kind, t.a, t.b, t.p, t.q)
	case pointFaultKind:
		return errors.Wrapf(errPointCorrupt, "unknown filter kind %d", uint8(t.kind))
	default:
		return errors.Wrapf(errPointCorrupt, "%s body is %d bytes, which its trailer does not allow",
			t.kind, len(filter)-pointTrailerLen)
	}
}
