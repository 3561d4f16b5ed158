// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter_test

import (
	"fmt"
	"testing"

	"github.com/pebblerf/pebble/internal/filterbench"
)

// Go benchmarks for the point filters (Bloom, Ribbon, binary fuse), side by
// side with Pebble's Bloom filter. cmd/filterreport prints the same figures
// as one table with 10M-query false-positive rates; these are for benchstat.
//
//	go test ./pointfilter -run '^$' -bench 'BenchmarkPoint' -count 6

const pointBenchFilters = "pebble-bloom:10,bloom:10,ribbon:10,fuse8"

func pointBenchCandidates(b *testing.B) []filterbench.Candidate {
	cands, err := filterbench.ParseCandidates(pointBenchFilters)
	if err != nil {
		b.Fatal(err)
	}
	return cands
}

func pointBenchSets(b *testing.B) []*filterbench.KeySet {
	var sets []*filterbench.KeySet
	for _, kind := range []string{"random", "dbbench"} {
		s, err := filterbench.NewKeySet(kind, 100_000, 1<<20, 1)
		if err != nil {
			b.Fatal(err)
		}
		sets = append(sets, s)
	}
	return sets
}

// BenchmarkPointBuild reports build time per key (hashing included) for
// filters of 100k keys.
func BenchmarkPointBuild(b *testing.B) {
	cands := pointBenchCandidates(b)
	for _, set := range pointBenchSets(b) {
		for _, c := range cands {
			b.Run(fmt.Sprintf("keys=%s/filter=%s", set.Name, c.Name), func(b *testing.B) {
				b.ReportAllocs()
				var f filterbench.Filter
				var err error
				for b.Loop() {
					if f, err = c.Build(set.Keys); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(set.Keys)), "ns/key")
				b.ReportMetric(8*float64(f.Bytes)/float64(len(set.Keys)), "bits/key")
			})
		}
	}
}

// BenchmarkPointQuery reports the time of one negative query, hot (1024 keys
// cycled through one filter) and cold (spread over 256 MiB of copies), and
// the false-positive rate seen over the queries made.
func BenchmarkPointQuery(b *testing.B) {
	cands := pointBenchCandidates(b)
	for _, set := range pointBenchSets(b) {
		for _, c := range cands {
			f, err := c.Build(set.Keys)
			if err != nil {
				b.Fatal(err)
			}
			for _, mode := range []string{"hot", "cold"} {
				b.Run(fmt.Sprintf("keys=%s/filter=%s/%s", set.Name, c.Name, mode), func(b *testing.B) {
					b.ReportAllocs()
					copies := []filterbench.Filter{f}
					keys := 1024
					if mode == "cold" {
						copies = make([]filterbench.Filter, (256<<20)/f.Bytes+1)
						for i := range copies {
							copies[i] = f.Clone()
						}
						keys = set.Negatives()
					}
					fp, i := 0, 0
					for b.Loop() {
						c := copies[uint64(i)*0x9e3779b97f4a7c15>>32%uint64(len(copies))]
						if c.MayContain(set.Negative(i % keys)) {
							fp++
						}
						i++
					}
					b.ReportMetric(100*float64(fp)/float64(b.N), "fpr%")
				})
			}
		}
	}
}
