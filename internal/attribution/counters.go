// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"sync/atomic"
	"unsafe"
)

// The counts: the layout of the counters (which kinds each row counts,
// which tickers there are besides, and their names) and the sharded atomic
// storage the attribution writes and package seekstats reads. What the
// counts mean is seekstats' contract; its Row numbers the rows as this file
// does (0 the memtables, 1 to 7 L0 to L6, 8 the unattributed row), and
// seekstats.Statistics is a read-only view of a Store.

// Rows is the number of rows a Store counts for (seekstats.NumRows).
const Rows = 9

// Kind is one per-row counter.
type Kind int8

// The per-row counters: first RocksDB's five per-table seek tickers, then
// pebblerf's. The counter stored under Filtered holds the prefix filters'
// rule-outs only; the FILTERED tickers add FilteredRange to it.
const (
	Filtered Kind = iota
	FilterMatch
	Data
	DataUsefulNoFilter
	DataUsefulFilterMatch
	// FilteredRange: a range filter ruled the table out for an iterator's
	// bounds.
	FilteredRange
	// DataBounded and UsefulBounded are Data and both DataUseful kinds, for
	// iterators with a lower or upper bound.
	DataBounded
	UsefulBounded
	// DataNeeded: a DATA seek of the table found a key there (seekstats
	// says how that is decided); DataNeededFilterMatch and
	// DataNeededBounded are its parts after a passed prefix filter and for
	// iterators with a lower or upper bound.
	DataNeeded
	DataNeededFilterMatch
	DataNeededBounded
	// GetUseful, GetPositive and GetTruePositive are the Bloom tickers of
	// point lookups for the table's row.
	GetUseful
	GetPositive
	GetTruePositive
	NumKinds
)

// SeekKinds is the number of RocksDB's own per-table seek tickers, the
// kinds before FilteredRange.
const SeekKinds = int(FilteredRange)

// KindSuffixes are the kinds' names in ticker names.
var KindSuffixes = [NumKinds]string{
	"seek.filtered", "seek.filter.match", "seek.data", "seek.data.useful.no.filter", "seek.data.useful.filter.match",
	"seek.filtered.range", "seek.data.bounded", "seek.data.useful.bounded",
	"seek.data.needed", "seek.data.needed.filter.match", "seek.data.needed.bounded",
	"get.filter.useful", "get.filter.positive", "get.filter.true.positive",
}

// RowKeys are the rows' names inside per-row ticker names.
var RowKeys = [Rows]string{"memtable", "l0", "l1", "l2", "l3", "l4", "l5", "l6", "unattributed"}

// RowTickerName returns the name of kind k of row r, e.g.
// "pebblerf.l0.seek.data".
func RowTickerName(r int, k Kind) string {
	return "pebblerf." + RowKeys[r] + "." + KindSuffixes[k]
}

// GroupTickerName returns the name of kind k summed over the last level
// (last) or the other table rows: RocksDB's name for its five seek kinds,
// pebblerf's for the others.
func GroupTickerName(last bool, k Kind) string {
	prefix := "rocksdb."
	if int(k) >= SeekKinds {
		prefix = "pebblerf."
	}
	if last {
		return prefix + "last.level." + KindSuffixes[k]
	}
	return prefix + "non.last.level." + KindSuffixes[k]
}

