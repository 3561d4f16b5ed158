package objstore

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/stretchr/testify/require"
)

// fakeS3 is an in-process S3 server (gofakes3 over httptest, on the
// loopback address), reached through the real minio-go client.
type fakeS3 struct {
	srv     *httptest.Server
	backend *s3mem.Backend
	bucket  string
}

// newFakeS3 starts a server with one bucket; wrap, if set, stands in front
// of it (to inject failures).
func newFakeS3(t *testing.T, wrap func(http.Handler) http.Handler) *fakeS3 {
	t.Helper()
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	t.Setenv("AWS_SESSION_TOKEN", "")
	shortBackoff(t)
	backend := s3mem.New()
	var h http.Handler = gofakes3.New(backend).Server()
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	f := &fakeS3{srv: srv, backend: backend, bucket: "tables"}
	require.NoError(t, backend.CreateBucket(f.bucket))
	return f
}

// url is the s3:// URL of the bucket under prefix, with extra parameters.
func (f *fakeS3) url(prefix string, extra ...string) string {
	host := strings.TrimPrefix(f.srv.URL, "http://")
	u := fmt.Sprintf("s3://%s/%s?endpoint=%s&secure=false&lookup=path&region=us-east-1", f.bucket, prefix, host)
	for _, e := range extra {
		u += "&" + e
	}
	return u
}

// shortBackoff shortens minio-go's backoff for the test: it backs off 200ms
// to 1s between retries (and after a last failed attempt), and tests that
// fail requests on purpose would spend most of their time asleep.
func shortBackoff(t *testing.T) {
	unit, limit := minio.DefaultRetryUnit, minio.DefaultRetryCap
	minio.DefaultRetryUnit, minio.DefaultRetryCap = time.Millisecond, 5*time.Millisecond
	t.Cleanup(func() { minio.DefaultRetryUnit, minio.DefaultRetryCap = unit, limit })
}

// newFaultyProxy stands a faultyS3 in front of the server, as a reverse
// proxy on the loopback address: the server's requests reach it unchanged,
// the Host header included (which the signature covers), so it needs a
// plain-HTTP endpoint that answers whatever host it is addressed by, as
// SeaweedFS and MinIO do.
func newFaultyProxy(t *testing.T, s s3Server) (s3Server, *faultyS3) {
	t.Helper()
	if s.query.Get("secure") != "false" {
		t.Skipf("a fault-injecting proxy needs a plain-HTTP endpoint (secure=false in %s)", s3TestURLEnv)
	}
	target, err := url.Parse("http://" + s.query.Get("endpoint"))
	require.NoError(t, err)
	f := &faultyS3{h: httputil.NewSingleHostReverseProxy(target)}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	shortBackoff(t)
	proxied := s
	proxied.query = url.Values{}
	for k, v := range s.query {
		proxied.query[k] = v
	}
	proxied.query.Set("endpoint", strings.TrimPrefix(srv.URL, "http://"))
	return proxied, f
}

// TestS3OnePartOnePut: an object of exactly one part's size goes up with
// one PUT, a larger one as a multipart upload.
func TestS3OnePartOnePut(t *testing.T) {
	s3, f := newFaultyS3(t)
	m := openURL(t, s3.url("p", "part_size=5MiB"))
	var mu sync.Mutex
	var reqs []string
	f.set(func(r *http.Request) string {
		mu.Lock()
		defer mu.Unlock()
		kind := r.Method
		if r.URL.Query().Has("uploads") || r.URL.Query().Has("uploadId") {
			kind += " multipart"
		}
		reqs = append(reqs, kind)
		return ""
	})
	put(t, meterStorage{m}, "one", randBytes(7, 5<<20))
	require.Equal(t, []string{"PUT"}, reqs)
	reqs = nil
	put(t, meterStorage{m}, "two", randBytes(8, 5<<20+1))
	require.Equal(t, []string{"POST multipart", "PUT multipart", "PUT multipart", "POST multipart"}, reqs)
}
func TestS3Multipart(t *testing.T) {
	testMultipart(t, fakeServer(t).location("part_size=5MiB", "timeout=60s"), false)
}

