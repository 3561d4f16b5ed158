package objstore

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config configures an S3 store (the fields of an s3:// URL).
type S3Config struct {
	// Endpoint is host[:port] of the S3 service; empty means AWS S3
	// (s3.amazonaws.com).
	Endpoint string
	// Bucket holds the objects; it must exist, unless CreateBucket is set.
	Bucket string
	// Prefix is prepended to every object name ("" or ending in "/").
	Prefix string
	// Region is the bucket's region; empty lets the client find it.
	Region string
	// Insecure speaks plain HTTP instead of HTTPS.
	Insecure bool
	// Lookup selects path-style or virtual-host-style bucket addressing;
	// minio.BucketLookupAuto lets the client choose by endpoint.
	Lookup minio.BucketLookupType
	// Timeout bounds each store call, the client's retries included; a
	// single HTTP attempt that has not answered within a quarter of it is
	// abandoned and retried.
	Timeout time.Duration
	// Retries is how many times minio-go tries a request that failed with a
	// retryable error (5xx, throttling, a network error, an abandoned
	// attempt), backing off exponentially; 1 disables retries. A GET whose
	// body is cut short is tried again up to min(Retries, 3) times.
	Retries int
	// PartSize is the size of the parts of a multipart upload; an object no
	// larger than it is uploaded with one PUT. At least 5 MiB (S3's minimum).
	PartSize int64
	// CreateBucket makes the bucket (in Region, or the service's default
	// region) when it does not exist. Off, a missing bucket is an error:
	// a mistyped name or endpoint must not quietly make a new, empty bucket
	// that a reopened DB then finds without its tables.
	CreateBucket bool
	// Credentials, when nil, come from the standard AWS chain: the
	// environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
	// AWS_SESSION_TOKEN), the shared credentials file, then the instance's
	// IAM role.
	Credentials *credentials.Credentials
}

const (
	defaultS3Timeout  = 30 * time.Second
	defaultS3Retries  = 10
	defaultS3PartSize = 16 << 20
	minS3PartSize     = 5 << 20
	// s3BodyAttempts bounds how many times a ranged GET is issued when its
	// body arrives short or broken (minio-go retries failed requests, not
	// bodies cut after the headers, which S3 download managers retry
	// themselves); Retries bounds it too.
	s3BodyAttempts = 3
)

// s3Store is the s3:// store over minio-go's low-level Core API, so that
// each ReadAt is exactly one ranged GET (plus the client's retries).
type s3Store struct {
	core   *minio.Core
	cfg    S3Config
	bucket string
	prefix string
}

// NewS3 returns a store over an S3-compatible service. It checks that the
// bucket exists (or creates it, with CreateBucket), so that a wrong bucket
// or endpoint fails here rather than at the first flush.
func NewS3(cfg S3Config) (remote.Storage, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("objstore: s3: no bucket")
	}
	if cfg.Endpoint == "" {
		cfg.Endpoint = "s3.amazonaws.com"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = defaultS3Timeout
	}
	if cfg.Retries <= 0 {
		cfg.Retries = defaultS3Retries
	}
	if cfg.PartSize == 0 {
		cfg.PartSize = defaultS3PartSize
	}
	if cfg.PartSize < minS3PartSize {
		return nil, errors.Newf("objstore: s3: part size %d is below S3's minimum of %d bytes",
			cfg.PartSize, minS3PartSize)
	}
	if cfg.Prefix != "" && !strings.HasSuffix(cfg.Prefix, "/") {
		cfg.Prefix += "/"
	}
	creds := cfg.Credentials
	if creds == nil {
		creds = credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{},
			&credentials.FileAWSCredentials{},
			&credentials.IAM{},
		})
	}
	tr, err := minio.DefaultTransport(!cfg.Insecure)
	if err != nil {
		return nil, errors.Wrap(err, "objstore: s3: transport")
	}
	tr.ResponseHeaderTimeout = cfg.Timeout / 4
	core, err := minio.NewCore(cfg.Endpoint, &minio.Options{
		Creds:        creds,
		Secure:       !cfg.Insecure,
		Region:       cfg.Region,
		BucketLookup: cfg.Lookup,
		Transport:    tr,
		MaxRetries:   cfg.Retries,
	})
	if err != nil {
		return nil, errors.Wrapf(err, "objstore: s3: endpoint %q", cfg.Endpoint)
	}
	s := &s3Store{core: core, cfg: cfg, bucket: cfg.Bucket, prefix: cfg.Prefix}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
	defer cancel()
	ok, err := core.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, errors.Wrapf(err, "objstore: s3: checking bucket %q at %q", cfg.Bucket, cfg.Endpoint)
	}
	if !ok {
		if !cfg.CreateBucket {
			return nil, errors.Newf("objstore: s3: bucket %q does not exist at %q; create it, "+
				"or add create_bucket=true to the store URL", cfg.Bucket, cfg.Endpoint)
		}
		if err := s.createBucket(ctx); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// createBucket makes the bucket. Stores opened at once (two DBs sharing a
// bucket, say) may race to create it: an attempt that fails while the
// bucket now exists has lost that race, which is success.
func (s *s3Store) createBucket(ctx context.Context) error {
	err := s.core.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{Region: s.cfg.Region})
	if err == nil {
		return nil
	}
	if ok, serr := s.core.BucketExists(ctx, s.bucket); serr == nil && ok {
		return nil
	}
	return errors.Wrapf(err, "objstore: s3: creating bucket %q at %q (create_bucket=true)", s.bucket, s.cfg.Endpoint)
}