// KindHelp and TickerHelp say in one line what each kind and ticker counts,
// for metrics' help texts (package promstats); seekstats' package
// documentation is the full definition, with what is exact and what is
// inferred.
var KindHelp = [NumKinds]string{
	Filtered:              "Seeks a filter (prefix or range) ruled out of a table, so no block of it was read (RocksDB's FILTERED).",
	FilterMatch:           "Seeks that checked a table's prefix filter and were not ruled out (RocksDB's FILTER_MATCH).",
	Data:                  "Seeks that loaded at least one data block of a table (RocksDB's DATA).",
	DataUsefulNoFilter:    "DATA seeks that checked no filter and produced a value the caller read (RocksDB's DATA_USEFUL_NO_FILTER).",
	DataUsefulFilterMatch: "DATA seeks that passed the table's filter and produced a value the caller read (RocksDB's DATA_USEFUL_FILTER_MATCH).",
	FilteredRange:         "The part of seek.filtered that range filters ruled out, for an iterator's bounds.",
	DataBounded:           "The part of seek.data made by iterators with a lower or upper bound, the only seeks a range filter can save.",
	UsefulBounded:         "Both DATA_USEFUL kinds, for iterators with a lower or upper bound.",
	DataNeeded:            "DATA seeks whose table held the key the seek returned: loads no filter could have saved.",
	DataNeededFilterMatch: "The part of seek.data.needed that passed the table's prefix filter.",
	DataNeededBounded:     "The part of seek.data.needed made by iterators with a lower or upper bound.",
	GetUseful:             "Gets' filter checks (whole-key and prefix) that ruled a table out.",
	GetPositive:           "Gets' filter checks that did not rule a table out.",
	GetTruePositive:       "Gets' filter checks that did not rule a table out because it held the key.",
}

// TickerHelp: see KindHelp.
var TickerHelp = [NumTickers]string{
	BloomFilterUseful:             "Whole-key filter checks that ruled a Get out of a table.",
	BloomFilterFullPositive:       "Whole-key filter checks of Gets that did not rule the table out.",
	BloomFilterFullTruePositive:   "Whole-key filter checks of Gets that did not rule the table out because it held the key.",
	BloomFilterPrefixChecked:      "Prefix filter checks made for Gets.",
	BloomFilterPrefixUseful:       "Prefix filter checks that ruled a Get out of a table.",
	BloomFilterPrefixTruePositive: "Prefix filter checks of Gets that passed, where the table held the key itself.",
	NumberDBSeek:                  "Seeks through the DB's iterators and range queries (SeekGE, SeekPrefixGE, SeekLT, their WithLimit forms, First, Last).",
	NumberDBSeekFound:             "Seeks that left the iterator valid.",
	TruePositiveUncertain:         "Get true positives credited although the key might have come from a table below whose filter Get does not consult: the true-positive tickers' error bound.",
	SeekUsefulAmbiguous:           "Values several tables could have produced, credited once to the unattributed row.",
	SeekUsefulNewest:              "Values of prefix seeks credited to the newest candidate table because its filter matched the prefix.",
	FilterUnclassified:            "Filter checks made while more Gets ran than can be told apart from seeks, counted in neither.",
	GetSharedKey:                  "Gets concurrent with a Get of the same key slice, whose checks are counted but whose true positive is not.",
	FilterTagCorrupt:              "Filters whose table tag did not decode; they answered as if untagged.",
	BlockTagCorrupt:               "Data blocks whose table tag did not decode; the block was read and its load counted as unattributed.",
	InnerFilterCorrupt:            "Filters of package pointfilter's policies that did not decode and answered \"may contain\".",
	VerifyValueAgree:              "Exact attribution only: values whose exact probe agreed with the fast rule.",
	VerifyValueOtherSource:        "Exact attribution only: values the probe found came from another source than the rule said.",
	VerifyValueAmbiguous:          "Exact attribution only: values the rule found several candidates for and credited to none.",
	VerifyValueNewestWrong:        "Exact attribution only: values the rule credited to the newest table that came from elsewhere.",
	VerifyValueUnexpected:         "Exact attribution only: value disagreements of no known kind (a bug if ever non-zero).",
	VerifyGetAgree:                "Exact attribution only: Gets whose exact probe agreed with the fast rule.",
	VerifyGetUncertain:            "Exact attribution only: Gets the rule flagged uncertain.",
	VerifyGetTombstone:            "Exact attribution only: Gets that ended in a tombstone.",
	VerifyGetUnexpected:           "Exact attribution only: Get disagreements of no known kind (a bug if ever non-zero).",
	VerifyProbeFailed:             "Exact attribution only: probes ScanInternal could not run, which fell back to the fast rule.",
}

// Ticker is a counter that is not per row.
type Ticker int8

