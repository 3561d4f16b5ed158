package metamorphic

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/cockroachdb/errors"
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
		return cockroachkvs.EncodeMVCCKey(nil, roach, uint64(1+rng.IntN(maxWallTime)), 0)
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

// maxWallTime is the newest wall time an MVCC key version has.
const maxWallTime = 5

// apply sets the comparer and key schema a key kind needs; MVCC keys also
// get CockroachDB's MVCC time-interval block-property collector, which
// time-bound iterators read.
func (s keySpace) apply(opts *pebble.Options) {
	if s.kind == MVCC {
		opts.Comparer = &cockroachkvs.Comparer
		opts.KeySchema = cockroachkvs.KeySchema.Name
		opts.KeySchemas = sstable.MakeKeySchemas(&cockroachkvs.KeySchema)
		opts.BlockPropertyCollectors = append(opts.BlockPropertyCollectors, cockroachkvs.BlockPropertyCollectors...)
	}
}

// setTimeBound makes o a time-bound iterator over the wall times of spec
// ("MIN-MAX", inclusive), as CockroachDB's incremental iterators are: the
// time-interval filter skips tables and blocks with no version in the
// interval, and SkipPoint hides the versions outside it (and bare keys) in
// the blocks that are read. Together they make the result independent of
// how keys are laid out in tables, so two engines must agree on it exactly.
func setTimeBound(o *pebble.IterOptions, spec string) {
	var lo, hi uint64
	if _, err := fmt.Sscanf(spec, "%d-%d", &lo, &hi); err != nil {
		panic(errors.AssertionFailedf("bad time bound %q", spec))
	}
	o.PointKeyFilters = append(o.PointKeyFilters, cockroachkvs.NewMVCCTimeIntervalFilter(lo, hi))
	o.SkipPoint = func(k []byte) bool {
		wall, _, err := cockroachkvs.DecodeMVCCTimestampSuffix(k[cockroachkvs.Split(k):])
		return err != nil || wall < lo || wall > hi
	}
}