func (s *s3Store) key(name string) string { return s.prefix + name }

// wrap adds the operation and object to a client error and marks S3's
// NoSuchKey as the package's not-exist error.
func (s *s3Store) wrap(err error, op, name string) error {
	if err == nil {
		return nil
	}
	code := minio.ToErrorResponse(err).Code
	if errors.Is(err, context.DeadlineExceeded) {
		err = errors.Wrapf(err, "no answer in time (timeout=%s, retries=%d)", s.cfg.Timeout, s.cfg.Retries)
	}
	err = errors.Wrapf(err, "objstore: s3: %s %q in bucket %q", op, s.key(name), s.bucket)
	if code == minio.NoSuchKey {
		err = errors.Mark(err, errNotExist)
	}
	return err
}

func (s *s3Store) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithTimeout(ctx, s.cfg.Timeout)
}

// ReadObject implements remote.Storage: one HEAD for the object's size.
func (s *s3Store) ReadObject(ctx context.Context, name string) (remote.ObjectReader, int64, error) {
	size, err := s.stat(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	return &s3Reader{s: s, name: name, size: size}, size, nil
}

func (s *s3Store) stat(ctx context.Context, name string) (int64, error) {
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	info, err := s.core.StatObject(ctx, s.bucket, s.key(name), minio.StatObjectOptions{})
	if err != nil {
		return 0, s.wrap(err, "HEAD", name)
	}
	return info.Size, nil
}

type s3Reader struct {
	s    *s3Store
	name string
	size int64
}

// ReadAt implements remote.ObjectReader with one ranged GET. It returns
// exactly len(p) bytes or an error: a response whose Content-Range is not the
// range asked for, or whose body ends early, is never taken for data.
func (r *s3Reader) ReadAt(ctx context.Context, p []byte, off int64) error {
	if err := checkRange(r.name, off, len(p), r.size); err != nil || len(p) == 0 {
		return err
	}
	var err error
	for attempt := 0; attempt < min(r.s.cfg.Retries, s3BodyAttempts); attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(attempt) * 50 * time.Millisecond):
			case <-ctx.Done():
				return errors.CombineErrors(err, ctx.Err())
			}
		}
		var retry bool
		retry, err = r.get(ctx, p, off)
		if err == nil || !retry {
			return err
		}
	}
	return err
}

// get issues one ranged GET; retry reports whether the failure was in the
// body (the request itself already went through minio-go's retries).
func (r *s3Reader) get(ctx context.Context, p []byte, off int64) (retry bool, _ error) {
	ctx, cancel := r.s.callContext(ctx)
	defer cancel()
	end := off + int64(len(p)) - 1
	var opts minio.GetObjectOptions
	if err := opts.SetRange(off, end); err != nil {
		return false, errors.Wrapf(err, "objstore: s3: range of %q", r.name)
	}
	body, _, header, err := r.s.core.GetObject(ctx, r.s.bucket, r.s.key(r.name), opts)
	if err != nil {
		return false, r.s.wrap(err, fmt.Sprintf("GET [%d, %d] of", off, end), r.name)
	}
	defer body.Close()
	if err := checkContentRange(header, off, end, r.size); err != nil {
		return false, errors.Wrapf(err, "objstore: s3: GET of %q", r.s.key(r.name))
	}
	if _, err := io.ReadFull(body, p); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return ctx.Err() == nil, errors.Wrapf(err, "objstore: s3: body of GET [%d, %d] of %q",
			off, end, r.s.key(r.name))
	}
	return false, nil
}

