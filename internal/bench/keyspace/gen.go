// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package keyspace makes the keys of db_bench-style benchmarks: the keys
// themselves in RocksDB's db_bench format (Gen), the set of key numbers a
// sparse fill wrote (Set), and the targets and upper bounds of seeks drawn
// from them (Targets).
//
// Every choice of key depends only on a caller's random source and, after
// a sparse fill, on the keys that fill wrote, so two engines given the same
// seeds write and read identical keys. A key number v is written as the
// key Fill(v); Written(i) is the number of the i-th key of the key space
// (i*stride), which leaves gaps of stride-1 unwritten numbers between keys,
// where a seek's range can hold no key. MakeMissing turns a written key
// into one that sorts just after it and is never written, so only a filter
// can rule it out.
package keyspace

import "math/rand/v2"

// Gen writes keys in db_bench's format, so a key space, a prefix length
// and a seek pattern mean the same here as in RocksDB's db_bench:
//
//	[prefix: min(prefix_size, 8) bytes of v % (num/keys_per_prefix), big
//	 endian, then '0' up to prefix_size; only when keys_per_prefix > 0]
//	[number: the low min(8, remaining) bytes of v, big endian]
//	[padding: '0' up to key_size]
//
// Big-endian numbers make key order follow v, so a sequential fill writes
// in key order.
type Gen struct {
	// Num is the number of keys in the key space (db_bench's -num).
	Num int64
	// KeySize is the length of every key.
	KeySize int
	// PrefixSize and KeysPerPrefix are db_bench's -prefix_size and
	// -keys_per_prefix: with KeysPerPrefix > 0 the keys share
	// Num/KeysPerPrefix prefixes.
	PrefixSize    int
	KeysPerPrefix int
	// Stride spaces the written keys: the i-th key is key number i*Stride
	// (pebblebench's -key_stride).
	Stride uint64
}

// Written is the key number of the i-th key of the written key space.
func (g Gen) Written(i uint64) uint64 { return i * g.Stride }

// prefixEnd is where the key number starts.
func (g Gen) prefixEnd() int {
	if g.KeysPerPrefix > 0 {
		return g.PrefixSize
	}
	return 0
}

// NumberEnd is where the key number ends and the padding starts.
func (g Gen) NumberEnd() int {
	return g.prefixEnd() + min(g.KeySize-g.prefixEnd(), 8)
}

// MissingByte is the position of the byte that MakeMissing changes, or -1 if
// the keys have no padding.
func (g Gen) MissingByte() int {
	if n := g.NumberEnd(); n < g.KeySize {
		return n
	}
	return -1
}

// Fill writes the key for v into key, which has length KeySize.
func (g Gen) Fill(key []byte, v uint64) {
	pos := 0
	if g.KeysPerPrefix > 0 {
		prefix := v % uint64(g.Num/int64(g.KeysPerPrefix))
		putBigEndian(key[:min(g.PrefixSize, 8)], prefix)
		for i := 8; i < g.PrefixSize; i++ {
			key[i] = '0'
		}
		pos = g.PrefixSize
	}
	end := g.NumberEnd()
	putBigEndian(key[pos:end], v)
	for i := end; i < len(key); i++ {
		key[i] = '0'
	}
}

// Index is the inverse of Fill and Written for a key Fill wrote: the index
// i of key number i*stride. With KeysPerPrefix the number bytes hold only
// the low bytes of the key number, which is enough for any num below 2^64
// that fits them.
func (g Gen) Index(key []byte) uint64 {
	var v uint64
	for _, b := range key[g.prefixEnd():g.NumberEnd()] {
		v = v<<8 | uint64(b)
	}
	return v / g.Stride
}

// MakeMissing turns a key written by Fill into one that no fill benchmark
// writes: every written key has '0' in its first padding byte. The result
// sorts just after the key it came from, inside the key space, so neither the
// table bounds nor the level's key range can rule it out; only a filter can.
func (g Gen) MakeMissing(key []byte) {
	key[g.MissingByte()] = '1'
}

// putBigEndian writes the low len(dst) bytes of v into dst, most significant
// first.
func putBigEndian(dst []byte, v uint64) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = byte(v)
		v >>= 8
	}
}

// RandomKey fills key with a uniformly chosen written key, made absent
// with probability missingFraction. It reports whether the key was made
// absent.
func (g Gen) RandomKey(rng *rand.Rand, key []byte, missingFraction float64) bool {
	g.Fill(key, g.Written(rng.Uint64N(uint64(g.Num))))
	if missingFraction > 0 && rng.Float64() < missingFraction {
		g.MakeMissing(key)
		return true
	}
	return false
}
