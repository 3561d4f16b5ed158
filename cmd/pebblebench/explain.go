// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"math/rand/v2"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/result"
)

// printExplain is -explain: pebblerf's query builder explains one sample
// query of the kind seekrandom runs (same target distribution, bound and
// -seek_nexts), after the benchmarks, so the explanation describes the LSM
// the last benchmark left. The sample's random source is fixed by -seed,
// so repeated invocations explain the same query.
func (d *driver) printExplain() error {
	targets := d.cfg.SeekTargets(d.written)
	key := make([]byte, d.cfg.KeySize)
	var lower, upper []byte
	if targets.Bounded() {
		upper = make([]byte, d.cfg.KeySize)
	}
	targets.Next(rand.New(rand.NewPCG(uint64(d.cfg.Seed), 0xe)), key, upper)
	if upper != nil {
		lower = key // as seekRandom bounds it
	}
	for _, e := range d.engines {
		if e.db == nil {
			if err := e.open(); err != nil {
				return err
			}
		}
		o := &upstream.IterOptions{LowerBound: lower, UpperBound: upper, UseL6Filters: d.cfg.UseL6Filters}
		x, err := e.db.Explain(o, key, d.cfg.SeekNexts)
		if err != nil {
			return err
		}
		if x == nil {
			continue // upstream has no planner
		}
		fmt.Fprintf(d.out, "EXPLAIN (%s):\n%s\n", e.name, x)
		if d.jsonOut != nil {
			if err := result.WriteJSONLine(d.jsonOut, map[string]interface{}{"record": "explain", "benchmark": "explain", "engine": e.name, "explain": x.String()}); err != nil {
				return err
			}
		}
	}
	return nil
}
