package objstore

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// model is what a DB must hold: the acknowledged writes, applied in order.
type model map[string]string

func (m model) apply(o op) {
	switch o.kind {
	case 's':
		m[string(o.key)] = string(o.value)
	case 'd':
		delete(m, string(o.key))
	case 'r':
		for k := range m {
			if k >= string(o.key) && k < string(o.end) {
				delete(m, k)
			}
		}
	}
}

// checkReadsUnderFaults reads the DB while its store fails requests: every
// read either errors or answers as the model does (a scan that fails
// partway has returned only the model's keys, in order, none skipped). It
// returns how many reads failed.
func checkReadsUnderFaults(t *testing.T, d *pebble.DB, want model, keys int) (failed, ok int) {
	t.Helper()
	for i := 0; i < keys; i += 3 {
		v, c, err := d.Get(key(i))
		w, present := want[string(key(i))]
		switch {
		case errors.Is(err, pebble.ErrNotFound):
			require.False(t, present, "Get(%s) says absent; the model holds it", key(i))
			ok++
		case err != nil:
			failed++
		default:
			require.True(t, present, "Get(%s) found a key the model does not hold", key(i))
			require.Equal(t, w, string(v), "Get(%s)", key(i))
			require.NoError(t, c.Close())
			ok++
		}
	}
	sorted := make([]string, 0, len(want))
	for k := range want {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for lo := 0; lo < keys; lo += keys / 10 {
		bounds := &pebble.IterOptions{LowerBound: key(lo), UpperBound: key(lo + keys/10)}
		it, err := d.NewIter(bounds)
		if err != nil {
			failed++
			continue
		}
		j := sort.SearchStrings(sorted, string(key(lo)))
		for it.First(); it.Valid(); it.Next() {
			require.Less(t, j, len(sorted), "scan returned %s past the model's keys", it.Key())
			require.Equal(t, sorted[j], string(it.Key()), "scan from %s", key(lo))
			require.Equal(t, want[sorted[j]], string(it.Value()))
			j++
		}
		if it.Error() != nil {
			failed++
		} else {
			require.True(t, j == len(sorted) || sorted[j] >= string(key(lo+keys/10)),
				"scan from %s ended early without an error", key(lo))
			ok++
		}
		_ = it.Close()
	}
	return failed, ok
}

// faultyLifeOptions keep almost nothing cached, so that reads go to the
// store and meet its faults.
func faultyLifeOptions(fs vfs.FS, m *Meter) *pebble.Options {
	o := testOptions(fs)
	o.Cache = pebble.NewCache(8 << 10)
	o.MaxOpenFiles = 16
	return o
}

// faultyLife runs a DB on m through a fill, reads and writes while faults
// are on (setFaults(true)), and a reopen after they stop: every read under
// faults is an error or right, and every acknowledged write reads back.
func faultyLife(t *testing.T, m *Meter, setFaults func(on bool)) {
	const keys = 1500
	start := time.Now()
	fs := vfs.NewMem()
	o := faultyLifeOptions(fs, m)
	d := openRemote(t, "db", o, m, AllLevels)
	want := model{}
	for _, w := range workload(3, 3000, keys) {
		require.NoError(t, apply(d, w))
		want.apply(w)
	}
	require.NoError(t, d.Compact(context.Background(), key(0), key(keys+100), false))

	t.Logf("filled at %s", time.Since(start))
	setFaults(true)
	failed, ok := checkReadsUnderFaults(t, d, want, keys)
	require.NotZero(t, failed, "no read met a fault")
	require.NotZero(t, ok, "no read got through")
	// Writes go on under faults: each acknowledged write is in the WAL, and
	// flushes that fail to upload are retried by Pebble.
	for _, w := range workload(4, 800, keys) {
		if w.kind == 'f' {
			// DB.Flush waits until a flush succeeds; start one instead.
			_, _ = d.AsyncFlush()
			continue
		}
		if apply(d, w) == nil {
			want.apply(w)
		}
	}
	t.Logf("read and wrote under faults at %s (%d reads failed, %d right)", time.Since(start), failed, ok)
	_, _ = d.AsyncFlush()
	setFaults(false)
	o.Cache.Unref()
	require.NoError(t, d.Close())

	o = faultyLifeOptions(fs, m)
	d = openRemote(t, "db", o, m, AllLevels)
	defer o.Cache.Unref()
	require.Equal(t, map[string]string(want), contents(t, upstreamDB{d}), "acknowledged writes after the faults stopped")
	t.Logf("reopened and checked at %s", time.Since(start))
	require.NoError(t, d.Close())
}

// TestFaultsSim injects failed, timed-out and truncated GETs and failed
// PUTs through sim://.
func TestFaultsSim(t *testing.T) {
	m := openURL(t, "sim://?seed=11&fault_timeout=2ms")
	sim := m.inner.(*sim)
	faultyLife(t, m, func(on bool) {
		f := faults{Timeout: 2 * time.Millisecond}
		if on {
			f.GetError, f.GetTimeout, f.GetTruncate = 0.15, 0.05, 0.15
			f.PutError, f.PutTimeout = 0.2, 0.05
		}
		require.NoError(t, sim.setFaults(f))
	})
	s := m.Snapshot()
	require.NotZero(t, s.Gets().Errors, "%s", s)
	require.NotZero(t, s.Write.Errors, "no upload failed\n%s", s)
}

// TestSimFaultsDeterministic: the same seed fails the same requests.
func TestSimFaultsDeterministic(t *testing.T) {
	run := func(seed string) []bool {
		m := openURL(t, "sim://?get_error=0.3&seed="+seed)
		put(t, meterStorage{m}, "obj", randBytes(2, 10000))
		r, _, err := m.readObject(context.Background(), "obj")
		if err != nil {
			return []bool{false}
		}
		var fails []bool
		for i := range 200 {
			err := r.ReadAt(context.Background(), make([]byte, 10), int64(i%50))
			fails = append(fails, err != nil)
			if err != nil {
				require.True(t, errors.Is(err, errInjected), "%v", err)
			}
		}
		return fails
	}
	a, b, c := run("5"), run("5"), run("6")
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)
	n := 0
	for _, f := range a {
		if f {
			n++
		}
	}
	require.InDelta(t, 60, n, 25, "about 30%% of 200 reads fail")
}

