// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import "github.com/pebblerf/pebble/internal/attribution"

// The derived figures of RocksDB's seek and Bloom statistics. Each returns
// ok=false when its denominator is zero.

// SeekFalsePositiveRate estimates the false-positive rate of the prefix
// filters of a row or group from its seeks:
//
//	FPR = (FILTER_MATCH - NEEDED_FILTER_MATCH)
//	    / (FILTERED_PREFIX + FILTER_MATCH - NEEDED_FILTER_MATCH)
//
// where FILTERED_PREFIX is Filtered - FilteredRange (a range filter's
// rule-out says nothing of the prefix filter). A filter has no false
// negatives, so FILTERED seeks are true negatives; a match whose table held
// the key the seek found (NeededFilterMatch) is taken as a true positive,
// every other match as a false one. RocksDB's formula takes
// DATA_USEFUL_FILTER_MATCH instead, which counts a true positive only when
// the caller reads a value: a workload that reads keys only would make every
// match false. The two agree when every seek reads the value it found.
// Seeks whose keys were shadowed or deleted also count as false positives,
// so this is an upper bound on the filter's own rate.
//
// ok is false when the rate is not defined: no prefix filter decided a seek
// at the row, or no data-block load was counted there (Config.FiltersOnly
// counts none, so no match could be told true).
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

const noLoadCounted = "no data-block load was counted at this level"

func (c LevelCounts) seekFPR() (float64, string) {
	tp := min(c.NeededFilterMatch, c.FilterMatch)
	fp := c.FilterMatch - tp
	den := c.Filtered - min(c.FilteredRange, c.Filtered) + fp
	switch {
	case den == 0:
		return 0, "no prefix filter decided a seek"
	case c.Data == 0:
		return 0, noLoadCounted
	}
	return float64(fp) / float64(den), ""
}

// RangeFilterOpportunity is the share of seeks of bounded iterators (with a
// lower or upper bound) that loaded a data block of a table and found no key
// there: the loads a range filter could have saved.
//
//	opportunity = (DATA_BOUNDED - NEEDED_BOUNDED) / DATA_BOUNDED
//
// A found key lies within the bounds, so no range filter skips its table;
// the loads left include tables that hold a key in the bounds the seek did
// not return (a shadowed version), which a range filter passes too, so this
// is an upper bound (package whatif estimates what a filter would save).
// Seeks of unbounded iterators (Data - DataBounded) are left out: a range
// filter judges a table against the iterator's bounds, so it cannot save
// them. ok is false when no bounded seek loaded a block.
func (c LevelCounts) RangeFilterOpportunity() (float64, bool) {
	if c.DataBounded == 0 {
		return 0, false
	}
	needed := min(c.NeededBounded, c.DataBounded)
	return float64(c.DataBounded-needed) / float64(c.DataBounded), true
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
	checked := sn.tickers[attribution.BloomFilterPrefixChecked]
	useful := sn.tickers[attribution.BloomFilterPrefixUseful]
	tp := sn.tickers[attribution.BloomFilterPrefixTruePositive]
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
	pos := sn.tickers[attribution.BloomFilterFullPositive]
	tp := min(sn.tickers[attribution.BloomFilterFullTruePositive], pos)
	fp := pos - tp
	den := fp + sn.tickers[attribution.BloomFilterUseful]
	if den == 0 {
		return 0, false
	}
	return float64(fp) / float64(den), true
}

// AbsentKeyChecks estimates, for each LSM level L0 to L6, how many times a
// lookup of a key the level does not hold consults the level's filters, per
// lookup: the level's checks that said no (prefix filters' rule-outs of
// seeks, Gets ruled out) plus those that passed and found nothing (seeks'
// matches whose table held no key the seek found, Gets' false positives),
// divided by the
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
		seekFP := c.FilterMatch - min(c.NeededFilterMatch, c.FilterMatch)
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