// checkContentRange verifies that a ranged GET answered the range asked for:
// a server that ignores Range answers 200 with the whole object, which is
// the requested bytes only when they are the whole object.
func checkContentRange(h http.Header, off, end, size int64) error {
	cr := h.Get("Content-Range")
	if cr == "" {
		if off == 0 && end == size-1 {
			return nil
		}
		return errors.Newf("server ignored the range [%d, %d] (no Content-Range)", off, end)
	}
	var a, b, total int64
	if _, err := fmt.Sscanf(cr, "bytes %d-%d/%d", &a, &b, &total); err != nil {
		return errors.Newf("unparseable Content-Range %q", cr)
	}
	if a != off || b != end {
		return errors.Newf("Content-Range %q does not answer [%d, %d]", cr, off, end)
	}
	if total != size {
		return errors.Newf("object changed size from %d to %d bytes", size, total)
	}
	return nil
}

func (r *s3Reader) Close() error { return nil }

// CreateObject implements remote.Storage. The writer buffers up to one part:
// an object that fits is uploaded with one PUT at Close; a larger one goes up
// as a multipart upload, a part at a time as it is written, completed at
// Close. A failure fails Close (or the Write that uploaded the part), and
// the upload is aborted: no partial object appears.
func (s *s3Store) CreateObject(name string) (io.WriteCloser, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return &s3Writer{s: s, name: name}, nil
}

type s3Writer struct {
	s        *s3Store
	name     string
	buf      []byte
	uploadID string
	parts    []minio.CompletePart
	err      error
	done     bool
}

func (w *s3Writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, errors.Newf("objstore: s3: write to %q after close", w.name)
	}
	if w.err != nil {
		return 0, w.err
	}
	n := len(p)
	for len(p) > 0 {
		// A full buffer goes up as a part only once more bytes follow it:
		// an object of exactly one part is one PUT at Close.
		if len(w.buf) == int(w.s.cfg.PartSize) {
			if err := w.uploadPart(); err != nil {
				w.fail(err)
				return 0, w.err
			}
		}
		room := int(w.s.cfg.PartSize) - len(w.buf)
		take := min(room, len(p))
		w.buf = append(w.buf, p[:take]...)
		p = p[take:]
	}
	return n, nil
}

// putOptions send uploads with Content-Length and Content-MD5 (which the
// server checks) and an unsigned payload: minio-go would otherwise sign
// payloads over plain HTTP with a streaming signature, sent without a
// Content-Length, which some S3-compatible servers refuse (over HTTPS it
// does not stream either).
var putOptions = minio.PutObjectOptions{DisableContentSha256: true}

func contentMD5(b []byte) string {
	sum := md5.Sum(b)
	return base64.StdEncoding.EncodeToString(sum[:])
}

func (w *s3Writer) uploadPart() error {
	ctx, cancel := w.s.callContext(context.Background())
	defer cancel()
	key := w.s.key(w.name)
	if w.uploadID == "" {
		id, err := w.s.core.NewMultipartUpload(ctx, w.s.bucket, key, putOptions)
		if err != nil {
			return w.s.wrap(err, "starting upload of", w.name)
		}
		w.uploadID = id
	}
	num := len(w.parts) + 1
	part, err := w.s.core.PutObjectPart(ctx, w.s.bucket, key, w.uploadID, num,
		bytes.NewReader(w.buf), int64(len(w.buf)), minio.PutObjectPartOptions{Md5Base64: contentMD5(w.buf), DisableContentSha256: true})
	if err != nil {
		return w.s.wrap(err, fmt.Sprintf("uploading part %d of", num), w.name)
	}
	w.parts = append(w.parts, minio.CompletePart{PartNumber: num, ETag: part.ETag})
	w.buf = w.buf[:0]
	return nil
}

// fail records the first error and aborts the upload.
func (w *s3Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
	w.abort()
}

// abort implements aborter: a started multipart upload is aborted (best
// effort: a bucket lifecycle rule cleans up what an unreachable server
// keeps), and nothing is completed.
func (w *s3Writer) abort() {
	w.done = true
	w.buf = nil
	if w.uploadID != "" {
		ctx, cancel := w.s.callContext(context.Background())
		defer cancel()
		_ = w.s.core.AbortMultipartUpload(ctx, w.s.bucket, w.s.key(w.name), w.uploadID)
		w.uploadID = ""
	}
}

