// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"math/bits"
)

// The range filter works on integers, keys are byte strings: a table-local
// key map turns each key into a uint64 so that key order becomes integer
// order, and so that neighbouring keys of the table land on neighbouring
// integers (what a range filter's false-positive rate depends on is how many
// integers a query covers, so a map that spreads keys apart is as bad as a
// long query).
//
// # The map
//
// Let the table's keys (Split prefixes, sorted, distinct) be k_1 < ... < k_n,
// in bytewise order; a table whose keys come in several shapes gets one such
// map per segment of keys (keymap_segments.go). Byte positions are read as digits of a mixed-radix
// number:
//
//   - Positions before the common prefix length c (lcp(k_1, k_n), which is
//     the common prefix of all keys) are the same for every key and are not
//     digits; they are compared as a literal.
//   - Position j >= c is a digit whose alphabet is the range [lo_j, hi_j] of
//     the bytes the keys hold there, plus a "missing" symbol below every byte
//     when some key is no longer than j (that is, j >= minLen). Its radix is
//     hi_j - lo_j + 1, plus one for "missing". A position where every key
//     holds the same byte has radix 1 and costs nothing, wherever it is.
//   - Digits run from c up to an end position P: as far as the product of
//     radices fits in 64 bits, but never past the longest key. Every two
//     keys differ before the distinguishing length D = max over neighbours
//     of lcp(k_i, k_i+1) + 1, so when P >= D the map is injective on the
//     table's keys. Digits past D do not tell table keys apart but tell a
//     query key from its neighbouring table key (k+1 from k), which is what
//     keeps queries that start just after a key from being false positives.
//
// This is the answer to zero padding: a "missing" byte is its own symbol, not
// 0x00, so "a" and "a\x00" stay distinct, and trailing bytes shared by all
// keys (db_bench's '0' padding, CockroachDB's sentinel) are radix-1 positions,
// not low-order digits that would spread neighbours 2^(8·pad) apart.
//
// # Why no key is lost (no false negatives)
//
// The map m is monotone: a < b implies m(a) <= m(b). Keys of the table map
// exactly: each of their bytes is inside the alphabet. An arbitrary query key
// q may hold a byte outside the alphabet at some position j, or end early; at
// the first such position the digit is rounded and every later digit is set
// so that the rounding is consistent:
//
//   - q's byte is above hi_j: digit = radix-1, every later digit maximal.
//     Every table key that agrees with q before j holds a byte <= hi_j < q[j]
//     there, so it is below q, and it maps to at most this value; every
//     table key with a larger value differs from q before j, upward. q sits
//     strictly between value v and v+1 ("above v").
//   - q's byte is below lo_j, or q ends, and j has a "missing" symbol: the
//     same, with digit = missing (0) and the rest maximal when q's byte is
//     real; when q ends, the missing digit is exact and later digits stay
//     exact (also missing).
//   - q's byte is below lo_j, or q ends, and j has no "missing" symbol: digit
//     0 and every later digit 0; q sits strictly between v-1 and v ("below
//     v").
//
// Comparing two strings digit by digit at the first difference therefore
// gives the same answer as comparing their bytes, which proves monotonicity
// and yields, for each query key, a value v and its relation to the table keys
// of value v: exact (q equals the shape of v), above, below, or, only when the
// digits stop before the longest key (P < maxLen) and q is longer than P,
// "tied": the one table key with value v agrees with q on every digit and
// only the bytes after P, its tail, decide. For tied bounds the map keeps the
// smallest and largest tail of the table: a query key whose tail is above
// every table tail is above v, one whose tail is at most the smallest tail is
// not above any key of value v, and otherwise both sides are kept.
//
// For a query [lower, upper) every table key k with lower <= k < upper then
// satisfies L <= m(k) <= U with
//
//	L = v(lower) + 1 if lower is above v(lower), else v(lower)
//	U = v(upper) - 1 if upper is exact or below v(upper), else v(upper)
//
// (ties resolved by the tails as above), so asking the integer filter about
// [L, U] loses no key. The rounding only ever widens [L, U].
//
// # Costs and limits
//
// The map stores c literal bytes, two bytes per digit position and at most
// two tails of up to 64 bytes: tens of bytes per table. Mapping a query key
// is one memcmp and one multiply-add per digit. When keys carry more than 64
// bits of information (long random binary keys, decimal strings beyond 19
// digits) the digits stop early: values may collide (the filter then counts
// one value for several keys) and query keys that share the first P bytes of
// a table key are "tied" and resolved only by the tail bounds. No key is lost
// either way; the false-positive rate on such ties is what the figures in the
// report show.

// rangeMaxDigits bounds the digit positions considered past the common
// prefix; positions beyond it act like a truncated map.
const rangeMaxDigits = 256

// rangeTailCap bounds the stored tails.
const rangeTailCap = 64

// rangeRel is how a query key relates to the table keys of its value v.
type rangeRel uint8

