package objstore

import (
	"bufio"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/minio/minio-go/v7"
)

// Open returns a metered store chosen by URL (the forms and their
// parameters are in the package doc). A malformed URL, an unknown
// parameter or a bad value returns an error that names it.
func Open(rawURL string) (*Meter, error) {
	u, build, prices, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	store, err := build()
	if err != nil {
		return nil, errors.Wrapf(err, "objstore: store URL %q", u.Redacted())
	}
	return NewMeter(store, prices), nil
}

// CheckURL returns the error Open would return for a malformed URL, an
// unknown parameter or a bad value, without building the store: it creates
// no directory and dials no endpoint, so a program can check a URL before
// it starts work. Errors of the store itself (a missing bucket, an
// unwritable directory) are Open's alone.
func CheckURL(rawURL string) error {
	_, _, _, err := parseURL(rawURL)
	return err
}

// parseURL parses the whole URL and returns the function that builds its
// store, so that a bad parameter creates no directory and dials no
// endpoint.
func parseURL(rawURL string) (*url.URL, func() (remote.Storage, error), Prices, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, Prices{}, errors.Wrapf(err, "objstore: bad store URL")
	}
	if u.User != nil {
		return nil, nil, Prices{}, errors.Newf("objstore: store URL %q carries credentials; "+
			"they come from the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)", u.Redacted())
	}
	p, err := newParams(u)
	if err != nil {
		return nil, nil, Prices{}, err
	}
	prices, err := p.prices()
	if err != nil {
		return nil, nil, Prices{}, err
	}
	var build func() (remote.Storage, error)
	switch u.Scheme {
	case "mem":
		err = p.noLocation()
		build = func() (remote.Storage, error) { return NewMem(), nil }
	case "file":
		var dir string
		dir, err = p.dir()
		build = func() (remote.Storage, error) { return newFile(dir) }
	case "s3":
		var cfg S3Config
		cfg, err = p.s3()
		build = func() (remote.Storage, error) { return NewS3(cfg) }
	case "sim", "sim+file":
		var cfg simConfig
		var dir string
		if cfg, err = p.sim(); err == nil {
			if u.Scheme == "sim" {
				err = p.noLocation()
			} else {
				dir, err = p.dir()
			}
		}
		build = func() (remote.Storage, error) {
			inner := NewMem()
			if dir != "" {
				var err error
				if inner, err = newFile(dir); err != nil {
					return nil, err
				}
			}
			return newSim(inner, cfg)
		}
	case "":
		return nil, nil, Prices{}, errors.Newf("objstore: store URL %q has no scheme (mem://, file:///dir, s3://bucket, sim://)", rawURL)
	default:
		return nil, nil, Prices{}, errors.Newf("objstore: store URL %q: unknown scheme %q (mem, file, s3, sim, sim+file)",
			u.Redacted(), u.Scheme)
	}
	if err == nil {
		err = p.done()
	}
	if err != nil {
		return nil, nil, Prices{}, err
	}
	return u, build, prices, nil
}

// params are a URL's query parameters, consumed as they are parsed so that
// what is left over can be reported as unknown.
type params struct {
	u    *url.URL
	vals map[string]string
}

func newParams(u *url.URL) (*params, error) {
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, errors.Wrapf(err, "objstore: store URL %q: bad query", u.Redacted())
	}
	p := &params{u: u, vals: make(map[string]string, len(q))}
	for k, v := range q {
		if len(v) > 1 {
			return nil, errors.Newf("objstore: store URL %q: parameter %q given %d times", u.Redacted(), k, len(v))
		}
		p.vals[k] = v[0]
	}
	return p, nil
}

func (p *params) errorf(name, value, format string, args ...any) error {
	return errors.Newf("objstore: store URL %q: parameter %s=%q: %s",
		p.u.Redacted(), name, value, errors.Newf(format, args...).Error())
}

func (p *params) take(name string) (string, bool) {
	v, ok := p.vals[name]
	delete(p.vals, name)
	return v, ok
}

