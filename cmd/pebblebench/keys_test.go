// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
)

func TestKeysDataDriven(t *testing.T) {
	datadriven.RunTest(t, "testdata/keys", func(t *testing.T, td *datadriven.TestData) string {
		var g keyGen
		var v uint64
		td.ScanArgs(t, "num", &g.num)
		td.ScanArgs(t, "key_size", &g.keySize)
		td.ScanArgs(t, "v", &v)
		td.MaybeScanArgs(t, "prefix_size", &g.prefixSize)
		td.MaybeScanArgs(t, "keys_per_prefix", &g.keysPerPrefix)
		key := make([]byte, g.keySize)
		g.fill(key, v)
		if td.HasArg("missing") {
			if g.missingByte() < 0 {
				return "error: no padding byte\n"
			}
			g.makeMissing(key)
		}
		var parts []string
		for _, p := range [][2]int{{0, g.prefixEnd()}, {g.prefixEnd(), g.numberEnd()}, {g.numberEnd(), g.keySize}} {
			if p[1] > p[0] {
				parts = append(parts, hex.EncodeToString(key[p[0]:p[1]]))
			}
		}
		return strings.Join(parts, " ") + "\n"
	})
}

// referenceKey builds a db_bench key another way, through fixed 8-byte
// big-endian encodings cut down to size, to check fill's byte loop.
func referenceKey(num int64, keySize, prefixSize, keysPerPrefix int, v uint64) []byte {
	var buf [8]byte
	var key []byte
	if keysPerPrefix > 0 {
		binary.BigEndian.PutUint64(buf[:], v%uint64(num/int64(keysPerPrefix)))
		n := min(prefixSize, 8)
		key = append(key, buf[8-n:]...)
		key = append(key, bytes.Repeat([]byte{'0'}, prefixSize-n)...)
	}
	binary.BigEndian.PutUint64(buf[:], v)
	n := min(keySize-len(key), 8)
	key = append(key, buf[8-n:]...)
	return append(key, bytes.Repeat([]byte{'0'}, keySize-len(key))...)
}

func TestKeysMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		g := keyGen{num: 1 + rng.Int64N(1<<40), keySize: 1 + rng.IntN(32)}
		g.prefixSize = rng.IntN(g.keySize + 1)
		if g.prefixSize > 0 && rng.IntN(2) == 0 {
			g.keysPerPrefix = 1 + rng.IntN(int(min(g.num, 1000)))
		}
		v := rng.Uint64N(uint64(g.num))
		key := make([]byte, g.keySize)
		g.fill(key, v)
		require.Equal(t, referenceKey(g.num, g.keySize, g.prefixSize, g.keysPerPrefix, v), key, "%+v v=%d", g, v)
	}
}

// TestKeyOrder checks the properties the benchmarks rely on: without
// keys_per_prefix, key order is number order (fillseq writes in key order);
// a missing key differs from every written key and sorts between the key it
// came from and the next one.
func TestKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := keyGen{num: 1 << 40, keySize: 16}
	a, b, m := make([]byte, 16), make([]byte, 16), make([]byte, 16)
	for i := 0; i < 10000; i++ {
		v := rng.Uint64N(uint64(g.num) - 1)
		w := rng.Uint64N(uint64(g.num))
		g.fill(a, v)
		g.fill(b, w)
		require.Equal(t, cmp.Compare(v, w), bytes.Compare(a, b))

		g.fill(m, v)
		g.makeMissing(m)
		g.fill(b, v+1)
		require.Equal(t, 1, bytes.Compare(m, a))
		require.Equal(t, -1, bytes.Compare(m, b))
	}
}

func TestRandomKeyMissingFraction(t *testing.T) {
	g := keyGen{num: 1000, keySize: 16}
	key := make([]byte, 16)
	for _, f := range []float64{0, 1} {
		rng := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < 1000; i++ {
			missing := g.randomKey(rng, key, f)
			require.Equal(t, f == 1, missing)
			require.Equal(t, f == 1, key[8] == '1')
		}
	}
}
