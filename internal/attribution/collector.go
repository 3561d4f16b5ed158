// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import (
	"encoding/binary"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// The tagging collector stores its table's file number in every data block's
// property, so that the always-true filter of an iterator (iter.go) learns,
// before each data-block load, which table the block belongs to. Encodings,
// as Pebble passes them to the filter (without its short-ID byte):
//
//	data block:  0x02 uvarint(file number)
//	index block: empty (index loads are not counted)
//	table:       0x01 version uvarint(file number)
//
// A file number of 0 means the writer did not learn its number; such loads
// count as unattributed. About 4 bytes per data block go into the index.
const (
	collectorName     = "pebblerf.seekstats"
	propKindTable     = 0x01
	propKindData      = 0x02
	propTableVersion  = 1
	maxDataPropLength = 1 + binary.MaxVarintLen64
)

// newCollector is the collector constructor registered in
// Options.BlockPropertyCollectors. Pebble calls it on the writer's goroutine
// after the filter writer, so it takes (and clears) the handed-off number.
func (s *Stats) newCollector() pebble.BlockPropertyCollector {
	return &tagCollector{num: s.handoff.Take().Num}
}

type tagCollector struct {
	num uint64
}

var _ pebble.BlockPropertyCollector = (*tagCollector)(nil)

func (c *tagCollector) Name() string { return collectorName }

func (c *tagCollector) AddPointKey(pebble.InternalKey, []byte) error { return nil }

func (c *tagCollector) AddRangeKeys(sstable.Span) error { return nil }

// AddCollectedWithSuffixReplacement keeps the number of the table the
// properties were collected for.
func (c *tagCollector) AddCollectedWithSuffixReplacement(oldProp []byte, _, _ []byte) error {
	if num, ok := decodeTableProp(oldProp); ok {
		c.num = num
	}
	return nil
}

func (c *tagCollector) SupportsSuffixReplacement() bool { return true }

func (c *tagCollector) FinishDataBlock(buf []byte) ([]byte, error) {
	return binary.AppendUvarint(append(buf, propKindData), c.num), nil
}

func (c *tagCollector) AddPrevDataBlockToIndexBlock() {}

func (c *tagCollector) FinishIndexBlock(buf []byte) ([]byte, error) { return buf, nil }

func (c *tagCollector) FinishTable(buf []byte) ([]byte, error) {
	return binary.AppendUvarint(append(buf, propKindTable, propTableVersion), c.num), nil
}

// decodeDataProp returns the file number of a data block's property.
func decodeDataProp(prop []byte) (uint64, bool) {
	if len(prop) < 2 || len(prop) > maxDataPropLength || prop[0] != propKindData {
		return 0, false
	}
	num, n := binary.Uvarint(prop[1:])
	return num, n == len(prop)-1
}

func decodeTableProp(prop []byte) (uint64, bool) {
	if len(prop) < 3 || prop[0] != propKindTable || prop[1] != propTableVersion {
		return 0, false
	}
	num, n := binary.Uvarint(prop[2:])
	return num, n == len(prop)-2
}