// value parses parameter name with parse, returning def when it is absent
// and an error that names it and wants when it does not parse or valid
// refuses it.
func value[T any](p *params, name string, def T, want string,
	parse func(string) (T, error), valid func(T) bool) (T, error) {
	v, ok := p.take(name)
	if !ok {
		return def, nil
	}
	x, err := parse(v)
	if err != nil || !valid(x) {
		var zero T
		return zero, p.errorf(name, v, "want %s", want)
	}
	return x, nil
}

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

func (p *params) duration(name string, def time.Duration) (time.Duration, error) {
	return value(p, name, def, "a non-negative duration such as 20ms", parseDuration,
		func(d time.Duration) bool { return d >= 0 })
}

func (p *params) float(name string, def float64) (float64, error) {
	return value(p, name, def, "a non-negative number", parseFloat,
		func(f float64) bool { return f >= 0 })
}

func (p *params) rate(name string) (float64, error) {
	return value(p, name, 0, "a rate between 0 and 1", parseFloat,
		func(f float64) bool { return f >= 0 && f <= 1 })
}

func (p *params) int(name string, def int) (int, error) {
	return value(p, name, def, "a positive integer", strconv.Atoi, func(n int) bool { return n >= 1 })
}

func (p *params) size(name string, def int64) (int64, error) {
	return value(p, name, def, "a size such as 16MiB", parseSize, func(int64) bool { return true })
}

func (p *params) bool(name string, def bool) (bool, error) {
	return value(p, name, def, "true or false", strconv.ParseBool, func(bool) bool { return true })
}

func (p *params) prices() (Prices, error) {
	var pr Prices
	var err error
	if pr.GetPer1000, err = p.float("price_get", DefaultPrices.GetPer1000); err != nil {
		return pr, err
	}
	if pr.PutPer1000, err = p.float("price_put", DefaultPrices.PutPer1000); err != nil {
		return pr, err
	}
	if pr.ListPer1000, err = p.float("price_list", DefaultPrices.ListPer1000); err != nil {
		return pr, err
	}
	if pr.DeletePer1000, err = p.float("price_delete", DefaultPrices.DeletePer1000); err != nil {
		return pr, err
	}
	return pr, nil
}

// noLocation rejects a host or path on forms that take none.
func (p *params) noLocation() error {
	if p.u.Host != "" || (p.u.Path != "" && p.u.Path != "/") || p.u.Opaque != "" {
		return errors.Newf("objstore: store URL %q: %s:// takes no host or path", p.u.Redacted(), p.u.Scheme)
	}
	return nil
}

func (p *params) dir() (string, error) {
	if p.u.Host != "" && p.u.Host != "localhost" {
		return "", errors.Newf("objstore: store URL %q: %s:// takes an absolute directory "+
			"(file:///dir), not a host %q", p.u.Redacted(), p.u.Scheme, p.u.Host)
	}
	if p.u.Path == "" || !strings.HasPrefix(p.u.Path, "/") {
		return "", errors.Newf("objstore: store URL %q: %s:// needs an absolute directory (file:///dir)",
			p.u.Redacted(), p.u.Scheme)
	}
	return p.u.Path, nil
}

func (p *params) s3() (S3Config, error) {
	cfg := S3Config{Bucket: p.u.Host, Prefix: strings.TrimPrefix(p.u.Path, "/")}
	if cfg.Bucket == "" {
		return cfg, errors.Newf("objstore: store URL %q: s3:// needs a bucket (s3://bucket/prefix)", p.u.Redacted())
	}
	cfg.Endpoint, _ = p.take("endpoint")
	cfg.Region, _ = p.take("region")
	secure, err := p.bool("secure", true)
	if err != nil {
		return cfg, err
	}
	cfg.Insecure = !secure
	if v, ok := p.take("lookup"); ok {
		switch v {
		case "auto":
			cfg.Lookup = minio.BucketLookupAuto
		case "path":
			cfg.Lookup = minio.BucketLookupPath
		case "dns":
			cfg.Lookup = minio.BucketLookupDNS
		default:
			return cfg, p.errorf("lookup", v, "want auto, path or dns")
		}
	}
	if cfg.Timeout, err = p.duration("timeout", defaultS3Timeout); err != nil {
		return cfg, err
	}
	if cfg.Timeout == 0 {
		return cfg, p.errorf("timeout", "0", "want a positive duration")
	}
	if cfg.Retries, err = p.int("retries", defaultS3Retries); err != nil {
		return cfg, err
	}
	if cfg.PartSize, err = p.size("part_size", defaultS3PartSize); err != nil {
		return cfg, err
	}
	if cfg.PartSize < minS3PartSize {
		return cfg, p.errorf("part_size", strconv.FormatInt(cfg.PartSize, 10), "below S3's minimum part of 5MiB")
	}
	if cfg.CreateBucket, err = p.bool("create_bucket", false); err != nil {
		return cfg, err
	}
	return cfg, nil
}

