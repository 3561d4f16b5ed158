// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"math/bits"
	"slices"
)

// A hashed filter sorts its hashed values before Elias-Fano encodes them,
// once per table a flush or compaction writes, so the sort is on the write
// path of every table. The values are bounded: all lie in [0, u) with u the
// hash range n·2^(B-2), which for the budgets a filter allows is a few tens
// of bits. A least-significant-digit radix sort over only those bits takes
// ceil(log2(u)/8) counting passes of n steps each (four for a 16 bits/key
// filter of 4,000 keys, where u < 2^26), against the n·log2(n) comparisons,
// many mispredicted, of a comparison sort.
//
// Each pass is stable: it counts the values of each 8-bit digit, turns the
// counts into the start of each digit's run, and moves every value, in
// order, to the next slot of its run in the other buffer. After the pass
// over digit d the values are sorted by their low 8(d+1) bits; after the
// last, by all of them. A pass whose digit is the same in every value moves
// nothing and is skipped. Below radixMin values a comparison sort is
// cheaper than clearing the counts.

// radixMin is the length below which sortBounded uses slices.Sort.
const radixMin = 256

// sortBounded sorts vals, whose values all lie in [0, u), using scratch
// (grown to len(vals) if shorter) as the second buffer, and returns the
// scratch buffer for the caller to keep. It allocates nothing once scratch
// is large enough.
func sortBounded(vals []uint64, u uint64, scratch []uint64) []uint64 {
	n := len(vals)
	if n < radixMin {
		slices.Sort(vals)
		return scratch
	}
	if cap(scratch) < n {
		scratch = make([]uint64, n)
	}
	src, dst := vals, scratch[:n]
	width := bits.Len64(u - 1) // u >= 1; u-1 is the largest value
	var counts [256]int
	for shift := 0; shift < width; shift += 8 {
		clear(counts[:])
		for _, v := range src {
			counts[byte(v>>shift)]++
		}
		if counts[byte(src[0]>>shift)] == n {
			continue // one digit value: the order stands
		}
		pos := 0
		for d, c := range counts {
			counts[d] = pos
			pos += c
		}
		for _, v := range src {
			d := byte(v >> shift)
			dst[counts[d]] = v
			counts[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &vals[0] {
		copy(vals, src)
	}
	return scratch
}