// The tickers; seekstats' package documentation says what each counts.
const (
	BloomFilterUseful Ticker = iota
	BloomFilterFullPositive
	BloomFilterFullTruePositive
	BloomFilterPrefixChecked
	BloomFilterPrefixUseful
	BloomFilterPrefixTruePositive
	NumberDBSeek
	NumberDBSeekFound
	TruePositiveUncertain
	SeekUsefulAmbiguous
	SeekUsefulNewest
	FilterUnclassified
	GetSharedKey
	FilterTagCorrupt
	BlockTagCorrupt
	// InnerFilterCorrupt is not stored in the counters: it is the count of
	// Store.InnerCorrupt, less the base at the last Pop or Reset.
	InnerFilterCorrupt
	VerifyValueAgree
	VerifyValueOtherSource
	VerifyValueAmbiguous
	VerifyValueNewestWrong
	VerifyValueUnexpected
	VerifyGetAgree
	VerifyGetUncertain
	VerifyGetTombstone
	VerifyGetUnexpected
	VerifyProbeFailed
	NumTickers
)

// TickerNames are the tickers' names.
var TickerNames = [NumTickers]string{
	BloomFilterUseful:             "rocksdb.bloom.filter.useful",
	BloomFilterFullPositive:       "rocksdb.bloom.filter.full.positive",
	BloomFilterFullTruePositive:   "rocksdb.bloom.filter.full.true.positive",
	BloomFilterPrefixChecked:      "rocksdb.bloom.filter.prefix.checked",
	BloomFilterPrefixUseful:       "rocksdb.bloom.filter.prefix.useful",
	BloomFilterPrefixTruePositive: "rocksdb.bloom.filter.prefix.true.positive",
	NumberDBSeek:                  "rocksdb.number.db.seek",
	NumberDBSeekFound:             "rocksdb.number.db.seek.found",
	TruePositiveUncertain:         "pebblerf.bloom.filter.true.positive.uncertain",
	SeekUsefulAmbiguous:           "pebblerf.seek.data.useful.ambiguous",
	SeekUsefulNewest:              "pebblerf.seek.data.useful.newest",
	FilterUnclassified:            "pebblerf.filter.check.unclassified",
	GetSharedKey:                  "pebblerf.get.shared.key",
	FilterTagCorrupt:              "pebblerf.filter.tag.corrupt",
	BlockTagCorrupt:               "pebblerf.block.tag.corrupt",
	InnerFilterCorrupt:            "pebblerf.filter.corrupt",
	VerifyValueAgree:              "pebblerf.verify.value.agree",
	VerifyValueOtherSource:        "pebblerf.verify.value.other.source",
	VerifyValueAmbiguous:          "pebblerf.verify.value.ambiguous",
	VerifyValueNewestWrong:        "pebblerf.verify.value.newest.wrong",
	VerifyValueUnexpected:         "pebblerf.verify.value.unexpected",
	VerifyGetAgree:                "pebblerf.verify.get.agree",
	VerifyGetUncertain:            "pebblerf.verify.get.uncertain",
	VerifyGetTombstone:            "pebblerf.verify.get.tombstone",
	VerifyGetUnexpected:           "pebblerf.verify.get.unexpected",
	VerifyProbeFailed:             "pebblerf.verify.probe.failed",
}

// Counters are sharded so that concurrent readers do not fight over one
// cache line: an iterator keeps to the shard it was given when it was
// created, and a filter check picks its shard from the address of the key it
// was given, which is a buffer private to one iterator (or one Get's key).
// Reading a counter sums the shards; Pop swaps each shard's value for zero,
// so no tick is lost or counted twice by a concurrent Pop.
const numShards = 16

const (
	numRowCounters = Rows * int(NumKinds)
	// NumCounters is the number of counters of a shard.
	NumCounters = numRowCounters + int(NumTickers)
)

// Shard is one shard of the counters.
type Shard struct {
	c [NumCounters]atomic.Uint64
	// The padding keeps a neighbouring shard's counters off this shard's
	// last cache line.
	_ [64]byte
}

// Counters are the sharded counters. The zero value is ready to use.
type Counters struct {
	shards [numShards]Shard
	next   atomic.Uint32
}

