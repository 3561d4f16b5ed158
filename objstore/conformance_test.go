package objstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/stretchr/testify/require"
)

// storeCase names a way to make a fresh, empty store. Every URL form
// returns a Meter, so the meter's pass-through is under test in each.
type storeCase struct {
	name string
	open func(t *testing.T) remote.Storage
}

// openURL opens a store by URL and closes it when the test ends.
func openURL(t *testing.T, rawURL string) *Meter {
	t.Helper()
	m, err := Open(rawURL)
	require.NoError(t, err, rawURL)
	t.Cleanup(func() { _ = m.Close() })
	return m
}

func allStores() []storeCase {
	return []storeCase{
		{"mem", func(t *testing.T) remote.Storage { return meterStorage{openURL(t, "mem://")} }},
		{"file", func(t *testing.T) remote.Storage { return meterStorage{openURL(t, "file://"+t.TempDir())} }},
		{"sim", func(t *testing.T) remote.Storage { return meterStorage{openURL(t, "sim://?latency=0&seed=3")} }},
		{"sim+file", func(t *testing.T) remote.Storage {
			return meterStorage{openURL(t, "sim+file://"+t.TempDir()+"?jitter=100us")}
		}},
		{"s3", func(t *testing.T) remote.Storage { return meterStorage{openURL(t, newFakeS3(t, nil).url("prefix"))} }},
		{"s3-no-prefix", func(t *testing.T) remote.Storage { return meterStorage{openURL(t, newFakeS3(t, nil).url(""))} }},
	}
}

func TestConformance(t *testing.T) {
	for _, sc := range allStores() {
		t.Run(sc.name, func(t *testing.T) {
			testConformance(t, sc.open(t))
		})
	}
}

func put(t *testing.T, s remote.Storage, name string, data []byte) {
	t.Helper()
	w, err := s.CreateObject(name)
	require.NoError(t, err)
	// Write in uneven pieces: stores must not depend on how writes are cut.
	for rest := data; len(rest) > 0; {
		n := min(len(rest), 1+len(rest)/3)
		_, err := w.Write(rest[:n])
		require.NoError(t, err)
		rest = rest[n:]
	}
	require.NoError(t, w.Close(), "closing %q", name)
}

