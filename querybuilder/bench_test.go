package querybuilder

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/compactionext"
	"github.com/pebblerf/pebble/internal/cputime"
	"github.com/stretchr/testify/require"
)

// The benchmarks below compare planned queries (B) with plain upstream
// iterators (A) on the same targets, alternating A B / B A per round, and
// report median paired ratios, as docs/benchmarks.md ("How the figures
// are taken") prescribes. Run them once:
//
//	go test ./querybuilder -run '^$' -bench Plans -benchtime 1x -v
//
// -qb.scale shrinks or grows the data (1 = the calibration's Q1 size,
// docs/benchmarks.md).
var benchScale = flag.Float64("qb.scale", 1, "data size factor for the querybuilder benchmarks")

const benchCache = 8 << 20 // smaller than the data, as in the calibration's Q1

func benchKey(i int) []byte { return fmt.Appendf(nil, "%016d", i) }

// benchValue is 100 bytes, half random, so blocks compress about 2:1 as
// db_bench's default compression ratio makes them.
func benchValue(rng *rand.Rand, buf []byte) []byte {
	buf = buf[:100]
	for i := range buf {
		buf[i] = 0
		if i < 50 {
			buf[i] = byte(rng.Uint32())
		}
	}
	return buf
}

// buildLowOverlap writes the calibration's Q1 shape (docs/benchmarks.md) into
// dir with the many-sorted-runs profile's options: chunks of sequential keys,
// each preceded by overwrites of every second key of the last quarter of the
// chunk before, so each chunk's table overlaps its predecessor and becomes
// its own L0 sublevel. Chunks are ingested as one table each, so early chunks
// are not cut into small files by a still-growing memtable (pitfall 2). It
// returns the number of distinct keys.
func buildLowOverlap(b testing.TB, dir string, chunks, chunkKeys int) int {
	opts := lowOverlapOptions(b, dir, nil)
	db, err := pebble.Open(dir, opts)
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(1, 1))
	var value [100]byte
	for c := 0; c < chunks; c++ {
		path := filepath.Join(dir, fmt.Sprintf("chunk%d.sst", c))
		f, err := opts.FS.Create(path, vfs.WriteCategoryUnspecified)
		require.NoError(b, err)
		w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), opts.MakeWriterOptions(0, db.TableFormat()))
		if c > 0 {
			for k := c*chunkKeys - chunkKeys/4; k < c*chunkKeys; k += 2 {
				require.NoError(b, w.Set(benchKey(k), benchValue(rng, value[:])))
			}
		}
		for k := c * chunkKeys; k < (c+1)*chunkKeys; k++ {
			require.NoError(b, w.Set(benchKey(k), benchValue(rng, value[:])))
		}
		require.NoError(b, w.Close())
		require.NoError(b, db.Ingest(context.Background(), []string{path}))
	}
	require.NoError(b, db.Close())
	return chunks * chunkKeys
}

func lowOverlapOptions(b testing.TB, dir string, cache *pebble.Cache) *pebble.Options {
	opts := &pebble.Options{FS: vfs.Default, Cache: cache, Logger: quietLogger{}}
	require.NoError(b, (&compactionext.ManyRuns{Runs: 64}).Apply(opts))
	opts.EnsureDefaults()
	return opts
}

// buildLeveled fills dir in random order with Pebble's default leveled
// compactions and waits for them to settle: few runs, each spanning the key
// space, so a seek defers nothing and the auto plan should stay plain.
func buildLeveled(b testing.TB, dir string, keys int) int {
	// A small Lbase target spreads the data over L4-L6, the usual leveled
	// shape; with the default 64 MiB it would all sit in one level.
	db, err := pebble.Open(dir, &pebble.Options{FS: vfs.Default, Logger: quietLogger{}, LBaseMaxBytes: 2 << 20})
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(2, 2))
	fillKeys(b, db, rng, rng.Perm(keys))
	// Not a timing assertion: wait for background compactions to finish so
	// that both sides measure the same shape.
	for db.Metrics().Compact.NumInProgress > 0 {
		time.Sleep(50 * time.Millisecond)
	}
	require.NoError(b, db.Close())
	return keys
}

