// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/redact"
)

// A range filter answers "may any key of this table lie in [lower, upper)?"
// with no false negatives, so a bounded scan can skip a table that holds
// nothing for it. It is built once per sstable, over the Comparer.Split
// prefixes of the table's point keys, and queried in place on its bytes.
//
// Building takes three steps:
//
//  1. The table-local key map (keymap.go, per segment of keys of one shape,
//     keymap_segments.go) turns the sorted keys into nondecreasing uint64
//     values, order-preserving and dense.
//  2. If storing those values exactly fits the budget (Elias-Fano needs about
//     2 + log2(u/n) bits per key for n values spanning u integers), they are
//     stored as they are: the filter is then exact for every query whose
//     bounds the map represents exactly, e.g. db_bench keys at ~9 bits/key.
//  3. Otherwise the values are hashed into r = n·2^(B-2) integers by the
//     locality-preserving hash of range_hash.go and the hashes are stored
//     with Elias-Fano (eliasfano.go). A query covering ℓ integers is a false
//     positive with probability at most ℓ/2^(B-2), whatever the keys and the
//     query. The lower bound for any range filter is about log2(ℓ/ε) bits per
//     key, so this is within 2 bits per key of optimal.
//
// A query maps its bounds with the same map (rounding outward where they are
// not table keys), clamps them to the smallest and largest stored value, and
// asks Elias-Fano about at most four intervals. It reads only the header,
// the one or two segment records it needs and a few words, and allocates
// nothing. The segment of the lower bound is parsed once per query; the
// upper bound, which usually falls in the same segment, skips the segment
// search (a table of one segment, most tables, skips it for both bounds).
// Of the next segment, whose first key ends the search, only the checksum
// is checked, not the fields. Its cost: one CRC of the
// header, one of the segment record, a multiply-add per digit of each bound,
// and the Elias-Fano lookup (a sampled select and usually one cache miss in
// the low bits). The filter is worth consulting only while a query costs
// well under what a binary search over the table's keys would (the cost of
// reading the table's index); docs/benchmarks.md gives the measured ratio
// and the command that measures it.
//
// Both checksums run on every query, on purpose: a corrupt filter must
// answer "may intersect", never a wrong "no". Their cost is in the bytes
// they cover (under 200 each), not in the number of calls, so one checksum
// over header and record together would save nothing and would cost more
// for tables of several segments. The filter does not remember which
// filters it has verified: that needs an identity that address reuse cannot
// fool, whose lookup costs more than the checksums it would save, and
// MayIntersect takes a caller's []byte that may change between calls, which
// a cache cannot see.
//
// # Encoding, version 2
//
// Version 2 keeps everything a query needs at fixed offsets, so a query reads
// the header with plain loads (version 1 parsed varints on every query).
// All integers are little-endian.
//
//	0   magic   "RF", version byte 2, flags byte
//	            flags: 1 hashed, 8 universal (answers "may intersect" to all)
//	4   l       uint8   Elias-Fano low bits
//	5   zero    uint8
//	6   S       uint16  key-map segments (0 when n = 0 or universal)
//	8   areaLen uint32  bytes of segment records
//	12  zero    uint32
//	16  keys    uint64  distinct Split prefixes added
//	24  n       uint64  values stored in Elias-Fano (0: the table has no key)
//	32  total   uint64  largest mapped value
//	40  r, a, b uint64  the hash (zero unless hashed)
//	64  offsets S uint32 offsets of the segment records in the area
//	    crc     uint32  CRC-32C of the header and the offsets
//	    area    S segment records (keymap_segments.go), each with its own
//	            CRC-32C and its index
//	    body    Elias-Fano arrays (eliasfano.go) over r, or total+1, values
//
// A universal or empty filter is the 68 bytes of header and checksum alone.
// Bytes that do not parse, carry another version (version 1 included), fail
// a checksum or break an Elias-Fano invariant make the filter answer "may
// intersect", and a Policy's bounds filters count them (see the policy's counts).
// The Elias-Fano body is not checksummed per query (that would cost a pass
// over the filter); Pebble checksums the properties block it lives in when
// the table is read.

