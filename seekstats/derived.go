// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import "github.com/pebblerf/pebble/internal/seekcount"

// The derived figures of RocksDB's seek and Bloom statistics. Each returns
// ok=false when its denominator is zero.

// SeekFalsePositiveRate estimates the false-positive rate of the prefix
// filters of a row or group from its seeks:
//
//	FPR = (FILTER_MATCH - DATA_USEFUL_FILTER_MATCH)
//	    / (FILTERED_PREFIX + FILTER_MATCH - DATA_USEFUL_FILTER_MATCH)
//
// where FILTERED_PREFIX is Filtered - FilteredRange (a range filter's
// rule-out says nothing of the prefix filter). A filter has no false
// negatives, so FILTERED seeks are true negatives; a match that produced a
// value is taken as a true positive, every other match as a false one.
// Seeks whose keys were shadowed, deleted or out of bounds, and iterators
// abandoned before a value was read, also count as false positives, so this
// is an upper bound on the filter's own rate.
//
// ok is false when the rate is not defined: no prefix filter decided a seek
// at the row, or no value was read from the row's tables (a workload that
// never reads values, as db_bench's seekrandom without -seek_nexts, would
// make every match false and the "rate" the share of matches).
// SeekFalsePositiveAbsence says which.
func (c LevelCounts) SeekFalsePositiveRate() (float64, bool) {
	f, why := c.seekFPR()
	return f, why == ""
}

// SeekFalsePositiveAbsence returns why SeekFalsePositiveRate is not
// defined for c, or "" if it is.
func (c LevelCounts) SeekFalsePositiveAbsence() string {
	_, why := c.seekFPR()
	return why
}

const noValueRead = "no value was read at this level"

func (c LevelCounts) seekFPR() (float64, string) {
	tp := min(c.UsefulFilterMatch, c.FilterMatch)
	fp := c.FilterMatch - tp
	den := c.Filtered - min(c.FilteredRange, c.Filtered) + fp
	switch {
	case den == 0:
		return 0, "no prefix filter decided a seek"
	case c.UsefulNoFilter+c.UsefulFilterMatch == 0:
		return 0, noValueRead
	}
	return float64(fp) / float64(den), ""
}

// RangeFilterOpportunity is the share of seeks of bounded iterators (with a
// lower or upper bound) that loaded a data block and then produced no value
// the caller read: the loads a range filter could have saved.
//
//	opportunity = (DATA_BOUNDED - DATA_USEFUL_BOUNDED) / DATA_BOUNDED
//
// Seeks of unbounded iterators (Data - DataBounded) are left out: a range
// filter judges a table against the iterator's bounds, so it cannot save
// them. ok is false when no bounded seek loaded a block.
func (c LevelCounts) RangeFilterOpportunity() (float64, bool) {
	if c.DataBounded == 0 {
		return 0, false
	}
	useful := min(c.UsefulBounded, c.DataBounded)
	return float64(c.DataBounded-useful) / float64(c.DataBounded), true
}

// GetFalsePositiveRate is the false-positive rate of the row's filters for
// point lookups (whole-key and prefix filters alike):
//
//	FP  = GET_POSITIVE - GET_TRUE_POSITIVE
//	FPR = FP / (FP + GET_USEFUL)
//
// ok is false when no Get checked a filter of the row that did not find its
// key there.
func (c LevelCounts) GetFalsePositiveRate() (float64, bool) {
	fp := c.GetPositive - min(c.GetTruePositive, c.GetPositive)
	den := fp + c.GetUseful
	if den == 0 {
		return 0, false
	}
	return float64(fp) / float64(den), true
}

// PointPrefixFalsePositiveRate is the false-positive rate of prefix filters
// for Gets:
//
//	FPR = (PREFIX_CHECKED - PREFIX_USEFUL - PREFIX_TRUE_POSITIVE)
//	    / (PREFIX_CHECKED - PREFIX_TRUE_POSITIVE)
//
// A table that holds another key with the same prefix counts as a false
// positive: the filter did its job, but the Get was wasted.
func (sn *Snapshot) PointPrefixFalsePositiveRate() (float64, bool) {
	checked := sn.tickers[seekcount.BloomFilterPrefixChecked]
	useful := sn.tickers[seekcount.BloomFilterPrefixUseful]
	tp := sn.tickers[seekcount.BloomFilterPrefixTruePositive]
	if checked <= tp || checked < useful+tp {
		return 0, false
	}
	return float64(checked-useful-tp) / float64(checked-tp), true
}

// PointWholeKeyFalsePositiveRate is the false-positive rate of whole-key
// filters for Gets:
//
//	FP  = FULL_POSITIVE - FULL_TRUE_POSITIVE
//	FPR = FP / (FP + USEFUL)
//
// (RocksDB once quoted FP / FULL_POSITIVE as "the" rate; that is the share
// of positives that were false, not the rate over negatives.)
func (sn *Snapshot) PointWholeKeyFalsePositiveRate() (float64, bool) {
	pos := sn.tickers[seekcount.BloomFilterFullPositive]
	tp := min(sn.tickers[seekcount.BloomFilterFullTruePositive], pos)
	fp := pos - tp
	den := fp + sn.tickers[seekcount.BloomFilterUseful]
	if den == 0 {
		return 0, false
	}
	return float64(fp) / float64(den), true
}

// AbsentKeyChecks estimates, for each LSM level L0 to L6, how many times a
// lookup of a key the level does not hold consults the level's filters, per
// lookup: the level's checks that said no (prefix filters' rule-outs of
// seeks, Gets ruled out) plus those that passed and found nothing (seeks'
// matches that produced no value, Gets' false positives), divided by the
// count of the busiest level below L0, which every lookup that gets that far
// consults once. ok is false while nothing was counted below L0. These are
// what pointfilter.LevelLoad.Checks asks for (pebble's
// DB.PointFilterLoads).
func (sn *Snapshot) AbsentKeyChecks() (perLevel [7]float64, ok bool) {
	var absent [7]float64
	var busiest float64
	for i := range absent {
		c := sn.Rows[RowForLevel(i)]
		prefixFiltered := c.Filtered - min(c.FilteredRange, c.Filtered)
		seekFP := c.FilterMatch - min(c.UsefulFilterMatch, c.FilterMatch)
		getFP := c.GetPositive - min(c.GetTruePositive, c.GetPositive)
		absent[i] = float64(prefixFiltered + seekFP + c.GetUseful + getFP)
		if i > 0 {
			busiest = max(busiest, absent[i])
		}
	}
	if busiest == 0 {
		return perLevel, false
	}
	for i := range perLevel {
		perLevel[i] = absent[i] / busiest
	}
	return perLevel, true
}
