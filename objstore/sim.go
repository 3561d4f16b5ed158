package objstore

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
)

// SimConfig is the model of a simulated object store (the parameters of a
// sim:// URL).
type SimConfig struct {
	// Latency is the fixed part of every request's latency, and Jitter the
	// bound of a uniform random part added to it.
	Latency, Jitter time.Duration
	// Latencies, when set, replaces Latency and Jitter: each request takes
	// one of them, drawn uniformly (a measured distribution).
	Latencies []time.Duration
	// Bandwidth, in bytes per second, adds the transfer time of a request's
	// bytes to its latency; 0 means transfers take no time.
	Bandwidth int64
	// Seed seeds the latency draws and the fault decisions.
	Seed uint64
	// Faults are the injected failures.
	Faults Faults
}

// Faults are the rates, each in [0, 1], at which a simulated store's
// requests fail. Read-class requests are GETs (ReadAt) and HEADs
// (ReadObject, Size); write-class requests are PUTs (an object's upload,
// at Close). List and Delete never fail.
type Faults struct {
	// GetError fails a read with a 503-like error after one latency.
	GetError float64
	// GetTimeout hangs a read for Timeout, then fails it as timed out.
	GetTimeout float64
	// GetTruncate cuts a GET's body short: the request fails (as the S3
	// store fails a short body) after filling part of the buffer.
	GetTruncate float64
	// PutError and PutTimeout fail an upload the same ways; the object is
	// not created.
	PutError, PutTimeout float64
	// Timeout is how long a timed-out request hangs (default 1s); a
	// request's context ends the wait sooner.
	Timeout time.Duration
}

func (f Faults) validate() error {
	for _, r := range []struct {
		name string
		v    float64
	}{{"get_error", f.GetError}, {"get_timeout", f.GetTimeout}, {"get_truncate", f.GetTruncate},
		{"put_error", f.PutError}, {"put_timeout", f.PutTimeout}} {
		if r.v < 0 || r.v > 1 {
			return errors.Newf("objstore: fault rate %s=%g is not in [0, 1]", r.name, r.v)
		}
	}
	if f.GetError+f.GetTimeout+f.GetTruncate > 1 {
		return errors.New("objstore: get_error + get_timeout + get_truncate exceed 1")
	}
	if f.PutError+f.PutTimeout > 1 {
		return errors.New("objstore: put_error + put_timeout exceed 1")
	}
	if f.Timeout < 0 {
		return errors.Newf("objstore: negative fault timeout %s", f.Timeout)
	}
	return nil
}

// ErrInjected marks every failure a simulated store injects.
var ErrInjected = errors.New("objstore: injected fault")

// sim is a simulated object store: another store (in memory, or a
// directory) behind a latency model and fault injection. The latency is
// real: a request sleeps for it, so whatever waits on the request waits
// for the simulated latency too.
//
// Fault decisions are deterministic: whether a request fails depends only
// on the seed, the request (kind, object, offset, length) and how many
// times that same request was made before, not on how concurrent requests
// interleave; a retried request gets a fresh decision (to count
// occurrences, the store remembers each distinct request made while a fault
// rate is set). Latency draws come from one seeded generator in request
// order.
type sim struct {
	inner remote.Storage
	cfg   SimConfig

	mu     sync.Mutex
	rng    *rand.Rand
	faults Faults
	seen   map[string]uint32
}

var _ remote.Storage = (*sim)(nil)

// NewSim returns a simulated store over inner (NewMem() if nil): inner
// behind the latency model and the faults of cfg. The latency is real: a
// request sleeps for it. To stop injecting faults (say, before a DB
// reopens), open a new simulated store over the same inner one.
func NewSim(inner remote.Storage, cfg SimConfig) (remote.Storage, error) {
	if inner == nil {
		inner = NewMem()
	}
	if cfg.Latency < 0 || cfg.Jitter < 0 || cfg.Bandwidth < 0 {
		return nil, errors.New("objstore: sim: negative latency, jitter or bandwidth")
	}
	for _, d := range cfg.Latencies {
		if d < 0 {
			return nil, errors.Newf("objstore: sim: negative latency %s in the distribution", d)
		}
	}
	if err := cfg.Faults.validate(); err != nil {
		return nil, err
	}
	s := &sim{inner: inner, cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x6f626a73746f7265))}
	s.faults = cfg.Faults
	return s, nil
}

