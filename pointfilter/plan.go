// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"fmt"
	"math"
	"strings"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
)

// A Plan chooses the point filter of each LSM level.
//
// Upper levels hold small, short-lived tables that are rewritten soon after
// they are built, so a filter there should be cheap to build: Bloom. Lower
// levels hold most of the data for a long time, so the space a filter saves
// there is worth a costlier build: Ribbon, which gives Bloom's
// false-positive rate in about 70% of the space for 3-4 times the build CPU.
// RocksDB's bloom_before_level makes the same split; RibbonFromLevel is its
// counterpart (cmd/pebblebench maps the db_bench flag onto it).
//
// L6 deserves its own switch. It holds about 90% of a leveled LSM's data and
// so about 90% of its filter bytes, but Pebble reads L6 filters only in
// iterators opened with IterOptions.UseL6Filters and never in DB.Get. A plan
// without L6Filters writes no L6 filters, saving that space; a plan with it
// writes them, and readers that want them must set UseL6Filters (see
// Plan.UseL6Filters).
//
// A plan acts when a table is written, by a flush or a compaction that
// rewrites it. A move compaction hands a table to a lower level unchanged,
// so the table keeps the filter (or lack of one) it was written with until it
// is next rewritten.
type Plan struct {
	// BitsPerKey is the bits per key of the Bloom levels and the
	// Bloom-equivalent bits per key of the Ribbon levels, so that every
	// level aims at the same false-positive rate (about 1% at 10). 0 means no
	// point filters at all; otherwise it must be in [1, 100].
	BitsPerKey float64
	// RibbonFromLevel is the first level that uses Ribbon: levels below it
	// use Bloom, it and the levels below that use Ribbon. 0 means Ribbon
	// everywhere; NoRibbon (or any value >= 7) means Bloom
	// everywhere. Negative values are invalid.
	RibbonFromLevel int
	// L6Filters says whether L6 tables get a filter.
	L6Filters bool
}

// planLevels is Pebble's level count (7; Pebble does not export it).
const planLevels = len(pebble.Options{}.Levels)

// NoRibbon as RibbonFromLevel makes every level use Bloom.
const NoRibbon = math.MaxInt

// Apply sets opts.Levels[i].FilterPolicy for every level according to the
// plan, or returns an error naming the invalid field. It sets all seven
// levels explicitly, so nothing is left to Pebble's inheritance from the
// level above. Filters written under one plan stay readable under another:
// Pebble registers every policy named in opts.Levels for reading, and both
// policies of this package read each other's filters.
func (p Plan) Apply(opts *pebble.Options) error {
	policies, err := p.Policies()
	if err != nil {
		return err
	}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = policies[i]
	}
	return nil
}

// UseL6Filters reports whether the plan writes L6 filters, and so whether
// iterators should set IterOptions.UseL6Filters to benefit from them.
func (p Plan) UseL6Filters() bool {
	return p.L6Filters && p.BitsPerKey != 0
}

// Policies returns the filter policy of each level: one Bloom and one Ribbon
// policy shared by the levels that use them, or pebble.NoFilterPolicy.
func (p Plan) Policies() ([planLevels]pebble.FilterPolicy, error) {
	var out [planLevels]pebble.FilterPolicy
	if err := p.validate(); err != nil {
		return out, err
	}
	var bloom, ribbon pebble.FilterPolicy
	for i := range out {
		switch {
		case p.BitsPerKey == 0 || (i == planLevels-1 && !p.L6Filters):
			out[i] = pebble.NoFilterPolicy
		case i < p.RibbonFromLevel:
			if bloom == nil {
				bloom = Bloom(p.BitsPerKey)
			}
			out[i] = bloom
		default:
			if ribbon == nil {
				ribbon = Ribbon(p.BitsPerKey)
			}
			out[i] = ribbon
		}
	}
	return out, nil
}

func (p Plan) validate() error {
	if p.BitsPerKey != 0 {
		if _, err := NewBloom(p.BitsPerKey); err != nil {
			return errors.Wrapf(err, "pointfilter: Plan.BitsPerKey %v (0 means no filters)", p.BitsPerKey)
		}
	}
	if p.RibbonFromLevel < 0 {
		return errors.Newf("pointfilter: Plan.RibbonFromLevel %d is negative (0 means Ribbon everywhere)",
			p.RibbonFromLevel)
	}
	return nil
}

// String describes the plan level by level, e.g.
// "L0-L2 bloom(10) L3-L5 ribbon(10) L6 none".
func (p Plan) String() string {
	policies, err := p.Policies()
	if err != nil {
		return "invalid: " + err.Error()
	}
	name := func(f pebble.FilterPolicy) string {
		switch f.(type) {
		case *BloomPolicy:
			return fmt.Sprintf("bloom(%g)", p.BitsPerKey)
		case *RibbonPolicy:
			return fmt.Sprintf("ribbon(%g)", p.BitsPerKey)
		}
		return "none"
	}
	var parts []string
	for start := 0; start < len(policies); {
		end := start
		for end+1 < len(policies) && policies[end+1] == policies[start] {
			end++
		}
		levels := fmt.Sprintf("L%d", start)
		if end > start {
			levels += fmt.Sprintf("-L%d", end)
		}
		parts = append(parts, levels+" "+name(policies[start]))
		start = end + 1
	}
	return strings.Join(parts, " ")
}
