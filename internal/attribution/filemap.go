// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// fileInfo is what the statistics know of one table. It is immutable except
// for hasFilter; a table that moves to another level gets a new fileInfo.
type fileInfo struct {
	num   uint64
	level int // 0..6
	// rowOf is rowForLevel(level), kept so that hot paths need no branch.
	rowOf int
	// filterKnown is hasFilter's value when this fileInfo was published,
	// read without the extra pointer hop of hasFilter on every filter check
	// and block load; once it is set, hasFilter is true for good.
	filterKnown       bool
	smallest, largest []byte
	// largestSeqNum orders overlapping tables of one level by age.
	largestSeqNum uint64
	// obsolete is set once a compaction consumed the table; iterators that
	// still read it keep it attributed to its last level until Pebble deletes
	// the file.
	obsolete bool
	// hasFilter is set when the tagged policy writes the table's filter, or
	// (for tables written before the DB was opened) the first time it sees
	// a filter check for the table. In a prefix seek Pebble checks a table's filter before it
	// loads any of its blocks, so by the time a data-block load is counted the
	// flag is right.
	hasFilter *atomic.Bool
	// waste is the table's wasted-seek counts (waste.go); shared, like
	// hasFilter, by the fileInfos a table has at its successive levels.
	waste *tableWaste
}

func (f *fileInfo) row() int { return f.rowOf }

// filtered reports whether the table is known to have a filter.
func (f *fileInfo) filtered() bool { return f.filterKnown || f.hasFilter.Load() }

// contains reports whether key lies within the table's bounds.
func (f *fileInfo) contains(cmp pebble.Compare, key []byte) bool {
	return cmp(f.smallest, key) <= 0 && cmp(key, f.largest) <= 0
}

// fileSet is an immutable view of the file-to-level map; readers load it with
// one atomic load and never lock.
type fileSet struct {
	byNum map[uint64]*fileInfo
	// dense indexes the same tables by number-base when their numbers are
	// dense enough (they usually are: Pebble numbers files in order): a
	// slice index on every filter check and block load costs less than a
	// map's hash and probe.
	dense []*fileInfo
	base  uint64
	// levels holds each level's live tables sorted by smallest key.
	levels [7][]*fileInfo
}

// covering returns the live tables of level whose bounds contain key.
func (s *fileSet) covering(cmp pebble.Compare, level int, key []byte, dst []*fileInfo) []*fileInfo {
	files := s.levels[level]
	if level == 0 {
		for _, f := range files {
			if f.contains(cmp, key) {
				dst = append(dst, f)
			}
		}
		return dst
	}
	// Levels below L0 hold disjoint tables: the only candidate is the last
	// one that starts at or before key.
	i := sort.Search(len(files), func(i int) bool { return cmp(files[i].smallest, key) > 0 })
	if i > 0 && files[i-1].contains(cmp, key) {
		dst = append(dst, files[i-1])
	}
	return dst
}

// fileMap maps a table's file number to its level. Pebble's events keep it
// current: flushes add tables to L0, compactions (moves included) put their
// outputs at the output level and retire their inputs, ingests place tables
// where Pebble put them, and deletions drop them. DB.SSTables seeds it once
// the DB is open. Writers are serialised by mu; readers only load current.
type fileMap struct {
	cmp     pebble.Compare
	current atomic.Pointer[fileSet]

	mu struct {
		sync.Mutex
		files map[uint64]*fileInfo
		// seeding is set between the start and the end of Seed; gone records
		// the tables retired meanwhile, so that the seed's older view does
		// not bring them back.
		seeding bool
		gone    map[uint64]struct{}
		// filtered holds the tables written with a tagged filter that are
		// not placed yet: the filter is written before the table is placed.
		filtered map[uint64]struct{}
	}
}

// wroteFilter records that table num was written with a filter.
func (m *fileMap) wroteFilter(num uint64) {
	if num == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.mu.files[num]; ok {
		f.hasFilter.Store(true)
		return
	}
	m.mu.filtered[num] = struct{}{}
}

func newFileMap(cmp pebble.Compare) *fileMap {
	m := &fileMap{cmp: cmp}
	m.mu.files = make(map[uint64]*fileInfo)
	m.mu.filtered = make(map[uint64]struct{})
	m.current.Store(&fileSet{byNum: map[uint64]*fileInfo{}})
	return m
}

// lookup returns the table's info, or nil if the table is unknown.
func (m *fileMap) lookup(num uint64) *fileInfo {
	s := m.current.Load()
	if s.dense != nil {
		if i := num - s.base; i < uint64(len(s.dense)) {
			return s.dense[i]
		}
		return nil
	}
	return s.byNum[num]
}

