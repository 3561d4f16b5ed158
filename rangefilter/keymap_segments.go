// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// One mixed-radix map per table is dense only when the table's keys share a
// shape. Keys whose informative bytes sit at different positions break that:
// CockroachDB encodes integer primary keys as varints whose length grows with
// the value, so in a table holding ids 5,000 and 50,000,000 the last byte of
// a short id sits where long ids keep their third byte. One alphabet per
// position then spans both, and neighbouring short ids end up hundreds of
// values apart, which multiplies a range's length ℓ in the false-positive
// bound ℓ/2^(B-2) by as much.
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
	keyLen := func(i int) int { return list.ends[i] - list.start(i) }
	for i := 0; i < n; {
		j, li := i+1, keyLen(i)
		for j < n && keyLen(j) == li {
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
	rangeSegFlags   = rangeSegFull | rangeSegTailCut
)

// A segment record (version 2) has a fixed-size front, so that a query reads
// its fields with plain loads instead of parsing varints, followed by its
// variable bytes. All integers are little-endian.
//
//	0   crc     uint32  CRC-32C of bytes [4, recLen)
//	4   recLen  uint32  length of the whole record
//	8   index   uint16  the segment's index (a corrupt offset that points
//	                    at another valid record is caught by it)
//	10  flags   uint8   1 whole keys, 2 max tail truncated
//	11  minTail uint8   length of the smallest tail (0 with whole keys)
//	12  maxTail uint8   length of the largest tail (0 with whole keys)
//	13  zero    3 bytes
//	16  first   uint32  length of the segment's first key
//	20  lcp     uint32  common prefix length c (a prefix of the first key)
//	24  end     uint32  P: digits cover positions [c, P)
//	28  minLen  uint32  shortest key length
//	32  vmin    uint64  smallest value the segment's own map gives
//	40  span    uint64  largest minus smallest value
//	48  base    uint64  where the segment starts on the value axis
//	56  first key, 2 alphabet bytes per digit, smallest tail, largest tail
const rangeSegFixed = 56

// rangeAppendSegment appends segment idx's record with its checksum.
func rangeAppendSegment(dst []byte, s *rangeSegment, idx int) []byte {
	start := len(dst)
	flags := byte(0)
	if s.m.full {
		flags |= rangeSegFull
	}
	if s.m.maxTailCut {
		flags |= rangeSegTailCut
	}
	recLen := rangeSegFixed + len(s.first) + len(s.m.alpha) + len(s.m.minTail) + len(s.m.maxTail)
	dst = append(dst, make([]byte, rangeSegFixed)...)
	rec := dst[start:]
	binary.LittleEndian.PutUint32(rec[4:], uint32(recLen))
	binary.LittleEndian.PutUint16(rec[8:], uint16(idx))
	rec[10], rec[11], rec[12] = flags, byte(len(s.m.minTail)), byte(len(s.m.maxTail))
	binary.LittleEndian.PutUint32(rec[16:], uint32(len(s.first)))
	binary.LittleEndian.PutUint32(rec[20:], uint32(len(s.m.lcp)))
	binary.LittleEndian.PutUint32(rec[24:], uint32(s.m.end))
	binary.LittleEndian.PutUint32(rec[28:], uint32(s.m.minLen))
	binary.LittleEndian.PutUint64(rec[32:], s.vmin)
	binary.LittleEndian.PutUint64(rec[40:], s.span)
	binary.LittleEndian.PutUint64(rec[48:], s.base)
	dst = append(dst, s.first...)
	dst = append(dst, s.m.alpha...)
	dst = append(dst, s.m.minTail...)
	dst = append(dst, s.m.maxTail...)
	binary.LittleEndian.PutUint32(dst[start:], crc32.Checksum(dst[start+4:], rangeCastagnoli))
	return dst
}

// rangeSegmentFirst reads only the first key of the record at b.
func rangeSegmentFirst(b []byte) ([]byte, bool) {
	if len(b) < rangeSegFixed {
		return nil, false
	}
	n := uint64(binary.LittleEndian.Uint32(b[16:]))
	if n > uint64(len(b)-rangeSegFixed) {
		return nil, false
	}
	return b[rangeSegFixed : rangeSegFixed+n : rangeSegFixed+n], true
}

// rangeCheckSegment checks the record at b, which must be segment idx: its
// fixed fields against each other and its checksum. It returns the
// record's length.
func rangeCheckSegment(b []byte, idx int) (recLen uint64, ok bool) {
	if len(b) < rangeSegFixed {
		return 0, false
	}
	recLen = uint64(binary.LittleEndian.Uint32(b[4:]))
	firstLen := uint64(binary.LittleEndian.Uint32(b[16:]))
	lcpLen := uint64(binary.LittleEndian.Uint32(b[20:]))
	end := uint64(binary.LittleEndian.Uint32(b[24:]))
	if recLen > uint64(len(b)) || b[10]&^rangeSegFlags != 0 || int(binary.LittleEndian.Uint16(b[8:])) != idx ||
		lcpLen > firstLen || end < lcpLen || end-lcpLen > rangeMaxDigits ||
		recLen != rangeSegFixed+firstLen+2*(end-lcpLen)+uint64(b[11])+uint64(b[12]) {
		return 0, false
	}
	return recLen, binary.LittleEndian.Uint32(b) == crc32.Checksum(b[4:recLen], rangeCastagnoli)
}

// rangeParseSegment parses and checks the record at b, which must be
// segment idx, into s.
func rangeParseSegment(b []byte, idx int, s *rangeSegment) bool {
	if _, ok := rangeCheckSegment(b, idx); !ok {
		return false
	}
	firstLen := uint64(binary.LittleEndian.Uint32(b[16:]))
	lcpLen := uint64(binary.LittleEndian.Uint32(b[20:]))
	end := uint64(binary.LittleEndian.Uint32(b[24:]))
	flags := b[10]
	minTail, maxTail := uint64(b[11]), uint64(b[12])
	p := uint64(rangeSegFixed)
	s.first = b[p : p+firstLen : p+firstLen]
	s.m.lcp = s.first[:lcpLen:lcpLen]
	p += firstLen
	s.m.end, s.m.minLen = int(end), int(binary.LittleEndian.Uint32(b[28:]))
	s.m.alpha = b[p : p+2*(end-lcpLen) : p+2*(end-lcpLen)]
	s.m.setConstTail()
	p += 2 * (end - lcpLen)
	s.m.full = flags&rangeSegFull != 0
	s.m.maxTailCut = flags&rangeSegTailCut != 0
	s.m.minTail = b[p : p+minTail : p+minTail]
	p += minTail
	s.m.maxTail = b[p : p+maxTail : p+maxTail]
	if s.m.full {
		s.m.minTail, s.m.maxTail = nil, nil
	}
	s.vmin = binary.LittleEndian.Uint64(b[32:])
	s.span = binary.LittleEndian.Uint64(b[40:])
	s.base = binary.LittleEndian.Uint64(b[48:])
	return true
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
// -1, and whether the records read decoded. When c holds a parsed segment
// it first tries that one: a query's upper bound usually falls in the
// segment of its lower bound, and the first keys that decide it (the
// segment's and its successor's) were checked when c was filled.
func (sm *rangeSegmentedMap) find(q []byte, strict bool, c *rangeSegCache) (int, bool) {
	if c.idx > 0 {
		i := c.idx - 1
		if cmp := bytes.Compare(c.seg.first, q); cmp < 0 || (cmp == 0 && !strict) {
			if i+1 == sm.count {
				return i, true
			}
			if rec, ok := sm.record(i + 1); ok {
				if first, ok := rangeSegmentFirst(rec); ok {
					if cmp := bytes.Compare(first, q); cmp > 0 || (cmp == 0 && strict) {
						return i, true
					}
				}
			}
		} else if i == 0 {
			return -1, true
		}
	}
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

// cached returns segment i through c, pointing into c.
func (sm *rangeSegmentedMap) cached(i int, c *rangeSegCache) (*rangeSegment, bool) {
	if c.idx == i+1 {
		return &c.seg, true
	}
	c.idx = 0
	if !sm.segmentInto(i, &c.seg) {
		return nil, false
	}
	c.idx = i + 1
	return &c.seg, true
}

// segment parses segment i and checks the checksum of segment i+1, whose
// first key bounded the search.
func (sm *rangeSegmentedMap) segment(i int) (s rangeSegment, ok bool) {
	ok = sm.segmentInto(i, &s)
	return s, ok
}

func (sm *rangeSegmentedMap) segmentInto(i int, s *rangeSegment) bool {
	rec, ok := sm.record(i)
	if !ok || !rangeParseSegment(rec, i, s) {
		return false
	}
	if i+1 < sm.count {
		// Only its checksum matters: its first key steered the search.
		next, ok := sm.record(i + 1)
		if !ok {
			return false
		}
		if _, ok := rangeCheckSegment(next, i+1); !ok {
			return false
		}
	}
	return true
}

// lowerBound returns the smallest value a key >= q can have. empty is true
// when no key can be >= q; ok is false for corrupt bytes.
func (sm *rangeSegmentedMap) lowerBound(q []byte, c *rangeSegCache) (v uint64, empty, ok bool) {
	i, ok := sm.find(q, false, c)
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
	i, ok := sm.find(q, true, c)
	if !ok {
		return 0, false, false
	}
	if i < 0 {
		// No key is < q, which excludes the table: check the first record,
		// whose first key decided it, before answering so.
		s, ok := sm.cached(0, c)
		if !ok || bytes.Compare(s.first, q) < 0 {
			return 0, false, false
		}
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
