// Copyright 2026 The pebblerf Authors. All rights reserved.

package filterbench

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/cockroachdb/errors"
)

// KeySize is the size of every generated key: db_bench's default key_size.
const KeySize = 16

// KeySet is n keys that go into a filter and as many negatives as asked for,
// none of which is in the filter, all KeySize bytes, stored back to back.
type KeySet struct {
	Name      string
	Keys      [][]byte
	negatives []byte
}

// Negatives returns how many negative keys the set holds.
func (s *KeySet) Negatives() int { return len(s.negatives) / KeySize }

// Negative returns the i-th negative key.
func (s *KeySet) Negative(i int) []byte {
	return s.negatives[i*KeySize : (i+1)*KeySize : (i+1)*KeySize]
}

// NewKeySet makes a key set of the named kind with a fixed seed:
//
//   - "random": uniformly random 16-byte keys (negatives likewise; a
//     collision among 2^128 values is not a concern);
//   - "dbbench": db_bench keys, an 8-byte big-endian integer padded with
//     '0' to 16 bytes; the filter holds 0..n−1 in order, as a table built
//     by fillseq would, and the negatives are n, n+1, ...: keys that differ
//     from the stored ones only in a few low bytes, the hard case for a
//     weak hash.
func NewKeySet(kind string, n, negatives int, seed uint64) (*KeySet, error) {
	s := &KeySet{Name: kind, Keys: make([][]byte, n), negatives: make([]byte, negatives*KeySize)}
	keys := make([]byte, n*KeySize)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	switch kind {
	case "random":
		fillRandom(rng, keys)
		fillRandom(rng, s.negatives)
	case "dbbench":
		for i := 0; i < n; i++ {
			putDBBenchKey(keys[i*KeySize:], uint64(i))
		}
		for i := 0; i < negatives; i++ {
			putDBBenchKey(s.negatives[i*KeySize:], uint64(n+i))
		}
	default:
		return nil, errors.Newf("filterbench: unknown key set %q (want random or dbbench)", kind)
	}
	for i := range s.Keys {
		s.Keys[i] = keys[i*KeySize : (i+1)*KeySize : (i+1)*KeySize]
	}
	return s, nil
}

func fillRandom(rng *rand.Rand, b []byte) {
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(b, rng.Uint64())
		b = b[8:]
	}
}

// putDBBenchKey writes db_bench's key for i into dst[:KeySize].
func putDBBenchKey(dst []byte, i uint64) {
	binary.BigEndian.PutUint64(dst, i)
	for j := 8; j < KeySize; j++ {
		dst[j] = '0'
	}
}
