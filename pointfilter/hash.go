// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"math/bits"
)

// pointHash is the one 64-bit hash every point filter in this package starts
// from. Both filters need more than 32 bits of hash: Bloom uses the top half
// to pick a cache line and the bottom half to place probes, and Ribbon derives
// a 128-bit coefficient row and a fingerprint from it. The hash is part of the
// on-disk format, so it is defined here rather than borrowed from a library
// that might change it.
//
// Keys in a filter are short (a Comparer.Split prefix, often 8 to 24 bytes)
// and a query hashes one key to read one or two cache lines, so the hash is
// built for short keys: each 8-byte word (the last 1 to 7 bytes are read as
// one word, overlapping for 4 to 7) is XORed into the state, which is then
// multiplied by an odd constant and folded (x ^= x>>32) so that the next
// multiplication carries the high bits back into the low ones. A final mix of
// two multiply-xorshift rounds spreads every input bit over the whole output.
// The length seeds the state, so keys that differ only in trailing zero bytes
// hash differently. Every step is a bijection of the state for a fixed word,
// so two keys of equal length that differ in one word never collide.
func pointHash(key []byte) uint64 {
	h := uint64(len(key))*pointHashMulA ^ pointHashSeed
	for len(key) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(key)) * pointHashMulA
		h ^= h >> 32
		key = key[8:]
	}
	if n := len(key); n > 0 {
		var w uint64
		if n >= 4 {
			w = uint64(binary.LittleEndian.Uint32(key)) | uint64(binary.LittleEndian.Uint32(key[n-4:]))<<32
		} else {
			w = uint64(key[0]) | uint64(key[n/2])<<8 | uint64(key[n-1])<<16
		}
		h = (h ^ w) * pointHashMulA
		h ^= h >> 32
	}
	h ^= h >> 29
	h *= pointHashMulB
	h ^= h >> 32
	h *= pointHashMulC
	return h ^ h>>29
}

// Odd constants with balanced bits, drawn at random for this hash.
const (
	pointHashSeed = 0x239eed24c2c063ff
	pointHashMulA = 0xf768064f958507ad
	pointHashMulB = 0x55113dc30e9a8df5
	pointHashMulC = 0x5966eb44e0c67745
)

// pointFastRange maps a uniformly distributed 64-bit x onto [0, n) without a
// division: the high 64 bits of the 128-bit product x*n. It keeps the order of
// x, which the Ribbon builder relies on when it sorts keys by start slot.
func pointFastRange(x, n uint64) uint64 {
	hi, _ := bits.Mul64(x, n)
	return hi
}

// pointHashChunk is the number of hashes per chunk of pointHashes: 32 KiB,
// large enough that the chunk loop costs nothing, small enough that a tiny
// table does not allocate much.
const pointHashChunk = 4096

// pointHashes is a writer's buffer of key hashes. It grows by whole chunks
// instead of doubling a slice: the writer cannot know the key count in
// advance, and a growing slice would copy every hash again at each step
// (allocating about 5 times the final size in total at Go's growth rate for
// large slices) and hold two copies at the step's peak.
type pointHashes struct {
	chunks [][]uint64
	n      int
}

// add appends h.
func (p *pointHashes) add(h uint64) {
	c := p.n / pointHashChunk
	if c == len(p.chunks) {
		p.chunks = append(p.chunks, make([]uint64, 0, pointHashChunk))
	}
	p.chunks[c] = append(p.chunks[c], h)
	p.n++
}

// last returns the most recently added hash; ok is false if there is none.
func (p *pointHashes) last() (h uint64, ok bool) {
	if p.n == 0 {
		return 0, false
	}
	c := p.chunks[(p.n-1)/pointHashChunk]
	return c[len(c)-1], true
}

// len returns the number of hashes.
func (p *pointHashes) len() int { return p.n }

// reset empties the buffer, keeping its chunks for reuse.
func (p *pointHashes) reset() {
	for i := range p.chunks {
		p.chunks[i] = p.chunks[i][:0]
	}
	p.n = 0
}

// pointHashesOf wraps a slice (for tests and benchmarks that have one).
func pointHashesOf(hashes []uint64) *pointHashes {
	return &pointHashes{chunks: [][]uint64{hashes}, n: len(hashes)}
}
