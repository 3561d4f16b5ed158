package objstore

import (
	"bytes"
	"context"
	"io"
	"slices"
	"sync"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
)

// errNotExist marks the error every store of this package returns for a
// missing object; IsNotExistError recognises it (S3's NoSuchKey is translated
// to it too).
var errNotExist = errors.New("object does not exist")

// memStore is the mem:// store: objects in memory, gone when the process
// ends. Unlike remote.NewInMem it implements List's delimiter and can abort
// an upload (which sim:// uses for injected PUT failures).
type memStore struct {
	mu      sync.RWMutex
	objects map[string][]byte
}

// NewMem returns an empty in-memory store (the store of mem:// URLs, and the
// default backing of sim:// URLs).
func NewMem() remote.Storage {
	return &memStore{objects: make(map[string][]byte)}
}

func (s *memStore) get(name string) ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	data, ok := s.objects[name]
	if !ok {
		return nil, errors.Wrapf(errNotExist, "objstore: mem: %q", name)
	}
	return data, nil
}

// ReadObject implements remote.Storage. The reader sees the object as it was
// when it was opened, as a file descriptor does.
func (s *memStore) ReadObject(
	_ context.Context, name string,
) (remote.ObjectReader, int64, error) {
	data, err := s.get(name)
	if err != nil {
		return nil, 0, err
	}
	return &bytesReader{name: name, data: data}, int64(len(data)), nil
}

// CreateObject implements remote.Storage: the object appears, whole, when the
// writer is closed.
func (s *memStore) CreateObject(name string) (io.WriteCloser, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return &memWriter{store: s, name: name}, nil
}

// List implements remote.Storage.
func (s *memStore) List(prefix, delimiter string) ([]string, error) {
	s.mu.RLock()
	names := make([]string, 0, len(s.objects))
	for name := range s.objects {
		names = append(names, name)
	}
	s.mu.RUnlock()
	return listNames(names, prefix, delimiter), nil
}

// Delete implements remote.Storage. Deleting a missing object succeeds, as
// it does on S3.
func (s *memStore) Delete(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.objects, name)
	return nil
}

// Size implements remote.Storage.
func (s *memStore) Size(name string) (int64, error) {
	data, err := s.get(name)
	return int64(len(data)), err
}

// IsNotExistError implements remote.Storage.
func (s *memStore) IsNotExistError(err error) bool { return errors.Is(err, errNotExist) }

// Close implements remote.Storage.
func (s *memStore) Close() error { return nil }

type memWriter struct {
	store *memStore
	name  string
	buf   bytes.Buffer
	done  bool
}

func (w *memWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, errors.Newf("objstore: mem: write to %q after close", w.name)
	}
	return w.buf.Write(p)
}

func (w *memWriter) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	data := slices.Clone(w.buf.Bytes())
	w.store.mu.Lock()
	defer w.store.mu.Unlock()
	w.store.objects[w.name] = data
	return nil
}

// abort implements aborter.
func (w *memWriter) abort() { w.done = true }

// aborter is implemented by the writers of this package's stores that can
// drop an upload instead of completing it (sim:// uses it for injected PUT
// failures, the S3 writer after a failed part).
type aborter interface{ abort() }

// bytesReader serves ReadAt from an object held in memory.
type bytesReader struct {
	name string
	data []byte
}

func (r *bytesReader) ReadAt(_ context.Context, p []byte, off int64) error {
	return readAtBytes(r.name, r.data, p, off)
}

func (r *bytesReader) Close() error { return nil }

// readAtBytes is the ReadAt contract over bytes in memory: exactly len(p)
// bytes, or an error that wraps io.EOF when the range passes the end.
func readAtBytes(name string, data, p []byte, off int64) error {
	if err := checkRange(name, off, len(p), int64(len(data))); err != nil {
		return err
	}
	copy(p, data[off:])
	return nil
}

// checkRange returns an error unless [off, off+n) lies within an object of
// the given size. A range past the end wraps io.EOF.
func checkRange(name string, off int64, n int, size int64) error {
	if off < 0 {
		return errors.Newf("objstore: read of %q at negative offset %d", name, off)
	}
	if off+int64(n) > size {
		return errors.Wrapf(io.EOF, "objstore: read of %q [%d, %d) past its end (%d bytes)",
			name, off, off+int64(n), size)
	}
	return nil
}

// checkName rejects object names no store can hold under the same name.
func checkName(name string) error {
	if name == "" {
		return errors.New("objstore: empty object name")
	}
	return nil
}
