// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import "fmt"

// Row is one row of the per-level statistics: the memtables, one LSM level,
// or the tables whose level (or tag) is unknown.
type Row int8

// The rows, in the order they are printed.
const (
	RowMemtables Row = iota
	RowL0
	RowL1
	RowL2
	RowL3
	RowL4
	RowL5
	RowL6
	// RowUnattributed holds what happened in tables written without the
	// seekstats tags (by upstream Pebble, or ingested), in tables whose level
	// is not (or no longer) known, and values the fast attribution rule could
	// not assign to one table. Like RocksDB's level -1, it counts as non-last.
	RowUnattributed
	// NumRows is the number of rows.
	NumRows
)

// RowForLevel returns the row of LSM level l (0..6), or RowUnattributed.
func RowForLevel(l int) Row {
	if l < 0 || l > 6 {
		return RowUnattributed
	}
	return RowL0 + Row(l)
}

func (r Row) String() string {
	switch {
	case r == RowMemtables:
		return "memtables"
	case r >= RowL0 && r <= RowL6:
		return fmt.Sprintf("L%d", r-RowL0)
	case r == RowUnattributed:
		return "unattributed"
	}
	return fmt.Sprintf("row(%d)", int8(r))
}

// key is the row's name inside per-level ticker names.
func (r Row) key() string {
	switch {
	case r == RowMemtables:
		return "memtable"
	case r >= RowL0 && r <= RowL6:
		return fmt.Sprintf("l%d", r-RowL0)
	}
	return "unattributed"
}

// isLast reports whether the row is RocksDB's "last level": level
// num_levels-1, which for Pebble's seven levels is L6, and nothing else.
func (r Row) isLast() bool { return r == RowL6 }

// SeekKind is one of RocksDB's five per-table seek tickers.
type SeekKind int8

const (
	// SeekFiltered: a filter showed the seek cannot find anything in the
	// table, so no index or data block was read for it. Like RocksDB's
	// FILTERED, it counts every kind of filter: the table's prefix filter, and
	// range filters (of which the filtered.range tickers give the share).
	SeekFiltered SeekKind = iota
	// SeekFilterMatch: a filter was checked and did not rule the seek out.
	SeekFilterMatch
	// SeekData: at least one data block of the table was loaded for the seek.
	SeekData
	// SeekDataUsefulNoFilter: after a DATA seek that checked no filter, the
	// caller read at least one value that the table produced.
	SeekDataUsefulNoFilter
	// SeekDataUsefulFilterMatch: as SeekDataUsefulNoFilter, for a seek that
	// passed the table's filter.
	SeekDataUsefulFilterMatch
	numSeekKinds
)

// The per-row counters that RocksDB has no ticker for. The counter stored
// under SeekFiltered holds the prefix filter's rule-outs only; the FILTERED
// tickers add kindFilteredRange to it.
const (
	// kindFilteredRange: a range filter ruled the table out for an iterator's
	// bounds, at the table-level check Pebble makes when it opens the table
	// for the iterator.
	kindFilteredRange = numSeekKinds + iota
	// kindDataBounded and kindUsefulBounded are DATA and DATA_USEFUL_* (both
	// kinds) of iterators with a lower or upper bound: the only seeks a
	// range filter can save.
	kindDataBounded
	kindUsefulBounded
	// kindGetUseful, kindGetPositive and kindGetTruePositive are the Bloom
	// tickers of point lookups (whole-key and prefix filters alike) for the
	// table's row.
	kindGetUseful
	kindGetPositive
	kindGetTruePositive
	numRowKinds
)

var seekSuffixes = [numRowKinds]string{
	"seek.filtered", "seek.filter.match", "seek.data", "seek.data.useful.no.filter", "seek.data.useful.filter.match",
	"seek.filtered.range", "seek.data.bounded", "seek.data.useful.bounded",
	"get.filter.useful", "get.filter.positive", "get.filter.true.positive",
}

// Ticker is a counter that is not per level.
type Ticker int8