// faultyS3 stands in front of the fake S3 server and spoils the requests
// fault picks: "503" and "500" answer an error, "truncate" sends the
// headers and half the body then drops the connection, "stall" answers
// nothing until the client gives up, "norange" serves a ranged GET as if
// it had no Range header.
type faultyS3 struct {
	h     http.Handler
	fault atomic.Pointer[func(r *http.Request) string]
	seen  atomic.Int64
}

func (f *faultyS3) set(fn func(r *http.Request) string) { f.fault.Store(&fn) }

func (f *faultyS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var fault string
	if fn := f.fault.Load(); fn != nil {
		fault = (*fn)(r)
	}
	if fault != "" {
		f.seen.Add(1)
	}
	switch fault {
	case "503":
		w.WriteHeader(http.StatusServiceUnavailable)
	case "lose-answer":
		f.h.ServeHTTP(httptest.NewRecorder(), r)
		w.WriteHeader(http.StatusInternalServerError)
	case "500":
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusInternalServerError)
	case "stall":
		<-r.Context().Done()
	case "norange":
		r.Header.Del("Range")
		f.h.ServeHTTP(w, r)
	case "truncate":
		rec := httptest.NewRecorder()
		f.h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		body := rec.Body.Bytes()
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	default:
		f.h.ServeHTTP(w, r)
	}
}

func isRangedGet(r *http.Request) bool {
	return r.Method == http.MethodGet && r.Header.Get("Range") != ""
}

func newFaultyS3(t *testing.T) (*fakeS3, *faultyS3) {
	var f *faultyS3
	s3 := newFakeS3(t, func(h http.Handler) http.Handler {
		f = &faultyS3{h: h}
		return f
	})
	return s3, f
}

// TestFaultsS3Client runs testFaultsS3Client on an in-process S3 server.
func TestFaultsS3Client(t *testing.T) {
	s3, f := newFaultyS3(t)
	testFaultsS3Client(t, func(extra ...string) string { return s3.url("p", extra...) }, f, false)
}

