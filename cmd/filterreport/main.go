// Copyright 2026 The pebblerf Authors. All rights reserved.

// Command filterreport prints the point-filter comparison table: for each
// key set and size, each filter's bits per key, false-positive rate (measured
// over many negative queries, next to what the filter's own math predicts),
// build time, hot and cold query time, and the memory its build allocates.
// Pebble's built-in Bloom filter is the anchor.
//
//	go run ./cmd/filterreport -n 1000000,10000000
//
// Definitions (see internal/filterbench): times are process CPU time (not
// wall time, which on a shared machine counts other processes' turns) and
// include hashing the key; "hot" cycles 1024 negative keys through one filter, so the lines
// they touch stay cached; "cold" spreads queries over copies of the filter
// totalling at least 256 MiB, so nearly every query misses the caches.
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
	flag.Parse()
	if err := run(*sizes, *keySets, *filters, *negatives, *buildRuns, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "filterreport:", err)
		os.Exit(1)
	}
}

func run(sizes, keySets, filters string, negatives, buildRuns, rounds int) error {
	candidates, err := filterbench.ParseCandidates(filters)
	if err != nil {
		return err
	}
	cfg := filterbench.DefaultConfig
	cfg.BuildRuns = buildRuns
	if rounds < 1 || buildRuns < 1 {
		return fmt.Errorf("-rounds and -build-runs must be at least 1, not %d and %d", rounds, buildRuns)
	}
	cfg.Rounds = rounds
	for _, sz := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(sz))
		if err != nil || n < 1 {
			return fmt.Errorf("bad key count %q in -n", sz)
		}
		for _, kind := range strings.Split(keySets, ",") {
			fmt.Fprintf(os.Stderr, "generating %s keys: %d + %d negatives\n", kind, n, negatives)
			set, err := filterbench.NewKeySet(strings.TrimSpace(kind), n, negatives, 1)
			if err != nil {
				return err
			}
			fmt.Printf("\n### %d %s keys, %d negative queries\n\n", n, set.Name, negatives)
			fmt.Println("| filter | bits/key | FPR % | expected FPR % | false neg. | build ns/key | query ns hot | query ns cold | build alloc bits/key |")
			fmt.Println("|---|---|---|---|---|---|---|---|---|")
			results, err := filterbench.Measure(candidates, set, cfg)
			if err != nil {
				return err
			}
			for _, r := range results {
				expected := "–"
				if r.ExpectedFPR > 0 {
					expected = fmt.Sprintf("%.3f", 100*r.ExpectedFPR)
				}
				fmt.Printf("| %s | %.2f | %.3f | %s | %d | %.1f | %.1f | %.1f | %.0f |\n",
					r.Candidate, r.BitsPerKey, 100*r.FPR, expected, r.FalseNegatives,
					r.BuildNs, r.HotNs, r.ColdNs, r.BuildAllocBits)
			}
		}
	}
	return nil
}