// rangeVersion is the encoding version written by this package.
const rangeVersion = 2

// rangeHeaderLen is the length of the fixed header.
const rangeHeaderLen = 64

const (
	rangeMagic0, rangeMagic1 = 'R', 'F'

	rangeFlagHashed    = 1
	rangeFlagUniversal = 8
	rangeFlagsKnown    = rangeFlagHashed | rangeFlagUniversal
)

// DefaultBitsPerKey is the default budget: with it ranges up to 32
// key positions have a false-positive bound of 32/2^14 = 0.2%.
const DefaultBitsPerKey = 16

// Config configures range filters.
type Config struct {
	// BitsPerKey is the space budget per distinct Split prefix, between 4 and
	// 40. The filter takes about BitsPerKey + 0.2 bits per key plus a header
	// of tens of bytes, or less when the keys can be stored exactly in fewer
	// bits. Zero means DefaultBitsPerKey.
	BitsPerKey float64
	// Seed fixes the per-table hash parameters, for reproducible tests and
	// benchmarks. Zero draws them at random for every table, which keeps an
	// adversary who knows the code from crafting keys that collide.
	Seed uint64
}

// ConfigFor returns the budget that bounds the false-positive
// rate of ranges of up to maxRangeLen key positions by fpr:
// B = 2 + log2(maxRangeLen/fpr), rounded up to a quarter bit.
func ConfigFor(maxRangeLen int, fpr float64) (Config, error) {
	if maxRangeLen < 1 || !(fpr > 0 && fpr < 1) {
		return Config{}, errors.Newf("rangefilter: need maxRangeLen >= 1 and 0 < fpr < 1, got %d and %g", maxRangeLen, fpr)
	}
	b := math.Ceil(4*(2+math.Log2(float64(maxRangeLen)/fpr))) / 4
	cfg := Config{BitsPerKey: b}
	return cfg, cfg.Validate()
}

// Validate returns an error naming the bad field.
func (c Config) Validate() error {
	if c.BitsPerKey != 0 && !(c.BitsPerKey >= 4 && c.BitsPerKey <= 40) {
		return errors.Newf("rangefilter: BitsPerKey %g outside [4, 40]", c.BitsPerKey)
	}
	return nil
}

func (c Config) bitsPerKey() float64 {
	if c.BitsPerKey == 0 {
		return DefaultBitsPerKey
	}
	return c.BitsPerKey
}

// FPRBound returns the guaranteed false-positive bound ℓ/2^(B-2) for a query
// covering rangeLen key positions (capped at 1). Exactly stored key sets do
// better: no false positives at bounds the map represents exactly.
func (c Config) FPRBound(rangeLen int) float64 {
	return min(1, float64(rangeLen)/math.Exp2(c.bitsPerKey()-2))
}

// Builder builds one range filter from keys added in bytewise
// ascending order. It is not safe for concurrent use; Finish leaves it
// ready for the next filter.
type Builder struct {
	cfg       Config
	keys      rangeKeyList
	unordered bool
	vals      []uint64
	// scratch is sortBounded's second buffer, and digits a segment's map as
	// mapSegments reads it, kept so that a builder kept between tables
	// allocates little.
	scratch []uint64
	digits  []rangeDigit
	// out is a Policy's collector's buffer for the filter, which the
	// property map then copies.
	out []byte
}

// NewBuilder returns a builder, or an error for a bad config.
func NewBuilder(cfg Config) (*Builder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Builder{cfg: cfg}, nil
}

// Add adds a key. Keys must come in nondecreasing bytewise order; repeats of
// the previous key are ignored. A key below the previous one is an error,
// and the filter the builder then finishes is universal (it says "may
// intersect" to every query), so a caller that goes on loses nothing.
func (b *Builder) Add(key []byte) error {
	if b.unordered {
		return nil
	}
	last := b.keys.last()
	shared := rangeCommonPrefix(key, last)
	if b.keys.len() > 0 {
		if shared == len(key) && shared == len(last) {
			return nil
		}
		if shared == len(key) || (shared < len(last) && key[shared] < last[shared]) {
			b.unordered = true
			// errors.Newf marks its arguments unsafe, so the keys are redactable.
			return errors.Newf("rangefilter: key %q added after %q: keys must be in bytewise order",
				redact.Unsafe(string(key)), redact.Unsafe(string(last)))
		}
	}
	b.keys.push(key, shared)
	return nil
}