const (
	// BloomFilterUseful: a whole-key filter ruled a Get out of a table.
	BloomFilterUseful Ticker = iota
	// BloomFilterFullPositive: a whole-key filter did not rule a Get out.
	BloomFilterFullPositive
	// BloomFilterFullTruePositive: as BloomFilterFullPositive, and the Get
	// found its key in that table (see get.go for how exactly that is known).
	BloomFilterFullTruePositive
	// BloomFilterPrefixChecked: a prefix filter was checked for a Get (the
	// Comparer's Split gave a proper prefix of the key).
	BloomFilterPrefixChecked
	// BloomFilterPrefixUseful: a prefix filter ruled a Get out of a table.
	BloomFilterPrefixUseful
	// BloomFilterPrefixTruePositive: a prefix filter passed and the Get found
	// its key (not merely its prefix) in that table.
	BloomFilterPrefixTruePositive
	// NumberDBSeek counts the seeks made through wrapped iterators (SeekGE,
	// SeekPrefixGE, SeekLT, their WithLimit forms, First and Last).
	NumberDBSeek
	// NumberDBSeekFound counts the seeks that left the iterator valid.
	NumberDBSeekFound

	// TruePositiveUncertain counts Get true positives credited by the fast
	// rule although the key might have come from a table whose filter Get
	// does not consult (any L6 table, or a table without a filter) below the
	// credited one. It bounds the error of the true-positive tickers.
	TruePositiveUncertain
	// SeekUsefulAmbiguous counts values the fast rule could not assign to one
	// table because several tables that loaded a block since the seek span
	// the key; each is credited once to RowUnattributed instead.
	SeekUsefulAmbiguous
	// SeekUsefulNewest counts values of prefix seeks that several tables
	// could have produced, credited to the newest of them because its filter
	// matched the prefix (see value.go for when that is wrong).
	SeekUsefulNewest
	// FilterUnclassified counts filter checks made while more Gets were in
	// flight than can be registered, so that the check could not be told
	// apart from a seek's; they are counted in neither.
	FilterUnclassified
	// GetSharedKey counts Gets with positive checks that ran concurrently
	// with another Get of the very same key slice: their checks are counted,
	// but no true positive is credited, as it cannot be told whose it was.
	GetSharedKey
	// FilterTagCorrupt counts filters whose seekstats tag did not decode;
	// they were answered by the inner policy on the whole bytes, or with "may
	// contain" when it refused them (fail open).
	FilterTagCorrupt
	// BlockTagCorrupt counts block properties of the seekstats collector that
	// did not decode; the block was read (fail open) and its load counted as
	// unattributed.
	BlockTagCorrupt
	// InnerFilterCorrupt counts filters the inner policies themselves could
	// not decode and answered with "may contain", for policies of package
	// pointfilter bound to a pointfilter.Counters (pebblerf binds those of
	// every DB it opens to the DB's own); it is that Counters' count.
	InnerFilterCorrupt

	// The verification tickers are counted in exact mode only: for every
	// value (and Get) whose attribution the fast rule would have had to make,
	// whether the fast rule agrees with the exact answer, and if not, why.

	// VerifyValueAgree: the fast rule and the exact probe agree.
	VerifyValueAgree
	// VerifyValueOtherSource: the fast rule credited a table, but the value
	// came from the memtables, or from a table whose block was loaded before
	// the seek or that was already credited: the documented blind spot.
	VerifyValueOtherSource
	// VerifyValueAmbiguous: the fast rule found several candidates and
	// credited none of them.
	VerifyValueAmbiguous
	// VerifyValueNewestWrong: the fast rule credited the newest of several
	// candidates, and the value came from elsewhere.
	VerifyValueNewestWrong
	// VerifyValueUnexpected: any other disagreement; a bug if ever non-zero.
	VerifyValueUnexpected
	// VerifyGetAgree: the fast true-positive rule agrees with the probe.
	VerifyGetAgree
	// VerifyGetUncertain: it disagrees on a Get it had flagged uncertain.
	VerifyGetUncertain
	// VerifyGetTombstone: it disagrees on a Get that ended in a point
	// tombstone, which the fast rule counts as a false positive and the probe
	// (like RocksDB) as a true one.
	VerifyGetTombstone
	// VerifyGetUnexpected: any other disagreement; a bug if ever non-zero.
	VerifyGetUnexpected
	// VerifyProbeFailed counts exact-mode probes that could not run: Pebble's
	// ScanInternal panics when the key's newest entries include a merge
	// operand or a single delete. The value or Get is then attributed by the
	// fast rule, as if exact mode were off.
	VerifyProbeFailed
	numTickers
)

var tickerNames = [numTickers]string{
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

func (t Ticker) String() string { return tickerNames[t] }

// groupTickerName returns the name of a per-row ticker summed over the last
// level (last) or the other levels: RocksDB's name for its five seek
// tickers, pebblerf's for the others.
func groupTickerName(last bool, k SeekKind) string {
	prefix := "rocksdb."
	if k >= numSeekKinds {
		prefix = "pebblerf."
	}
	if last {
		return prefix + "last.level." + seekSuffixes[k]
	}
	return prefix + "non.last.level." + seekSuffixes[k]
}

// rowTickerName returns pebblerf's name of a per-row ticker, e.g.
// "pebblerf.l0.seek.data".
func rowTickerName(r Row, k SeekKind) string {
	return "pebblerf." + r.key() + "." + seekSuffixes[k]
}