// setFaults replaces the fault rates while a DB runs (tests use it).
func (s *sim) setFaults(f Faults) error {
	if err := f.validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
	return nil
}

// config returns the store's model, with its current faults.
func (s *sim) config() SimConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	cfg := s.cfg
	cfg.Faults = s.faults
	return cfg
}

// unmeteredKey marks a context whose reads are the meter's own (learning a
// table's layout): a simulated store serves them without latency or faults.
type unmeteredKey struct{}

func withUnmetered(ctx context.Context) context.Context {
	return context.WithValue(ctx, unmeteredKey{}, true)
}

func isUnmetered(ctx context.Context) bool {
	return ctx != nil && ctx.Value(unmeteredKey{}) != nil
}

type faultKind int

const (
	noFault faultKind = iota
	faultError
	faultTimeout
	faultTruncate
)

// decide returns the fault, if any, for one request, and its latency.
func (s *sim) decide(op string, name string, off int64, n int) (faultKind, time.Duration, Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults
	lat := s.cfg.Latency
	if len(s.cfg.Latencies) > 0 {
		lat = s.cfg.Latencies[s.rng.IntN(len(s.cfg.Latencies))]
	} else if s.cfg.Jitter > 0 {
		lat += time.Duration(s.rng.Int64N(int64(s.cfg.Jitter)))
	}
	if s.cfg.Bandwidth > 0 && n > 0 {
		lat += time.Duration(float64(n) / float64(s.cfg.Bandwidth) * float64(time.Second))
	}
	var errRate, timeoutRate, truncRate float64
	switch op {
	case "PUT":
		errRate, timeoutRate = f.PutError, f.PutTimeout
	case "GET":
		errRate, timeoutRate, truncRate = f.GetError, f.GetTimeout, f.GetTruncate
	case "HEAD":
		errRate, timeoutRate = f.GetError, f.GetTimeout
	}
	if errRate+timeoutRate+truncRate == 0 {
		return noFault, lat, f
	}
	var key [16]byte
	binary.LittleEndian.PutUint64(key[:8], uint64(off))
	binary.LittleEndian.PutUint64(key[8:], uint64(n))
	id := op + "\x00" + name + "\x00" + string(key[:])
	if s.seen == nil {
		s.seen = make(map[string]uint32)
	}
	occurrence := s.seen[id]
	s.seen[id] = occurrence + 1
	h := fnv.New64a()
	var seed [12]byte
	binary.LittleEndian.PutUint64(seed[:8], s.cfg.Seed)
	binary.LittleEndian.PutUint32(seed[8:], occurrence)
	_, _ = h.Write(seed[:])
	_, _ = h.Write([]byte(id))
	u := float64(mix64(h.Sum64())>>11) / (1 << 53)
	switch {
	case u < errRate:
		return faultError, lat, f
	case u < errRate+timeoutRate:
		return faultTimeout, lat, f
	case u < errRate+timeoutRate+truncRate:
		return faultTruncate, lat, f
	}
	return noFault, lat, f
}

// mix64 is a 64-bit finalizer (splitmix64's), spreading FNV's bits.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// request waits out a request's latency and returns its injected failure,
// if any; a truncation is left to the caller (it needs the bytes).
func (s *sim) request(
	ctx context.Context, op, name string, off int64, n int,
) (faultKind, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	kind, lat, f := s.decide(op, name, off, n)
	switch kind {
	case faultTimeout:
		wait := f.Timeout
		if wait == 0 {
			wait = time.Second
		}
		if err := sleep(ctx, wait); err != nil {
			return kind, errors.Wrapf(err, "objstore: sim: %s %q", op, name)
		}
		return kind, errors.Mark(errors.Wrapf(context.DeadlineExceeded,
			"objstore: sim: %s %q timed out after %s", op, name, wait), ErrInjected)
	case faultError:
		if err := sleep(ctx, lat); err != nil {
			return kind, errors.Wrapf(err, "objstore: sim: %s %q", op, name)
		}
		return kind, errors.Wrapf(ErrInjected, "objstore: sim: %s %q: 503 SlowDown", op, name)
	}
	if err := sleep(ctx, lat); err != nil {
		return kind, errors.Wrapf(err, "objstore: sim: %s %q", op, name)
	}
	return kind, nil
}