// fillKeys writes the keys in order in batches of 1000 and flushes.
func fillKeys(b testing.TB, db *pebble.DB, rng *rand.Rand, order []int) {
	var value [100]byte
	batch := db.NewBatch()
	for _, k := range order {
		require.NoError(b, batch.Set(benchKey(k), benchValue(rng, value[:]), nil))
		if batch.Count() == 1000 {
			require.NoError(b, batch.Commit(pebble.NoSync))
			batch = db.NewBatch()
		}
	}
	require.NoError(b, batch.Commit(pebble.NoSync))
	require.NoError(b, db.Flush())
}

// sample is one timed run of a workload on one side.
type sample struct {
	opsPerSec float64
	// opsPerCPUSec counts the same operations per second of the thread's
	// CPU time (see package cputime).
	opsPerCPUSec float64
	blockBytes   uint64
}

// timer measures one sample's wall and thread CPU time; the goroutine stays
// on its OS thread until stop.
type timer struct {
	wall time.Time
	cpu  time.Duration
}

func startTimer() timer {
	runtime.LockOSThread()
	return timer{wall: time.Now(), cpu: cputime.Thread()}
}

func (t timer) stop(ops int, blockBytes uint64) sample {
	cpu, wall := cputime.Thread()-t.cpu, time.Since(t.wall)
	runtime.UnlockOSThread()
	s := sample{opsPerSec: float64(ops) / wall.Seconds(), blockBytes: blockBytes}
	if cpu > 0 {
		s.opsPerCPUSec = float64(ops) / cpu.Seconds()
	}
	return s
}

// abRow is one line of a result table.
type abRow struct {
	scenario, workload, plan string
	a, b                     []sample
}

