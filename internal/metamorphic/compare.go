package metamorphic

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/querybuilder"
	"github.com/pebblerf/pebble/rangefilter"
)

// Config is one test: the key kind, the options both engines share, and the
// plug-in configuration pebblerf runs under.
type Config struct {
	Seed     uint64
	Keys     KeyKind
	Universe int
	// Shared options.
	MemTableSize       uint64
	BlockSize          int
	AutoCompactions    bool
	UpstreamFilterBits int // 0: no filter
	// pebblerf's side.
	Plugins pebblerf.Plugins
	// Plan is how pebblerf's DB iterators are made: "newiter" (DB.NewIter)
	// or a query builder plan for DB.NewRangeQuery.
	Plan string
	// loseSetsEvery injects a fault into pebblerf's runner (tests only).
	loseSetsEvery int
}

func (c Config) String() string {
	p := c.Plugins
	return fmt.Sprintf("seed=%d keys=%s universe=%d memtable=%d block=%d autocompact=%t bloom=%d "+
		"plan=%s statistics=%t%+v filters=%+v rangefilter=%+v rangelevels=%v shape=%v advisor=%t",
		c.Seed, c.Keys, c.Universe, c.MemTableSize, c.BlockSize, c.AutoCompactions,
		c.UpstreamFilterBits, c.Plan, p.Statistics, p.StatisticsConfig, p.Filters, p.RangeFilter,
		p.RangeFilterLevels, p.Shape, p.Advisor != nil)
}

// RandomConfig draws a configuration from seed.
func RandomConfig(seed uint64) Config {
	rng := rand.New(rand.NewPCG(seed, 1))
	return Config{
		Seed:               seed,
		Keys:               KeyKind(rng.IntN(int(numKeyKinds))),
		Universe:           []int{20, 200, 2000}[rng.IntN(3)],
		MemTableSize:       uint64(64<<10) << rng.IntN(4),
		BlockSize:          []int{64, 512, 4096}[rng.IntN(3)],
		AutoCompactions:    rng.IntN(2) == 0,
		UpstreamFilterBits: []int{0, 10}[rng.IntN(2)],
		Plugins:            randomPlugins(rng),
		Plan:               randomPlan(rng),
	}
}

// randomPlugins picks a pebblerf plug-in configuration. The zero Plugins is
// upstream's behaviour; every plug-in pebblerf has is drawn here, so the
// harness checks each alone and in combination.
func randomPlugins(rng *rand.Rand) pebblerf.Plugins {
	var p pebblerf.Plugins
	p.Statistics = rng.IntN(3) > 0
	p.StatisticsConfig.ExactAttribution = p.Statistics && rng.IntN(4) == 0
	p.StatisticsConfig.FiltersOnly = p.Statistics && rng.IntN(4) == 0
	if rng.IntN(2) == 0 {
		p.Filters = pointfilter.MustNewPlanner(pointfilter.Plan{
			BitsPerKey:      []float64{1, 4, 10}[rng.IntN(3)],
			RibbonFromLevel: []int{0, 1, 3, pointfilter.NoRibbon}[rng.IntN(4)],
			L6Filters:       rng.IntN(2) == 0,
		})
	}
	if rng.IntN(2) == 0 {
		p.RangeFilter = &rangefilter.Config{BitsPerKey: []float64{4, 8, 16}[rng.IntN(3)]}
		if rng.IntN(2) == 0 {
			// Some levels without range filters: their tables must read as
			// "may intersect".
			var plan rangefilter.Plan
			for i := range plan.Levels {
				plan.Levels[i] = []float64{0, 0, 4, 16}[rng.IntN(4)]
			}
			p.RangeFilterLevels = &plan
		}
	}
	if rng.IntN(4) == 0 {
		p.Shape = &compactionext.ManyRuns{Runs: 2 + rng.IntN(6), MinInterval: time.Millisecond}
	}
	if p.Statistics && rng.IntN(4) == 0 {
		// No write budget: the differential check is about the data
		// every compaction leaves, so the advisor should compact often.
		p.Advisor = &compactionext.AdvisorConfig{MinInterval: time.Millisecond, MinWaste: 1, MinRuns: 2,
			WriteBudget: -1}
	}
	return p
}

