package objstore

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/objstorage/remote"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/pebblerf/pebble/internal/readctx"
)

// kind is a kind of request to an object store, as the meter counts them.
// The first five are GETs, told apart by what they read of a table.
type kind int

const (
	// kindOpen: GETs that open a table (footer, metaindex, properties).
	kindOpen kind = iota
	// kindIndex: GETs of index blocks (and of a table's other block
	// indexes: value and blob-reference indexes).
	kindIndex
	// kindFilter: GETs of filter blocks.
	kindFilter
	// kindData: GETs of data blocks (and of the other blocks that hold keys
	// or values: range deletions, range keys, value blocks).
	kindData
	// kindOther: GETs of objects that are not sstables, or of tables whose
	// layout could not be read.
	kindOther
	// kindStat: HEADs: opening an object for reading (its size) and Size.
	kindStat
	// kindWrite: objects created (one per CreateObject, counted at Close).
	kindWrite
	// kindList: List calls.
	kindList
	// kindDelete: Delete calls.
	kindDelete
	// numKinds is the number of kinds.
	numKinds
)

var kindNames = [numKinds]string{"open", "index", "filter", "data", "other", "stat", "write", "list", "delete"}

// String returns the kind's name, as the meter's table prints it.
func (k kind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Counts are the requests of one kind.
type Counts struct {
	// Requests counts requests, failed ones included.
	Requests int64
	// Errors counts the requests that returned an error.
	Errors int64
	// Bytes counts bytes transferred: for GETs, the bytes of this kind in
	// every GET (a GET's bytes are split by the blocks they belong to, while
	// the request counts under one kind); for writes, the bytes written.
	Bytes int64
	// Wait is the time spent in the requests.
	Wait time.Duration
}

func (c Counts) add(o Counts) Counts {
	return Counts{c.Requests + o.Requests, c.Errors + o.Errors, c.Bytes + o.Bytes, c.Wait + o.Wait}
}

func (c Counts) sub(o Counts) Counts {
	return Counts{c.Requests - o.Requests, c.Errors - o.Errors, c.Bytes - o.Bytes, c.Wait - o.Wait}
}

// Prices is a price model: US dollars per 1,000 requests of each class. A
// HEAD is priced as a GET, as S3 prices it.
type Prices struct {
	GetPer1000, PutPer1000, ListPer1000, DeletePer1000 float64
}

// DefaultPrices are S3 Standard's list prices (us-east-1): GET and HEAD USD
// 0.0004 per 1,000, PUT and LIST USD 0.005 per 1,000, DELETE free. They are
// a parameter of the model (price_get, price_put, price_list, price_delete
// in a URL), not a claim about any bill.
var DefaultPrices = Prices{GetPer1000: 0.0004, PutPer1000: 0.005, ListPer1000: 0.005}

// Snapshot is a copy of a meter's counts, one Counts per kind of request.
// The first five kinds are GETs, told apart by what they read of a table.
type Snapshot struct {
	// Open counts the GETs that open a table (footer, metaindex,
	// properties).
	Open Counts
	// Index counts GETs of index blocks (and of a table's other block
	// indexes: value and blob-reference indexes).
	Index Counts
	// Filter counts GETs of filter blocks.
	Filter Counts
	// Data counts GETs of data blocks (and of the other blocks that hold
	// keys or values: range deletions, range keys, value blocks).
	Data Counts
	// Other counts GETs of objects that are not sstables, or of tables
	// whose layout could not be read.
	Other Counts
	// Stat counts HEADs: opening an object for reading (its size) and Size.
	Stat Counts
	// Write counts objects created (one per CreateObject, counted at Close).
	Write Counts
	// List counts List calls; Delete counts Delete calls.
	List, Delete Counts

	// Cached counts the reads the write cache served from memory
	// (Config.WriteCacheSize): no request reached the store for them, and
	// they are in no kind above.
	Cached Counts

	// LayoutReads counts the meter's own reads (learning tables' layouts),
	// which are in no kind above; LayoutErrors counts tables whose layout
	// could not be read (their GETs count as Other).
	LayoutReads, LayoutErrors int64
	// Prices is the model Cost applies.
	Prices Prices
}

// kinds returns the snapshot's counts indexed by kind.
func (s *Snapshot) kinds() [numKinds]*Counts {
	return [numKinds]*Counts{&s.Open, &s.Index, &s.Filter, &s.Data, &s.Other, &s.Stat, &s.Write, &s.List, &s.Delete}
}

// Sub returns the counts accumulated between o and s (s - o).
func (s Snapshot) Sub(o Snapshot) Snapshot {
	d := s
	dk, ov := d.kinds(), o.kinds()
	for k := range dk {
		*dk[k] = dk[k].sub(*ov[k])
	}
	d.Cached = d.Cached.sub(o.Cached)
	d.LayoutReads -= o.LayoutReads
	d.LayoutErrors -= o.LayoutErrors
	return d
}

// Gets returns the GET kinds summed.
func (s Snapshot) Gets() Counts {
	var c Counts
	ks := s.kinds()
	for _, k := range ks[kindOpen : kindOther+1] {
		c = c.add(*k)
	}
	return c
}

// Total returns every kind summed.
func (s Snapshot) Total() Counts {
	var c Counts
	for _, k := range s.kinds() {
		c = c.add(*k)
	}
	return c
}

// Cost is the price of the counted requests under the snapshot's model, in
// US dollars (failed requests included: S3 bills them).
func (s Snapshot) Cost() float64 {
	get := float64(s.Gets().Requests + s.Stat.Requests)
	return (get*s.Prices.GetPer1000 +
		float64(s.Write.Requests)*s.Prices.PutPer1000 +
		float64(s.List.Requests)*s.Prices.ListPer1000 +
		float64(s.Delete.Requests)*s.Prices.DeletePer1000) / 1000
}

// String prints the kinds that saw requests as one short table, then the
// GET total and the cost.
func (s Snapshot) String() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "kind\trequests\terrors\tbytes\twait\t\n")
	for k, c := range s.kinds() {
		if c.Requests == 0 && c.Bytes == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t\n", kind(k), c.Requests, c.Errors, c.Bytes, c.Wait.Round(time.Microsecond))
	}
	g := s.Gets()
	fmt.Fprintf(tw, "GETs\t%d\t%d\t%d\t%s\t\n", g.Requests, g.Errors, g.Bytes, g.Wait.Round(time.Microsecond))
	_ = tw.Flush()
	fmt.Fprintf(&b, "cost USD %.6f", s.Cost())
	if s.Cached.Requests > 0 {
		fmt.Fprintf(&b, "; %d reads (%d bytes) served by the write cache", s.Cached.Requests, s.Cached.Bytes)
	}
	if s.LayoutErrors > 0 {
		fmt.Fprintf(&b, "; %d tables of unknown layout", s.LayoutErrors)
	}
	return b.String()
}