func (w *s3Writer) Close() error {
	if w.done {
		return w.err
	}
	if w.err != nil {
		w.abort()
		return w.err
	}
	key := w.s.key(w.name)
	if w.uploadID == "" {
		ctx, cancel := w.s.callContext(context.Background())
		defer cancel()
		_, err := w.s.core.PutObject(ctx, w.s.bucket, key, bytes.NewReader(w.buf), int64(len(w.buf)),
			contentMD5(w.buf), "", putOptions)
		w.done = true
		w.buf = nil
		if err != nil {
			w.err = w.s.wrap(err, "PUT", w.name)
		}
		return w.err
	}
	if len(w.buf) > 0 {
		if err := w.uploadPart(); err != nil {
			w.fail(err)
			return w.err
		}
	}
	ctx, cancel := w.s.callContext(context.Background())
	defer cancel()
	if _, err := w.s.core.CompleteMultipartUpload(ctx, w.s.bucket, key, w.uploadID, w.parts,
		putOptions); err != nil && !w.completedBefore(ctx, err) {
		w.fail(w.s.wrap(err, "completing upload of", w.name))
		return w.err
	}
	w.done = true
	w.buf = nil
	return nil
}

// completedBefore reports whether a completion that failed with NoSuchUpload
// had in fact succeeded: completing is not idempotent, so when an attempt
// completes the upload but its answer is lost, the client's retry finds the
// upload gone. The object then exists with the ETag S3 gives a multipart
// object, the MD5 of its parts' MD5s followed by the part count; anything
// else is a failure.
func (w *s3Writer) completedBefore(ctx context.Context, err error) bool {
	if minio.ToErrorResponse(err).Code != minio.NoSuchUpload {
		return false
	}
	info, serr := w.s.core.StatObject(ctx, w.s.bucket, w.s.key(w.name), minio.StatObjectOptions{})
	if serr != nil {
		return false
	}
	h := md5.New()
	for _, p := range w.parts {
		sum, derr := hex.DecodeString(strings.Trim(p.ETag, `"`))
		if derr != nil {
			return false
		}
		h.Write(sum)
	}
	want := fmt.Sprintf("%x-%d", h.Sum(nil), len(w.parts))
	return strings.Trim(info.ETag, `"`) == want
}

// List implements remote.Storage. It lists every key under the store's
// prefix and the given one (one LIST request per 1,000 keys) and applies the
// delimiter rule on the client, so that all stores answer alike; Pebble
// lists only without a delimiter.
func (s *s3Store) List(prefix, delimiter string) ([]string, error) {
	var names []string
	token := ""
	for {
		res, err := s.core.ListObjectsV2(s.bucket, s.key(prefix), "", token, "", 1000)
		if err != nil {
			return nil, s.wrap(err, "LIST", prefix)
		}
		for _, obj := range res.Contents {
			names = append(names, strings.TrimPrefix(obj.Key, s.prefix))
		}
		if !res.IsTruncated || res.NextContinuationToken == "" {
			break
		}
		token = res.NextContinuationToken
	}
	return listNames(names, prefix, delimiter), nil
}

// Delete implements remote.Storage. S3 deletes a missing key without error.
func (s *s3Store) Delete(name string) error {
	ctx, cancel := s.callContext(context.Background())
	defer cancel()
	err := s.core.RemoveObject(ctx, s.bucket, s.key(name), minio.RemoveObjectOptions{})
	if err != nil && minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return nil
	}
	return s.wrap(err, "DELETE", name)
}

// Size implements remote.Storage (one HEAD).
func (s *s3Store) Size(name string) (int64, error) {
	return s.stat(context.Background(), name)
}

// checkWrites implements writeChecker with one small PUT and its DELETE.
func (s *s3Store) checkWrites(name string) error {
	w, err := s.CreateObject(name)
	if err == nil {
		_, err = w.Write([]byte("pebblerf checks that the bucket takes writes\n"))
		err = errors.CombineErrors(err, w.Close())
	}
	if err == nil {
		err = s.Delete(name)
	}
	return errors.Wrapf(err, "objstore: s3: bucket %q at %q takes no writes", s.bucket, s.cfg.Endpoint)
}

// IsNotExistError implements remote.Storage.
func (s *s3Store) IsNotExistError(err error) bool { return errors.Is(err, errNotExist) }

// Close implements remote.Storage.
func (s *s3Store) Close() error { return nil }
