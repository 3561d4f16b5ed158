package querybuilder

import (
	"encoding/binary"
	"github.com/pebblerf/pebble/internal/sortedruns"
	"math"
	"sort"
)

// Deferrable is an average over seek keys, and seeks fall where the data is,
// not where files start. Averaging over file starts alone overweights the
// edges of the key space: runs that each hold one file over the whole key
// space start within a few keys of each other, so most file starts are
// "before the other runs start" although almost no seek is. The estimate
// therefore cuts the key space at the distinct file starts and weights
// each piece by the bytes the files put in it, spreading a file's size
// evenly over its key range. Inside a piece no file starts, so the runs a
// seek can defer there are those it defers at the piece's start, less runs
// whose file ends inside the piece, which the estimate ignores.
//
// Where bytes fall inside a file's range needs a measure of key distance,
// which a Comparer does not give. keyPosition supplies one that is only
// used for weights: the 8 bytes after the prefix that every file bound
// shares, read as a number. Keys that differ only further on weigh as one
// point; weights never decide a result, only the auto plan.

// estimateDeferrable returns the data-weighted average of deferredRuns.
func (l *layout) estimateDeferrable() float64 {
	var files []*sortedruns.Table
	for r := range l.Runs {
		for f := range l.Runs[r].Tables {
			files = append(files, &l.Runs[r].Tables[f])
		}
	}
	if len(files) == 0 {
		return 0
	}
	starts := make([][]byte, 0, len(files))
	lo, hi := files[0].Smallest, files[0].Largest
	for _, f := range files {
		starts = append(starts, f.Smallest)
		if l.cmp(f.Smallest, lo) < 0 {
			lo = f.Smallest
		}
		if l.cmp(f.Largest, hi) > 0 {
			hi = f.Largest
		}
	}
	sort.Slice(starts, func(a, b int) bool { return l.cmp(starts[a], starts[b]) < 0 })
	n := 0
	for _, k := range starts {
		if n == 0 || l.cmp(starts[n-1], k) < 0 {
			starts[n] = k
			n++
		}
	}
	starts = starts[:n]
	pos := keyPosition(lo, hi)
	weights := l.pieceWeights(files, starts, pos)
	// Too many pieces: evaluate every stride-th piece start for the weight
	// of its whole group.
	stride := (len(starts) + maxDeferrableSamples - 1) / maxDeferrableSamples
	var sum, total float64
	for g := 0; g < len(starts); g += stride {
		var w float64
		for _, x := range weights[g:min(g+stride, len(starts))] {
			w += x
		}
		if w > 0 {
			sum += w * float64(l.deferredRuns(starts[g]))
			total += w
		}
	}
	if total == 0 {
		return 0
	}
	return sum / total
}

// pieceWeights returns, for each piece [starts[i], starts[i+1]) (the last
// one ending past every file), the bytes the files put in it.
func (l *layout) pieceWeights(files []*sortedruns.Table, starts [][]byte, pos func([]byte) float64) []float64 {
	piece := func(k []byte) int {
		// The piece holding k: the last start at or below k.
		return sort.Search(len(starts), func(i int) bool { return l.cmp(starts[i], k) > 0 }) - 1
	}
	at := make([]float64, len(starts))
	for i, k := range starts {
		at[i] = pos(k)
	}
	w := make([]float64, len(starts))
	for _, f := range files {
		size := float64(max(f.Size, 1))
		first, last := piece(f.Smallest), piece(f.Largest)
		a, b := pos(f.Smallest), pos(f.Largest)
		if first == last || b <= a {
			w[first] += size
			continue
		}
		// Spread evenly over [a, b] in position; pieces the file spans in
		// between are whole.
		for i := first; i <= last; i++ {
			from, to := math.Max(at[i], a), b
			if i+1 <= last {
				to = math.Min(at[i+1], b)
			}
			if to > from {
				w[i] += size * (to - from) / (b - a)
			}
		}
	}
	return w
}

// keyPosition returns a monotone map of the keys in [lo, hi] to numbers:
// the 8 bytes after lo and hi's common prefix, big-endian. It assumes the
// comparer orders these keys bytewise at least roughly; it is only a
// weight.
func keyPosition(lo, hi []byte) func([]byte) float64 {
	p := 0
	for p < len(lo) && p < len(hi) && lo[p] == hi[p] {
		p++
	}
	return func(k []byte) float64 {
		var buf [8]byte
		if p < len(k) {
			copy(buf[:], k[p:])
		}
		return float64(binary.BigEndian.Uint64(buf[:]))
	}
}