// RowIndex is the index of kind k of row r.
func RowIndex(r int, k Kind) int { return r*int(NumKinds) + int(k) }

// TickerIndex is the index of ticker t.
func TickerIndex(t Ticker) int { return numRowCounters + int(t) }

// PickShard hands out shards round-robin, for iterators.
func (c *Counters) PickShard() *Shard {
	return &c.shards[c.next.Add(1)%numShards]
}

// ShardFor picks the shard of a key buffer. The address is only hashed,
// never dereferenced.
func (c *Counters) ShardFor(key []byte) *Shard {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(key)))
	return &c.shards[(p>>6^p>>12)%numShards]
}

// AddRow counts one of kind k for row r.
func (s *Shard) AddRow(r int, k Kind) { s.c[RowIndex(r, k)].Add(1) }

// AddTicker adds n to ticker t.
func (s *Shard) AddTicker(t Ticker, n int) { s.c[TickerIndex(t)].Add(uint64(n)) }

// Load sums counter i over the shards.
func (c *Counters) Load(i int) uint64 {
	var n uint64
	for s := range c.shards {
		n += c.shards[s].c[i].Load()
	}
	return n
}

// Pop sums counter i over the shards and zeroes it.
func (c *Counters) Pop(i int) uint64 {
	var n uint64
	for s := range c.shards {
		n += c.shards[s].c[i].Swap(0)
	}
	return n
}

// Store is what one DB's per-level statistics count: the counters, the
// range lengths, and the source of InnerFilterCorrupt.
type Store struct {
	Counters Counters
	Lens     Lens
	// InnerCorrupt, if set, returns the corruption count of the filter
	// policies the statistics wrap; InnerCorruptBase is its value at the
	// last Pop or Reset.
	InnerCorrupt     func() uint64
	InnerCorruptBase atomic.Uint64
}

// InnerCorruptTotal returns InnerCorrupt's count, or 0 without one.
func (s *Store) InnerCorruptTotal() uint64 {
	if s.InnerCorrupt == nil {
		return 0
	}
	return s.InnerCorrupt()
}

// Reset sets every counter to zero.
func (s *Store) Reset() {
	for i := 0; i < NumCounters; i++ {
		s.Counters.Pop(i)
	}
	for r := 0; r < Rows; r++ {
		s.Lens.Sum(r, true)
	}
	s.InnerCorruptBase.Store(s.InnerCorruptTotal())
}

// Read returns the count of the ticker with the given name (an extra
// ticker's name, a row's or a group's; seekstats documents them), and with
// pop resets it to zero; 0 for an unknown name. A group ticker sums the
// rows of its group: L6, the last level, or the rows below the memtables
// but L6.
func (s *Store) Read(name string, pop bool) uint64 {
	load := s.Counters.Load
	if pop {
		load = s.Counters.Pop
	}
	for t := Ticker(0); t < NumTickers; t++ {
		if TickerNames[t] != name {
			continue
		}
		if t == InnerFilterCorrupt {
			total := s.InnerCorruptTotal()
			base := s.InnerCorruptBase.Load()
			if pop {
				s.InnerCorruptBase.Store(total)
			}
			return total - base
		}
		return load(TickerIndex(t))
	}
	for k := Kind(0); k < NumKinds; k++ {
		for _, last := range []bool{true, false} {
			if GroupTickerName(last, k) != name {
				continue
			}
			var n uint64
			for r := RowL0; r < Rows; r++ {
				if (r == RowL0+6) == last {
					n += LoadRow(load, r, k)
				}
			}
			return n
		}
		for r := 0; r < Rows; r++ {
			if RowTickerName(r, k) == name {
				return LoadRow(load, r, k)
			}
		}
	}
	return 0
}

// LoadRow reads counter k of row r with load; FILTERED is the prefix
// filters' counter plus the range filters'.
func LoadRow(load func(int) uint64, r int, k Kind) uint64 {
	n := load(RowIndex(r, k))
	if k == Filtered {
		n += load(RowIndex(r, FilteredRange))
	}
	return n
}
