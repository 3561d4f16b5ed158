// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/bits"
)

// One mixed-radix map per table is dense only when the table's keys share a
// shape. Keys whose informative bytes sit at different positions break that:
// CockroachDB encodes integer primary keys as varints whose length grows with
// the value, so in a table holding ids 5,000 and 50,000,000 the last byte of
// a short id sits where long ids keep their third byte. One alphabet per
// position then spans both, and neighbouring short ids end up hundreds of
// values apart (measured: 23% false positives at 16 bits/key for ranges of 32
// positions, against 0.2% for one length).
//
// So the sorted keys are cut into segments, each with its own map, laid end
// to end on the value axis: segment s maps its keys into
// [base_s, base_s + span_s], with base_s+1 = base_s + span_s + 1, which keeps
// the whole map monotone. The cut follows key length, the cheapest signal of
// shape: every maximal run of keys of one length that holds at least
// max(32, n/64) keys becomes a segment; the short runs between them are
// grouped into mixed segments, which behave like the single map did. Keys of
// random length therefore make one mixed segment, at no cost.
//
// A query bound finds its segment by binary search on the segments' first
// keys and maps there; a bound that falls between two segments maps to the
// edge of the next one. Each segment record carries its own CRC-32C, checked
// for the segments a query uses and for their successors (whose first keys
// steer the search), so a corrupt record makes the query fail open without
// checking the whole header on every query.

// rangeMaxSegments bounds the segments of one table.
const rangeMaxSegments = 256

// rangeSegmentStarts returns the first index of each segment of list.
func rangeSegmentStarts(list *rangeKeyList) []int {
	n := list.len()
	minRun := max(32, n/64)
	starts := []int{0}
	mixed := false // the current segment holds short runs
	for i := 0; i < n; {
		j := i + 1
		for j < n && len(list.at(j)) == len(list.at(i)) {
			j++
		}
		long := j-i >= minRun
		if i > 0 && (long || !mixed) {
			starts = append(starts, i)
		}
		mixed = !long
		i = j
	}
	if len(starts) > rangeMaxSegments {
		return []int{0}
	}
	return starts
}

// rangeSegment is one decoded segment record; slices alias the filter.
type rangeSegment struct {
	first            []byte
	m                rangeKeyMap
	vmin, span, base uint64
}

const (
	rangeSegFull    = 1
	rangeSegTailCut = 2
)

// rangeAppendSegment appends a segment record with its checksum.
func rangeAppendSegment(dst []byte, s *rangeSegment) []byte {
	start := len(dst)
	flags := byte(0)
	if s.m.full {
		flags |= rangeSegFull
	}
	if s.m.maxTailCut {
		flags |= rangeSegTailCut
	}
	dst = append(dst, flags)
	dst = binary.AppendUvarint(dst, uint64(len(s.first)))
	dst = append(dst, s.first...)
	dst = binary.AppendUvarint(dst, uint64(len(s.m.lcp)))
	dst = append(dst, s.m.lcp...)
	dst = binary.AppendUvarint(dst, uint64(s.m.end))
	dst = binary.AppendUvarint(dst, uint64(s.m.minLen))
	dst = append(dst, s.m.alpha...)
	if !s.m.full {
		dst = binary.AppendUvarint(dst, uint64(len(s.m.minTail)))
		dst = append(dst, s.m.minTail...)
		dst = binary.AppendUvarint(dst, uint64(len(s.m.maxTail)))
		dst = append(dst, s.m.maxTail...)
	}
	dst = binary.AppendUvarint(dst, s.vmin)
	dst = binary.AppendUvarint(dst, s.span)
	dst = binary.AppendUvarint(dst, s.base)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], rangeCastagnoli))
}

// rangeSegmentFirst reads only the first key of the record at b.
func rangeSegmentFirst(b []byte) ([]byte, bool) {
	if len(b) < 1 {
		return nil, false
	}
	r := rangeReader{b: b[1:]}
	first := r.bytes(r.uvarint())
	return first, !r.bad
}