// reset forgets the keys added.
func (b *Builder) reset() {
	b.keys.reset()
	b.unordered = false
}

// footprint returns the bytes b's buffers hold.
func (b *Builder) footprint() int {
	l := &b.keys
	return cap(l.arena) + cap(b.out) + 8*cap(l.ends) + 2*cap(l.shared) + 8*(cap(b.vals)+cap(b.scratch)) +
		int(unsafe.Sizeof(rangeDigit{}))*cap(b.digits)
}

// Finish appends the filter to dst and resets the builder.
func (b *Builder) Finish(dst []byte) []byte {
	defer b.reset()
	var hdr [rangeHeaderLen]byte
	hdr[0], hdr[1], hdr[2] = rangeMagic0, rangeMagic1, rangeVersion
	if b.unordered {
		hdr[3] = rangeFlagUniversal
		return rangeAppendHeader(dst, &hdr, nil)
	}
	n := b.keys.len()
	binary.LittleEndian.PutUint64(hdr[16:], uint64(n))
	if n == 0 {
		return rangeAppendHeader(dst, &hdr, nil)
	}
	// Map each segment's keys; lay the segments end to end on the value axis.
	starts := rangeSegmentStarts(&b.keys)
	segs, vals, ok := b.mapSegments(starts)
	if !ok {
		starts = starts[:1]
		segs, vals, _ = b.mapSegments(starts)
	}
	span := vals[len(vals)-1]

	// Exact storage, or hashing into r = n·2^(B-2): whichever is smaller.
	// A span of 2^64-1 (u = 2^64) cannot be stored exactly; it must be hashed.
	nv := uint64(len(vals))
	u := span + 1
	hashed := false
	var h rangeHash
	rf := min(float64(nv)*math.Exp2(b.cfg.bitsPerKey()-2), 1<<62)
	if span == math.MaxUint64 || rf < float64(u) {
		r := max(uint64(rf), nv)
		exact, _ := efLayoutFor(nv, u, efLowBits(nv, u))
		reduced, _ := efLayoutFor(nv, r, efLowBits(nv, r))
		if span == math.MaxUint64 || exact.size() > reduced.size() {
			hashed = true
			seed := b.cfg.Seed
			if seed == 0 {
				seed = rand.Uint64()
			}
			pcg := rand.New(rand.NewPCG(seed, uint64(n)))
			h = rangeHash{r: r, a: 1 + pcg.Uint64N(rangeMersenne61-1), b: pcg.Uint64N(rangeMersenne61)}
			for i, x := range vals {
				vals[i] = h.apply(x)
			}
			b.scratch = sortBounded(vals, r, b.scratch)
			vals = slices.Compact(vals)
			u = r
		}
	}
	b.vals = vals

	var area []byte
	offsets := make([]byte, 0, 4*len(segs))
	for i := range segs {
		offsets = binary.LittleEndian.AppendUint32(offsets, uint32(len(area)))
		area = rangeAppendSegment(area, &segs[i], i)
	}
	l := efLowBits(uint64(len(vals)), u)
	if hashed {
		hdr[3] = rangeFlagHashed
		binary.LittleEndian.PutUint64(hdr[40:], h.r)
		binary.LittleEndian.PutUint64(hdr[48:], h.a)
		binary.LittleEndian.PutUint64(hdr[56:], h.b)
	}
	hdr[4] = byte(l)
	binary.LittleEndian.PutUint16(hdr[6:], uint16(len(segs)))
	binary.LittleEndian.PutUint32(hdr[8:], uint32(len(area)))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(len(vals)))
	binary.LittleEndian.PutUint64(hdr[32:], span)
	dst = rangeAppendHeader(dst, &hdr, offsets)
	dst = append(dst, area...)
	return efAppend(dst, vals, u, l)
}

