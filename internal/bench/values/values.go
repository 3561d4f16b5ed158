// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package values makes the values a benchmark writes: bytes that a block
// compressor shrinks to about a chosen fraction of their size, as RocksDB's
// db_bench makes them (its -compression_ratio), so that a benchmark's table
// sizes, and so its I/O, are those of compressible data rather than of
// random or constant bytes.
//
// A Gen builds a buffer of at least 1 MiB from 100-byte pieces, each a run
// of ratio*100 random printable bytes repeated to fill the piece, and hands
// out consecutive slices of it. A compressor finds the repeats and keeps
// roughly the random run, so with ratio 0.5 a 100-byte value costs about 50
// bytes after compression (Snappy's and MinLZ's framing make it a little
// more). The buffer depends only on the seed, so equal seeds give equal
// values.
package values

import "math/rand/v2"

// Gen hands out values. It is not safe for concurrent use: each benchmark
// thread has its own.
type Gen struct {
	data []byte
	pos  int
}

const piece = 100

// New returns a generator of values that compress to about ratio of their
// size, from a buffer seeded by seed that holds a value of valueSize bytes
// at least.
func New(seed uint64, ratio float64, valueSize int) *Gen {
	rng := rand.New(rand.NewPCG(seed, 0x76616c756573))
	size := max(1<<20, valueSize)
	data := make([]byte, 0, size+piece)
	run := max(1, int(ratio*piece+0.5))
	raw := make([]byte, run)
	for len(data) < size {
		for i := range raw {
			raw[i] = byte(' ' + rng.IntN(95))
		}
		for n := 0; n < piece; n += run {
			data = append(data, raw[:min(run, piece-n)]...)
		}
	}
	return &Gen{data: data}
}

// Next returns the next value of length n; the slice is shared and valid
// until the buffer wraps, which Pebble allows since Set copies.
func (g *Gen) Next(n int) []byte {
	if g.pos+n > len(g.data) {
		g.pos = 0
	}
	v := g.data[g.pos : g.pos+n]
	g.pos += n
	return v
}
