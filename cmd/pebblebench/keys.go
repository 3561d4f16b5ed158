// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import "math/rand/v2"

// keyGen writes keys in db_bench's format, so a key space, a prefix length
// and a seek pattern mean the same here as in RocksDB's db_bench:
//
//	[prefix: min(prefix_size, 8) bytes of v % (num/keys_per_prefix), big
//	 endian, then '0' up to prefix_size; only when keys_per_prefix > 0]
//	[number: the low min(8, remaining) bytes of v, big endian]
//	[padding: '0' up to key_size]
//
// Big-endian numbers make key order follow v, so fillseq writes in key order.
type keyGen struct {
	num           int64
	keySize       int
	prefixSize    int
	keysPerPrefix int
	// stride is -key_stride: the fill benchmarks write key numbers
	// i*stride, i in [0, num).
	stride uint64
}

func (c *config) keyGen() keyGen {
	return keyGen{num: c.num, keySize: c.keySize, prefixSize: c.prefixSize, keysPerPrefix: c.keysPerPrefix,
		stride: uint64(max(c.keyStride, 1))}
}

// written is the key number of the i-th key of the written key space.
func (g keyGen) written(i uint64) uint64 { return i * g.stride }

// prefixEnd is where the key number starts.
func (g keyGen) prefixEnd() int {
	if g.keysPerPrefix > 0 {
		return g.prefixSize
	}
	return 0
}

// numberEnd is where the key number ends and the padding starts.
func (g keyGen) numberEnd() int {
	return g.prefixEnd() + min(g.keySize-g.prefixEnd(), 8)
}

// missingByte is the position of the byte that makeMissing changes, or -1 if
// the keys have no padding.
func (g keyGen) missingByte() int {
	if n := g.numberEnd(); n < g.keySize {
		return n
	}
	return -1
}

// fill writes the key for v into key, which has length keySize.
func (g keyGen) fill(key []byte, v uint64) {
	pos := 0
	if g.keysPerPrefix > 0 {
		prefix := v % uint64(g.num/int64(g.keysPerPrefix))
		putBigEndian(key[:min(g.prefixSize, 8)], prefix)
		for i := 8; i < g.prefixSize; i++ {
			key[i] = '0'
		}
		pos = g.prefixSize
	}
	end := g.numberEnd()
	putBigEndian(key[pos:end], v)
	for i := end; i < len(key); i++ {
		key[i] = '0'
	}
}

// index is the inverse of fill and written for a key fill wrote: the index
// i of key number i*stride. With -keys_per_prefix the number bytes hold only
// the low bytes of the key number, which is enough for any num below 2^64
// that fits them.
func (g keyGen) index(key []byte) uint64 {
	var v uint64
	for _, b := range key[g.prefixEnd():g.numberEnd()] {
		v = v<<8 | uint64(b)
	}
	return v / g.stride
}

// makeMissing turns a key written by fill into one that no fill benchmark
// writes: every written key has '0' in its first padding byte. The result
// sorts just after the key it came from, inside the key space, so neither the
// table bounds nor the level's key range can rule it out; only a filter can.
func (g keyGen) makeMissing(key []byte) {
	key[g.missingByte()] = '1'
}

// putBigEndian writes the low len(dst) bytes of v into dst, most significant
// first.
func putBigEndian(dst []byte, v uint64) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = byte(v)
		v >>= 8
	}
}

// randomKey fills key with a uniformly chosen written key, made absent
// with probability missingFraction. It reports whether the key was made
// absent.
func (g keyGen) randomKey(rng *rand.Rand, key []byte, missingFraction float64) bool {
	g.fill(key, g.written(rng.Uint64N(uint64(g.num))))
	if missingFraction > 0 && rng.Float64() < missingFraction {
		g.makeMissing(key)
		return true
	}
	return false
}
