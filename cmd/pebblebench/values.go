// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import "math/rand/v2"

// valueGen hands out values that compress to about -compression_ratio of
// their size, like db_bench's: a buffer of at least 1 MiB is built from
// 100-byte pieces, each a run of ratio*100 random printable bytes repeated
// to fill the piece, and values are consecutive slices of it. A block
// compressor finds the repeats and keeps roughly the random run, so with the
// default ratio 0.5 a 100-byte value costs about 50 bytes after compression
// (Snappy's and MinLZ's framing make it a little more).
type valueGen struct {
	data []byte
	pos  int
}

const valuePiece = 100

func newValueGen(seed uint64, ratio float64, valueSize int) *valueGen {
	rng := rand.New(rand.NewPCG(seed, 0x76616c756573))
	size := max(1<<20, valueSize)
	data := make([]byte, 0, size+valuePiece)
	run := max(1, int(ratio*valuePiece+0.5))
	raw := make([]byte, run)
	for len(data) < size {
		for i := range raw {
			raw[i] = byte(' ' + rng.IntN(95))
		}
		for n := 0; n < valuePiece; n += run {
			data = append(data, raw[:min(run, valuePiece-n)]...)
		}
	}
	return &valueGen{data: data}
}

// next returns the next value of length n; the slice is shared and valid
// until the buffer wraps, which Pebble allows since Set copies.
func (g *valueGen) next(n int) []byte {
	if g.pos+n > len(g.data) {
		g.pos = 0
	}
	v := g.data[g.pos : g.pos+n]
	g.pos += n
	return v
}