// randomPlan picks how pebblerf's DB iterators read: plain NewIter, or a
// range query under one of the query builder's plans.
func randomPlan(rng *rand.Rand) string {
	return []string{"newiter", "newiter", "auto", "plain", "stepped", "prefix"}[rng.IntN(6)]
}

func (c Config) options(fs vfs.FS) *pebble.Options {
	opts := &pebble.Options{
		FS:                          fs,
		MemTableSize:                c.MemTableSize,
		DisableAutomaticCompactions: !c.AutoCompactions,
		L0StopWritesThreshold:       1000,
		Merger:                      concatMerger,
		Logger:                      quietLogger{},
	}
	opts.Levels[0].BlockSize = c.BlockSize
	if c.UpstreamFilterBits > 0 {
		opts.Levels[0].FilterPolicy = bloom.FilterPolicy(c.UpstreamFilterBits)
	}
	keySpace{kind: c.Keys}.apply(opts)
	return opts
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

// Mismatch is the first result on which the engines disagreed.
type Mismatch struct {
	Config   Config
	Ops      []op
	Index    int
	Upstream string
	Pebblerf string
}

func (m *Mismatch) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pebblerf differs from upstream Pebble at op %d of %d\nconfig: %s\n",
		m.Index+1, len(m.Ops), m.Config)
	fmt.Fprintf(&b, "op:       %s\nupstream: %s\npebblerf: %s\nops (replay with Replay):\n%s",
		m.Ops[m.Index], m.Upstream, m.Pebblerf, formatOps(m.Ops[:m.Index+1]))
	return b.String()
}

// Generate returns the ops a config runs.
func Generate(c Config, n int) []op {
	space := keySpace{kind: c.Keys, universe: c.Universe}
	cmp := pebble.DefaultComparer.Compare
	if opts := c.options(vfs.NewMem()); opts.Comparer != nil {
		cmp = opts.Comparer.Compare
	}
	return newGenerator(c.Seed, space, cmp).generate(n)
}

// Compare runs ops on both engines and returns the first mismatch, or nil.
func Compare(c Config, ops []op) (*Mismatch, error) {
	up, err := newUpstreamRunner(c)
	if err != nil {
		return nil, errors.Wrap(err, "opening upstream")
	}
	defer up.close()
	rfFS := vfs.NewMem()
	rfOpts := c.options(rfFS)
	rf, err := newRunner(rfFS, rfOpts, func() (engine, error) {
		return openPebblerf(rfOpts, c)
	})
	if err != nil {
		return nil, errors.Wrap(err, "opening pebblerf")
	}
	rf.loseSetsEvery = c.loseSetsEvery
	defer rf.close()
	for i, o := range ops {
		a, b := up.safeExec(o), rf.safeExec(o)
		if a != b {
			return &Mismatch{Config: c, Ops: ops, Index: i, Upstream: a, Pebblerf: b}, nil
		}
	}
	return nil, nil
}

// openPebblerf opens pebblerf's side of a comparison.
func openPebblerf(opts *pebble.Options, c Config) (engine, error) {
	plugins := c.Plugins
	if plugins.Shape != nil {
		// A profile is stateful (its driver); each DB needs its own.
		plugins.Shape = &compactionext.ManyRuns{Runs: plugins.Shape.(*compactionext.ManyRuns).Runs,
			MinInterval: time.Millisecond}
	}
	db, err := pebblerf.OpenWithPlugins("db", opts, plugins)
	if err != nil {
		return nil, err
	}
	e := genericEngine[*pebblerf.Iterator, *pebblerf.Batch, *pebblerf.Snapshot, *pebblerf.DB]{d: db}
	if c.Plan == "" || c.Plan == "newiter" {
		return e, nil
	}
	plan := map[string]querybuilder.Plan{"auto": querybuilder.PlanAuto, "plain": querybuilder.PlanPlain,
		"stepped": querybuilder.PlanStepped, "prefix": querybuilder.PlanPrefix}[c.Plan]
	return rangeQueryEngine{e, db, plan}, nil
}

// rangeQueryEngine reads the DB through range queries instead of NewIter.
type rangeQueryEngine struct {
	genericEngine[*pebblerf.Iterator, *pebblerf.Batch, *pebblerf.Snapshot, *pebblerf.DB]
	rf   *pebblerf.DB
	plan querybuilder.Plan
}