const (
	// rangeExact: q equals the key shape of v: keys of value v are >= q,
	// keys of smaller values are < q.
	rangeExact rangeRel = iota
	// rangeAbove: every key of value <= v is < q, every key of value > v is > q.
	rangeAbove
	// rangeBelow: every key of value < v is < q, every key of value >= v is > q.
	rangeBelow
	// rangeTied: q agrees with the key of value v on every digit; their tails
	// decide.
	rangeTied
	// rangeBelowAll and rangeAboveAll: q is outside the table's common prefix.
	rangeBelowAll
	rangeAboveAll
)

// rangeKeyList holds the distinct sorted keys of a table being built, in one
// arena.
type rangeKeyList struct {
	arena []byte
	ends  []int
}

func (l *rangeKeyList) len() int { return len(l.ends) }

func (l *rangeKeyList) at(i int) []byte {
	start := 0
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.arena[start:l.ends[i]]
}

// rangeSubList reads a list from an offset.
type rangeSubList struct {
	l    *rangeKeyList
	from int
}

func (s rangeSubList) at(i int) []byte { return s.l.at(s.from + i) }

func (l *rangeKeyList) last() []byte {
	if len(l.ends) == 0 {
		return nil
	}
	return l.at(len(l.ends) - 1)
}

func (l *rangeKeyList) add(k []byte) {
	l.arena = append(l.arena, k...)
	l.ends = append(l.ends, len(l.arena))
}

func (l *rangeKeyList) reset() {
	l.arena = l.arena[:0]
	l.ends = l.ends[:0]
}

// rangeKeyMap is the decoded form of the map's parameters. At query time it
// is filled on the stack; its slices alias the filter bytes.
type rangeKeyMap struct {
	lcp     []byte
	end     int    // P: digits cover positions [len(lcp), end)
	minLen  int    // positions >= minLen have a "missing" symbol
	alpha   []byte // lo_j, hi_j for each digit position
	full    bool   // end is the longest key length: no key has a tail
	minTail []byte // smallest tail (bytes from end) among keys longer than end
	maxTail []byte // largest tail, truncated to rangeTailCap
	// maxTailCut records that maxTail was truncated, so only a query tail
	// that leaves maxTail's prefix can be known to be above it.
	maxTailCut bool
	// constTail is the number of digits, ending at end, that every key
	// fills with one byte (lo = hi) and holds (before minLen): db_bench's
	// padding, for one. Such a digit has radix 1 and adds nothing to a
	// value, so mapKey only compares q's bytes with them. Derived from
	// alpha and minLen by setConstTail, not encoded; zero is always safe.
	constTail int
}

// setConstTail computes constTail.
func (m *rangeKeyMap) setConstTail() {
	c := len(m.lcp)
	j := m.end - c
	for j > 0 && c+j-1 < m.minLen && m.alpha[2*(j-1)] == m.alpha[2*(j-1)+1] {
		j--
	}
	m.constTail = m.end - c - j
}

