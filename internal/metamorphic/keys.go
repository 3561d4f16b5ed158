package metamorphic

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/cockroachkvs"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// KeyKind is a family of keys with its own comparer. Different families
// stress different parts of the plug-ins: fixed-width integer keys (as
// db_bench writes), CockroachDB's MVCC keys whose Split prefix is a proper
// prefix, and keys with long shared prefixes that defeat naive key-to-integer
// mappings in range filters.
type KeyKind int

const (
	// DBBench keys are 16 bytes: a big-endian integer padded with '0'.
	DBBench KeyKind = iota
	// MVCC keys are cockroachkvs keys: a roach key, a 0x00 sentinel and an
	// optional timestamp suffix. Split returns the roach key and sentinel.
	MVCC
	// SharedPrefix keys share a 40-byte prefix and differ in a short tail
	// of printable bytes of varying length.
	SharedPrefix
	numKeyKinds
)

func (k KeyKind) String() string {
	switch k {
	case DBBench:
		return "dbbench"
	case MVCC:
		return "mvcc"
	case SharedPrefix:
		return "sharedprefix"
	}
	return fmt.Sprintf("KeyKind(%d)", int(k))
}

// keySpace draws keys of one kind from a small universe, so that operations
// collide often enough to exercise overwrites, deletes and tombstones.
type keySpace struct {
	kind     KeyKind
	universe int
}

// key returns the i-th key of the universe in comparer order for the key's
// prefix; versions of MVCC keys add a timestamp.
func (s keySpace) key(rng *rand.Rand) []byte {
	i := rng.IntN(s.universe)
	switch s.kind {
	case MVCC:
		roach := []byte(fmt.Sprintf("/table/%03d", i))
		if rng.IntN(4) == 0 {
			// A bare key: no version, sorts before its versions.
			return cockroachkvs.EncodeMVCCKey(nil, roach, 0, 0)
		}
		return cockroachkvs.EncodeMVCCKey(nil, roach, uint64(1+rng.IntN(5)), 0)
	case SharedPrefix:
		tail := make([]byte, 1+i%3)
		for j := range tail {
			tail[j] = byte('a' + (i/(j+1))%26)
		}
		return append([]byte("shared/prefix/that/is/forty/bytes/long/"), tail...)
	default:
		k := make([]byte, 16)
		binary.BigEndian.PutUint64(k, uint64(i))
		for j := 8; j < 16; j++ {
			k[j] = '0'
		}
		return k
	}
}

// apply sets the comparer and key schema a key kind needs.
func (s keySpace) apply(opts *pebble.Options) {
	if s.kind == MVCC {
		opts.Comparer = &cockroachkvs.Comparer
		opts.KeySchema = cockroachkvs.KeySchema.Name
		opts.KeySchemas = sstable.MakeKeySchemas(&cockroachkvs.KeySchema)
	}
}