// Meter is a remote.Storage that counts the requests it passes to another
// store, by kind (see the package doc for how a GET's kind is decided). It
// is safe for concurrent use.
type Meter struct {
	inner  remote.Storage
	prices Prices

	counts [numKinds]struct {
		requests, errors, bytes, wait atomic.Int64
	}
	layoutReads, layoutErrors atomic.Int64

	// wc is the write cache (Config.WriteCacheSize), nil without one;
	// cachedReads and cachedBytes count the reads it served.
	wc                       atomic.Pointer[writeCache]
	cachedReads, cachedBytes atomic.Int64

	// trace, when set (by tests), sees every counted GET and its kind.
	trace func(name string, off, end int64, first bool, k kind)

	mu         sync.Mutex
	readerOpts sstable.ReaderOptions
	layouts    map[string]*layoutEntry
}

// meterStorage is a Meter as Pebble sees it: the remote.Storage that
// factory resolves locator to. Keeping the storage methods off Meter keeps
// its API to what a user reads (Snapshot) and does (Close).
type meterStorage struct{ m *Meter }

var _ remote.Storage = meterStorage{}

func (s meterStorage) ReadObject(ctx context.Context, name string) (remote.ObjectReader, int64, error) {
	return s.m.readObject(ctx, name)
}
func (s meterStorage) CreateObject(name string) (io.WriteCloser, error) {
	return s.m.createObject(name)
}
func (s meterStorage) List(prefix, delimiter string) ([]string, error) {
	return s.m.list(prefix, delimiter)
}
func (s meterStorage) Delete(name string) error        { return s.m.delete(name) }
func (s meterStorage) Size(name string) (int64, error) { return s.m.size(name) }
func (s meterStorage) IsNotExistError(err error) bool  { return s.m.isNotExistError(err) }
func (s meterStorage) Close() error                    { return s.m.Close() }