// rangeCommonPrefix returns the length of the common prefix of a and b.
func rangeCommonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && string(a[i:i+8]) == string(b[i:i+8]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// rangeChooseKeyMap derives the map of keys [from, to) of a sorted distinct
// key list, from < to.
func rangeChooseKeyMap(list *rangeKeyList, from, to int) rangeKeyMap {
	keys := rangeSubList{list, from}
	n := to - from
	first, last := keys.at(0), keys.at(n-1)
	c := rangeCommonPrefix(first, last)
	minLen, maxLen := len(first), len(first)
	for i := 1; i < n; i++ {
		k := keys.at(i)
		minLen, maxLen = min(minLen, len(k)), max(maxLen, len(k))
	}
	limit := min(maxLen, c+rangeMaxDigits)
	alpha := make([]byte, 2*(limit-c))
	for j := range limit - c {
		alpha[2*j], alpha[2*j+1] = 0xff, 0
	}
	for i := range n {
		k := keys.at(i)
		for j := c; j < min(len(k), limit); j++ {
			b := k[j]
			if b < alpha[2*(j-c)] {
				alpha[2*(j-c)] = b
			}
			if b > alpha[2*(j-c)+1] {
				alpha[2*(j-c)+1] = b
			}
		}
	}
	// Extend the digits while the radix product fits in 64 bits.
	maxVal := uint64(0) // product of radices - 1
	end := c
	for end < limit {
		r := uint64(alpha[2*(end-c)+1]) - uint64(alpha[2*(end-c)]) + 1
		if end >= minLen {
			r++
		}
		hi, lo := bits.Mul64(maxVal, r)
		lo, carry := bits.Add64(lo, r-1, 0)
		if hi != 0 || carry != 0 {
			break
		}
		maxVal = lo
		end++
	}
	m := rangeKeyMap{
		lcp:    first[:c:c],
		end:    end,
		minLen: minLen,
		alpha:  alpha[:2*(end-c)],
		full:   end == maxLen,
	}
	m.setConstTail()
	if !m.full {
		for i := range n {
			k := keys.at(i)
			if len(k) < end {
				continue
			}
			t := k[end:]
			if m.minTail == nil || bytes.Compare(t, m.minTail) < 0 {
				m.minTail = t[:min(len(t), rangeTailCap):min(len(t), rangeTailCap)]
			}
			if m.maxTail == nil || bytes.Compare(t, m.maxTail) > 0 {
				m.maxTail = t
			}
		}
		if len(m.maxTail) > rangeTailCap {
			m.maxTail, m.maxTailCut = m.maxTail[:rangeTailCap], true
		}
		// A truncated minTail is a prefix of the true one, hence no larger: safe.
	}
	return m
}

// mapKey returns the value of q and how q relates to the keys of that value.
func (m *rangeKeyMap) mapKey(q []byte) (uint64, rangeRel) {
	c := len(m.lcp)
	if len(q) < c {
		if bytes.Compare(q, m.lcp[:len(q)]) > 0 {
			return 0, rangeAboveAll
		}
		return 0, rangeBelowAll // a proper prefix of lcp is below every key
	}
	if cmp := bytes.Compare(q[:c], m.lcp); cmp != 0 {
		if cmp < 0 {
			return 0, rangeBelowAll
		}
		return 0, rangeAboveAll
	}
	// Digits are read while q agrees with the alphabet; at the first digit
	// that rounds, the rest of the digits are fixed (all zero or all
	// maximal) and q's bytes are no longer read.
	rel := rangeExact
	v := uint64(0)
	nd := m.end - c
	alpha := m.alpha[:2*nd]
	j := 0
	fillMax := false
	constFrom := nd - m.constTail
	for ; j < constFrom; j++ {
		pos := c + j
		lo, hi := alpha[2*j], alpha[2*j+1]
		radix := uint64(hi) - uint64(lo) + 1
		missing := pos >= m.minLen
		if missing {
			radix++
		}
		if pos >= len(q) {
			if missing {
				// The missing symbol, exact; every later position is past
				// minLen too, so every later digit is also missing.
				v *= radix
				continue
			}
			rel = rangeBelow // digit 0 here and later
			break
		}
		b := q[pos]
		if b < lo {
			if missing {
				// Digit missing (0), the rest maximal.
				rel, fillMax = rangeAbove, true
				v *= radix
				j++
				break
			}
			rel = rangeBelow
			break
		}
		if b > hi {
			rel, fillMax = rangeAbove, true
			v = v*radix + radix - 1
			j++
			break
		}
		dig := uint64(b - lo)
		if missing {
			dig++
		}
		v = v*radix + dig
	}
	if rel == rangeExact && j == constFrom {
		// Every digit so far was exact (a rounding digit breaks out with
		// rel set, and may leave j here too). The constant digits: q's
		// bytes only decide how q relates to the keys of value v, which
		// they leave unchanged (radix 1).
		for ; j < nd; j++ {
			pos := c + j
			if pos >= len(q) {
				rel = rangeBelow
				break
			}
			if b := q[pos]; b != alpha[2*j] {
				if b < alpha[2*j] {
					rel = rangeBelow
				} else {
					rel = rangeAbove
				}
				break
			}
		}
		j = nd
	}
	// Fill the remaining digits with zeros or maxima.
	for ; j < nd; j++ {
		radix := uint64(alpha[2*j+1]) - uint64(alpha[2*j]) + 1
		if c+j >= m.minLen {
			radix++
		}
		v *= radix
		if fillMax {
			v += radix - 1
		}
	}
	if rel == rangeExact && len(q) > m.end {
		// q agrees with the shape of v and goes on. If the digits cover whole
		// keys, the key of value v is a proper prefix of q.
		if m.full {
			return v, rangeAbove
		}
		return v, rangeTied
	}
	if rel == rangeBelow && v == 0 {
		return 0, rangeBelowAll
	}
	return v, rel
}

// lowerBound returns the smallest value a key >= q can have; ok is false
// when no key can be >= q.
func (m *rangeKeyMap) lowerBound(q []byte) (uint64, bool) {
	v, rel := m.mapKey(q)
	switch rel {
	case rangeBelowAll:
		return 0, true
	case rangeAboveAll:
		return 0, false
	case rangeAbove:
		return v + 1, v != ^uint64(0)
	case rangeTied:
		tail := q[m.end:]
		if bytes.Compare(tail, m.maxTail) > 0 && !(m.maxTailCut && bytes.HasPrefix(tail, m.maxTail)) {
			return v + 1, v != ^uint64(0)
		}
	}
	return v, true
}

// upperBound returns the largest value a key < q can have; ok is false when
// no key can be < q.
func (m *rangeKeyMap) upperBound(q []byte) (uint64, bool) {
	v, rel := m.mapKey(q)
	switch rel {
	case rangeBelowAll:
		return 0, false
	case rangeAboveAll:
		return ^uint64(0), true
	case rangeExact, rangeBelow:
		return v - 1, v != 0
	case rangeTied:
		if bytes.Compare(q[m.end:], m.minTail) <= 0 {
			return v - 1, v != 0
		}
	}
	return v, true
}
