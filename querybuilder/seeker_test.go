package querybuilder

import (
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
)

// Seeker runs db_bench-style seeks — SeekGE(target), then up to n Next
// calls — either through planned queries or through plain upstream
// iterators, with one iterator reused across seeks or a new one per seek,
// so that both sides of a benchmark's comparison run the same code apart
// from the iterator. Not safe for concurrent use; give each benchmark
// thread its own.
type Seeker struct {
	newIter func() (seekIter, error)
	reuse   bool
	it      seekIter
	// Found counts seeks that found a key; Keys the keys returned in all.
	Found, Keys int64
	// BlockBytes and BlockBytesInCache sum the iterators' data-block bytes
	// (Iterator.Stats), including those of iterators still open.
	BlockBytes, BlockBytesInCache uint64
}

type seekIter interface {
	SeekGE(key []byte) bool
	Next() bool
	Value() []byte
	Stats() pebble.IteratorStats
	Close() error
}

// NewQuerySeeker returns a Seeker whose seeks run through b's planned
// queries over o.
func NewQuerySeeker(b *Builder, o *pebble.IterOptions, reuse bool) *Seeker {
	return &Seeker{reuse: reuse, newIter: func() (seekIter, error) { return b.NewIter(o) }}
}

// NewPlainSeeker returns a Seeker whose seeks run through r's plain
// iterators over o.
func NewPlainSeeker(r Reader, o *pebble.IterOptions, reuse bool) *Seeker {
	return &Seeker{reuse: reuse, newIter: func() (seekIter, error) { return r.NewIter(o) }}
}

// Seek seeks to target, steps up to nexts times, reads each value, and
// returns whether the seek found a key.
func (s *Seeker) Seek(target []byte, nexts int) (bool, error) {
	if s.it == nil {
		it, err := s.newIter()
		if err != nil {
			return false, err
		}
		s.it = it
	}
	valid := s.it.SeekGE(target)
	found := valid
	for n := 0; valid; n++ {
		_ = s.it.Value()
		s.Keys++
		if n == nexts {
			break
		}
		valid = s.it.Next()
	}
	if found {
		s.Found++
	}
	if !s.reuse {
		return found, s.closeIter()
	}
	return found, nil
}

func (s *Seeker) closeIter() error {
	st := s.it.Stats().InternalStats
	s.BlockBytes += st.BlockBytes
	s.BlockBytesInCache += st.BlockBytesInCache
	err := s.it.Close()
	s.it = nil
	return errors.Wrap(err, "querybuilder: closing a seek's iterator")
}

// Close closes the reused iterator, if any, and adds its statistics.
func (s *Seeker) Close() error {
	if s.it == nil {
		return nil
	}
	return s.closeIter()
}