// rangeParseSegment parses and checks the record at b.
func rangeParseSegment(b []byte) (s rangeSegment, ok bool) {
	if len(b) < 1 {
		return s, false
	}
	flags := b[0]
	r := rangeReader{b: b[1:]}
	s.first = r.bytes(r.uvarint())
	lcpLen := r.uvarint()
	s.m.lcp = r.bytes(lcpLen)
	end, minLen := r.uvarint(), r.uvarint()
	if r.bad || end < lcpLen || end-lcpLen > rangeMaxDigits || minLen > math.MaxInt32 {
		return s, false
	}
	s.m.end, s.m.minLen = int(end), int(minLen)
	s.m.alpha = r.bytes(2 * (end - lcpLen))
	s.m.full = flags&rangeSegFull != 0
	if !s.m.full {
		s.m.minTail = r.bytes(r.uvarint())
		s.m.maxTail = r.bytes(r.uvarint())
		s.m.maxTailCut = flags&rangeSegTailCut != 0
	}
	s.vmin, s.span, s.base = r.uvarint(), r.uvarint(), r.uvarint()
	recLen := len(b) - len(r.b)
	crc := r.bytes(4)
	if r.bad || binary.LittleEndian.Uint32(crc) != crc32.Checksum(b[:recLen], rangeCastagnoli) {
		return s, false
	}
	return s, true
}

// rangeSegmentedMap is the decoded table of segments.
type rangeSegmentedMap struct {
	count   int
	offsets []byte // count little-endian uint32 offsets into area
	area    []byte
	total   uint64 // largest value of the last segment
}

func (sm *rangeSegmentedMap) record(i int) ([]byte, bool) {
	off := uint64(binary.LittleEndian.Uint32(sm.offsets[4*i:]))
	if off >= uint64(len(sm.area)) {
		return nil, false
	}
	return sm.area[off:], true
}

// find returns the last segment whose first key is <= q (strict: < q), or
// -1, and whether the records read decoded.
func (sm *rangeSegmentedMap) find(q []byte, strict bool) (int, bool) {
	lo, hi := 0, sm.count // answer in [lo-1, hi-1]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		rec, ok := sm.record(mid)
		if !ok {
			return 0, false
		}
		first, ok := rangeSegmentFirst(rec)
		if !ok {
			return 0, false
		}
		c := bytes.Compare(first, q)
		if c < 0 || (c == 0 && !strict) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo - 1, true
}

// rangeSegCache keeps the last segment parsed by a query, so that a query
// whose bounds fall in one segment parses and checks it once.
type rangeSegCache struct {
	idx int // segment index + 1; 0: empty
	seg rangeSegment
}

// cached returns segment i through c.
func (sm *rangeSegmentedMap) cached(i int, c *rangeSegCache) (rangeSegment, bool) {
	if c.idx == i+1 {
		return c.seg, true
	}
	s, ok := sm.segment(i)
	if ok {
		c.idx, c.seg = i+1, s
	}
	return s, ok
}

// segment parses segment i and checks the checksum of segment i+1, whose
// first key bounded the search.
func (sm *rangeSegmentedMap) segment(i int) (rangeSegment, bool) {
	rec, ok := sm.record(i)
	if !ok {
		return rangeSegment{}, false
	}
	s, ok := rangeParseSegment(rec)
	if !ok {
		return s, false
	}
	if i+1 < sm.count {
		next, ok := sm.record(i + 1)
		if !ok {
			return s, false
		}
		if _, ok := rangeParseSegment(next); !ok {
			return s, false
		}
	}
	return s, true
}

// lowerBound returns the smallest value a key >= q can have. empty is true
// when no key can be >= q; ok is false for corrupt bytes.
func (sm *rangeSegmentedMap) lowerBound(q []byte, c *rangeSegCache) (v uint64, empty, ok bool) {
	i, ok := sm.find(q, false)
	if !ok {
		return 0, false, false
	}
	if i < 0 {
		return 0, false, true
	}
	s, ok := sm.cached(i, c)
	if !ok {
		return 0, false, false
	}
	l, some := s.m.lowerBound(q)
	if !some || l > s.vmin+s.span {
		// Above the segment: the next segment's first value, if any.
		next, carry := bits.Add64(s.base, s.span, 1)
		return next, carry != 0 || next > sm.total, true
	}
	return s.base + max(l, s.vmin) - s.vmin, false, true
}

// upperBound returns the largest value a key < q can have; empty and ok as
// for lowerBound.
func (sm *rangeSegmentedMap) upperBound(q []byte, c *rangeSegCache) (v uint64, empty, ok bool) {
	i, ok := sm.find(q, true)
	if !ok {
		return 0, false, false
	}
	if i < 0 {
		return 0, true, true
	}
	s, ok := sm.cached(i, c)
	if !ok {
		return 0, false, false
	}
	u, some := s.m.upperBound(q)
	if !some || u < s.vmin {
		// Below the segment (cannot happen: its first key is < q), so
		// answer conservatively with the whole segment.
		u = s.vmin + s.span
	}
	return s.base + min(u, s.vmin+s.span) - s.vmin, false, true
}
