// Copyright 2026 The pebblerf Authors. All rights reserved.

package keyspace

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
		var g Gen
		var v uint64
		td.ScanArgs(t, "num", &g.Num)
		td.ScanArgs(t, "key_size", &g.KeySize)
		td.ScanArgs(t, "v", &v)
		td.MaybeScanArgs(t, "prefix_size", &g.PrefixSize)
		td.MaybeScanArgs(t, "keys_per_prefix", &g.KeysPerPrefix)
		key := make([]byte, g.KeySize)
		g.Fill(key, v)
		if td.HasArg("missing") {
			if g.MissingByte() < 0 {
				return "error: no padding byte\n"
			}
			g.MakeMissing(key)
		}
		var parts []string
		for _, p := range [][2]int{{0, g.prefixEnd()}, {g.prefixEnd(), g.NumberEnd()}, {g.NumberEnd(), g.KeySize}} {
			if p[1] > p[0] {
				parts = append(parts, hex.EncodeToString(key[p[0]:p[1]]))
			}
		}
		return strings.Join(parts, " ") + "\n"
	})
}

// referenceKey builds a db_bench key another way, through fixed 8-byte
// big-endian encodings cut down to size, to check Fill's byte loop.
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
		g := Gen{Num: 1 + rng.Int64N(1<<40), KeySize: 1 + rng.IntN(32)}
		g.PrefixSize = rng.IntN(g.KeySize + 1)
		if g.PrefixSize > 0 && rng.IntN(2) == 0 {
			g.KeysPerPrefix = 1 + rng.IntN(int(min(g.Num, 1000)))
		}
		v := rng.Uint64N(uint64(g.Num))
		key := make([]byte, g.KeySize)
		g.Fill(key, v)
		require.Equal(t, referenceKey(g.Num, g.KeySize, g.PrefixSize, g.KeysPerPrefix, v), key, "%+v v=%d", g, v)
	}
}

// TestKeyOrder checks the properties the benchmarks rely on: without
// keys_per_prefix, key order is number order (fillseq writes in key order);
// a missing key differs from every written key and sorts between the key it
// came from and the next one.
func TestKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := Gen{Num: 1 << 40, KeySize: 16}
	a, b, m := make([]byte, 16), make([]byte, 16), make([]byte, 16)
	for i := 0; i < 10000; i++ {
		v := rng.Uint64N(uint64(g.Num) - 1)
		w := rng.Uint64N(uint64(g.Num))
		g.Fill(a, v)
		g.Fill(b, w)
		require.Equal(t, cmp.Compare(v, w), bytes.Compare(a, b))

		g.Fill(m, v)
		g.MakeMissing(m)
		g.Fill(b, v+1)
		require.Equal(t, 1, bytes.Compare(m, a))
		require.Equal(t, -1, bytes.Compare(m, b))
	}
}

func TestRandomKeyMissingFraction(t *testing.T) {
	g := Gen{Num: 1000, KeySize: 16}
	key := make([]byte, 16)
	for _, f := range []float64{0, 1} {
		rng := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < 1000; i++ {
			missing := g.RandomKey(rng, key, f)
			require.Equal(t, f == 1, missing)
			require.Equal(t, f == 1, key[8] == '1')
		}
	}
}
