// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"math"
	"sync/atomic"

	"github.com/FastFilter/xorfilter"
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
)

// The point-filter policies: what Pebble sees. Both policies write the same
// self-describing format (trailer.go) and read each other's filters, so
// a Ribbon policy that fell back to Bloom for a tiny table, or a table written
// under a different plan, is still answered by whichever policy Pebble finds.

const (
	// BloomPolicyName is the Name of every bloomPolicy. Bits/key and probe
	// count live in each filter's trailer, so the name does not change with
	// them; a filter block is stored under "fullfilter."+name.
	BloomPolicyName = "pebblerf.Bloom"
	// RibbonPolicyName is the Name of every ribbonPolicy.
	RibbonPolicyName = "pebblerf.Ribbon"
	// fusePolicyName is the Name of every fusePolicy.
	fusePolicyName = "pebblerf.BinaryFuse"

	// pointMinBitsPerKey and pointMaxBitsPerKey bound the bits/key a policy
	// accepts. Below 1 bit/key a filter rejects almost nothing; above 100
	// the rate is far below anything measurable (RocksDB clamps at 100 too).
	pointMinBitsPerKey = 1
	pointMaxBitsPerKey = 100
)

// Counts are what the point filter policies counted into them met while
// reading: filters whose bytes did not decode (truncated, overwritten, or
// of an unknown format version), each of which answered "may contain". A
// DB's reads go to the policies of that DB's options, so counts the
// policies of one DB's options count into are that DB's: pebblerf makes a
// Counts per DB it opens and counts its policies into it (Counted), and a
// policy keeps no count of its own, since one policy is often shared by
// several DBs. The zero value is ready to use; it is safe for concurrent
// use.
type Counts struct {
	corrupt atomic.Uint64
}

// Corrupt returns how many MayContain calls of the policies counting into
// c met a filter whose bytes did not decode.
func (c *Counts) Corrupt() uint64 { return c.corrupt.Load() }

// Counted returns a policy that writes and reads exactly as p does, under
// the same Name, and counts what it meets in c, and true; or p and false
// for a policy not of this package, which has nothing to count here. The
// counted policy is a new instance; p is not changed.
func Counted(p pebble.FilterPolicy, c *Counts) (pebble.FilterPolicy, bool) {
	switch p := p.(type) {
	case *bloomPolicy:
		return &bloomPolicy{pointReader: pointReader{counts: c}, bitsPerKey: p.bitsPerKey, probes: p.probes}, true
	case *ribbonPolicy:
		return &ribbonPolicy{pointReader: pointReader{counts: c}, bloomBits: p.bloomBits}, true
	case *fusePolicy:
		return &fusePolicy{pointReader: pointReader{counts: c}}, true
	case *plannedPolicy:
		return &plannedPolicy{pointReader: pointReader{counts: c}, planner: p.planner, level: p.level}, true
	}
	return p, false
}

// pointCheckBits validates a bits/key argument; what names the parameter in
// the error.
func pointCheckBits(what string, bits float64) error {
	if math.IsNaN(bits) || bits < pointMinBitsPerKey || bits > pointMaxBitsPerKey {
		return errors.Newf("pointfilter: %s %v is outside [%d, %d]", what, bits,
			pointMinBitsPerKey, pointMaxBitsPerKey)
	}
	return nil
}

// pointReader is the query side the policies share.
type pointReader struct {
	// counts, if set, is where the policy counts (Counted).
	counts *Counts
}

// The trailer's kind and version bytes as one value, for the filters the
// writers produce now.
const (
	pointTagRibbon = uint16(pointKindRibbon) | pointFormatRibbon<<8
	pointTagBloom  = uint16(pointKindBloom) | pointFormatBloom<<8
	pointTagFuse   = uint16(pointKindFuse) | pointFormatRibbon<<8
)

// mayContain decodes filter and answers for key, failing open on bytes that
// do not decode. It does not allocate and is safe for concurrent use.
//
// The filters the writers produce now take a fast path that checks only
// what their kind needs (the same checks pointCheck makes for it) and calls
// no function but the hash and the query; everything else, older versions
// and bytes that do not decode included, goes through mayContainSlow.
func (r *pointReader) mayContain(filter, key []byte) bool {
	// The key is hashed first: every register is caller-saved in Go's
	// calling convention, so whatever is decoded before a call is spilled
	// to the stack and read back after it.
	h := pointHash(key)
	n, x, y := pointWords(filter)
	if n >= 0 && uint32(y>>32) == pointTrailerCheck(x, uint32(y)) {
		switch uint16(y >> 16) {
		case pointTagRibbon:
			if ribbonCheck(n, uint32(x), uint32(x>>32), uint8(y)) == pointOK {
				return ribbonMayContain(filter[:n], ribbonLayout{colBytes: uint32(x), lowBytes: uint32(x >> 32), r: uint8(y), seed: uint8(y >> 8)}, h)
			}
		case pointTagBloom:
			if bloomCheck(n, uint32(x), uint8(y)) == pointOK {
				return pointBloomMayContain(filter[:n], uint8(y), h)
			}
		case pointTagFuse:
			if fuseCheck(n, uint32(x), uint8(y), uint8(y>>8)) == pointOK {
				if seed, ok := fuseSeed(filter[:n], uint32(x>>32)); ok {
					return fuseMayContain(filter[:n], seed, uint32(x), uint8(y>>8), h)
				}
			}
		}
	}
	return r.mayContainSlow(filter, h)
}