// testMultipart: an object larger than a part goes up as a multipart
// upload and reads back whole, across its parts' boundaries; one of
// exactly a part's size goes up with one PUT. s3ETags says the server gives
// a multipart object the ETag S3 gives it, the MD5 of its parts' MD5s and
// the part count, on which a completion whose answer was lost relies
// (s3Writer.completedBefore).
func testMultipart(t *testing.T, url string, s3ETags bool) {
	const part = 5 << 20
	m := openURL(t, url)
	s := meterStorage{m}
	ctx := context.Background()
	big, one := randBytes(5, 2*part+12345), randBytes(6, part)
	put(t, s, "big", big)
	put(t, s, "one", one)
	r, size, err := s.ReadObject(ctx, "big")
	require.NoError(t, err)
	require.EqualValues(t, len(big), size)
	for _, off := range []int{0, part - 10, part, 2*part - 1, 2*part + 12345 - 100} {
		p := make([]byte, 100)
		require.NoError(t, r.ReadAt(ctx, p, int64(off)))
		require.Equal(t, big[off:off+100], p, "at %d", off)
	}
	whole := make([]byte, len(big))
	require.NoError(t, r.ReadAt(ctx, whole, 0))
	require.True(t, bytes.Equal(big, whole), "the whole object")
	require.NoError(t, r.Close())
	n, err := s.Size("one")
	require.NoError(t, err)
	require.EqualValues(t, part, n)

	st := s3StoreOf(t, m)
	info, err := st.core.StatObject(ctx, st.bucket, st.key("big"), minio.StatObjectOptions{})
	require.NoError(t, err)
	h := md5.New()
	for off := 0; off < len(big); off += part {
		sum := md5.Sum(big[off:min(off+part, len(big))])
		h.Write(sum[:])
	}
	if s3ETags {
		require.Equal(t, fmt.Sprintf("%x-3", h.Sum(nil)), strings.Trim(info.ETag, `"`), "a multipart object's ETag")
	}
	info, err = st.core.StatObject(ctx, st.bucket, st.key("one"), minio.StatObjectOptions{})
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf("%x", md5.Sum(one)), strings.Trim(info.ETag, `"`), "a single PUT's ETag")

	names, err := s.List("", "")
	require.NoError(t, err)
	require.Equal(t, []string{"big", "one"}, names)
	require.NoError(t, s.Delete("big"))
	_, _, err = s.ReadObject(ctx, "big")
	require.True(t, s.IsNotExistError(err), "a deleted object: %v", err)
	pending, err := st.core.ListMultipartUploads(ctx, st.bucket, st.prefix, "", "", "", 100)
	require.NoError(t, err)
	require.Empty(t, pending.Uploads, "no upload left incomplete")
}

func TestS3Bucket(t *testing.T) {
	testBucket(t, fakeServer(t))
}

// testBucket: a missing bucket is one error that names the bucket and
// create_bucket; with create_bucket=true, Open makes it, also when several
// opens race to, and a bad value is an error that names the parameter.
func testBucket(t *testing.T, s s3Server) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	bucket := "pebblerf-bucket-" + hex.EncodeToString(b[:])
	_, err := Open(s.url(bucket, "db", "create_bucket=false"))
	require.Error(t, err)
	require.Contains(t, err.Error(), fmt.Sprintf("bucket %q does not exist", bucket))
	require.Contains(t, err.Error(), "create_bucket=true")
	require.NotContains(t, err.Error(), "\n", "one line")
	require.ErrorContains(t, CheckURL(s.url(bucket, "db", "create_bucket=maybe")), `create_bucket="maybe"`)

	errs := make(chan error, 4)
	for range 4 {
		go func() {
			m, err := Open(s.url(bucket, "db", "create_bucket=true"))
			if err == nil {
				err = m.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		require.NoError(t, <-errs, "opens that race to create the bucket")
	}
	m := openURL(t, s.url(bucket, "db", "create_bucket=false"))
	st := s3StoreOf(t, m)
	defer func() {
		require.NoError(t, st.Delete("x"))
		require.NoError(t, st.core.RemoveBucket(context.Background(), bucket))
	}()
	put(t, meterStorage{m}, "x", []byte("in the new bucket"))
	n, err := st.Size("x")
	require.NoError(t, err)
	require.EqualValues(t, len("in the new bucket"), n)
}

// TestConfigureChecksWrites: on an S3 store that takes no writes,
// Configure fails with one error line before the DB opens, unless the DB
// is opened read-only; on one that does, its check leaves nothing behind
// and counts no request.
func TestConfigureChecksWrites(t *testing.T) {
	s3, f := newFaultyS3(t)
	m := openURL(t, s3.url("p", "retries=2", "timeout=2s"))
	f.set(func(r *http.Request) string {
		if r.Method == http.MethodPut {
			return "500"
		}
		return ""
	})
	err := Configure("db", testOptions(vfs.NewMem()), Config{Store: m, CreatorID: 4})
	require.Error(t, err)
	require.Contains(t, err.Error(), `bucket "tables" at`)
	require.Contains(t, err.Error(), "takes no writes")
	require.NotContains(t, err.Error(), "\n")
	o := testOptions(vfs.NewMem())
	o.ReadOnly = true
	require.NoError(t, Configure("db", o, Config{Store: m, CreatorID: 4}))

	f.set(func(*http.Request) string { return "" })
	before := m.Snapshot()
	require.NoError(t, Configure("db", testOptions(vfs.NewMem()), Config{Store: m, CreatorID: 4}))
	require.Equal(t, before.Total(), m.Snapshot().Total(), "the check counts no request")
	names, err := m.list("", "")
	require.NoError(t, err)
	require.Empty(t, names)
}
