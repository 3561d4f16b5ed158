// Copyright 2026 The pebblerf Authors. All rights reserved.

package ycsb

import (
	"strconv"

	"github.com/cockroachdb/errors"
)

// scrambledItems is the item count of the Zipfian under YCSB's scrambled
// Zipfian: ranks are drawn over 10^10 items whatever the record count, then
// hashed onto the records (YCSB's ScrambledZipfianGenerator.ITEM_COUNT).
const scrambledItems = 10_000_000_000

// valuePoolSize is the size of the random bytes values are cut from.
const valuePoolSize = 1 << 20

// Workload is a validated Config with what its sources share: the value
// pool and the scrambled Zipfian. It is immutable and safe for concurrent
// use; its Loaders and Sources are not, one per goroutine.
type Workload struct {
	cfg Config
	// cum[k] is the cumulative share of kinds 0..k; the last kind of
	// positive weight and every kind after it hold exactly 1.
	cum [numKinds]float64
	// space is the scrambled Zipfian's record space, YCSB's record count
	// plus twice the inserts expected: popular ranks keep their records as
	// records are inserted, and a draw of a record not yet inserted is
	// drawn again.
	space     uint64
	scrambled *Zipf
	// pool is random bytes; every value is a window of it, so that making
	// a value costs neither an allocation nor a copy.
	pool []byte
}

// New validates c and returns its workload.
func New(c Config) (*Workload, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	w := &Workload{cfg: c}
	total, acc := c.Mix.total(), 0.0
	last := 0
	for k, weight := range c.Mix {
		acc += weight
		w.cum[k] = acc / total
		if weight > 0 {
			last = k
		}
	}
	for k := last; k < numKinds; k++ {
		w.cum[k] = 1
	}
	if c.Distribution == ScrambledZipfian {
		// YCSB's CoreWorkload: expectednewkeys = operationcount ×
		// insertproportion × 2, "2 is fudge factor".
		expected := uint64(float64(c.OperationCount) * c.Mix.Share(Insert) * 2)
		w.space = c.RecordCount + expected
		w.scrambled = newZipf(scrambledItems, ZipfianConstant, Zeta(scrambledItems, ZipfianConstant))
	}
	w.pool = make([]byte, valuePoolSize+c.ValueSize)
	var r random
	r.seed(c.Seed, ^uint64(0))
	for i := 0; i < len(w.pool); i += 8 {
		v := r.pcg.Uint64()
		for j := i; j < min(i+8, len(w.pool)); j++ {
			w.pool[j] = byte(v)
			v >>= 8
		}
	}
	return w, nil
}

// Config returns the workload's configuration.
func (w *Workload) Config() Config { return w.cfg }

// keyPrefix is YCSB's key prefix.
const keyPrefix = "user"

// MaxKeyLen is the length of the longest key: "user" and 20 digits.
const MaxKeyLen = len(keyPrefix) + 20