func randBytes(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// testConformance checks a store against remote.Storage's contract.
func testConformance(t *testing.T, s remote.Storage) {
	ctx := context.Background()
	big := randBytes(1, 300<<10)
	objects := map[string][]byte{"a": []byte("alpha"), "b/4": big, "b/5": []byte("five"), "b/6": {}}
	for name, data := range objects {
		put(t, s, name, data)
	}

	t.Run("list", func(t *testing.T) {
		// The examples of remote.Storage's doc, and a few more.
		for _, c := range []struct {
			prefix, delim string
			want          []string
		}{
			{"", "", []string{"a", "b/4", "b/5", "b/6"}},
			{"", "/", []string{"a", "b"}},
			{"b", "/", []string{"4", "5", "6"}},
			{"b", "", []string{"/4", "/5", "/6"}},
			{"b/", "", []string{"4", "5", "6"}},
			{"b/5", "", []string{""}},
			{"c", "", nil},
		} {
			got, err := s.List(c.prefix, c.delim)
			require.NoError(t, err)
			require.ElementsMatch(t, c.want, got, "List(%q, %q)", c.prefix, c.delim)
		}
	})

	t.Run("read", func(t *testing.T) {
		r, size, err := s.ReadObject(ctx, "b/4")
		require.NoError(t, err)
		defer r.Close()
		require.EqualValues(t, len(big), size)
		for _, c := range []struct{ off, n int }{
			{0, 1}, {0, len(big)}, {1, 100}, {4095, 4097}, {len(big) - 10, 10}, {len(big) / 2, len(big) / 2},
		} {
			p := make([]byte, c.n)
			require.NoError(t, r.ReadAt(ctx, p, int64(c.off)), "ReadAt(%d, %d)", c.off, c.n)
			require.True(t, bytes.Equal(big[c.off:c.off+c.n], p), "ReadAt(%d, %d) bytes", c.off, c.n)
		}
		// Past the end: an error, never a short read.
		for _, c := range []struct{ off, n int }{{len(big) - 10, 11}, {len(big), 1}, {len(big) + 5, 3}} {
			p := make([]byte, c.n)
			err := r.ReadAt(ctx, p, int64(c.off))
			require.Error(t, err, "ReadAt(%d, %d) past the end", c.off, c.n)
			require.True(t, errors.Is(err, io.EOF), "past-the-end error %v should wrap io.EOF", err)
		}
		require.Error(t, r.ReadAt(ctx, make([]byte, 1), -1))
		// Concurrent reads on one reader.
		errs := make(chan error, 8)
		for i := range 8 {
			go func() {
				p := make([]byte, 1000)
				off := int64(i * 30000)
				if err := r.ReadAt(ctx, p, off); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(p, big[off:off+1000]) {
					errs <- fmt.Errorf("concurrent ReadAt at %d: wrong bytes", off)
					return
				}
				errs <- nil
			}()
		}
		for range 8 {
			require.NoError(t, <-errs)
		}

		r2, size, err := s.ReadObject(ctx, "b/6")
		require.NoError(t, err)
		require.Zero(t, size, "empty object")
		require.Error(t, r2.ReadAt(ctx, make([]byte, 1), 0))
		require.NoError(t, r2.Close())
	})

	t.Run("size", func(t *testing.T) {
		for name, data := range objects {
			n, err := s.Size(name)
			require.NoError(t, err)
			require.EqualValues(t, len(data), n, name)
		}
	})

	t.Run("create", func(t *testing.T) {
		// An object appears when its writer is closed, and replaces an
		// object of the same name.
		w, err := s.CreateObject("a")
		require.NoError(t, err)
		_, err = w.Write([]byte("replaced"))
		require.NoError(t, err)
		n, err := s.Size("a")
		require.NoError(t, err)
		require.EqualValues(t, len("alpha"), n, "the old object until Close")
		_, err = s.Size("new")
		require.True(t, s.IsNotExistError(err), "not visible before Close: %v", err)
		require.NoError(t, w.Close())
		r, size, err := s.ReadObject(ctx, "a")
		require.NoError(t, err)
		p := make([]byte, size)
		require.NoError(t, r.ReadAt(ctx, p, 0))
		require.Equal(t, "replaced", string(p))
		require.NoError(t, r.Close())
	})

	t.Run("not-exist", func(t *testing.T) {
		_, _, err := s.ReadObject(ctx, "missing")
		require.Error(t, err)
		require.True(t, s.IsNotExistError(err), "ReadObject of a missing object: %v", err)
		_, err = s.Size("b/missing")
		require.True(t, s.IsNotExistError(err), "Size of a missing object: %v", err)
		require.False(t, s.IsNotExistError(errors.New("something else")))
		require.False(t, s.IsNotExistError(io.EOF))
	})

	t.Run("delete", func(t *testing.T) {
		require.NoError(t, s.Delete("b/5"))
		_, err := s.Size("b/5")
		require.True(t, s.IsNotExistError(err), "Size after Delete: %v", err)
		require.NoError(t, s.Delete("b/5"), "deleting a missing object succeeds, as on S3")
		got, err := s.List("b/", "")
		require.NoError(t, err)
		require.ElementsMatch(t, []string{"4", "6"}, got)
	})
}

// TestFileNames: a file:// store refuses names that would leave its
// directory or reach its temporary directory.
func TestFileNames(t *testing.T) {
	s := meterStorage{openURL(t, "file://"+t.TempDir())}
	for _, name := range []string{"", "../x", "/abs", "a/../../x", "a//b", tmpDirName, tmpDirName + "/x", "a/./b"} {
		_, err := s.CreateObject(name)
		require.Error(t, err, "%q", name)
	}
	put(t, s, "deep/er/obj", []byte("x"))
	got, err := s.List("deep/", "/")
	require.NoError(t, err)
	require.Equal(t, []string{"er"}, got)
}
