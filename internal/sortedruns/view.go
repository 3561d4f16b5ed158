// Copyright 2026 The pebblerf Authors. All rights reserved.

package sortedruns

import (
	"slices"
	"sort"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
)

// Table is what a view keeps of one sstable.
type Table struct {
	Num pebble.TableNum
	// Backing is the number of the file that holds the table's bytes: Num
	// for a physical table, the shared backing file's for a virtual one.
	Backing uint64
	Size    uint64
	// Smallest and Largest bound the table's user keys. Largest is
	// inclusive unless LargestExclusive is set: the table's largest key is
	// the exclusive end of a range deletion or a range key.
	Smallest, Largest []byte
	LargestExclusive  bool
	// SmallestSeqNum and LargestSeqNum bound the seqnums of the table's keys;
	// they order L0 tables by age.
	SmallestSeqNum, LargestSeqNum pebble.SeqNum
}

// TableOf converts an entry of DB.SSTables.
func TableOf(t *pebble.SSTableInfo) Table {
	return Table{
		Num:              t.FileNum,
		Backing:          uint64(t.BackingSSTNum),
		Size:             t.Size,
		Smallest:         t.Smallest.UserKey,
		Largest:          t.Largest.UserKey,
		LargestExclusive: t.Largest.IsExclusiveSentinel(),
		SmallestSeqNum:   t.SmallestSeqNum,
		LargestSeqNum:    t.LargestSeqNum,
	}
}

// Contains reports whether key lies within the table's bounds.
func (t *Table) Contains(cmp pebble.Compare, key []byte) bool {
	if cmp(t.Smallest, key) > 0 {
		return false
	}
	c := cmp(key, t.Largest)
	return c < 0 || (c == 0 && !t.LargestExclusive)
}

// Run is one sorted run on disk: an L0 sublevel or a level L1-L6, whose
// tables have disjoint key ranges and are read through one level iterator.
type Run struct {
	// Level is 0-6. Sublevel is the L0 sublevel, 0 the oldest, as Pebble
	// numbers them; -1 for L1-L6.
	Level, Sublevel int
	// Tables are the run's tables in key order.
	Tables []Table
}

// Bytes is the size of the run's tables.
func (r *Run) Bytes() uint64 {
	var n uint64
	for i := range r.Tables {
		n += r.Tables[i].Size
	}
	return n
}

// Bounds returns the smallest and largest user keys of the run (nil for a
// run without tables).
func (r *Run) Bounds() (smallest, largest []byte) {
	if len(r.Tables) == 0 {
		return nil, nil
	}
	return r.Tables[0].Smallest, r.Tables[len(r.Tables)-1].Largest
}

// Find returns the table of the run that contains key, or nil if none does.
func (r *Run) Find(cmp pebble.Compare, key []byte) *Table {
	// The tables are disjoint and in key order: the only candidate is the
	// last one starting at or before key.
	i := sort.Search(len(r.Tables), func(i int) bool { return cmp(r.Tables[i].Smallest, key) > 0 })
	if i > 0 && r.Tables[i-1].Contains(cmp, key) {
		return &r.Tables[i-1]
	}
	return nil
}

// SafeFormat implements redact.SafeFormatter: the run's name, "L0.2" for a
// sublevel and "L6" for a level.
func (r Run) SafeFormat(w redact.SafePrinter, _ rune) {
	if r.Level == 0 {
		w.Printf("L0.%d", redact.Safe(r.Sublevel))
		return
	}
	w.Printf("L%d", redact.Safe(r.Level))
}

// String implements fmt.Stringer.
func (r Run) String() string { return redact.StringWithoutMarkers(r) }

// Memtables are the DB's memtables, flushed or not. Pebble's Metrics give
// only their count and size, and a read consults every one of them.
type Memtables struct {
	Count int
	Bytes uint64
}

// View is the sorted runs of an LSM, newest first.
type View struct {
	// Memtables is zero for a view built from table metadata alone (New,
	// FromSSTables).
	Memtables Memtables
	// Runs are the runs on disk: the L0 sublevels from the highest (newest)
	// down, then the non-empty levels L1-L6.
	Runs []Run
}

// New builds the view of levels (index 0 = L0, as DB.SSTables lists them).
// It copies the slices of levels, not the tables' keys.
func New(cmp pebble.Compare, levels [][]Table) View {
	var v View
	if len(levels) > 0 {
		subs := Sublevels(cmp, levels[0])
		for s := len(subs) - 1; s >= 0; s-- {
			v.Runs = append(v.Runs, Run{Level: 0, Sublevel: s, Tables: subs[s]})
		}
	}
	for level := 1; level < len(levels); level++ {
		if len(levels[level]) == 0 {
			continue
		}
		tables := slices.Clone(levels[level])
		sortByKey(cmp, tables)
		v.Runs = append(v.Runs, Run{Level: level, Sublevel: -1, Tables: tables})
	}
	return v
}

// FromSSTables builds the view of a DB.SSTables listing.
func FromSSTables(cmp pebble.Compare, tables [][]pebble.SSTableInfo) View {
	levels := make([][]Table, len(tables))
	for i := range tables {
		levels[i] = make([]Table, len(tables[i]))
		for j := range tables[i] {
			levels[i][j] = TableOf(&tables[i][j])
		}
	}
	return New(cmp, levels)
}

// DB is what Read needs of a DB; *pebble.DB and pebblerf's DB satisfy it.
type DB interface {
	Metrics() *pebble.Metrics
	SSTables(opts ...pebble.SSTablesOption) ([][]pebble.SSTableInfo, error)
}

// Read builds the view of db now, memtables included. cmp orders user keys
// (nil means bytewise order, Pebble's default comparer). The memtables and
// the tables are read one after the other, so a flush in between can show
// its data in both.
func Read(db DB, cmp pebble.Compare) (View, error) {
	if cmp == nil {
		cmp = pebble.DefaultComparer.Compare
	}
	m := db.Metrics()
	tables, err := db.SSTables()
	if err != nil {
		return View{}, errors.Wrap(err, "sortedruns: listing sstables")
	}
	v := FromSSTables(cmp, tables)
	v.Memtables = Memtables{Count: int(m.MemTable.Count), Bytes: m.MemTable.Size}
	return v, nil
}

// SortedRuns is the number of runs on disk: L0 sublevels plus non-empty
// levels, what Pebble's Metrics.ReadAmp counts.
func (v View) SortedRuns() int { return len(v.Runs) }

// Sublevels is the number of L0 sublevels.
func (v View) Sublevels() int {
	n := 0
	for n < len(v.Runs) && v.Runs[n].Level == 0 {
		n++
	}
	return n
}

// Sublevel returns L0 sublevel s (0 the oldest), or nil if there is none.
func (v View) Sublevel(s int) *Run {
	n := v.Sublevels()
	if s < 0 || s >= n {
		return nil
	}
	return &v.Runs[n-1-s]
}

func sortByKey(cmp pebble.Compare, tables []Table) {
	slices.SortFunc(tables, func(a, b Table) int { return cmp(a.Smallest, b.Smallest) })
}