// ReadObject implements remote.Storage; it costs one HEAD.
func (s *sim) ReadObject(ctx context.Context, name string) (remote.ObjectReader, int64, error) {
	if !isUnmetered(ctx) {
		if _, err := s.request(ctx, "HEAD", name, 0, 0); err != nil {
			return nil, 0, err
		}
	}
	r, size, err := s.inner.ReadObject(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	return &simReader{s: s, name: name, inner: r}, size, nil
}

type simReader struct {
	s     *sim
	name  string
	inner remote.ObjectReader
}

func (r *simReader) ReadAt(ctx context.Context, p []byte, off int64) error {
	if isUnmetered(ctx) {
		return r.inner.ReadAt(ctx, p, off)
	}
	kind, err := r.s.request(ctx, "GET", r.name, off, len(p))
	if err != nil {
		return err
	}
	if err := r.inner.ReadAt(ctx, p, off); err != nil {
		return err
	}
	if kind == faultTruncate {
		// The bytes after the cut never arrived.
		clear(p[len(p)/2:])
		return errors.Mark(errors.Wrapf(io.ErrUnexpectedEOF,
			"objstore: sim: body of GET [%d, %d) of %q cut after %d bytes",
			off, off+int64(len(p)), r.name, len(p)/2), ErrInjected)
	}
	return nil
}

func (r *simReader) Close() error { return r.inner.Close() }

// CreateObject implements remote.Storage; the upload (one PUT, with its
// latency and possible failure) happens at Close.
func (s *sim) CreateObject(name string) (io.WriteCloser, error) {
	w, err := s.inner.CreateObject(name)
	if err != nil {
		return nil, err
	}
	return &simWriter{s: s, name: name, inner: w}, nil
}

type simWriter struct {
	s     *sim
	name  string
	inner io.WriteCloser
	n     int
	done  bool
}

func (w *simWriter) Write(p []byte) (int, error) {
	n, err := w.inner.Write(p)
	w.n += n
	return n, err
}

func (w *simWriter) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	if _, err := w.s.request(context.Background(), "PUT", w.name, 0, w.n); err != nil {
		if a, ok := w.inner.(aborter); ok {
			a.abort()
			return err
		}
		_ = w.inner.Close()
		return errors.CombineErrors(err, w.s.inner.Delete(w.name))
	}
	return w.inner.Close()
}

func (w *simWriter) abort() {
	w.done = true
	if a, ok := w.inner.(aborter); ok {
		a.abort()
	}
}

// List implements remote.Storage (one LIST; never fails by injection).
func (s *sim) List(prefix, delimiter string) ([]string, error) {
	if _, err := s.request(context.Background(), "LIST", prefix, 0, 0); err != nil {
		return nil, err
	}
	return s.inner.List(prefix, delimiter)
}

// Delete implements remote.Storage (one DELETE; never fails by injection).
func (s *sim) Delete(name string) error {
	if _, err := s.request(context.Background(), "DELETE", name, 0, 0); err != nil {
		return err
	}
	return s.inner.Delete(name)
}

// Size implements remote.Storage (one HEAD).
func (s *sim) Size(name string) (int64, error) {
	if _, err := s.request(context.Background(), "HEAD", name, 0, 0); err != nil {
		return 0, err
	}
	return s.inner.Size(name)
}

// IsNotExistError implements remote.Storage.
func (s *sim) IsNotExistError(err error) bool { return s.inner.IsNotExistError(err) }

// Close implements remote.Storage.
func (s *sim) Close() error { return s.inner.Close() }