// pointBloomMayContain queries a Bloom body whose trailer has been checked.
// The line count is taken from the body's length, which the check compared
// with the trailer, rather than from the trailer itself: then the line's
// address does not wait for the trailer's bytes, and a cold query fetches
// both cache lines at once instead of one after the other.
func pointBloomMayContain(body []byte, probes uint8, h uint64) bool {
	return bloomMayContain(body, uint32(len(body)/bloomLineBytes), probes, h)
}

// mayContainSlow answers for hash h on any filter: it runs the full
// pointCheck, counts a filter that does not decode and answers "may
// contain" for it, and reads every kind and version.
func (r *pointReader) mayContainSlow(filter []byte, h uint64) bool {
	n, x, y := pointWords(filter)
	if n < 0 || pointCheck(n, x, y) != pointOK {
		return r.failOpen()
	}
	body := filter[:n]
	switch pointKind(y >> 16) {
	case pointKindFuse:
		seed, ok := fuseSeed(body, uint32(x>>32))
		if !ok {
			return r.failOpen()
		}
		return fuseMayContain(body, seed, uint32(x), uint8(y>>8), h)
	case pointKindBloom:
		return pointBloomMayContain(body, uint8(y), h)
	case pointKindRibbon:
		if uint8(y>>24) == 1 {
			return ribbonV1MayContain(body, ribbonV1Layout{blocks: uint32(x), upper: uint32(x >> 32), r: uint8(y), seed: uint8(y >> 8)}, h)
		}
		return ribbonMayContain(body, ribbonLayout{colBytes: uint32(x), lowBytes: uint32(x >> 32), r: uint8(y), seed: uint8(y >> 8)}, h)
	default: // pointKindEmpty
		return false
	}
}

// failOpen counts a filter that did not decode and answers "may contain".
func (r *pointReader) failOpen() bool {
	if r.counts != nil {
		r.counts.corrupt.Add(1)
	}
	return true
}

// pointWriter collects the hashes of a table's keys and builds the filter at
// Finish. Keys arrive in order, one AddKey per point key, so a prefix shared
// by many keys arrives many times in a row: consecutive repeats are dropped
// here so they neither inflate the filter's size nor cost build time.
type pointWriter struct {
	hashes pointHashes
	build  func(dst []byte, hashes *pointHashes) []byte
}

// AddKey implements pebble.FilterWriter.
func (w *pointWriter) AddKey(key []byte) {
	h := pointHash(key)
	if last, ok := w.hashes.last(); ok && last == h {
		return
	}
	w.hashes.add(h)
}

// Finish implements pebble.FilterWriter. The writer can be reused after it.
func (w *pointWriter) Finish(dst []byte) []byte {
	if w.hashes.len() == 0 {
		dst = pointAppendTrailer(dst, pointTrailer{kind: pointKindEmpty, version: pointFormatBloom})
	} else {
		dst = w.build(dst, &w.hashes)
	}
	w.hashes.reset()
	return dst
}

// bloomPolicy is a pebble.FilterPolicy that writes cache-local Bloom filters
// (bloom.go). It reads Ribbon filters too.
type bloomPolicy struct {
	pointReader
	bitsPerKey float64
	probes     int
}

var _ pebble.FilterPolicy = (*bloomPolicy)(nil)

// NewBloom returns a Bloom policy spending bitsPerKey bits per distinct key
// (fractional values allowed), or an error naming the value if it is NaN or
// outside [1, 100].
func NewBloom(bitsPerKey float64) (pebble.FilterPolicy, error) {
	if err := pointCheckBits("Bloom bits per key", bitsPerKey); err != nil {
		return nil, err
	}
	return &bloomPolicy{bitsPerKey: bitsPerKey, probes: bloomProbes(bitsPerKey)}, nil
}

// Bloom is NewBloom for values known to be valid, such as constants: it
// panics with NewBloom's error otherwise, as regexp.MustCompile does. A
// program that takes bits/key from a user should call NewBloom.
func Bloom(bitsPerKey float64) pebble.FilterPolicy {
	return pointMust(NewBloom(bitsPerKey))
}

// Name implements pebble.FilterPolicy.
func (p *bloomPolicy) Name() string { return BloomPolicyName }

// BitsPerKey returns the policy's bits per key.
func (p *bloomPolicy) BitsPerKey() float64 { return p.bitsPerKey }

// MayContain implements pebble.FilterPolicy. It reads filters of either
// kind, never allocates, and returns true for bytes that do not decode.
func (p *bloomPolicy) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return p.mayContain(filter, key)
}

