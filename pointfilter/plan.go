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
// false-positive rate in about 70% of the space for about 2.5 times the
// build CPU (docs/benchmarks.md, "Point filters").
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
// Besides that split, Levels gives each level any filter and bits (the
// presets Uniform and Progressive, and Optimal, which spends a memory
// budget where it saves the most reads; see optimal.go).
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
	// Levels, if not nil, gives each of the seven levels its own filter
	// and bits, and the three fields above are ignored. Uniform,
	// Progressive and Optimal make such plans.
	Levels []LevelFilter
}

// Kind names a point filter in a plan.
type Kind uint8

const (
	// KindNone writes no filter.
	KindNone Kind = iota
	// KindBloom is the cache-local Bloom filter (bloomPolicy).
	KindBloom
	// KindRibbon is the Standard Ribbon filter (ribbonPolicy).
	KindRibbon
	// KindFuse is the binary fuse filter (fusePolicy).
	KindFuse
)

// kindNames are the Kinds' names, indexed by Kind.
var kindNames = [...]string{KindNone: "none", KindBloom: "bloom", KindRibbon: "ribbon", KindFuse: "fuse"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// LevelFilter is one level's filter in a per-level plan.
type LevelFilter struct {
	Kind Kind
	// Bits is Bloom's bits per key or Ribbon's Bloom-equivalent bits per
	// key, in [1, 100]; it is ignored for KindNone and KindFuse, whose
	// rate is fixed.
	Bits float64
}

func (l LevelFilter) String() string {
	switch l.Kind {
	case KindBloom, KindRibbon:
		return fmt.Sprintf("%s(%g)", l.Kind, l.Bits)
	}
	return l.Kind.String()
}

// policy returns the filter policy l names.
func (l LevelFilter) policy() (pebble.FilterPolicy, error) {
	switch l.Kind {
	case KindNone:
		return pebble.NoFilterPolicy, nil
	case KindBloom:
		return NewBloom(l.Bits)
	case KindRibbon:
		return NewRibbon(l.Bits)
	case KindFuse:
		return Fuse(), nil
	}
	return nil, errors.Newf("pointfilter: unknown filter kind %d", uint8(l.Kind))
}

// Uniform is the plan that gives every level, L6 included, a Bloom filter
// of bitsPerKey: the shape of Pebble's one bloom.FilterPolicy on every
// level, with pebblerf's cache-local Bloom filter.
func Uniform(bitsPerKey float64) Plan {
	return Plan{BitsPerKey: bitsPerKey, RibbonFromLevel: NoRibbon, L6Filters: true}
}

// progressiveBits are the bits per key of Pebble's progressive preset, L0
// to L6: more bits where levels are small.
var progressiveBits = [planLevels]float64{16, 16, 16, 16, 14, 10, 8}

// Progressive is Pebble's progressive preset: Bloom filters on every level,
// of 16 bits per key on L0 to L3, 14 on L4, 10 on L5 and 8 on L6: more bits
// where levels are small.
func Progressive() Plan {
	p := Plan{Levels: make([]LevelFilter, planLevels)}
	for i, b := range progressiveBits {
		p.Levels[i] = LevelFilter{Kind: KindBloom, Bits: b}
	}
	return p
}

// Filters returns each level's filter as the plan chooses it.
func (p Plan) Filters() ([planLevels]LevelFilter, error) {
	var out [planLevels]LevelFilter
	if err := p.validate(); err != nil {
		return out, err
	}
	if p.Levels != nil {
		copy(out[:], p.Levels)
		return out, nil
	}
	for i := range out {
		switch {
		case p.BitsPerKey == 0 || (i == planLevels-1 && !p.L6Filters):
		case i < p.RibbonFromLevel:
			out[i] = LevelFilter{Kind: KindBloom, Bits: p.BitsPerKey}
		default:
			out[i] = LevelFilter{Kind: KindRibbon, Bits: p.BitsPerKey}
		}
	}
	return out, nil
}

// planLevels is Pebble's level count (7; Pebble does not export it).
const planLevels = len(pebble.Options{}.Levels)

// PlanLevels is the number of levels a plan covers, L0 to L6.
const PlanLevels = planLevels

// NoRibbon as RibbonFromLevel makes every level use Bloom.
const NoRibbon = math.MaxInt

// Apply sets opts.Levels[i].FilterPolicy for every level according to the
// plan, or returns an error naming the invalid field. It sets all seven
// levels explicitly, so nothing is left to Pebble's inheritance from the
// level above. Filters written under one plan stay readable under another:
// Pebble registers every policy named in opts.Levels for reading, and every
// policy of this package reads the others' filters.
func (p Plan) Apply(opts *pebble.Options) error {
	policies, err := p.policies()
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
	if p.Levels != nil {
		return len(p.Levels) == planLevels && p.Levels[planLevels-1].Kind != KindNone
	}
	return p.L6Filters && p.BitsPerKey != 0
}

// policies returns the filter policy of each level: one policy shared by
// the levels whose filters are equal, or pebble.NoFilterPolicy.
func (p Plan) policies() ([planLevels]pebble.FilterPolicy, error) {
	var out [planLevels]pebble.FilterPolicy
	filters, err := p.Filters()
	if err != nil {
		return out, err
	}
	made := make(map[LevelFilter]pebble.FilterPolicy)
	for i, f := range filters {
		if f.Kind == KindNone || f.Kind == KindFuse {
			f.Bits = 0
		}
		if out[i] = made[f]; out[i] == nil {
			if out[i], err = f.policy(); err != nil {
				return out, err
			}
			made[f] = out[i]
		}
	}
	return out, nil
}

func (p Plan) validate() error {
	if p.Levels != nil {
		if len(p.Levels) != planLevels {
			return errors.Newf("pointfilter: Plan.Levels has %d levels, not %d", len(p.Levels), planLevels)
		}
		for i, l := range p.Levels {
			if _, err := l.policy(); err != nil {
				return errors.Wrapf(err, "pointfilter: Plan.Levels[%d]", i)
			}
		}
		return nil
	}
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
	filters, err := p.Filters()
	if err != nil {
		return "invalid: " + err.Error()
	}
	var parts []string
	for start := 0; start < len(filters); {
		end := start
		for end+1 < len(filters) && filters[end+1].String() == filters[start].String() {
			end++
		}
		levels := fmt.Sprintf("L%d", start)
		if end > start {
			levels += fmt.Sprintf("-L%d", end)
		}
		parts = append(parts, levels+" "+filters[start].String())
		start = end + 1
	}
	return strings.Join(parts, " ")
}
