// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"bytes"
	"math/bits"
	"slices"
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
// arena, with the length of the prefix each shares with the key before it
// (capped at rangeMaxShared; 0 for the first).
type rangeKeyList struct {
	arena  []byte
	ends   []int
	shared []uint16
}

// rangeMaxShared caps a stored shared-prefix length; a capped length only
// makes rangeChooseKeyMap read more bytes than it needs.
const rangeMaxShared = 1<<16 - 1

func (l *rangeKeyList) len() int { return len(l.ends) }

func (l *rangeKeyList) at(i int) []byte { return l.arena[l.start(i):l.ends[i]] }

// start returns where key i begins in the arena.
func (l *rangeKeyList) start(i int) int {
	if i == 0 {
		return 0
	}
	return l.ends[i-1]
}

func (l *rangeKeyList) last() []byte {
	if len(l.ends) == 0 {
		return nil
	}
	return l.at(len(l.ends) - 1)
}

// push adds k, which shares its first shared bytes with the last key.
func (l *rangeKeyList) push(k []byte, shared int) {
	l.arena = append(rangeGrow(l.arena, len(k)), k...)
	l.ends = append(rangeGrow(l.ends, 1), len(l.arena))
	l.shared = append(rangeGrow(l.shared, 1), uint16(min(shared, rangeMaxShared)))
}

// rangeGrow returns s with room for n more elements, doubling its capacity
// when it must grow: append grows a large slice by a quarter at a time,
// which copies a fresh builder's keys about four times over on their way
// to a table's size, where doubling copies them once.
func rangeGrow[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	return slices.Grow(s, max(n, cap(s), 64))
}

func (l *rangeKeyList) reset() {
	l.arena = l.arena[:0]
	l.ends = l.ends[:0]
	l.shared = l.shared[:0]
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
// key list, from < to. Building a filter pays for it on every table a DB
// writes, so it reads the keys once, and a second time only when some key is
// longer than the digits reach (for the tails).
func rangeChooseKeyMap(list *rangeKeyList, from, to int) rangeKeyMap {
	first, last := list.at(from), list.at(to-1)
	// Sorted keys between first and last share their common prefix, so
	// every key is at least c long.
	c := rangeCommonPrefix(first, last)
	var lo, hi [rangeMaxDigits]byte
	for j := range lo {
		lo[j] = 0xff
	}
	// A key's bytes before the prefix it shares with the key before it are
	// that key's, already counted: the alphabets need only the rest, which
	// for keys as dense as a table's is a byte or two.
	minLen, maxLen := len(first), len(first)
	start := list.start(from)
	for i, end := range list.ends[from:to] {
		k := list.arena[start:end]
		start = end
		minLen, maxLen = min(minLen, len(k)), max(maxLen, len(k))
		p := c
		if i > 0 {
			p = max(c, int(list.shared[from+i]))
		}
		if p >= c+rangeMaxDigits {
			continue
		}
		d := k[p:min(len(k), c+rangeMaxDigits)]
		l, h := lo[p-c:p-c+len(d)], hi[p-c:p-c+len(d)]
		for j, b := range d {
			// Branches, not min and max: a byte seldom widens its range,
			// and a store on every byte would chain each key's loads to
			// the key before's stores.
			if b < l[j] {
				l[j] = b
			}
			if b > h[j] {
				h[j] = b
			}
		}
	}
	limit := min(maxLen, c+rangeMaxDigits)
	// Extend the digits while the radix product fits in 64 bits.
	maxVal := uint64(0) // product of radices - 1
	end := c
	for end < limit {
		r := uint64(hi[end-c]) - uint64(lo[end-c]) + 1
		if end >= minLen {
			r++
		}
		ph, pl := bits.Mul64(maxVal, r)
		pl, carry := bits.Add64(pl, r-1, 0)
		if ph != 0 || carry != 0 {
			break
		}
		maxVal = pl
		end++
	}
	alpha := make([]byte, 2*(end-c))
	for j := range end - c {
		alpha[2*j], alpha[2*j+1] = lo[j], hi[j]
	}
	m := rangeKeyMap{
		lcp:    first[:c:c],
		end:    end,
		minLen: minLen,
		alpha:  alpha,
		full:   end == maxLen,
	}
	m.setConstTail()
	if !m.full {
		start := list.start(from)
		for _, e := range list.ends[from:to] {
			k := list.arena[start:e]
			start = e
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

// rangeDigit is one digit of a map as the builder reads it: table keys hold
// only bytes of their alphabet, so no digit of theirs rounds, and a key's
// value is the plain sum of its digits times their weights (the product of
// the later radices) rather than mapKey's chain of multiply-adds.
type rangeDigit struct {
	lo      uint64
	missing uint64 // 1 when the digit has a "missing" symbol
	weight  uint64
}

// tableDigits appends to dst the digits a table key's value depends on: all
// but the constant ones, which add nothing.
func (m *rangeKeyMap) tableDigits(dst []rangeDigit) []rangeDigit {
	c := len(m.lcp)
	nd := m.end - c - m.constTail
	dst = slices.Grow(dst[:0], nd)[:nd]
	w := uint64(1) // the constant digits' radices are 1
	for j := nd - 1; j >= 0; j-- {
		lo, hi := uint64(m.alpha[2*j]), uint64(m.alpha[2*j+1])
		d := rangeDigit{lo: lo, weight: w}
		radix := hi - lo + 1
		if c+j >= m.minLen {
			d.missing = 1
			radix++
		}
		dst[j] = d
		// Every weight fits in 64 bits: the product of all radices is at
		// most 2^64 (the map's digits stop where it would not be), and the
		// last product, which may wrap, is never used.
		w *= radix
	}
	return dst
}

// rangeTableValue is mapKey's value for k, a key the map was chosen over,
// read with the map's tableDigits ds.
func rangeTableValue(k []byte, c int, ds []rangeDigit) uint64 {
	// A digit past k's end is "missing" (0): k is at least minLen long, so
	// every such position has the symbol.
	d := k[c:]
	if len(d) > len(ds) {
		d = d[:len(ds)]
	}
	ds = ds[:len(d)]
	v := uint64(0)
	for j, b := range d {
		v += (uint64(b) - ds[j].lo + ds[j].missing) * ds[j].weight
	}
	return v
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