// NewWriter implements pebble.FilterPolicy.
func (p *bloomPolicy) NewWriter(pebble.FilterType) pebble.FilterWriter {
	return &pointWriter{build: func(dst []byte, hashes *pointHashes) []byte {
		return bloomAppend(dst, hashes, p.bitsPerKey, p.probes)
	}}
}

// ribbonPolicy is a pebble.FilterPolicy that writes Standard Ribbon filters
// (ribbon.go), sized for the false-positive rate a Bloom policy would have at
// the same Bloom-equivalent bits per key, in about 30% less space. Tables
// too small for Ribbon to save space get a Bloom filter. It reads Bloom
// filters too.
type ribbonPolicy struct {
	pointReader
	bloomBits float64
}

var _ pebble.FilterPolicy = (*ribbonPolicy)(nil)

// NewRibbon returns a Ribbon policy that gives the false-positive rate of
// NewBloom(bloomEquivalentBitsPerKey), or an error naming the value if it is
// NaN or outside [1, 100]. As in RocksDB's NewRibbonFilterPolicy, 10 means
// about 1% false positives at about 7 bits per key.
func NewRibbon(bloomEquivalentBitsPerKey float64) (pebble.FilterPolicy, error) {
	if err := pointCheckBits("Ribbon Bloom-equivalent bits per key", bloomEquivalentBitsPerKey); err != nil {
		return nil, err
	}
	return &ribbonPolicy{bloomBits: bloomEquivalentBitsPerKey}, nil
}

// Ribbon is NewRibbon for values known to be valid: it panics with
// NewRibbon's error otherwise.
func Ribbon(bloomEquivalentBitsPerKey float64) pebble.FilterPolicy {
	return pointMust(NewRibbon(bloomEquivalentBitsPerKey))
}

// pointMust returns p, or panics with err.
func pointMust[P pebble.FilterPolicy](p P, err error) pebble.FilterPolicy {
	if err != nil {
		panic(err)
	}
	return p
}

// Name implements pebble.FilterPolicy.
func (p *ribbonPolicy) Name() string { return RibbonPolicyName }

// bloomEquivalentBitsPerKey returns the policy's sizing parameter.
func (p *ribbonPolicy) bloomEquivalentBitsPerKey() float64 { return p.bloomBits }

// MayContain implements pebble.FilterPolicy. It reads filters of either
// kind, never allocates, and returns true for bytes that do not decode.
func (p *ribbonPolicy) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return p.mayContain(filter, key)
}

// NewWriter implements pebble.FilterPolicy.
func (p *ribbonPolicy) NewWriter(pebble.FilterType) pebble.FilterWriter {
	return &pointWriter{build: func(dst []byte, hashes *pointHashes) []byte {
		return ribbonBuild(dst, hashes, p.bloomBits)
	}}
}

// fusePolicy is a pebble.FilterPolicy that writes binary fuse filters with
// 8-bit fingerprints (fuse.go): a false-positive rate of 2^-8 in about 9 to
// 9.5 bits per key on tables of 100,000 keys or more. It reads Bloom and
// Ribbon filters too, and they read its filters.
type fusePolicy struct {
	pointReader
}

var _ pebble.FilterPolicy = (*fusePolicy)(nil)

// Fuse returns a binary fuse policy. It has no parameter: the fingerprint
// width, and so the false-positive rate fuseFPR, is fixed.
func Fuse() pebble.FilterPolicy { return &fusePolicy{} }

// Name implements pebble.FilterPolicy.
func (p *fusePolicy) Name() string { return fusePolicyName }

// MayContain implements pebble.FilterPolicy. It reads filters of every
// kind, never allocates, and returns true for bytes that do not decode.
//
// The filters it meets are nearly all its own, so it queries every filter
// as one of them first (fuseMayContainFirst), without waiting for the
// trailer, and decodes the trailer only for a filter that turns out to be
// something else.
func (p *fusePolicy) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	// fuseMayContainFirst, written out with its inlined parts.
	h := pointHash(key)
	if m := uint64(len(filter)) - (8 + pointTrailerLen); m-fuseArity < fuseFirstMaxBytes-fuseArity {
		q := fuseGuessShift(m)
		answer := fuseProbe(filter, m, q, fuseMix(h+fuseFirstSeed))
		if fuseFirstConfirms(filter, m, q) {
			return answer
		}
	}
	return p.mayContainSlow(filter, h)
}

// NewWriter implements pebble.FilterPolicy. Each writer keeps the library's
// build scratch memory, so a writer reused for many tables allocates it once.
func (p *fusePolicy) NewWriter(pebble.FilterType) pebble.FilterWriter {
	var b xorfilter.BinaryFuseBuilder
	var keys []uint64
	return &pointWriter{build: func(dst []byte, hashes *pointHashes) []byte {
		dst, keys = fuseAppend(dst, hashes, &b, keys)
		return dst
	}}
}
