// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"encoding/binary"
	"math/bits"
)

// Elias-Fano stores a sorted sequence of n integers drawn from [0, u) in
// about n·(2 + log2(u/n)) bits and answers "is any value in [lo, hi]?" in
// constant expected time, reading the encoded bytes in place.
//
// Each value x is split into its l low bits and its high part x>>l, with
// l = floor(log2(u/n)) (0 when u <= n). The low parts are packed side by side,
// l bits each. The high parts are written in unary into a bit vector: value i
// sets bit (x_i>>l) + i, so bucket b (all values whose high part is b) starts
// right after the b-th zero bit (counting from one) and the values in it are
// the run of ones there. The vector holds n ones and ((u-1)>>l)+1 zeros, one
// per bucket, so about 2n bits: on average one value per bucket.
//
// Finding where bucket b starts is a select0 on that vector. To make it
// cheap without a rank/select directory, the position of every 256th zero is
// sampled (32 bits per 256 buckets, about 0.125 bits per key); a lookup jumps
// to the sample and then counts zeros a word at a time, about four words on
// average. The successor of lo is then at most one bucket scan away.
//
// Encoding (all little-endian; the caller stores n, u and l elsewhere):
//
//	high    [ceil((n + buckets)/64)]uint64  unary high parts
//	low     [ceil(n·l/64)]uint64             packed low parts
//	samples [ceil(buckets/256)]uint32        position of zero #(256·i)
//
// Every read is bounds-checked against the slices, so corrupt bytes that
// passed the size checks can make a lookup fail (reported as !ok) but never
// panic or loop without end.

const (
	efSampleShift = 8
	efSampleEvery = 1 << efSampleShift
)

// efLowBits returns the number of low bits for n values below u.
func efLowBits(n, u uint64) uint {
	if n == 0 || u <= n {
		return 0
	}
	return uint(63 - bits.LeadingZeros64(u/n))
}

// efLayout gives the word counts of the three arrays.
type efLayout struct {
	n, u       uint64
	l          uint
	buckets    uint64
	highWords  uint64
	lowWords   uint64
	numSamples uint64
}

// efLayoutFor computes the layout, or false when the sizes overflow or do
// not make sense (possible only for corrupt input).
func efLayoutFor(n, u uint64, l uint) (efLayout, bool) {
	if u == 0 || l > 63 || n > 1<<40 || u < n {
		return efLayout{}, false
	}
	buckets := (u-1)>>l + 1
	if buckets > 1<<42 {
		return efLayout{}, false
	}
	return efLayout{
		n:          n,
		u:          u,
		l:          l,
		buckets:    buckets,
		highWords:  (n + buckets + 63) / 64,
		lowWords:   (n*uint64(l) + 63) / 64,
		numSamples: (buckets + efSampleEvery - 1) / efSampleEvery,
	}, true
}

// size returns the encoded size in bytes.
func (lay efLayout) size() uint64 {
	return 8*lay.highWords + 8*lay.lowWords + 4*lay.numSamples
}

// efAppend appends the encoding of the sorted, distinct values (all < u)
// using l low bits.
func efAppend(dst []byte, vals []uint64, u uint64, l uint) []byte {
	lay, ok := efLayoutFor(uint64(len(vals)), u, l)
	if !ok {
		panic("rangefilter: invalid Elias-Fano parameters")
	}
	start := len(dst)
	dst = append(dst, make([]byte, lay.size())...)
	high := dst[start : start+int(8*lay.highWords)]
	low := dst[start+int(8*lay.highWords) : start+int(8*(lay.highWords+lay.lowWords))]
	samples := dst[start+int(8*(lay.highWords+lay.lowWords)):]
	mask := uint64(1)<<l - 1
	for i, x := range vals {
		p := x>>l + uint64(i)
		w := binary.LittleEndian.Uint64(high[8*(p/64):])
		binary.LittleEndian.PutUint64(high[8*(p/64):], w|1<<(p%64))
		if l > 0 {
			bp := uint64(i) * uint64(l)
			lo := x & mask
			w := binary.LittleEndian.Uint64(low[8*(bp/64):])
			binary.LittleEndian.PutUint64(low[8*(bp/64):], w|lo<<(bp%64))
			if bp%64+uint64(l) > 64 {
				w := binary.LittleEndian.Uint64(low[8*(bp/64+1):])
				binary.LittleEndian.PutUint64(low[8*(bp/64+1):], w|lo>>(64-bp%64))
			}
		}
	}
	// Sample the position of every 256th zero.
	zeros := uint64(0)
	for wi := uint64(0); wi < lay.highWords && zeros < lay.buckets; wi++ {
		inv := ^binary.LittleEndian.Uint64(high[8*wi:])
		c := uint64(bits.OnesCount64(inv))
		// The next sample due is zero number next; emit it if in this word.
		for next := (zeros + efSampleEvery - 1) &^ (efSampleEvery - 1); next < zeros+c && next < lay.buckets; next += efSampleEvery {
			pos := wi*64 + uint64(efSelect64(inv, uint(next-zeros)))
			binary.LittleEndian.PutUint32(samples[4*(next>>efSampleShift):], uint32(pos))
		}
		zeros += c
	}
	return dst
}

// efView reads an encoding in place. It is a value type built on the stack
// per query; its slices alias the caller's bytes.
type efView struct {
	lay     efLayout
	high    []byte
	low     []byte
	samples []byte
}

// efParse splits b into the three arrays and returns the rest of b.
func efParse(b []byte, n, u uint64, l uint) (efView, []byte, bool) {
	var e efView
	rest, ok := e.parse(b, n, u, l)
	return e, rest, ok
}

