package objstore

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

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
	// minio-go backs off 200ms to 1s between retries (and after a last
	// failed attempt); tests that fail requests on purpose would spend
	// most of their time asleep.
	unit, limit := minio.DefaultRetryUnit, minio.DefaultRetryCap
	minio.DefaultRetryUnit, minio.DefaultRetryCap = time.Millisecond, 5*time.Millisecond
	t.Cleanup(func() { minio.DefaultRetryUnit, minio.DefaultRetryCap = unit, limit })
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