// rangeAppendHeader appends the fixed header, the segment offsets and their
// checksum.
func rangeAppendHeader(dst []byte, hdr *[rangeHeaderLen]byte, offsets []byte) []byte {
	start := len(dst)
	dst = append(dst, hdr[:]...)
	dst = append(dst, offsets...)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], rangeCastagnoli))
}

// mapSegments maps the keys of each segment, returning the segments and the
// keys' distinct global values (nondecreasing), or false when the segments
// do not fit side by side in 64 bits.
func (b *Builder) mapSegments(starts []int) ([]rangeSegment, []uint64, bool) {
	n := b.keys.len()
	segs := make([]rangeSegment, len(starts))
	vals := b.vals[:0]
	base := uint64(0)
	for si, from := range starts {
		to := n
		if si+1 < len(starts) {
			to = starts[si+1]
		}
		s := &segs[si]
		s.first = b.keys.at(from)
		s.m = rangeChooseKeyMap(&b.keys, from, to)
		s.base = base
		segStart := len(vals)
		b.digits = s.m.tableDigits(b.digits)
		c, start := len(s.m.lcp), b.keys.start(from)
		for _, end := range b.keys.ends[from:to] {
			v := rangeTableValue(b.keys.arena[start:end], c, b.digits)
			start = end
			if len(vals) == segStart || v != vals[len(vals)-1] {
				vals = append(rangeGrow(vals, 1), v)
			}
		}
		s.vmin, s.span = vals[segStart], vals[len(vals)-1]-vals[segStart]
		for i := segStart; i < len(vals); i++ {
			vals[i] = vals[i] - s.vmin + base
		}
		next, carry := bits.Add64(base, s.span, 1)
		if carry != 0 && si+1 < len(starts) {
			b.vals = vals
			return nil, nil, false
		}
		base = next
	}
	b.vals = vals
	return segs, vals, true
}

var rangeCastagnoli = crc32.MakeTable(crc32.Castagnoli)

// MayIntersect reports whether the table whose range filter is filter
// may hold a key k with lower <= k < upper; a nil upper means no upper bound
// (and a nil lower no lower bound). The bounds are compared bytewise with the
// Split prefixes the filter was built from, so pass Split prefixes, or any
// bounds: a bound that is not a prefix is rounded outward.
//
// It reads filter in place and does not allocate. A filter that does not
// decode answers true; a Policy's bounds filters count such answers in the
// policy's counts.
func MayIntersect(filter, lower, upper []byte) bool {
	found, ok := rangeQuery(filter, lower, upper)
	return found || !ok
}

// rangeFilterView is a parsed filter; its slices alias the filter bytes.
type rangeFilterView struct {
	flags   byte
	keys, n uint64
	segs    rangeSegmentedMap
	h       rangeHash
	ef      efView
}

// rangeParse checks a filter's fixed header and locates its segments and
// Elias-Fano arrays: a checksum and plain loads at fixed offsets. ok is
// false for corrupt bytes. Segment records are checked when a query uses
// them.
func rangeParse(f []byte) (v rangeFilterView, ok bool) {
	ok = v.parse(f)
	return v, ok
}

// parse fills v in place; see rangeParse.
func (v *rangeFilterView) parse(f []byte) bool {
	if len(f) < rangeHeaderLen+4 || f[0] != rangeMagic0 || f[1] != rangeMagic1 || f[2] != rangeVersion ||
		f[3]&^rangeFlagsKnown != 0 || f[5] != 0 || binary.LittleEndian.Uint32(f[12:]) != 0 {
		return false
	}
	count := uint64(binary.LittleEndian.Uint16(f[6:]))
	crcAt := rangeHeaderLen + 4*count
	if count > rangeMaxSegments || uint64(len(f)) < crcAt+4 ||
		binary.LittleEndian.Uint32(f[crcAt:]) != crc32.Checksum(f[:crcAt], rangeCastagnoli) {
		return false
	}
	v.flags = f[3]
	l := uint(f[4])
	areaLen := uint64(binary.LittleEndian.Uint32(f[8:]))
	v.keys = binary.LittleEndian.Uint64(f[16:])
	v.n = binary.LittleEndian.Uint64(f[24:])
	rest := f[crcAt+4:]
	if v.n == 0 || v.flags&rangeFlagUniversal != 0 {
		return len(rest) == 0 && count == 0 && areaLen == 0
	}
	if count == 0 || uint64(len(rest)) < areaLen || l > 63 {
		return false
	}
	v.segs.count = int(count)
	v.segs.offsets = f[rangeHeaderLen:crcAt:crcAt]
	v.segs.area = rest[:areaLen:areaLen]
	v.segs.total = binary.LittleEndian.Uint64(f[32:])
	u := v.segs.total + 1
	if v.flags&rangeFlagHashed != 0 {
		v.h.r = binary.LittleEndian.Uint64(f[40:])
		v.h.a = binary.LittleEndian.Uint64(f[48:])
		v.h.b = binary.LittleEndian.Uint64(f[56:])
		if v.h.r == 0 || v.h.a >= rangeMersenne61 || v.h.b >= rangeMersenne61 {
			return false
		}
		u = v.h.r
	}
	if u == 0 {
		return false // an exact filter cannot span 2^64 values
	}
	tail, ok := v.ef.parse(rest[areaLen:], v.n, u, l)
	return ok && len(tail) == 0
}