// testFaultsS3Client: each kind of failure surfaces from the real client
// as an error, and a failure that goes away is retried into a right answer.
// url gives the URL of a store behind f with extra parameters; s3ETags says
// the server gives a multipart object the ETag S3 gives it (gofakes3 does
// not).
func testFaultsS3Client(t *testing.T, url func(extra ...string) string, f *faultyS3, s3ETags bool) {
	m := openURL(t, url("retries=2", "timeout=400ms", "part_size=5MiB"))
	data := randBytes(3, 64<<10)
	put(t, meterStorage{m}, "obj", data)
	ctx := context.Background()
	r, size, err := m.readObject(ctx, "obj")
	require.NoError(t, err)
	require.EqualValues(t, len(data), size)
	read := func() ([]byte, error) {
		p := make([]byte, 1000)
		return p, r.ReadAt(ctx, p, 5000)
	}

	for _, fault := range []string{"503", "truncate", "stall", "norange"} {
		t.Run("always-"+fault, func(t *testing.T) {
			f.seen.Store(0)
			f.set(func(r *http.Request) string {
				if isRangedGet(r) {
					return fault
				}
				return ""
			})
			defer f.set(func(*http.Request) string { return "" })
			_, err := read()
			require.Error(t, err, "a %s GET must fail the read", fault)
			require.NotZero(t, f.seen.Load())
		})
		if fault == "norange" {
			continue // a server that ignores Range is not a transient failure
		}
		t.Run("once-"+fault, func(t *testing.T) {
			var once sync.Once
			f.set(func(r *http.Request) string {
				hit := ""
				if isRangedGet(r) {
					once.Do(func() { hit = fault })
				}
				return hit
			})
			defer f.set(func(*http.Request) string { return "" })
			p, err := read()
			require.NoError(t, err, "one %s GET is retried", fault)
			require.Equal(t, data[5000:6000], p)
		})
	}

	t.Run("put-500", func(t *testing.T) {
		f.set(func(r *http.Request) string {
			if r.Method == http.MethodPut {
				return "500"
			}
			return ""
		})
		defer f.set(func(*http.Request) string { return "" })
		w, err := m.createObject("failed")
		require.NoError(t, err)
		_, err = w.Write(data)
		require.NoError(t, err, "a small object is uploaded at Close")
		require.Error(t, w.Close(), "a failed PUT fails Close")
		_, err = m.size("failed")
		require.True(t, m.isNotExistError(err), "no object after a failed PUT: %v", err)
	})

	t.Run("multipart", func(t *testing.T) {
		// Uploading 5 MiB parts takes longer than the short timeout above
		// on a slow machine (or under the race detector).
		m := openURL(t, url("retries=2", "timeout=20s", "part_size=5MiB"))
		big := randBytes(4, 11<<20)
		put(t, meterStorage{m}, "big", big)
		r, size, err := m.readObject(ctx, "big")
		require.NoError(t, err)
		require.EqualValues(t, len(big), size)
		for _, off := range []int64{0, 5<<20 - 10, 10 << 20} {
			p := make([]byte, 4096)
			require.NoError(t, r.ReadAt(ctx, p, off))
			require.True(t, bytes.Equal(big[off:off+4096], p), "multipart object at %d", off)
		}
		// The answer to the completion is lost, so the client's retry finds
		// the upload gone. The store accepts the object only if it carries
		// the ETag S3 gives the parts it uploaded (gofakes3 gives another,
		// so there Close fails); either way, no wrong object is taken.
		var lost sync.Once
		f.set(func(r *http.Request) string {
			hit := ""
			if r.Method == http.MethodPost && r.URL.Query().Get("uploadId") != "" {
				lost.Do(func() { hit = "lose-answer" })
			}
			return hit
		})
		w, err := m.createObject("big-lost-answer")
		require.NoError(t, err)
		_, err = w.Write(big)
		require.NoError(t, err)
		err = w.Close()
		if s3ETags {
			require.NoError(t, err, "an upload completed before its answer was lost")
		}
		if err == nil {
			r, size, err := m.readObject(ctx, "big-lost-answer")
			require.NoError(t, err)
			p := make([]byte, size)
			require.NoError(t, r.ReadAt(ctx, p, 0))
			require.True(t, bytes.Equal(big, p), "an upload accepted after a lost answer is whole")
		} else {
			require.Contains(t, err.Error(), "NoSuchUpload")
		}

		// A part that keeps failing (past the client's retries): the upload
		// is aborted, no object appears.
		f.set(func(r *http.Request) string {
			if r.Method == http.MethodPut && r.URL.Query().Get("partNumber") == "2" {
				return "500"
			}
			return ""
		})
		defer f.set(func(*http.Request) string { return "" })
		w, err = m.createObject("big2")
		require.NoError(t, err)
		_, werr := w.Write(big)
		cerr := w.Close()
		require.Error(t, errors.CombineErrors(werr, cerr), "a failed part fails the upload")
		_, err = m.size("big2")
		require.True(t, m.isNotExistError(err), "no object after a failed multipart upload: %v", err)
		st := s3StoreOf(t, m)
		pending, err := st.core.ListMultipartUploads(ctx, st.bucket, st.prefix, "", "", "", 100)
		require.NoError(t, err)
		require.Empty(t, pending.Uploads, "the failed upload was aborted")
	})
}

// TestFaultsS3DB runs the faulty life through the real client: a seeded
// share of ranged GETs answer 503 or a cut body, a share of PUTs 500.
func TestFaultsS3DB(t *testing.T) {
	s3, f := newFaultyS3(t)
	m := openURL(t, s3.url("db", "retries=1", "timeout=2s"))
	var n atomic.Int64
	faultyLife(t, m, func(on bool) {
		if !on {
			f.set(func(*http.Request) string { return "" })
			return
		}
		f.set(func(r *http.Request) string {
			i := n.Add(1)
			switch {
			case isRangedGet(r) && i%5 == 0:
				return "503"
			case isRangedGet(r) && i%5 == 1:
				return "truncate"
			case r.Method == http.MethodPut && i%3 == 0:
				return "500"
			}
			return ""
		})
	})
	require.NotZero(t, f.seen.Load())
}
