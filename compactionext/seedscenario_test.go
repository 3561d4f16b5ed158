// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/tablewaste"
	"github.com/stretchr/testify/require"
)

// The scenario of Speedb's range query builder (Speedb issue #13, PR #26)
// at this machine's scale: fillseq, then random seeks over 10x the filled key range while one
// writer writes random keys over the same 10x range, under the many-runs
// shape, with the advisor off and on. It is a measurement, not a test: it
// runs only with PEBBLERF_SEED_SCENARIO=1 and prints a table.
//
// The scenario runs on upstream Pebble without pebblerf's statistics (the
// package sits beside seekstats, not above it), so the advisor is fed by
// modelWaste: one seek in sampleEvery is charged to every table whose
// key range holds the seek target, since without a filter each such run loads
// a block and at most one of them yields the value. pebblebench's
// -compaction_advisor runs it on seekstats' real counts.
func TestSeedScenario(t *testing.T) {
	if os.Getenv("PEBBLERF_SEED_SCENARIO") == "" {
		t.Skip("measurement; set PEBBLERF_SEED_SCENARIO=1")
	}
	fill := envInt("SEED_FILL", 200_000)
	dur := time.Duration(envInt("SEED_SECONDS", 20)) * time.Second
	writeRate := envInt("SEED_WRITES_PER_SEC", 20_000)
	// Rounds alternate off, on, off, on...: the machine is shared, and
	// paired ratios of neighbours are what can be compared.
	rounds := envInt("SEED_ROUNDS", 1)
	var rows []seedResult
	for i := 0; i < rounds; i++ {
		for _, advisor := range []bool{false, true} {
			rows = append(rows, runSeedScenario(t, fill, dur, writeRate, advisor))
		}
	}
	fmt.Printf("\nseed scenario: fill %d keys, %s, writer %d/s, ManyRuns{Runs: 12}\n", fill, dur, writeRate)
	fmt.Printf("%-8s %10s %10s %8s %8s %9s %7s %10s  %s\n", "advisor", "seeks/s", "found", "w-amp",
		"merges", "advised", "stalls", "longest", "read-amp every 2s")
	for _, r := range rows {
		fmt.Printf("%-8v %10.0f %9.1f%% %8.2f %8d %9d %7d %10s  %v\n", r.advisor, r.seeksPerSec, 100*r.found,
			r.writeAmp, r.driverMerges, r.advised, r.stalls, r.longestStall.Round(time.Millisecond), r.readAmp)
	}
	for i := 0; i+1 < len(rows); i += 2 {
		off, on := rows[i], rows[i+1]
		if off.seeksPerSec > 0 && off.writeAmp > 0 {
			fmt.Printf("round %d, advisor on/off: seeks/s %.2fx, write-amp %.2fx\n",
				i/2+1, on.seeksPerSec/off.seeksPerSec, on.writeAmp/off.writeAmp)
		}
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

type seedResult struct {
	advisor      bool
	seeksPerSec  float64
	found        float64
	writeAmp     float64
	driverMerges int
	advised      int
	readAmp      []int
	stalls       int
	longestStall time.Duration
}

const sampleEvery = 8

// modelWaste is the stand-in source of waste counts described above.
// It keeps its counts in a fakeWaste, whose mutex also guards lsm.
type modelWaste struct {
	fakeWaste
	lsm runIndex
}

func (m *modelWaste) refresh(db *pebble.DB) {
	levels, err := db.SSTables()
	if err != nil {
		return
	}
	ix := newRunIndex(levels, pebble.DefaultComparer.Compare)
	m.mu.Lock()
	m.lsm = ix
	m.mu.Unlock()
}

func (m *modelWaste) seek(target []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, run := range m.lsm.runs {
		// Tables of a run are disjoint; a binary search finds the one
		// that may hold the target.
		tables := run.Tables
		i := sort.Search(len(tables), func(i int) bool {
			return m.lsm.compare(tables[i].Largest, target) >= 0
		})
		if i < len(tables) && m.lsm.compare(tables[i].Smallest, target) <= 0 {
			w := m.counts[tables[i].Num]
			w.Table = tables[i].Num
			w.EmptyLoads++
			m.counts[tables[i].Num] = w
		}
	}
}

func runSeedScenario(t *testing.T, fill int, dur time.Duration, writeRate int, withAdvisor bool) seedResult {
	opts := &pebble.Options{
		MemTableSize: 4 << 20,
		Logger:       quietLogger{},
		Cache:        pebble.NewCache(32 << 20),
	}
	defer opts.Cache.Unref()
	profile := &ManyRuns{Runs: 12}
	var merges atomic.Int64
	waste := &modelWaste{fakeWaste: fakeWaste{counts: make(map[pebble.TableNum]tablewaste.Counts)}}
	require.NoError(t, profile.Apply(opts))
	var advised atomic.Int64
	var adv *Advisor
	if withAdvisor {
		var err error
		adv, err = newAdvisor(opts, AdvisorConfig{MinInterval: time.Second, MinRuns: 4,
			MinWaste: 2000, ShapeMergeDepth: mergeDepthOf(profile),
			OnDecision: func(Decision) { advised.Add(1) }}, waste)
		require.NoError(t, err)
	}
	opts.EventListener.CompactionEnd = teeCompactionEnd(opts.EventListener.CompactionEnd, &merges)
	stalls := &stallTimer{}
	stalls.attach(opts.EventListener)
	db, err := pebble.Open(t.TempDir(), opts)
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()

	val := make([]byte, 200)
	for i := range val {
		val[i] = byte('a' + i%26)
	}
	b := db.NewBatch()
	for i := 0; i < fill; i++ {
		require.NoError(t, b.Set(keyOf(i), val, nil))
		if b.Len() > 1<<20 {
			require.NoError(t, b.Commit(pebble.NoSync))
			b = db.NewBatch()
		}
	}
	require.NoError(t, b.Commit(pebble.NoSync))
	require.NoError(t, db.Flush())

	stopProfile, err := profile.Start(db)
	require.NoError(t, err)
	defer stopProfile()
	if adv != nil {
		adv.Start(db)
		defer adv.Close()
	}
	waste.refresh(db)
	before := db.Metrics()
	merges.Store(0)

	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the writer: random keys over 10x the fill, paced
		defer wg.Done()
		rng := rand.New(rand.NewPCG(1, 2))
		start := time.Now()
		for n := 0; ; n++ {
			select {
			case <-done:
				return
			default:
			}
			if n%100 == 0 {
				if ahead := time.Duration(n)*time.Second/time.Duration(writeRate) - time.Since(start); ahead > 0 {
					time.Sleep(ahead)
				}
			}
			if err := db.Set(keyOf(rng.IntN(10*fill)), val, pebble.NoSync); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var seeks, found atomic.Int64
	go func() { // the reader: SeekGE over 10x the fill, one iterator per seek
		defer wg.Done()
		rng := rand.New(rand.NewPCG(3, 4))
		for n := 0; ; n++ {
			select {
			case <-done:
				return
			default:
			}
			target := keyOf(rng.IntN(10 * fill))
			it, err := db.NewIter(nil)
			if err != nil {
				t.Error(err)
				return
			}
			// found counts exact hits, as db_bench's seekrandom does.
			if it.SeekGE(target) && bytes.Equal(it.Key(), target) {
				_ = it.Value()
				found.Add(1)
			}
			_ = it.Close()
			seeks.Add(1)
			if n%sampleEvery == 0 {
				waste.seek(target)
			}
			if n%4096 == 0 {
				waste.refresh(db)
			}
		}
	}()
	res := seedResult{advisor: withAdvisor}
	start := time.Now()
	for time.Since(start) < dur {
		time.Sleep(2 * time.Second)
		res.readAmp = append(res.readAmp, db.Metrics().ReadAmp())
	}
	close(done)
	wg.Wait()
	elapsed := time.Since(start)
	after := db.Metrics()

	res.seeksPerSec = float64(seeks.Load()) / elapsed.Seconds()
	res.found = float64(found.Load()) / float64(seeks.Load())
	written := func(m *pebble.Metrics) float64 {
		tot := m.Total()
		return float64(tot.TableBytesFlushed + tot.TableBytesCompacted)
	}
	if walIn := float64(after.WAL.BytesWritten - before.WAL.BytesWritten); walIn > 0 {
		res.writeAmp = (written(after) - written(before)) / walIn
	}
	res.advised = int(advised.Load())
	res.stalls, res.longestStall = stalls.result()
	res.driverMerges = int(merges.Load()) - res.advised
	return res
}

func teeCompactionEnd(prev func(pebble.CompactionInfo), n *atomic.Int64) func(pebble.CompactionInfo) {
	return func(info pebble.CompactionInfo) {
		if prev != nil {
			prev(info)
		}
		n.Add(1)
	}
}

// stallTimer measures write stalls.
type stallTimer struct {
	mu      sync.Mutex
	began   time.Time
	n       int
	longest time.Duration
}

func (s *stallTimer) attach(l *pebble.EventListener) {
	prevBegin, prevEnd := l.WriteStallBegin, l.WriteStallEnd
	l.WriteStallBegin = func(info pebble.WriteStallBeginInfo) {
		if prevBegin != nil {
			prevBegin(info)
		}
		s.mu.Lock()
		s.began = time.Now()
		s.n++
		s.mu.Unlock()
	}
	l.WriteStallEnd = func() {
		if prevEnd != nil {
			prevEnd()
		}
		s.mu.Lock()
		s.longest = max(s.longest, time.Since(s.began))
		s.mu.Unlock()
	}
}

func (s *stallTimer) result() (int, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n, s.longest
}