// rangeQuery answers a query; ok is false for corrupt bytes.
func rangeQuery(f, lower, upper []byte) (found, ok bool) {
	var v rangeFilterView
	if !v.parse(f) {
		return false, false
	}
	if v.flags&rangeFlagUniversal != 0 {
		return true, true
	}
	if v.n == 0 {
		return false, true
	}
	lo, hi, empty, ok := v.valueRange(lower, upper)
	if !ok || empty {
		return false, ok
	}
	if v.flags&rangeFlagHashed == 0 {
		return v.ef.anyInRange(lo, hi)
	}
	return v.h.anyInRange(&v.ef, lo, hi)
}

// valueRange maps query bounds (nil: open) through the key map onto the
// filter's values: [lo, hi], or empty when no key in the bounds can have a
// value. ok is false for corrupt bytes.
func (v *rangeFilterView) valueRange(lower, upper []byte) (lo, hi uint64, empty, ok bool) {
	lo, hi = 0, v.segs.total
	var cache rangeSegCache
	if v.segs.count == 1 {
		// The common case: parse the one segment up front, so that both
		// bounds skip the search.
		if _, ok = v.segs.cached(0, &cache); !ok {
			return 0, 0, false, false
		}
	}
	if lower != nil {
		if lo, empty, ok = v.segs.lowerBound(lower, &cache); !ok || empty {
			return lo, hi, empty, ok
		}
	}
	if upper != nil {
		if hi, empty, ok = v.segs.upperBound(upper, &cache); !ok || empty {
			return lo, hi, empty, ok
		}
	}
	return lo, hi, lo > hi, true
}

// Info describes an encoded filter, for reports and tests.
type Info struct {
	Keys      uint64 // distinct Split prefixes added
	Values    uint64 // values stored
	Segments  int    // key-map segments
	Hashed    bool   // values reduced by the hash (false: stored exactly)
	FullMap   bool   // every segment's key map covers whole keys
	Universal bool   // built from unordered keys: answers true to everything
	Size      int    // bytes
}

// BitsPerKey returns the filter's size in bits per key.
func (i Info) BitsPerKey() float64 {
	if i.Keys == 0 {
		return 0
	}
	return float64(8*i.Size) / float64(i.Keys)
}

// Describe decodes a filter's header; it returns an error when
// the bytes do not decode.
func Describe(filter []byte) (Info, error) {
	v, ok := rangeParse(filter)
	if !ok {
		return Info{}, errors.New("rangefilter: range filter does not decode")
	}
	info := Info{
		Keys:      v.keys,
		Values:    v.n,
		Segments:  v.segs.count,
		Hashed:    v.flags&rangeFlagHashed != 0,
		FullMap:   v.n > 0,
		Universal: v.flags&rangeFlagUniversal != 0,
		Size:      len(filter),
	}
	for i := range v.segs.count {
		s, ok := v.segs.segment(i)
		if !ok {
			return Info{}, errors.New("rangefilter: range filter segment does not decode")
		}
		info.FullMap = info.FullMap && s.m.full
	}
	return info, nil
}
