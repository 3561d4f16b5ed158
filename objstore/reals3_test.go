package objstore

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tests named TestRealS3... speak to a real S3 service through the
// same client as every s3:// store. PEBBLERF_S3_TEST_URL names it, as an
// s3:// URL that Open takes (its bucket, a prefix to work under, and the
// parameters that reach the service), with credentials in the standard AWS
// environment variables; without it they skip. make test-s3 starts
// SeaweedFS on the loopback address (scripts/s3server.sh) and sets it; any
// other service, MinIO or AWS S3, takes the same URL form:
//
//	PEBBLERF_S3_TEST_URL='s3://bucket/prefix?endpoint=127.0.0.1:9000&secure=false&lookup=path&region=us-east-1' \
//	AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... go test -run '^TestRealS3' ./objstore
//
// Each test works under a prefix of its own below the URL's and deletes
// what it wrote. The tests that kill the server's processes start a
// SeaweedFS cluster of their own, so they need its binary too:
// PEBBLERF_WEED (make test-s3 builds it and sets it).
const (
	s3TestURLEnv = "PEBBLERF_S3_TEST_URL"
	weedEnv      = "PEBBLERF_WEED"
)

// s3Server is an S3 service the tests speak to: its endpoint's parameters,
// and a bucket and prefix that no other test uses.
type s3Server struct {
	bucket string
	prefix string
	query  url.Values
}

// url is the s3:// URL of prefix in bucket, with extra parameters
// ("name=value") that replace the server's own of the same name.
func (s s3Server) url(bucket, prefix string, extra ...string) string {
	q := url.Values{}
	for k, v := range s.query {
		q[k] = append([]string(nil), v...)
	}
	for _, e := range extra {
		k, v, _ := strings.Cut(e, "=")
		q.Set(k, v)
	}
	u := url.URL{Scheme: "s3", Host: bucket, Path: "/" + prefix, RawQuery: q.Encode()}
	return u.String()
}

// location is the URL of the test's own prefix.
func (s s3Server) location(extra ...string) string { return s.url(s.bucket, s.prefix, extra...) }

// fakeServer is a gofakes3 server of the test's own.
func fakeServer(t *testing.T) s3Server {
	f := newFakeS3(t, nil)
	return s3Server{bucket: f.bucket, prefix: "db", query: url.Values{
		"endpoint": {strings.TrimPrefix(f.srv.URL, "http://")}, "secure": {"false"},
		"lookup": {"path"}, "region": {"us-east-1"},
	}}
}

// realServer is the service PEBBLERF_S3_TEST_URL names, with a prefix of
// the test's own whose objects are deleted when the test ends; it skips the
// test when the variable is unset.
func realServer(t *testing.T) s3Server {
	t.Helper()
	raw := realS3URL(t)
	u, err := url.Parse(raw)
	require.NoError(t, err, s3TestURLEnv)
	require.Equal(t, "s3", u.Scheme, "%s must be an s3:// URL", s3TestURLEnv)
	require.NoError(t, CheckURL(raw), s3TestURLEnv)
	s := s3Server{bucket: u.Host, query: u.Query(),
		prefix: path.Join(strings.Trim(u.Path, "/"), testPrefix(t))}
	t.Cleanup(func() { deleteAll(t, s.location()) })
	return s
}

// realS3URL returns PEBBLERF_S3_TEST_URL, and skips the test when it is
// unset.
func realS3URL(t *testing.T) string {
	t.Helper()
	raw := os.Getenv(s3TestURLEnv)
	if raw == "" {
		t.Skipf("no real S3 server: set %s to an s3:// URL, or run make test-s3 (SeaweedFS)", s3TestURLEnv)
	}
	return raw
}

// testPrefix is a prefix made of the test's name and a random suffix, so
// that runs against one bucket never meet.
func testPrefix(t *testing.T) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "-")
	return strings.ToLower(name) + "-" + hex.EncodeToString(b[:])
}

// deleteAll deletes every object under the URL's location.
func deleteAll(t *testing.T, rawURL string) {
	m, err := Open(rawURL)
	if err != nil {
		t.Logf("cleaning up %s: %v", rawURL, err)
		return
	}
	defer m.Close()
	names, err := m.list("", "")
	if err != nil {
		t.Logf("cleaning up %s: %v", rawURL, err)
		return
	}
	for _, n := range names {
		if err := m.delete(n); err != nil {
			t.Logf("cleaning up %s: %v", rawURL, err)
			return
		}
	}
}

// s3Store returns the store under a meter that Open returned for an s3://
// URL, for the tests that speak to the service beside it.
func s3StoreOf(t *testing.T, m *Meter) *s3Store {
	s, ok := m.inner.(*s3Store)
	require.True(t, ok, "not an s3:// store")
	return s
}

func TestRealS3Conformance(t *testing.T) {
	testConformance(t, meterStorage{openURL(t, realServer(t).location())})
}

func TestRealS3Multipart(t *testing.T) {
	testMultipart(t, realServer(t).location("part_size=5MiB", "timeout=60s"), true)
}

func TestRealS3Bucket(t *testing.T) {
	testBucket(t, realServer(t))
}

func TestRealS3ClientFaults(t *testing.T) {
	s, f := newFaultyProxy(t, realServer(t))
	testFaultsS3Client(t, s.location, f, true)
}

func TestRealS3DBLife(t *testing.T) {
	realS3URL(t)
	for _, levels := range []Levels{AllLevels, LowerLevels} {
		t.Run(levels.String(), func(t *testing.T) {
			testDBLife(t, realServer(t).location(), levels)
		})
	}
}

func TestRealS3TwoDBs(t *testing.T) {
	testTwoDBs(t, realServer(t).location())
}
