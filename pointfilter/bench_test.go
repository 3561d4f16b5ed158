// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter_test

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/pebblerf/pebble/internal/filterbench"
	"github.com/pebblerf/pebble/pointfilter"
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
				b.ReportMetric(8*float64(f.Size())/float64(len(set.Keys)), "bits/key")
			})
		}
	}
}

// BenchmarkPointQuery reports the time of one negative query, hot (1024 keys
// cycled through one filter), cold (spread over 256 MiB of copies, queries
// overlapped) and cold one at a time (see filterbench.OneAtATime), and the
// false-positive rate seen over the queries made.
func BenchmarkPointQuery(b *testing.B) {
	cands := pointBenchCandidates(b)
	for _, set := range pointBenchSets(b) {
		for _, c := range cands {
			f, err := c.Build(set.Keys)
			if err != nil {
				b.Fatal(err)
			}
			copies, release, err := filterbench.Spread(f, 256<<20, false)
			if err != nil {
				b.Fatal(err)
			}
			for _, mode := range []string{"hot", "cold", "cold-one-at-a-time"} {
				if mode == "cold-one-at-a-time" && !filterbench.CanSerialize {
					continue
				}
				b.Run(fmt.Sprintf("keys=%s/filter=%s/%s", set.Name, c.Name, mode), func(b *testing.B) {
					b.ReportAllocs()
					var yes int
					switch mode {
					case "hot":
						yes = filterbench.HotQueries(&f, set, 1024, b.N)
					case "cold":
						yes = filterbench.ColdQueries(copies, set, b.N, filterbench.Overlapped)
					default:
						yes = filterbench.ColdQueries(copies, set, b.N, filterbench.OneAtATime)
					}
					b.ReportMetric(100*float64(yes)/float64(b.N), "fpr%")
				})
			}
			release()
		}
	}
}

// BenchmarkFuseQueryParts takes the cold fuse query apart, next to Pebble's
// Bloom filter, to show what its cost follows (pointfilter.FuseQueryParts
// names the variants). The filters hold 1M db_bench keys; filterbench
// measures every variant as cmd/filterreport does, interleaved round by
// round, each keeping its fastest of 20 rounds, on 4 KiB pages and, where
// the machine has them, on transparent huge pages, which take most TLB
// misses out of the cold figures. It reports CPU ns per query and each
// variant's ratio to Pebble's Bloom filter; one run measures everything:
//
//	go test -c -o /tmp/pointfilter.test ./pointfilter
//	/tmp/pointfilter.test -test.run '^$' -test.bench BenchmarkFuseQueryParts -test.benchtime 1x
func BenchmarkFuseQueryParts(b *testing.B) {
	set, err := filterbench.NewKeySet("dbbench", 1_000_000, 1<<20, 1)
	if err != nil {
		b.Fatal(err)
	}
	cands, err := filterbench.ParseCandidates("pebble-bloom:10,fuse8")
	if err != nil {
		b.Fatal(err)
	}
	fuse, err := cands[1].Build(set.Keys)
	if err != nil {
		b.Fatal(err)
	}
	names, policies := pointfilter.FuseQueryParts(fuse.Data)
	cands = cands[:1]
	for i, p := range policies {
		cands = append(cands, filterbench.Candidate{Name: names[i], Build: func([][]byte) (filterbench.Filter, error) {
			return filterbench.Filter{Policy: p, Data: fuse.Data}, nil
		}})
	}
	for _, huge := range []bool{false, true} {
		b.Run(fmt.Sprintf("huge-pages=%t", huge), func(b *testing.B) {
			cfg := filterbench.DefaultConfig
			cfg.BuildRuns, cfg.Rounds, cfg.HugePages = 1, 20, huge
			for b.Loop() {
				results, err := filterbench.Measure(cands, set, cfg)
				if errors.Is(err, filterbench.ErrNoHugePages) {
					b.Skip(err)
				}
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range results {
					first := r.Candidate == results[0].Candidate
					b.ReportMetric(r.ColdNs, r.Candidate+"-cold-"+cputime.ClockName+"-ns")
					if !first {
						b.ReportMetric(r.ColdNs/results[0].ColdNs, r.Candidate+"-cold/pebble-bloom")
					}
					if !filterbench.CanSerialize {
						continue // no one-at-a-time figures here
					}
					b.ReportMetric(r.ColdOneAtATimeNs, r.Candidate+"-one-at-a-time-"+cputime.ClockName+"-ns")
					if !first {
						b.ReportMetric(r.ColdOneAtATimeNs/results[0].ColdOneAtATimeNs, r.Candidate+"-one-at-a-time/pebble-bloom")
					}
				}
			}
		})
	}
}