// parse fills e in place (a query keeps its view on the stack and does not
// copy it around) and returns the rest of b.
func (e *efView) parse(b []byte, n, u uint64, l uint) ([]byte, bool) {
	lay, ok := efLayoutFor(n, u, l)
	if !ok || uint64(len(b)) < lay.size() {
		return nil, false
	}
	hEnd := 8 * lay.highWords
	lEnd := hEnd + 8*lay.lowWords
	sEnd := lEnd + 4*lay.numSamples
	// Samples are 32-bit positions; a vector longer than that cannot be valid.
	if 64*lay.highWords > 1<<32 {
		return nil, false
	}
	e.lay, e.high, e.low, e.samples = lay, b[:hEnd], b[hEnd:lEnd], b[lEnd:sEnd]
	return b[sEnd:], true
}

func (e *efView) highWord(i uint64) (uint64, bool) {
	if i >= e.lay.highWords {
		return 0, false
	}
	return binary.LittleEndian.Uint64(e.high[8*i:]), true
}

// lowAt returns the low bits of value i.
func (e *efView) lowAt(i uint64) uint64 {
	l := uint64(e.lay.l)
	if l == 0 {
		return 0
	}
	bp := i * l
	wi := bp / 64
	if wi >= e.lay.lowWords {
		return 0
	}
	v := binary.LittleEndian.Uint64(e.low[8*wi:]) >> (bp % 64)
	if bp%64+l > 64 && wi+1 < e.lay.lowWords {
		v |= binary.LittleEndian.Uint64(e.low[8*(wi+1):]) << (64 - bp%64)
	}
	return v & (1<<l - 1)
}

// select0 returns the position of zero number k (from 0) in the high vector.
func (e *efView) select0(k uint64) (uint64, bool) {
	s := k >> efSampleShift
	if s >= e.lay.numSamples {
		return 0, false
	}
	pos := uint64(binary.LittleEndian.Uint32(e.samples[4*s:]))
	rem := k & (efSampleEvery - 1)
	wi := pos / 64
	w, ok := e.highWord(wi)
	if !ok {
		return 0, false
	}
	inv := ^w &^ (1<<(pos%64) - 1)
	for {
		c := uint64(bits.OnesCount64(inv))
		if rem < c {
			return wi*64 + uint64(efSelect64(inv, uint(rem))), true
		}
		rem -= c
		wi++
		if w, ok = e.highWord(wi); !ok {
			return 0, false
		}
		inv = ^w
	}
}

// nextOne returns the position of the first one bit at or after pos.
func (e *efView) nextOne(pos uint64) (uint64, bool) {
	wi := pos / 64
	w, ok := e.highWord(wi)
	if !ok {
		return 0, false
	}
	w &^= 1<<(pos%64) - 1
	for w == 0 {
		wi++
		if w, ok = e.highWord(wi); !ok {
			return 0, false
		}
	}
	return wi*64 + uint64(bits.TrailingZeros64(w)), true
}

// anyInRange reports whether some value lies in [lo, hi]. ok is false when
// the encoding turned out to be inconsistent.
func (e *efView) anyInRange(lo, hi uint64) (found, ok bool) {
	if lo > hi || e.lay.n == 0 || lo >= e.lay.u {
		return false, true
	}
	if hi >= e.lay.u {
		hi = e.lay.u - 1
	}
	b := lo >> e.lay.l
	// pos is where bucket b starts; idx is the index of its first value.
	pos := uint64(0)
	if b > 0 {
		z, ok := e.select0(b - 1)
		if !ok {
			return false, false
		}
		pos = z + 1
	}
	if pos < b {
		return false, false
	}
	for idx := pos - b; idx < e.lay.n; idx++ {
		p, ok := e.nextOne(pos)
		if !ok || p < idx {
			return false, false
		}
		x := (p-idx)<<e.lay.l | e.lowAt(idx)
		if x >= lo {
			return x <= hi, true
		}
		pos = p + 1
	}
	return false, true
}

// efSelect64 returns the position of the k-th (from 0) set bit of w; k must
// be below the number of set bits.
//
// Branch-free: the population count of each byte, summed into prefix counts
// by one multiplication, tells in which byte the bit lies (the bytes whose
// prefix count is <= k, counted with one subtraction across all eight bytes
// at once); a table finishes inside that byte.
func efSelect64(w uint64, k uint) uint {
	const (
		ones8 = 0x0101010101010101
		high8 = 0x8080808080808080
	)
	c := w - (w>>1)&0x5555555555555555
	c = c&0x3333333333333333 + (c>>2)&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f
	prefix := c * ones8 // byte i: set bits in bytes 0..i (at most 64)
	// Byte i of (k|0x80)-prefix keeps its high bit iff prefix_i <= k; no
	// byte borrows, since 0x80+k-prefix_i >= 0x80-64 > 0.
	le := ((uint64(k)*ones8 | high8) - prefix) & high8
	shift := uint(bits.OnesCount64(le)) * 8
	if shift >= 64 {
		return 64 // k >= popcount(w): out of contract
	}
	before := uint((prefix << 8 >> shift) & 0xff)
	return shift + uint(efSelectInByte[uint8(w>>shift)][(k-before)&7])
}

// efSelectInByte[b][k] is the position of the k-th set bit of byte b.
var efSelectInByte = func() (t [256][8]uint8) {
	for b := 0; b < 256; b++ {
		k := 0
		for i := 0; i < 8; i++ {
			if b&(1<<i) != 0 {
				t[b][k] = uint8(i)
				k++
			}
		}
	}
	return t
}()