func (p *params) sim() (simConfig, error) {
	var cfg simConfig
	var err error
	if cfg.Latency, err = p.duration("latency", 0); err != nil {
		return cfg, err
	}
	if cfg.Jitter, err = p.duration("jitter", 0); err != nil {
		return cfg, err
	}
	if path, ok := p.take("latency_file"); ok {
		if _, set := p.u.Query()["latency"]; set {
			return cfg, p.errorf("latency_file", path, "give latency_file or latency/jitter, not both")
		}
		if _, set := p.u.Query()["jitter"]; set {
			return cfg, p.errorf("latency_file", path, "give latency_file or latency/jitter, not both")
		}
		if cfg.Latencies, err = readLatencies(path); err != nil {
			return cfg, p.errorf("latency_file", path, "%v", err)
		}
	}
	if cfg.Bandwidth, err = p.size("bandwidth", 0); err != nil {
		return cfg, err
	}
	if cfg.Seed, err = value(p, "seed", uint64(1), "a non-negative integer",
		func(s string) (uint64, error) { return strconv.ParseUint(s, 10, 64) },
		func(uint64) bool { return true }); err != nil {
		return cfg, err
	}
	f := &cfg.faults
	for _, r := range []struct {
		name string
		dst  *float64
	}{{"get_error", &f.GetError}, {"get_timeout", &f.GetTimeout}, {"get_truncate", &f.GetTruncate},
		{"put_error", &f.PutError}, {"put_timeout", &f.PutTimeout}} {
		if *r.dst, err = p.rate(r.name); err != nil {
			return cfg, err
		}
	}
	if f.Timeout, err = p.duration("fault_timeout", time.Second); err != nil {
		return cfg, err
	}
	if err := f.validate(); err != nil {
		return cfg, errors.Wrapf(err, "objstore: store URL %q", p.u.Redacted())
	}
	return cfg, nil
}

// done reports the parameters no part of the URL's form consumed.
func (p *params) done() error {
	if len(p.vals) == 0 {
		return nil
	}
	var names []string
	for k := range p.vals {
		names = append(names, k)
	}
	slices.Sort(names)
	return errors.Newf("objstore: store URL %q: unknown parameter %q for %s://",
		p.u.Redacted(), names[0], p.u.Scheme)
}

// parseDuration accepts Go durations (20ms, 1.5s) and bare numbers of
// milliseconds (20).
func parseDuration(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(f * float64(time.Millisecond)), nil
	}
	return time.ParseDuration(s)
}

// readLatencies reads a latency distribution: one latency a line (a Go
// duration or a number of milliseconds); blank lines and lines starting
// with # are skipped.
func readLatencies(path string) ([]time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ds []time.Duration
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		d, err := parseDuration(t)
		if err != nil || d < 0 {
			return nil, errors.Newf("line %d: %q is not a latency", line, t)
		}
		ds = append(ds, d)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return nil, errors.New("no latencies in the file")
	}
	return ds, nil
}

// parseSize parses a byte count with an optional unit: B, KiB, MiB, GiB
// (powers of 1024) or KB, MB, GB (powers of 1000).
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	mult := 1.0
	num := strings.TrimSpace(s)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, errors.Newf("bad size %q", s)
	}
	return int64(f * mult), nil
}
