// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/pebblerf/pebble/internal/cputime"
)

// BenchmarkFuseQueryParts takes the cold fuse query apart, next to Pebble's
// Bloom filter, to show what its cost follows: the generic path (trailer
// decoded before the fingerprint loads), the fuse-first query, and the
// fingerprint loads alone, with the seed and segment shift given and no
// trailer read. The filter has 1M db_bench keys, copied over 256 MiB; every
// variant is called through pebble.FilterPolicy, as Pebble calls it.
//
// walk=independent lets the core overlap consecutive queries; walk=chained
// makes each query's copy and key depend on the previous answer, so each
// query waits on its own misses, as a Get's filter checks do.
// pages=huge (Linux) puts the copies in memory advised for transparent huge
// pages, which takes the TLB misses out of both filters' cost.
//
// Each b.Loop iteration is one round of 300,000 queries per variant, the
// variants in turn; each reports its fastest round (CPU ns per query,
// thread time) and its ratio to Pebble's Bloom filter:
//
//	go test ./pointfilter -run '^$' -bench BenchmarkFuseQueryParts -benchtime 20x
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
	variants := []struct {
		name   string
		filter []byte
		policy pebble.FilterPolicy
	}{
		{"pebble-bloom", pb, bloom.FilterPolicy(10)},
		{"fuse-generic", fuse, pointPartsGeneric{}},
		{"fuse-first", fuse, Fuse()},
		{"fuse-fingerprints-only", fuse, pointPartsNoTrailer{a: tr.a, q: tr.q}},
	}
	for _, pages := range []string{"4k", "huge"} {
		// One set of copies per filter, shared by its variants, so that
		// they differ in code only.
		spread := map[*byte][][]byte{}
		for _, v := range variants {
			if _, ok := spread[&v.filter[0]]; ok {
				continue
			}
			copies := make([][]byte, (256<<20)/len(v.filter)+1)
			region := make([]byte, len(copies)*len(v.filter))
			if pages == "huge" {
				var ok bool
				if region, ok = pointHugePages(len(region)); !ok {
					break
				}
			}
			for i := range copies {
				copies[i] = region[i*len(v.filter) : (i+1)*len(v.filter) : (i+1)*len(v.filter)]
				copy(copies[i], v.filter)
			}
			spread[&v.filter[0]] = copies
		}
		for _, walk := range []string{"independent", "chained"} {
			b.Run(fmt.Sprintf("pages=%s/walk=%s", pages, walk), func(b *testing.B) {
				if len(spread) < 2 {
					b.Skip("no huge pages here")
				}
				// Thread CPU time, not the wall clock, which on a shared
				// machine counts the time other processes ran.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				chained := walk == "chained"
				best := make([]float64, len(variants))
				round := 0
				for b.Loop() {
					// One round queries every variant in turn, so that
					// they are compared under the same load; each keeps
					// its fastest round.
					for vi, v := range variants {
						copies := spread[&v.filter[0]]
						runtime.GC() // no collection of the copies alongside
						start := cputime.Thread()
						var prev uint64
						for i := uint64(0); i < partsQueries; i++ {
							step := i + uint64(round)*partsQueries
							if chained {
								step += prev
							}
							c := copies[step*0x9e3779b97f4a7c15>>32%uint64(len(copies))]
							prev = uint64(pointBoolByte(v.policy.MayContain(pebble.TableFilter, c, neg[step%negatives])))
						}
						ns := float64((cputime.Thread() - start).Nanoseconds()) / partsQueries
						if round == 0 || ns < best[vi] {
							best[vi] = ns
						}
					}
					round++
				}
				for vi, v := range variants {
					b.ReportMetric(best[vi], v.name+"-cpu-ns/query")
					if vi > 0 {
						b.ReportMetric(best[vi]/best[0], v.name+"/pebble-bloom")
					}
				}
			})
		}
	}
}

// partsQueries is the number of queries per variant in a round of
// BenchmarkFuseQueryParts.
const partsQueries = 300_000

// pointBoolByte is b as 0 or 1, which the compiler produces without a
// branch: a chained walk must not let the core predict its way past the
// answer.
func pointBoolByte(b bool) uint8 {
	var x uint8
	if b {
		x = 1
	}
	return x
}

// pointPartsGeneric queries through the generic path, mayContain.
type pointPartsGeneric struct{ pointReader }

func (pointPartsGeneric) Name() string                                    { return "generic" }
func (pointPartsGeneric) NewWriter(pebble.FilterType) pebble.FilterWriter { return nil }
func (p pointPartsGeneric) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	return p.mayContain(filter, key)
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