// NewMeter returns a meter around inner that prices requests with prices.
func NewMeter(inner remote.Storage, prices Prices) *Meter {
	return &Meter{inner: inner, prices: prices, layouts: make(map[string]*layoutEntry)}
}

// factory returns the storage factory to set as Pebble's
// Options.Experimental.RemoteStorage: it resolves locator to the meter.
func (m *Meter) factory() remote.StorageFactory {
	return remote.MakeSimpleFactory(map[remote.Locator]remote.Storage{locator: meterStorage{m}})
}

// setReaderOptions sets the options the meter reads table layouts with:
// those of the DB whose tables it sees (pebble.Options.MakeReaderOptions),
// so that tables written with another comparer or key schema than Pebble's
// defaults are classified. Layouts already learned are kept.
func (m *Meter) setReaderOptions(o sstable.ReaderOptions) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.readerOpts = o
	for name, e := range m.layouts {
		if e.done() && e.err != nil {
			delete(m.layouts, name)
		}
	}
}

// Snapshot returns the counts so far.
func (m *Meter) Snapshot() Snapshot {
	s := Snapshot{Prices: m.prices}
	for k, sk := range s.kinds() {
		c := &m.counts[k]
		*sk = Counts{
			Requests: c.requests.Load(),
			Errors:   c.errors.Load(),
			Bytes:    c.bytes.Load(),
			Wait:     time.Duration(c.wait.Load()),
		}
	}
	s.Cached = Counts{Requests: m.cachedReads.Load(), Bytes: m.cachedBytes.Load()}
	s.LayoutReads = m.layoutReads.Load()
	s.LayoutErrors = m.layoutErrors.Load()
	return s
}

func (m *Meter) record(k kind, bytes int64, wait time.Duration, err error) {
	c := &m.counts[k]
	c.requests.Add(1)
	if err != nil {
		c.errors.Add(1)
	}
	c.bytes.Add(bytes)
	c.wait.Add(int64(wait))
}

// readObject is meterStorage.ReadObject; it counts one kindStat request (the
// HEAD that learns the object's size on S3).
func (m *Meter) readObject(ctx context.Context, name string) (remote.ObjectReader, int64, error) {
	if wc := m.wc.Load(); wc != nil {
		if data := wc.get(name); data != nil {
			return &cachedReader{m: m, data: data}, int64(len(data)), nil
		}
	}
	start := time.Now()
	r, size, err := m.inner.ReadObject(ctx, name)
	if !isUnmetered(ctx) {
		m.record(kindStat, 0, time.Since(start), err)
	}
	if err != nil {
		return nil, 0, err
	}
	return &meteredReader{m: m, name: name, inner: r, size: size}, size, nil
}

type meteredReader struct {
	m     *Meter
	name  string
	inner remote.ObjectReader
	size  int64
	reads atomic.Int64
}

