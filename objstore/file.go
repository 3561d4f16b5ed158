package objstore

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
)

// tmpDirName is the directory, inside a file:// store, where objects are
// written before they appear under their names. List never shows it.
const tmpDirName = ".objstore-tmp"

// fileStore is the file:// store: each object is a file under dir, named by
// the object's name (a name with slashes lives in subdirectories). An object
// is written to a temporary file and renamed into place at Close, so a
// reader never sees a partial object, as on S3.
type fileStore struct {
	dir string
}

// newFile returns a store that keeps its objects as files under dir,
// creating dir if needed (the store of file:// URLs).
func newFile(dir string) (remote.Storage, error) {
	if !filepath.IsAbs(dir) {
		return nil, errors.Newf("objstore: file store directory %q is not absolute", dir)
	}
	if err := os.MkdirAll(filepath.Join(dir, tmpDirName), 0o755); err != nil {
		return nil, errors.Wrapf(err, "objstore: file store directory %q", dir)
	}
	return &fileStore{dir: filepath.Clean(dir)}, nil
}

// path maps an object name to its file, refusing names that would escape
// the directory or collide with its temporary directory.
func (s *fileStore) path(name string) (string, error) {
	if err := checkName(name); err != nil {
		return "", err
	}
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(name)))
	if clean != name || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "../") ||
		name == ".." || name == tmpDirName || strings.HasPrefix(name, tmpDirName+"/") {
		return "", errors.Newf("objstore: file store cannot hold an object named %q", name)
	}
	return filepath.Join(s.dir, filepath.FromSlash(name)), nil
}

// wrapNotExist turns the OS's not-exist error into the package's.
func wrapNotExist(err error, name string) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.Wrapf(errNotExist, "objstore: file: %q", name)
	}
	return errors.Wrapf(err, "objstore: file: %q", name)
}

// ReadObject implements remote.Storage.
func (s *fileStore) ReadObject(_ context.Context, name string) (remote.ObjectReader, int64, error) {
	path, err := s.path(name)
	if err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, wrapNotExist(err, name)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, 0, wrapNotExist(err, name)
	}
	if info.IsDir() {
		_ = f.Close()
		return nil, 0, errors.Wrapf(errNotExist, "objstore: file: %q is a directory", name)
	}
	return &fileReader{name: name, f: f, size: info.Size()}, info.Size(), nil
}

type fileReader struct {
	name string
	f    *os.File
	size int64
}

func (r *fileReader) ReadAt(_ context.Context, p []byte, off int64) error {
	if err := checkRange(r.name, off, len(p), r.size); err != nil {
		return err
	}
	n, err := r.f.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return errors.Wrapf(err, "objstore: file: read of %q [%d, %d)", r.name, off, off+int64(len(p)))
}

func (r *fileReader) Close() error { return r.f.Close() }

// CreateObject implements remote.Storage.
func (s *fileStore) CreateObject(name string) (io.WriteCloser, error) {
	path, err := s.path(name)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, tmpDirName), "obj-*")
	if err != nil {
		return nil, errors.Wrapf(err, "objstore: file: creating %q", name)
	}
	return &fileWriter{name: name, path: path, f: f}, nil
}

type fileWriter struct {
	name string
	path string
	f    *os.File
	err  error
}

func (w *fileWriter) Write(p []byte) (int, error) {
	if w.f == nil {
		return 0, errors.Newf("objstore: file: write to %q after close", w.name)
	}
	n, err := w.f.Write(p)
	if err != nil && w.err == nil {
		w.err = errors.Wrapf(err, "objstore: file: writing %q", w.name)
	}
	return n, err
}

// Close syncs the object and renames it into place; an earlier failed Write
// fails Close too, and leaves no object.
func (w *fileWriter) Close() error {
	if w.f == nil {
		return w.err
	}
	f := w.f
	w.f = nil
	tmp := f.Name()
	err := w.err
	if err == nil {
		err = f.Sync()
	}
	err = errors.CombineErrors(err, f.Close())
	if err == nil {
		err = os.MkdirAll(filepath.Dir(w.path), 0o755)
	}
	if err == nil {
		err = os.Rename(tmp, w.path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(w.path))
	}
	if err != nil {
		_ = os.Remove(tmp)
		w.err = errors.Wrapf(err, "objstore: file: creating %q", w.name)
	}
	return w.err
}

// abort implements aborter.
func (w *fileWriter) abort() {
	if w.f != nil {
		_ = w.f.Close()
		_ = os.Remove(w.f.Name())
		w.f = nil
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.CombineErrors(d.Sync(), d.Close())
}

// List implements remote.Storage.
func (s *fileStore) List(prefix, delimiter string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(s.dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == tmpDirName {
				return filepath.SkipDir
			}
			return nil
		}
		names = append(names, rel)
		return nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, "objstore: file: listing %q", s.dir)
	}
	return listNames(names, prefix, delimiter), nil
}

// Delete implements remote.Storage. Deleting a missing object succeeds, as
// it does on S3.
func (s *fileStore) Delete(name string) error {
	path, err := s.path(name)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return errors.Wrapf(err, "objstore: file: deleting %q", name)
	}
	return syncDir(filepath.Dir(path))
}

// Size implements remote.Storage.
func (s *fileStore) Size(name string) (int64, error) {
	path, err := s.path(name)
	if err != nil {
		return 0, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return 0, wrapNotExist(err, name)
	}
	if info.IsDir() {
		return 0, errors.Wrapf(errNotExist, "objstore: file: %q is a directory", name)
	}
	return info.Size(), nil
}

// IsNotExistError implements remote.Storage.
func (s *fileStore) IsNotExistError(err error) bool { return errors.Is(err, errNotExist) }

// Close implements remote.Storage.
func (s *fileStore) Close() error { return nil }
