// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

// The derived figures of RocksDB's seek and Bloom statistics. Each returns
// ok=false when its denominator is zero.

// SeekFalsePositiveRate estimates the false-positive rate of the prefix
// filters of a row or group from its seeks:
//
//	FPR = (FILTER_MATCH - DATA_USEFUL_FILTER_MATCH)
//	    / (FILTERED + FILTER_MATCH - DATA_USEFUL_FILTER_MATCH)
//
// A filter has no false negatives, so FILTERED seeks are true negatives; a
// match that produced a value is taken as a true positive, every other match
// as a false one. Seeks whose keys were shadowed, deleted or out of bounds,
// and iterators abandoned before a value was read, also count as false
// positives, so this is an upper bound on the filter's own rate.
func (c LevelCounts) SeekFalsePositiveRate() (float64, bool) {
	tp := min(c.UsefulFilterMatch, c.FilterMatch)
	fp := c.FilterMatch - tp
	den := c.Filtered + fp
	if den == 0 {
		return 0, false
	}
	return float64(fp) / float64(den), true
}

// RangeFilterOpportunity is the share of seeks that loaded a data block and
// then produced no value the caller read: the loads a range filter could
// have saved.
//
//	opportunity = (DATA - DATA_USEFUL_NO_FILTER - DATA_USEFUL_FILTER_MATCH) / DATA
func (c LevelCounts) RangeFilterOpportunity() (float64, bool) {
	if c.Data == 0 {
		return 0, false
	}
	useful := min(c.UsefulNoFilter+c.UsefulFilterMatch, c.Data)
	return float64(c.Data-useful) / float64(c.Data), true
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
	checked := sn.tickers[BloomFilterPrefixChecked]
	useful := sn.tickers[BloomFilterPrefixUseful]
	tp := sn.tickers[BloomFilterPrefixTruePositive]
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
	pos := sn.tickers[BloomFilterFullPositive]
	tp := min(sn.tickers[BloomFilterFullTruePositive], pos)
	fp := pos - tp
	den := fp + sn.tickers[BloomFilterUseful]
	if den == 0 {
		return 0, false
	}
	return float64(fp) / float64(den), true
}