// ReadAt implements remote.ObjectReader: one GET, counted under the kind
// the classification rule gives it.
func (r *meteredReader) ReadAt(ctx context.Context, p []byte, off int64) error {
	if isUnmetered(ctx) || len(p) == 0 {
		return r.inner.ReadAt(ctx, p, off)
	}
	first := r.reads.Add(1) == 1
	start := time.Now()
	err := r.inner.ReadAt(ctx, p, off)
	wait := time.Since(start)

	kind := kindOther
	var split [kindOther + 1]int64
	split[kindOther] = int64(len(p))
	if isTable(r.name) {
		if l := r.m.layout(r.name, r.inner, r.size); l != nil {
			kind, split = l.classify(off, off+int64(len(p)), first)
		}
	}
	if r.m.trace != nil {
		r.m.trace(r.name, off, off+int64(len(p)), first, kind)
	}
	if rc := readctx.From(ctx); rc != nil {
		rc.Add(int64(len(p)), wait, err)
	}
	c := &r.m.counts[kind]
	c.requests.Add(1)
	c.wait.Add(int64(wait))
	if err != nil {
		c.errors.Add(1)
		return err
	}
	for k, n := range split {
		if n != 0 {
			r.m.counts[k].bytes.Add(n)
		}
	}
	return nil
}

func (r *meteredReader) Close() error { return r.inner.Close() }

// isTable reports whether an object is an sstable, by the name Pebble gives
// the objects it creates (<hash>-<creator>-<file>.sst).
func isTable(name string) bool { return strings.HasSuffix(name, ".sst") }

// createObject is meterStorage.CreateObject; the object counts as one
// kindWrite request when its writer is closed.
func (m *Meter) createObject(name string) (io.WriteCloser, error) {
	m.forget(name)
	start := time.Now()
	w, err := m.inner.CreateObject(name)
	if err != nil {
		m.record(kindWrite, 0, time.Since(start), err)
		return nil, err
	}
	mw := &meteredWriter{m: m, inner: w, wait: time.Since(start)}
	if wc := m.wc.Load(); wc != nil {
		return &teeWriter{c: wc, name: name, inner: mw}, nil
	}
	return mw, nil
}

type meteredWriter struct {
	m     *Meter
	inner io.WriteCloser
	bytes int64
	wait  time.Duration
	err   error
	done  bool
}

func (w *meteredWriter) Write(p []byte) (int, error) {
	start := time.Now()
	n, err := w.inner.Write(p)
	w.wait += time.Since(start)
	w.bytes += int64(n)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

func (w *meteredWriter) Close() error {
	start := time.Now()
	err := w.inner.Close()
	if w.done {
		return err
	}
	w.done = true
	w.wait += time.Since(start)
	w.m.record(kindWrite, w.bytes, w.wait, errors.CombineErrors(w.err, err))
	return err
}

// list is meterStorage.List.
func (m *Meter) list(prefix, delimiter string) ([]string, error) {
	start := time.Now()
	names, err := m.inner.List(prefix, delimiter)
	m.record(kindList, 0, time.Since(start), err)
	return names, err
}

// delete is meterStorage.Delete.
func (m *Meter) delete(name string) error {
	m.forget(name)
	if wc := m.wc.Load(); wc != nil {
		wc.drop(name)
	}
	start := time.Now()
	err := m.inner.Delete(name)
	m.record(kindDelete, 0, time.Since(start), err)
	return err
}

// size is meterStorage.Size; it counts one kindStat request.
func (m *Meter) size(name string) (int64, error) {
	if wc := m.wc.Load(); wc != nil {
		if data := wc.get(name); data != nil {
			return int64(len(data)), nil
		}
	}
	start := time.Now()
	size, err := m.inner.Size(name)
	m.record(kindStat, 0, time.Since(start), err)
	return size, err
}

// isNotExistError is meterStorage.IsNotExistError.
func (m *Meter) isNotExistError(err error) bool { return m.inner.IsNotExistError(err) }

// Close closes the inner store. Pebble does
// not close the stores its factory returns: the meter belongs to whoever
// opened it, and outlives the DBs that use it.
func (m *Meter) Close() error { return m.inner.Close() }
