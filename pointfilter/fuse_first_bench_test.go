// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"encoding/binary"
	"math/bits"
	"runtime"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/internal/cputime"
)

// BenchmarkFuseQueryParts takes the cold fuse query apart, next to Pebble's
// Bloom filter, to show what its cost follows: the generic path (trailer
// decoded before the fingerprint loads), the fuse-first query, a query that
// compares the trailer with words the caller already holds instead of ones
// computed from the length (and the same plus a comparison of the guessed
// segment shift), and the fingerprint loads alone, with no trailer read. The filter has 1M db_bench keys, copied over 256 MiB; every
// variant is called through pebble.FilterPolicy, as Pebble calls it.
//
//	go test ./pointfilter -run '^$' -bench BenchmarkFuseQueryParts -benchtime 1000000x -count 8
func BenchmarkFuseQueryParts(b *testing.B) {
	const n = 1_000_000
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = pointDBBenchKey(uint64(i), 16)
	}
	const negatives = 1 << 20
	neg := make([][]byte, negatives)
	for i := range neg {
		neg[i] = pointDBBenchKey(uint64(n+i), 16)
	}
	fuse := pointBuild(Fuse(), keys)
	pb := pointBuild(bloom.FilterPolicy(10), keys)
	_, tr, _ := pointDecode(fuse)
	tail := len(fuse) - pointTrailerLen
	held := &pointPartsHeld{x: binary.LittleEndian.Uint64(fuse[tail:]), y: binary.LittleEndian.Uint64(fuse[tail+8:])}
	variants := []struct {
		name   string
		filter []byte
		policy pebble.FilterPolicy
	}{
		{"pebble-bloom", pb, bloom.FilterPolicy(10)},
		{"fuse-generic", fuse, pointPartsGeneric{}},
		{"fuse-first", fuse, Fuse()},
		{"fuse-first-held-trailer", fuse, held},
		{"fuse-no-trailer", fuse, pointPartsNoTrailer{a: tr.a, q: tr.q}},
		{"fuse-first-held-trailer-and-q", fuse, &pointPartsHeld{x: held.x, y: held.y, q: uint64(tr.q)<<8 | uint64(tr.q)<<56, checkQ: true}},
	}
	spread := map[*byte][][]byte{}
	for _, v := range variants {
		copies, ok := spread[&v.filter[0]]
		if !ok {
			// One set of copies per filter, shared by its variants, so
			// that they differ in code only.
			copies = make([][]byte, (256<<20)/len(v.filter)+1)
			for i := range copies {
				copies[i] = append([]byte(nil), v.filter...)
			}
			spread[&v.filter[0]] = copies
		}
		b.Run(v.name, func(b *testing.B) {
			// Thread CPU time as well as the wall clock, which on a
			// shared machine counts the time other processes ran.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			start := cputime.Thread()
			i := 0
			for b.Loop() {
				c := copies[uint64(i)*0x9e3779b97f4a7c15>>32%uint64(len(copies))]
				v.policy.MayContain(pebble.TableFilter, c, neg[i%negatives])
				i++
			}
			b.ReportMetric(float64((cputime.Thread()-start).Nanoseconds())/float64(i), "cpu-ns/op")
		})
	}
}

// pointPartsGeneric queries through the generic path, mayContain.
type pointPartsGeneric struct{ pointReader }

func (pointPartsGeneric) Name() string                                    { return "generic" }
func (pointPartsGeneric) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p pointPartsGeneric) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return p.mayContain(filter, key)
}

// pointPartsHeld is the fuse-first query with the trailer compared against
// words it holds rather than words it computes from the length (correct
// only for filters of one length: a measurement, not a policy).
type pointPartsHeld struct {
	pointReader
	x, y uint64
	// checkQ also compares the guessed shift with q, as the policy's
	// check of the trailer must: a few operations on a value known long
	// before the trailer arrives.
	q      uint64
	checkQ bool
}

func (*pointPartsHeld) Name() string                                    { return "held" }
func (*pointPartsHeld) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p *pointPartsHeld) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	h := pointHash(key)
	m := uint64(len(filter)) - (8 + pointTrailerLen)
	if m-fuseArity >= fuseFirstMaxBytes-fuseArity {
		return p.mayContainSlow(filter, h)
	}
	q := fuseGuessShift(m)
	seg := uint64(1) << q
	x := fuseMix(h + fuseFirstSeed)
	h0, _ := bits.Mul64(x, m&^(seg-1)-2*seg)
	h1 := (h0 + seg) ^ (x>>18)&(seg-1)
	h2 := (h0 + 2*seg) ^ x&(seg-1)
	answer := uint8(x^x>>32)^filter[h0]^filter[h1]^filter[h2] == 0
	t := (*[8 + pointTrailerLen]byte)(filter[m:])
	bad := binary.LittleEndian.Uint64(t[0:8]) ^ fuseFirstSeed
	bad |= binary.LittleEndian.Uint64(t[8:16]) ^ p.x
	bad |= binary.LittleEndian.Uint64(t[16:24]) ^ p.y
	if p.checkQ {
		bad |= (uint64(q)<<8 | uint64(q)<<56) ^ p.q
	}
	if bad == 0 {
		return answer
	}
	return p.mayContainSlow(filter, h)
}

// pointPartsNoTrailer loads the fingerprints only, with the filter's seed
// and shift given (not a policy either).
type pointPartsNoTrailer struct {
	a uint32
	q uint8
}

func (pointPartsNoTrailer) Name() string                                    { return "no-trailer" }
func (pointPartsNoTrailer) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p pointPartsNoTrailer) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return fuseMayContain(filter[:len(filter)-pointTrailerLen], fuseFirstSeed, p.a, p.q, pointHash(key))
}
