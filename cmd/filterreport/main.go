// Copyright 2026 The pebblerf Authors. All rights reserved.

// Command filterreport prints the point-filter comparison table: for each
// key set and size, each filter's bits per key, false-positive rate (measured
// over many negative queries, next to what the filter's own math predicts),
// build time, query time hot, cold and cold one at a time, and the memory
// its build allocates. Pebble's built-in Bloom filter is the anchor.
//
//	go run ./cmd/filterreport -n 1000000,10000000
//
// Definitions (see internal/filterbench): times are CPU time, not wall
// time, which on a shared machine counts other processes' turns (builds: the
// process's, so that their garbage collection counts; queries: the querying
// thread's, after a collection, since queries allocate nothing), and include
// hashing the key. Queries call the policy through pebble.FilterPolicy, as
// Pebble's table reader does. "hot" cycles 1024 negative keys through one
// filter, so the lines they touch stay cached. "cold" spreads queries over
// copies of the filter totalling at least 256 MiB, so nearly every query
// misses the caches, and makes them back to back, so the core overlaps
// consecutive ones: the throughput of a batch of lookups. "cold, one at a
// time" makes the same queries with the core serialized after each one:
// the latency of one filter check out of cache, which a Get pays once per
// table it checks (amd64 only). Copies start on cache lines. -huge-pages
// puts them in transparent huge pages (Linux), which takes most TLB misses
// out of the cold figures.
// Progress goes to stderr, the tables (Markdown) to stdout.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/pebblerf/pebble/internal/filterbench"
)

func main() {
	sizes := flag.String("n", "1000000", "comma-separated key counts")
	keySets := flag.String("keys", "random,dbbench", "comma-separated key sets: random, dbbench")
	filters := flag.String("filters", "pebble-bloom:10,bloom:10,ribbon:10,ribbon:13,fuse8",
		"comma-separated filters: pebble-bloom:B, bloom:B, ribbon:B, fuse8")
	negatives := flag.Int("negatives", 10_000_000, "negative queries for the false-positive rate")
	buildRuns := flag.Int("build-runs", filterbench.DefaultConfig.BuildRuns, "build rounds (fastest kept)")
	rounds := flag.Int("rounds", filterbench.DefaultConfig.Rounds, "query timing rounds (fastest kept); more rounds steady the figures on a loaded machine")
	hugePages := flag.Bool("huge-pages", false, "put the cold copies in transparent huge pages (Linux)")
	flag.Parse()
	req, err := parse(*sizes, *keySets, *filters, *negatives, *buildRuns, *rounds)
	if err != nil {
		// The user's flags: one line and status 2, as for flag's own errors.
		fmt.Fprintln(os.Stderr, "filterreport:", err)
		os.Exit(2)
	}
	req.cfg.HugePages = *hugePages
	if err := run(req); err != nil {
		fmt.Fprintln(os.Stderr, "filterreport:", err)
		os.Exit(1)
	}
}

// request is what the flags ask for, checked.
type request struct {
	sizes      []int
	kinds      []string
	candidates []filterbench.Candidate
	negatives  int
	cfg        filterbench.Config
}

// parse checks every flag before anything is measured, so that a mistake
// in the last one does not cost a run of the first.
func parse(sizes, keySets, filters string, negatives, buildRuns, rounds int) (request, error) {
	req := request{negatives: negatives, cfg: filterbench.DefaultConfig}
	var err error
	if req.candidates, err = filterbench.ParseCandidates(filters); err != nil {
		return req, err
	}
	for _, f := range []struct {
		name  string
		value int
	}{{"-negatives", negatives}, {"-build-runs", buildRuns}, {"-rounds", rounds}} {
		if f.value < 1 {
			return req, fmt.Errorf("%s must be at least 1, not %d", f.name, f.value)
		}
	}
	req.cfg.BuildRuns, req.cfg.Rounds = buildRuns, rounds
	for _, sz := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(sz))
		if err != nil || n < 1 {
			return req, fmt.Errorf("bad key count %q in -n", sz)
		}
		req.sizes = append(req.sizes, n)
	}
	for _, kind := range strings.Split(keySets, ",") {
		kind = strings.TrimSpace(kind)
		if _, err := filterbench.NewKeySet(kind, 1, 1, 1); err != nil {
			return req, err
		}
		req.kinds = append(req.kinds, kind)
	}
	return req, nil
}

func run(req request) error {
	negatives, candidates, cfg := req.negatives, req.candidates, req.cfg
	for _, n := range req.sizes {
		for _, kind := range req.kinds {
			fmt.Fprintf(os.Stderr, "generating %s keys: %d + %d negatives\n", kind, n, negatives)
			set, err := filterbench.NewKeySet(kind, n, negatives, 1)
			if err != nil {
				return err
			}
			fmt.Printf("\n### %d %s keys, %d negative queries\n\n", n, set.Name, negatives)
			fmt.Println("| filter | bits/key | FPR % | expected FPR % | false neg. | build ns/key | query ns hot | query ns cold | query ns cold, one at a time | build alloc bits/key |")
			fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
			results, err := filterbench.Measure(candidates, set, cfg)
			if err != nil {
				return err
			}
			for _, r := range results {
				expected := "–"
				if r.ExpectedFPR > 0 {
					expected = fmt.Sprintf("%.3f", 100*r.ExpectedFPR)
				}
				oneAtATime := "–"
				if r.ColdOneAtATimeNs > 0 {
					oneAtATime = fmt.Sprintf("%.1f", r.ColdOneAtATimeNs)
				}
				fmt.Printf("| %s | %.2f | %.3f | %s | %d | %.1f | %.1f | %.1f | %s | %.0f |\n",
					r.Candidate, r.BitsPerKey, 100*r.FPR, expected, r.FalseNegatives,
					r.BuildNs, r.HotNs, r.ColdNs, oneAtATime, r.BuildAllocBits)
			}
		}
	}
	return nil
}