// publish rebuilds the immutable view. Called with mu held.
func (m *fileMap) publish() {
	s := &fileSet{byNum: make(map[uint64]*fileInfo, len(m.mu.files))}
	for num, f := range m.mu.files {
		if !f.filterKnown && f.hasFilter.Load() {
			// Readers that still hold the old fileInfo see the same table
			// through hasFilter.
			c := *f
			c.filterKnown = true
			f = &c
			m.mu.files[num] = f
		}
		s.byNum[num] = f
		if !f.obsolete {
			s.levels[f.level] = append(s.levels[f.level], f)
		}
	}
	if n := len(s.byNum); n > 0 {
		lo, hi := ^uint64(0), uint64(0)
		for num := range s.byNum {
			lo, hi = min(lo, num), max(hi, num)
		}
		if span := hi - lo + 1; span <= uint64(4*n+1024) {
			s.base, s.dense = lo, make([]*fileInfo, span)
			for num, f := range s.byNum {
				s.dense[num-lo] = f
			}
		}
	}
	for l := range s.levels {
		files := s.levels[l]
		sort.Slice(files, func(i, j int) bool { return m.cmp(files[i].smallest, files[j].smallest) < 0 })
	}
	m.current.Store(s)
}

// place records that table t is live at level. Called with mu held. A level
// outside 0..6 is ignored: Pebble reports -1 for a table ingested as a
// flushable, and places it with the flush that follows.
func (m *fileMap) place(t pebble.TableInfo, level int) {
	if level < 0 || level > 6 {
		return
	}
	num := uint64(t.FileNum)
	f := &fileInfo{num: num, level: level, rowOf: rowForLevel(level), hasFilter: new(atomic.Bool),
		waste: new(tableWaste)}
	if old, ok := m.mu.files[num]; ok {
		// A move: same bytes, new level.
		f.smallest, f.largest, f.hasFilter, f.waste = old.smallest, old.largest, old.hasFilter, old.waste
		f.largestSeqNum = old.largestSeqNum
		f.filterKnown = old.hasFilter.Load()
	} else {
		f.smallest = append([]byte(nil), t.Smallest.UserKey...)
		f.largest = append([]byte(nil), t.Largest.UserKey...)
		f.largestSeqNum = uint64(t.LargestSeqNum)
		if _, ok := m.mu.filtered[num]; ok {
			f.hasFilter.Store(true)
			f.filterKnown = true
			delete(m.mu.filtered, num)
		}
	}
	m.mu.files[num] = f
}

// retire marks table num as consumed. Called with mu held.
func (m *fileMap) retire(num uint64) {
	if old, ok := m.mu.files[num]; ok && !old.obsolete {
		f := *old
		f.obsolete = true
		m.mu.files[num] = &f
	}
	if m.mu.seeding {
		m.mu.gone[num] = struct{}{}
	}
}

func (m *fileMap) onFlushEnd(info pebble.FlushInfo) {
	if info.Err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, t := range info.Output {
		level := 0
		if info.Ingest && i < len(info.IngestLevels) {
			level = info.IngestLevels[i]
		}
		m.place(t, level)
	}
	m.publish()
}

func (m *fileMap) onCompactionEnd(info pebble.CompactionInfo) {
	if info.Err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	outputs := make(map[uint64]struct{}, len(info.Output.Tables))
	for _, t := range info.Output.Tables {
		outputs[uint64(t.FileNum)] = struct{}{}
	}
	for _, in := range info.Input {
		for _, t := range in.Tables {
			if _, moved := outputs[uint64(t.FileNum)]; !moved {
				m.retire(uint64(t.FileNum))
			}
		}
	}
	for _, t := range info.Output.Tables {
		m.place(t, info.Output.Level)
	}
	m.publish()
}

func (m *fileMap) onTableIngested(info pebble.TableIngestInfo) {
	if info.Err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range info.Tables {
		m.place(t.TableInfo, t.Level)
	}
	m.publish()
}

func (m *fileMap) onTableDeleted(info pebble.TableDeleteInfo) {
	if info.Err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.mu.files, uint64(info.FileNum))
	delete(m.mu.filtered, uint64(info.FileNum))
	if m.mu.seeding {
		m.mu.gone[uint64(info.FileNum)] = struct{}{}
	}
	m.publish()
}

// beginSeed starts recording retirements; see seed.
func (m *fileMap) beginSeed() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mu.seeding = true
	m.mu.gone = make(map[uint64]struct{})
}

// seed adds the tables of a DB.SSTables listing taken after beginSeed. A
// table an event has already placed keeps the event's (newer) level, and a
// table retired since beginSeed is not brought back. Virtual tables are left
// out: their tags name the backing file, which several of them may share, so
// they are counted as unattributed.
func (m *fileMap) seed(levels [][]pebble.SSTableInfo) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for level, tables := range levels {
		for _, t := range tables {
			num := uint64(t.FileNum)
			if t.Virtual || level > 6 {
				continue
			}
			if _, known := m.mu.files[num]; known {
				continue
			}
			if _, gone := m.mu.gone[num]; gone {
				continue
			}
			m.place(t.TableInfo, level)
		}
	}
	m.mu.seeding = false
	m.mu.gone = nil
	m.publish()
}

// The rows, as the counters number them: 0 the memtables, 1 to 7 L0 to
// L6, 8 the tables whose level is unknown (seekstats.Row names them).
const (
	RowMemtables    = 0
	RowL0           = 1
	RowUnattributed = Rows - 1
)

// rowForLevel is the row of LSM level l (0 to 6), or RowUnattributed.
func rowForLevel(l int) int {
	if l < 0 || l > 6 {
		return RowUnattributed
	}
	return RowL0 + l
}
