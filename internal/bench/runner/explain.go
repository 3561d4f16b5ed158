// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"math/rand/v2"

	upstream "github.com/cockroachdb/pebble/v2"
)

// Explain is -explain: pebblerf's query builder explains one sample query
// of the kind seekrandom runs (same target distribution, bound and
// -seek_nexts), after the benchmarks, so the explanation describes the LSM
// the last benchmark left; "" for upstream, which has no planner. The
// sample's random source is fixed by -seed, so repeated invocations explain
// the same query.
func (e *Engine) Explain() (string, error) {
	c := e.cfg
	targets := c.SeekTargets(e.written)
	key := make([]byte, c.KeySize)
	var lower, upper []byte
	if targets.Bounded() {
		upper = make([]byte, c.KeySize)
	}
	targets.Next(rand.New(rand.NewPCG(uint64(c.Seed), 0xe)), key, upper)
	if upper != nil {
		lower = key // as seekRandom bounds it
	}
	if e.db == nil {
		if err := e.open(); err != nil {
			return "", err
		}
	}
	o := &upstream.IterOptions{LowerBound: lower, UpperBound: upper, UseL6Filters: c.UseL6Filters}
	x, err := e.db.Explain(o, key, c.SeekNexts)
	if err != nil || x == nil {
		return "", err
	}
	return x.String(), nil
}