// AppendKey appends the key of record n to dst and returns the result. The
// key is YCSB's: "user" and a decimal number. With Hashed insert order the
// number is a hash of n, a bijection of uint64, so distinct records always
// have distinct keys; with Ordered it is n zero-padded to 20 digits, so that
// key order is record order. Keys do not depend on the seed.
func (w *Workload) AppendKey(dst []byte, n uint64) []byte {
	dst = append(dst, keyPrefix...)
	if w.cfg.InsertOrder == Ordered {
		var digits [20]byte
		d := strconv.AppendUint(digits[:0], n, 10)
		for range 20 - len(d) {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	return strconv.AppendUint(dst, mix64(n), 10)
}

// valueAt returns the value window starting at off of the pool. Its
// capacity ends with it, so that appending to it cannot write the pool.
func (w *Workload) valueAt(off uint64) []byte {
	return w.pool[off : off+uint64(w.cfg.ValueSize) : off+uint64(w.cfg.ValueSize)]
}

// valueOffsets is how many distinct windows the pool holds.
func (w *Workload) valueOffsets() uint64 { return valuePoolSize + 1 }

// A Loader yields the initial records of one part of the record space, in
// record order (with Hashed keys a random key order, as YCSB's load phase
// writes them).
type Loader struct {
	w         *Workload
	next, end uint64
	key       []byte
}

// Loader returns the loader of part part of parts equal contiguous parts of
// records 0..RecordCount−1; Loader(0, 1) loads them all. The parts together
// load every record once, and a record's key and value are the same in every
// partition, so loading in parallel writes the same database.
func (w *Workload) Loader(part, parts int) (*Loader, error) {
	if parts < 1 || part < 0 || part >= parts {
		return nil, errors.Newf("ycsb: loader part %d of %d is not in [0, %d)", part, parts, parts)
	}
	n := w.cfg.RecordCount
	return &Loader{
		w:    w,
		next: partStart(n, part, parts),
		end:  partStart(n, part+1, parts),
		key:  make([]byte, 0, MaxKeyLen),
	}, nil
}

// partStart is the first of n items in part i of parts.
func partStart(n uint64, i, parts int) uint64 {
	// n ≤ 2^62 (Validate), so (n/parts)·i + (n%parts)·i/parts cannot
	// overflow the way n·i could.
	p := uint64(parts)
	return n/p*uint64(i) + n%p*uint64(i)/p
}

// Next returns the next record's key and value, or ok false when the part is
// loaded. Both are valid until the following call; the value must not be
// modified.
func (l *Loader) Next() (key, value []byte, ok bool) {
	if l.next >= l.end {
		return nil, nil, false
	}
	n := l.next
	l.next++
	l.key = l.w.AppendKey(l.key[:0], n)
	// The value comes from the record number, not from a stream, so it is
	// the same however the records are split between loaders.
	return l.key, l.w.valueAt(mix64(n^l.w.cfg.Seed) % l.w.valueOffsets()), true
}

// Op is one operation.
type Op struct {
	Kind Kind
	// Record is the record number Key is made from.
	Record uint64
	// Key is the key operated on (see Kind). It is owned by the Source
	// and valid until the next call to Next.
	Key []byte
	// Value is the value an Update, Insert or ReadModifyWrite writes, nil
	// for other kinds. It is shared and must not be modified.
	Value []byte
	// ScanLength is the number of records a Scan or ReverseScan reads, 0
	// for other kinds.
	ScanLength int
}

// A Source yields one thread's operations. Its sequence is a function of
// the Config (Seed included), the thread and the thread count alone: run
// twice, on two engines, it yields the same operations.
//
// Thread t of T owns the records it inserts, numbers RecordCount + t + i·T
// for its i-th insert, so inserts never collide with the loaded records or
// with another thread's. It reads, updates and scans from only the records
// it knows exist: the loaded ones and its own inserts. Threads therefore
// need no coordination, and no operation reads a record that another thread
// may not have written yet, which would make a read a miss on one engine and
// a hit on another. With one thread this is YCSB's behaviour exactly; with
// T, a thread's "latest" records are its own newest inserts.
type Source struct {
	w       *Workload
	rng     random
	thread  uint64
	threads uint64
	// left is how many operations remain.
	left uint64
	// inserted is how many records this source has inserted.
	inserted uint64
	// byAge is the Zipf over the known records of the Latest and Zipfian
	// distributions; it grows with every insert.
	byAge *Zipf
	key   []byte
}

// Source returns the operation source of thread thread of threads. The
// threads' sources together yield OperationCount operations, split as
// evenly as the count allows.
func (w *Workload) Source(thread, threads int) (*Source, error) {
	if threads < 1 || thread < 0 || thread >= threads {
		return nil, errors.Newf("ycsb: source thread %d of %d is not in [0, %d)", thread, threads, threads)
	}
	s := &Source{
		w:       w,
		thread:  uint64(thread),
		threads: uint64(threads),
		left:    partStart(w.cfg.OperationCount, thread+1, threads) - partStart(w.cfg.OperationCount, thread, threads),
		key:     make([]byte, 0, MaxKeyLen),
	}
	s.rng.seed(w.cfg.Seed, uint64(thread))
	if d := w.cfg.Distribution; d == Latest || d == Zipfian {
		s.byAge = newZipf(w.cfg.RecordCount, ZipfianConstant, Zeta(w.cfg.RecordCount, ZipfianConstant))
	}
	return s, nil
}

// Remaining returns how many operations the source has left.
func (s *Source) Remaining() uint64 { return s.left }

// Next fills op with the next operation and returns true, or returns false
// when the source's share of OperationCount is done. It does not allocate.
func (s *Source) Next(op *Op) bool {
	if s.left == 0 {
		return false
	}
	s.left--
	op.Kind = s.kind()
	op.Value = nil
	op.ScanLength = 0
	switch op.Kind {
	case Insert:
		op.Record = s.w.cfg.RecordCount + s.thread + s.inserted*s.threads
		s.inserted++
		if s.byAge != nil {
			s.byAge.Grow(s.known())
		}
	default:
		op.Record = s.existing()
	}
	switch op.Kind {
	case Insert, Update, ReadModifyWrite:
		op.Value = s.w.valueAt(s.rng.uint64n(s.w.valueOffsets()))
	case Scan, ReverseScan:
		c := &s.w.cfg
		op.ScanLength = c.MinScanLength + int(s.rng.uint64n(uint64(c.MaxScanLength-c.MinScanLength+1)))
	}
	s.key = s.w.AppendKey(s.key[:0], op.Record)
	op.Key = s.key
	return true
}

func (s *Source) kind() Kind {
	u := s.rng.float64()
	for k := range numKinds - 1 {
		if u < s.w.cum[k] {
			return Kind(k)
		}
	}
	return Kind(numKinds - 1)
}

// known is how many records the source knows exist.
func (s *Source) known() uint64 { return s.w.cfg.RecordCount + s.inserted }

// record returns the record the source knows of with age index i: 0 is the
// first loaded record, known()−1 the source's newest insert.
func (s *Source) record(i uint64) uint64 {
	n := s.w.cfg.RecordCount
	if i < n {
		return i
	}
	return n + s.thread + (i-n)*s.threads
}

// existing picks an existing record by the request distribution.
func (s *Source) existing() uint64 {
	switch s.w.cfg.Distribution {
	case Uniform:
		return s.record(s.rng.uint64n(s.known()))
	case Latest:
		return s.record(s.known() - 1 - s.byAge.Rank(s.rng.float64()))
	case Zipfian:
		return s.record(s.byAge.Rank(s.rng.float64()))
	default:
		n := s.w.cfg.RecordCount
		for {
			r := fnvHash64(s.w.scrambled.Rank(s.rng.float64())) % s.w.space
			if r < n {
				return r
			}
			// A record beyond the loaded ones is readable once this
			// source has inserted it; YCSB likewise draws again for a
			// record not inserted yet.
			if i := r - n; i%s.threads == s.thread && i/s.threads < s.inserted {
				return r
			}
		}
	}
}