// alternate runs a and b rounds times each, A B in even rounds and B A in
// odd ones, so drift (page cache, GC, other engineers' jobs) hits both.
func alternate(rounds int, a, b func() sample) (as, bs []sample) {
	for r := 0; r < rounds; r++ {
		if r%2 == 0 {
			as, bs = append(as, a()), append(bs, b())
		} else {
			bs, as = append(bs, b()), append(as, a())
		}
	}
	return as, bs
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// summary is an abRow's figures: total block bytes B/A, median ops/s of
// each side, and the median, min and max of the paired ratios.
type summary struct {
	bytesRatio                string
	aOps, bOps                float64
	ratio, minRatio, maxRatio float64
	// cpuRatio is the median paired ratio of ops per CPU second.
	cpuRatio float64
}

func (r abRow) summary() summary {
	var ratios, cpuRatios, aOps, bOps []float64
	var aBytes, bBytes uint64
	for i := range r.a {
		ratios = append(ratios, r.b[i].opsPerSec/r.a[i].opsPerSec)
		if r.a[i].opsPerCPUSec > 0 {
			cpuRatios = append(cpuRatios, r.b[i].opsPerCPUSec/r.a[i].opsPerCPUSec)
		}
		aOps, bOps = append(aOps, r.a[i].opsPerSec), append(bOps, r.b[i].opsPerSec)
		aBytes += r.a[i].blockBytes
		bBytes += r.b[i].blockBytes
	}
	sm := summary{bytesRatio: "-", aOps: median(aOps), bOps: median(bOps),
		ratio: median(ratios), minRatio: slices.Min(ratios), maxRatio: slices.Max(ratios)}
	if len(cpuRatios) > 0 {
		sm.cpuRatio = median(cpuRatios)
	}
	if aBytes > 0 {
		sm.bytesRatio = fmt.Sprintf("%.3f", float64(bBytes)/float64(aBytes))
	}
	return sm
}

func (sm summary) ratios() string {
	cpu := "-" // not measured: the seeks ran on several goroutines
	if sm.cpuRatio > 0 {
		cpu = fmt.Sprintf("%.2f", sm.cpuRatio)
	}
	return fmt.Sprintf("%.2f (%.2f-%.2f) | %s", sm.ratio, sm.minRatio, sm.maxRatio, cpu)
}

func (r abRow) format() string {
	sm := r.summary()
	return fmt.Sprintf("| %s | %s | %s | %s | %.0f | %.0f | %s |",
		r.scenario, r.workload, r.plan, sm.bytesRatio, sm.aOps, sm.bOps, sm.ratios())
}

const tableHeader = "| scenario | workload | plan (B) | block bytes B/A | ops/s A (plain) | ops/s B (query) | ops/s B/A median (min-max) | ops/CPU-s B/A median |\n|---|---|---|---|---|---|---|---|"

// seekSample times n seeks of s over targets.
func seekSample(b testing.TB, s *Seeker, targets [][]byte, nexts int) sample {
	t := startTimer()
	for _, target := range targets {
		_, err := s.Seek(target, nexts)
		require.NoError(b, err)
	}
	require.NoError(b, s.Close())
	return t.stop(len(targets), s.BlockBytes)
}

func randomTargets(rng *rand.Rand, n, keySpace int) [][]byte {
	t := make([][]byte, n)
	for i := range t {
		t[i] = benchKey(rng.IntN(keySpace))
	}
	return t
}

// benchIter is what the scan and reverse workloads need of either side.
type benchIter interface {
	First() bool
	SeekLT([]byte) bool
	Next() bool
	Prev() bool
	Value() []byte
	Stats() pebble.IteratorStats
	Close() error
}

// iterSample times fn over a fresh iterator per round.
func iterSample(b testing.TB, newIter func() (benchIter, error), ops int, fn func(benchIter)) sample {
	t := startTimer()
	it, err := newIter()
	require.NoError(b, err)
	fn(it)
	bytes := it.Stats().InternalStats.BlockBytes
	require.NoError(b, it.Close())
	return t.stop(ops, bytes)
}

func planOf(b testing.TB, qb *Builder, o *pebble.IterOptions) string {
	q, err := qb.NewIter(o)
	require.NoError(b, err)
	defer func() { require.NoError(b, q.Close()) }()
	p, why := q.Plan()
	return fmt.Sprintf("%s (%s)", p, why.StripMarkers())
}

func openBench(b testing.TB, dir string, opts *pebble.Options) (*pebble.DB, func()) {
	cache := pebble.NewCache(benchCache)
	opts.Cache = cache
	db, err := pebble.Open(dir, opts)
	require.NoError(b, err)
	return db, func() {
		require.NoError(b, db.Close())
		cache.Unref()
	}
}

// seekRows measures seekrandom with 1 and 10 Next, reused and new
// iterators, plain against qb.
func seekRows(b testing.TB, scenario string, db *pebble.DB, qb *Builder, keySpace, seeks, rounds int) []abRow {
	rng := rand.New(rand.NewPCG(9, 9))
	targets := randomTargets(rng, seeks, keySpace)
	var rows []abRow
	for _, nexts := range []int{1, 10} {
		for _, reuse := range []bool{true, false} {
			iter := "new iterator per seek"
			n := seeks / 3
			if reuse {
				iter, n = "reused iterator", seeks
			}
			as, bs := alternate(rounds,
				func() sample { return seekSample(b, NewPlainSeeker(db, nil, reuse), targets[:n], nexts) },
				func() sample { return seekSample(b, NewQuerySeeker(qb, nil, reuse), targets[:n], nexts) })
			rows = append(rows, abRow{scenario: scenario, workload: fmt.Sprintf("seekrandom, %d Next, %s", nexts, iter),
				plan: planOf(b, qb, nil), a: as, b: bs})
		}
	}
	return rows
}

// scanRows measures full scans and SeekLT with 10 Prev (reverse is never
// stepped).
func scanRows(b testing.TB, scenario string, db *pebble.DB, qb *Builder, keySpace, rounds int) []abRow {
	plain := func() (benchIter, error) { return db.NewIter(nil) }
	query := func() (benchIter, error) { return qb.NewIter(nil) }
	scan := func(it benchIter) {
		for valid := it.First(); valid; valid = it.Next() {
			_ = it.Value()
		}
	}
	as, bs := alternate(max(3, rounds/2),
		func() sample { return iterSample(b, plain, keySpace, scan) },
		func() sample { return iterSample(b, query, keySpace, scan) })
	rows := []abRow{{scenario: scenario, workload: "full scan (keys/s)", plan: planOf(b, qb, nil), a: as, b: bs}}

	rng := rand.New(rand.NewPCG(5, 5))
	targets := randomTargets(rng, 20000, keySpace)
	reverse := func(it benchIter) {
		for _, t := range targets {
			for n, valid := 0, it.SeekLT(t); valid && n < 10; n, valid = n+1, it.Prev() {
				_ = it.Value()
			}
		}
	}
	as, bs = alternate(rounds,
		func() sample { return iterSample(b, plain, len(targets), reverse) },
		func() sample { return iterSample(b, query, len(targets), reverse) })
	return append(rows, abRow{scenario: scenario, workload: "SeekLT, 10 Prev, reused iterator",
		plan: planOf(b, qb, nil), a: as, b: bs})
}

// BenchmarkPlans prints the tables of the report: the low-overlap shape of
// the calibration's Q1 (docs/benchmarks.md) and a leveled shape, seeks, scans
// and reverse seeks, planned (auto and forced stepped) against plain.
func BenchmarkPlans(b *testing.B) {
	chunks, chunkKeys := 40, int(20000**benchScale)
	// Many short alternating rounds: the machine is shared, and pairs close
	// in time see the same load.
	const rounds = 24
	seeks := int(4000 * *benchScale)
	var out []string

	low := b.TempDir()
	keySpace := buildLowOverlap(b, low, chunks, chunkKeys)
	db, closeDB := openBench(b, low, lowOverlapOptions(b, low, nil))
	m := db.Metrics()
	out = append(out, fmt.Sprintf("low-overlap: %d keys, %d L0 sublevels, read amp %d, %.1f MiB",
		keySpace, m.Levels[0].Sublevels, m.ReadAmp(), float64(m.DiskSpaceUsage())/(1<<20)))
	var rows []abRow
	rows = append(rows, seekRows(b, "low-overlap", db, New(db, Options{}), keySpace, seeks, rounds)...)
	rows = append(rows, scanRows(b, "low-overlap", db, New(db, Options{}), keySpace, rounds)...)
	closeDB()

	lev := b.TempDir()
	keySpace = buildLeveled(b, lev, chunks*chunkKeys)
	db, closeDB = openBench(b, lev, &pebble.Options{FS: vfs.Default, Logger: quietLogger{}, DisableAutomaticCompactions: true})
	m = db.Metrics()
	out = append(out, fmt.Sprintf("leveled: %d keys, read amp %d, %.1f MiB", keySpace, m.ReadAmp(),
		float64(m.DiskSpaceUsage())/(1<<20)))
	rows = append(rows, seekRows(b, "leveled", db, New(db, Options{}), keySpace, seeks, rounds)...)
	rows = append(rows, seekRows(b, "leveled (forced)", db, New(db, Options{Plan: PlanStepped}), keySpace, seeks, rounds)...)
	rows = append(rows, scanRows(b, "leveled", db, New(db, Options{}), keySpace, rounds)...)
	closeDB()

	out = append(out, tableHeader)
	for _, r := range rows {
		out = append(out, r.format())
	}
	// Printed, not logged: the benchmark log truncates long output.
	fmt.Println(strings.Join(out, "\n"))
}

// BenchmarkSeedScenario is the seed's test plan at this machine's scale:
// fillseq, then seekrandomwhilewriting with 2 reader threads and one random
// writer, seek targets (and writes) drawn from 10 times the filled range.
// Readers run plain (A) and planned (B) seeks in alternating slices while
// the writer keeps going, so both see the same changing LSM.
func BenchmarkSeedScenario(b *testing.B) {
	fill := int(300000 * *benchScale)
	const multiplier, threads, rounds = 10, 2, 8
	slice := int(20000 * *benchScale)
	dir := b.TempDir()
	db, closeDB := openBench(b, dir, &pebble.Options{FS: vfs.Default, Logger: quietLogger{}})
	defer closeDB()
	order := make([]int, fill)
	for k := range order {
		order[k] = k
	}
	fillKeys(b, db, rand.New(rand.NewPCG(3, 3)), order)

	stop := make(chan struct{})
	writerDone := make(chan error, 1)
	go func() {
		wrng := rand.New(rand.NewPCG(4, 4))
		var v [100]byte
		for {
			select {
			case <-stop:
				writerDone <- nil
				return
			default:
			}
			if err := db.Set(benchKey(wrng.IntN(fill*multiplier)), benchValue(wrng, v[:]), pebble.NoSync); err != nil {
				writerDone <- err
				return
			}
		}
	}()
	qb := New(db, Options{})
	var plans [4]int // by Plan, over the planned slices
	run := func(planned bool, seed uint64) sample {
		start := time.Now()
		results := make(chan *Seeker, threads)
		for t := 0; t < threads; t++ {
			go func(t uint64) {
				trng := rand.New(rand.NewPCG(seed, t))
				s := NewPlainSeeker(db, nil, true)
				if planned {
					s = NewQuerySeeker(qb, nil, true)
				}
				for n := 0; n < slice; n++ {
					if _, err := s.Seek(benchKey(trng.IntN(fill*multiplier)), 10); err != nil {
						panic(err)
					}
				}
				if err := s.Close(); err != nil {
					panic(err)
				}
				results <- s
			}(uint64(t))
		}
		var bytes uint64
		for t := 0; t < threads; t++ {
			bytes += (<-results).BlockBytes
		}
		if planned {
			q, err := qb.NewIter(nil)
			require.NoError(b, err)
			p, _ := q.Plan()
			plans[p]++
			require.NoError(b, q.Close())
		}
		return sample{opsPerSec: float64(threads*slice) / time.Since(start).Seconds(), blockBytes: bytes}
	}
	var seed uint64
	as, bs := alternate(rounds,
		func() sample { seed++; return run(false, seed) },
		func() sample { return run(true, seed) })
	close(stop)
	require.NoError(b, <-writerDone)
	e, err := qb.Explain(nil, benchKey(fill/2), 10)
	require.NoError(b, err)
	m := db.Metrics()
	row := abRow{scenario: "seed (fillseq + seekrandomwhilewriting)", workload: "seekrandom x10 range, 10 Next, 2 threads",
		plan: fmt.Sprintf("auto: plain %d, stepped %d of %d slices", plans[PlanPlain], plans[PlanStepped], rounds), a: as, b: bs}
	fmt.Printf("%d keys filled, read amp at end %d\n%s\n%s\nexplain of a sample query at the end:\n%s",
		fill, m.ReadAmp(), tableHeader, row.format(), e)
}

// BenchmarkThreshold measures forced stepping against plain on low-overlap
// shapes with few runs, to place the auto plan's threshold on
// layout.Deferrable.
func BenchmarkThreshold(b *testing.B) {
	const rounds = 16
	total := int(800000 * *benchScale)
	seeks := int(6000 * *benchScale)
	out := []string{"| runs | deferrable per seek | workload | block bytes B/A | ops/s B/A median (min-max) | ops/CPU-s B/A median |", "|---|---|---|---|---|---|"}
	for _, chunks := range []int{2, 3, 5, 9} {
		dir := b.TempDir()
		keySpace := buildLowOverlap(b, dir, chunks, total/chunks)
		db, closeDB := openBench(b, dir, lowOverlapOptions(b, dir, nil))
		qb := New(db, Options{Plan: PlanStepped})
		l, err := qb.layout()
		require.NoError(b, err)
		rng := rand.New(rand.NewPCG(7, 7))
		targets := randomTargets(rng, seeks, keySpace)
		for _, nexts := range []int{1, 10} {
			as, bs := alternate(rounds,
				func() sample { return seekSample(b, NewPlainSeeker(db, nil, true), targets, nexts) },
				func() sample { return seekSample(b, NewQuerySeeker(qb, nil, true), targets, nexts) })
			sm := abRow{a: as, b: bs}.summary()
			out = append(out, fmt.Sprintf("| %d | %.2f | seekrandom, %d Next, reused | %s | %s |",
				len(l.Runs), l.Deferrable, nexts, sm.bytesRatio, sm.ratios()))
		}
		closeDB()
	}
	fmt.Println(strings.Join(out, "\n"))
}