func (e rangeQueryEngine) newIter(r anyReader, o *pebble.IterOptions) (iterator, error) {
	if r != nil {
		return e.genericEngine.newIter(r, o)
	}
	it, err := e.rf.NewRangeQuery(o, &pebblerf.RangeQueryOptions{Plan: e.plan})
	if err != nil {
		return nil, err
	}
	return it, nil
}

func newUpstreamRunner(c Config) (*runner, error) {
	fs := vfs.NewMem()
	opts := c.options(fs)
	return newRunner(fs, opts, func() (engine, error) {
		db, err := pebble.Open("db", opts)
		if err != nil {
			return nil, err
		}
		return genericEngine[*pebble.Iterator, *pebble.Batch, *pebble.Snapshot, *pebble.DB]{d: db}, nil
	})
}

// Shrink returns a shorter op sequence that still mismatches. It first
// drops whole lifetimes (every op of one iterator or snapshot, or a batch
// from batch.new to its commit or close), which removing single ops cannot
// do without orphaning references, then chunks of ops, halving the chunk
// size. Each candidate must stay valid and still fail. Greedy and
// deterministic: good enough to make a failure readable.
func Shrink(m *Mismatch) *Mismatch {
	best := m
	best.Ops = best.Ops[:best.Index+1]
	try := func(candidate []op) bool {
		if !valid(candidate) {
			return false
		}
		mm, err := Compare(best.Config, candidate)
		if err != nil || mm == nil {
			return false
		}
		mm.Ops = mm.Ops[:mm.Index+1]
		best = mm
		return true
	}
	for progress := true; progress; {
		progress = false
		for _, group := range lifetimes(best.Ops) {
			if try(without(best.Ops, group)) {
				progress = true
				break
			}
		}
	}
	for chunk := len(best.Ops) / 2; chunk >= 1; chunk /= 2 {
		for start := 0; start+chunk <= len(best.Ops); {
			candidate := append(append([]op(nil), best.Ops[:start]...), best.Ops[start+chunk:]...)
			if !try(candidate) {
				start += chunk
			}
		}
	}
	return best
}

// lifetimes groups op indexes that must be removed together.
func lifetimes(ops []op) [][]int {
	byID := map[string][]int{}
	var ids []string
	var groups [][]int
	batchStart := -1
	for i, o := range ops {
		switch {
		case o.name == "batch.new":
			batchStart = i
		case (o.name == "batch.commit" || o.name == "batch.close") && batchStart >= 0:
			var g []int
			for j := batchStart; j <= i; j++ {
				if strings.HasPrefix(ops[j].name, "batch.") || ops[j].name == "iter.new" && ops[j].args[3] == "batch" {
					g = append(g, j)
				}
			}
			groups = append(groups, g)
			batchStart = -1
		case strings.HasPrefix(o.name, "iter.") || strings.HasPrefix(o.name, "snap."):
			id := o.args[0]
			if _, ok := byID[id]; !ok {
				ids = append(ids, id)
			}
			byID[id] = append(byID[id], i)
			if o.name == "iter.new" && o.args[3] != "db" {
				byID[o.args[3]] = append(byID[o.args[3]], i)
			}
		}
	}
	for _, id := range ids {
		groups = append(groups, byID[id])
	}
	return groups
}

// without returns ops less the given indexes, and less any op that then
// refers to an iterator whose creation was removed.
func without(ops []op, drop []int) []op {
	dropped := map[int]bool{}
	for _, i := range drop {
		dropped[i] = true
	}
	gone := map[string]bool{}
	var out []op
	for i, o := range ops {
		if dropped[i] && o.name == "iter.new" {
			gone[o.args[0]] = true
		}
		if dropped[i] || strings.HasPrefix(o.name, "iter.") && gone[o.args[0]] {
			continue
		}
		out = append(out, o)
	}
	return out
}

// Replay parses ops in the text form a Mismatch prints and compares them
// under c.
func Replay(c Config, text string) (*Mismatch, error) {
	ops, err := parseOps(text)
	if err != nil {
		return nil, err
	}
	if !valid(ops) {
		return nil, errors.New("metamorphic: replayed ops break the generator's rules")
	}
	return Compare(c, ops)
}
