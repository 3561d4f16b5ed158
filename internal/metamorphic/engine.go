package metamorphic

import (
	"context"
	"io"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// The harness runs the same operations on upstream's *pebble.DB and on
// pebblerf's *DB. Their method sets match but their types differ (pebblerf
// returns its own *Iterator, *Batch and *Snapshot), so the engine below is
// written once, generically, over any DB with upstream's API.

type iterator interface {
	First() bool
	Last() bool
	Next() bool
	Prev() bool
	NextPrefix() bool
	SeekGE(key []byte) bool
	SeekLT(key []byte) bool
	SeekPrefixGE(key []byte) bool
	SetBounds(lower, upper []byte)
	SetOptions(o *pebble.IterOptions)
	Valid() bool
	Key() []byte
	ValueAndErr() ([]byte, error)
	Error() error
	Close() error
}

type reader[I iterator] interface {
	Get(key []byte) ([]byte, io.Closer, error)
	NewIter(o *pebble.IterOptions) (I, error)
	Close() error
}

type batchAPI[I iterator] interface {
	reader[I]
	writer
	Commit(o *pebble.WriteOptions) error
}

type dbAPI[I iterator, B batchAPI[I], S reader[I]] interface {
	reader[I]
	writer
	SingleDelete(key []byte, o *pebble.WriteOptions) error
	NewBatch(opts ...pebble.BatchOption) B
	NewIndexedBatch() B
	NewSnapshot() S
	Flush() error
	Compact(ctx context.Context, start, end []byte, parallelize bool) error
	Ingest(ctx context.Context, paths []string) error
	TableFormat() sstable.TableFormat
}

// engine is what the runner sees: one DB and the readers derived from it,
// with iterators boxed into one interface type.
type engine interface {
	db() writer
	get(r anyReader, key []byte) ([]byte, error)
	newIter(r anyReader, o *pebble.IterOptions) (iterator, error)
	newBatch(indexed bool) batchHandle
	newSnapshot() anyReader
	singleDelete(key []byte) error
	flush() error
	compact(start, end []byte) error
	ingest(path string) error
	tableFormat() sstable.TableFormat
	close() error
}

// writer is the write half shared by DBs and batches.
type writer interface {
	Set(key, value []byte, o *pebble.WriteOptions) error
	Delete(key []byte, o *pebble.WriteOptions) error
	DeleteRange(start, end []byte, o *pebble.WriteOptions) error
	Merge(key, value []byte, o *pebble.WriteOptions) error
}

// anyReader is a DB, batch or snapshot of either implementation.
type anyReader interface{ Close() error }

type batchHandle interface {
	writer
	anyReader
	Commit(o *pebble.WriteOptions) error
}

type genericEngine[I iterator, B batchAPI[I], S reader[I], D dbAPI[I, B, S]] struct {
	d D
}

func (e genericEngine[I, B, S, D]) db() writer { return e.d }

func (e genericEngine[I, B, S, D]) asReader(r anyReader) reader[I] {
	if r == nil {
		return e.d
	}
	return r.(reader[I])
}

func (e genericEngine[I, B, S, D]) get(r anyReader, key []byte) ([]byte, error) {
	v, closer, err := e.asReader(r).Get(key)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return append([]byte(nil), v...), nil
}

func (e genericEngine[I, B, S, D]) newIter(r anyReader, o *pebble.IterOptions) (iterator, error) {
	it, err := e.asReader(r).NewIter(o)
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (e genericEngine[I, B, S, D]) newBatch(indexed bool) batchHandle {
	if indexed {
		return e.d.NewIndexedBatch()
	}
	return e.d.NewBatch()
}

func (e genericEngine[I, B, S, D]) newSnapshot() anyReader      { return e.d.NewSnapshot() }
func (e genericEngine[I, B, S, D]) singleDelete(k []byte) error { return e.d.SingleDelete(k, nil) }
func (e genericEngine[I, B, S, D]) flush() error                { return e.d.Flush() }
func (e genericEngine[I, B, S, D]) compact(start, end []byte) error {
	return e.d.Compact(context.Background(), start, end, false)
}
func (e genericEngine[I, B, S, D]) ingest(path string) error {
	return e.d.Ingest(context.Background(), []string{path})
}
func (e genericEngine[I, B, S, D]) tableFormat() sstable.TableFormat { return e.d.TableFormat() }
func (e genericEngine[I, B, S, D]) close() error                     { return e.d.Close() }
