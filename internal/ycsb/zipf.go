// Copyright 2026 The pebblerf Authors. All rights reserved.

package ycsb

import (
	"math"

	"github.com/cockroachdb/errors"
)

// ZipfianConstant is YCSB's Zipfian skew θ, used by every core workload.
const ZipfianConstant = 0.99

// Zipf draws ranks 0..n−1 where rank i has probability close to
// (i+1)^−θ / ζ(n, θ), by the method of Gray et al., "Quickly Generating
// Billion-Record Synthetic Databases" (SIGMOD 1994), the one YCSB uses.
//
// The method inverts a continuous power law instead of the discrete
// distribution, so one draw costs one Pow whatever n is, and no table of n
// entries is kept. Ranks 0 and 1 are exact (they are cut out of the unit
// interval by their true probabilities); ranks from 2 on come from the
// continuous approximation, which gives ranks 2..7 more than their share (up
// to a fifth more for rank 2 at θ = 0.99) and the far tail slightly less. The
// test TestZipfianRankFrequencies bounds both.
//
// The item count may grow (Grow), which costs one Pow per added item: ζ(n)
// is summed on from where it was, the way YCSB's generator follows a growing
// record count, and η is recomputed for the new n (YCSB's ZipfianGenerator
// keeps its initial count in η's (2/n)^(1−θ) term, a slip not copied here).
//
// A Zipf holds no random source; Rank maps a uniform draw to a rank, so a
// caller decides where its randomness comes from. It is not safe for
// concurrent use while it grows.
type Zipf struct {
	n     uint64
	theta float64
	alpha float64 // 1/(1−θ)
	zeta2 float64 // ζ(2, θ) = 1 + 2^−θ: the cut between ranks 1 and 2
	zetan float64 // ζ(n, θ)
	eta   float64 // (1 − (2/n)^(1−θ)) / (1 − ζ(2)/ζ(n))
}

// NewZipf returns a Zipf over n ≥ 1 items with skew 0 < θ < 1 (Gray
// et al.'s method needs θ ≠ 1).
func NewZipf(n uint64, theta float64) (*Zipf, error) {
	if n == 0 {
		return nil, errors.New("ycsb: a Zipf needs at least one item")
	}
	if !(theta > 0 && theta < 1) {
		return nil, errors.Newf("ycsb: Zipfian constant %v is not in (0, 1)", theta)
	}
	return newZipf(n, theta, Zeta(n, theta)), nil
}

// newZipf builds a Zipf from a known ζ(n, θ).
func newZipf(n uint64, theta, zetan float64) *Zipf {
	z := &Zipf{
		n:     n,
		theta: theta,
		alpha: 1 / (1 - theta),
		zeta2: 1 + math.Pow(2, -theta),
		zetan: zetan,
	}
	z.setEta()
	return z
}

func (z *Zipf) setEta() {
	z.eta = (1 - math.Pow(2/float64(z.n), 1-z.theta)) / (1 - z.zeta2/z.zetan)
}

// N returns the number of items.
func (z *Zipf) N() uint64 { return z.n }

// Zeta returns ζ(n, θ), the normalising sum.
func (z *Zipf) Zeta() float64 { return z.zetan }

// Grow raises the item count to n; a smaller n than the current count is a
// programming error and panics. The new items take the least popular ranks.
func (z *Zipf) Grow(n uint64) {
	switch {
	case n < z.n:
		panic(errors.AssertionFailedf("ycsb: Zipf cannot shrink from %d to %d items", z.n, n))
	case n == z.n:
		return
	case n-z.n > zetaDirectTerms:
		// A jump this large would cost more summed term by term than
		// summed afresh with the Euler–Maclaurin tail.
		z.zetan = Zeta(n, z.theta)
	default:
		for i := z.n + 1; i <= n; i++ {
			z.zetan += math.Pow(float64(i), -z.theta)
		}
	}
	z.n = n
	z.setEta()
}

// Rank maps a uniform draw u in [0, 1) to a rank in [0, N()).
func (z *Zipf) Rank(u float64) uint64 {
	uz := u * z.zetan
	if uz < 1 {
		return 0
	}
	if uz < z.zeta2 {
		return 1
	}
	// (1 − η(1−u))^α by Exp and Log1p: math.Pow adds to its own Exp and
	// Log a squaring per bit of the exponent's integer part (α = 100 at
	// θ = 0.99), and Log1p keeps the digits of a base close to 1, the
	// tail's.
	r := uint64(float64(z.n) * math.Exp(z.alpha*math.Log1p(z.eta*(u-1))))
	// At u close to 1 the power rounds to 1 and the product to n.
	return min(r, z.n-1)
}

// zetaDirectTerms is how many terms Zeta sums one by one before it hands the
// rest of the series to the Euler–Maclaurin formula.
const zetaDirectTerms = 1 << 12

// Zeta returns ζ(n, θ) = Σ_{i=1..n} i^−θ for 0 < θ < 1.
//
// YCSB sums all n terms, which takes seconds for 10^8 records and is why it
// ships ζ(10^10, 0.99) as a constant. Here the first zetaDirectTerms terms
// are summed and the rest, Σ_{i=m..n} f(i) with f(x) = x^−θ, is the
// Euler–Maclaurin formula
//
//	∫_m^n f + (f(m)+f(n))/2 + Σ_k B_2k/(2k)! (f^(2k−1)(n) − f^(2k−1)(m))
//
// to k = 3. With m = 4096 the first omitted term is below 10^−25, so the
// result is as exact as the float64 sum it replaces; TestZeta checks it
// against the direct sum and against YCSB's published constant.
func Zeta(n uint64, theta float64) float64 {
	direct := min(n, zetaDirectTerms-1)
	sum := 0.0
	for i := uint64(1); i <= direct; i++ {
		sum += math.Pow(float64(i), -theta)
	}
	if n == direct {
		return sum
	}
	m, b := float64(zetaDirectTerms), float64(n)
	f := func(x float64) float64 { return math.Pow(x, -theta) }
	// f^(2k−1)(x) = −θ(θ+1)…(θ+2k−2) x^(−θ−2k+1).
	d1 := func(x float64) float64 { return -theta * math.Pow(x, -theta-1) }
	d3 := func(x float64) float64 { return -theta * (theta + 1) * (theta + 2) * math.Pow(x, -theta-3) }
	d5 := func(x float64) float64 {
		return -theta * (theta + 1) * (theta + 2) * (theta + 3) * (theta + 4) * math.Pow(x, -theta-5)
	}
	// ∫_m^b x^−θ dx = (b^(1−θ) − m^(1−θ))/(1−θ), written with Expm1 so
	// that the difference of two nearby powers keeps its digits when θ is
	// close to 1.
	integral := math.Pow(m, 1-theta) * math.Expm1((1-theta)*math.Log(b/m)) / (1 - theta)
	tail := integral + (f(m)+f(b))/2 +
		(d1(b)-d1(m))/12 -
		(d3(b)-d3(m))/720 +
		(d5(b)-d5(m))/30240
	return sum + tail
}
