package metamorphic

import (
	"fmt"
	"io"
	"regexp"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// runner executes ops against one engine and renders each result as text.
type runner struct {
	open  func() (engine, error)
	fs    vfs.FS
	opts  *pebble.Options
	e     engine
	batch batchHandle
	snaps map[string]anyReader
	iters map[string]iterator
	// ingests numbers the sstables this runner wrote for ingestion.
	ingests int
	// loseSetsEvery, when positive, makes this runner silently drop every
	// n-th set: the harness's own test uses it to check that a lost write is
	// caught and shrunk.
	loseSetsEvery, sets int
}

func newRunner(fs vfs.FS, opts *pebble.Options, open func() (engine, error)) (*runner, error) {
	e, err := open()
	if err != nil {
		return nil, err
	}
	return &runner{open: open, fs: fs, opts: opts, e: e,
		snaps: map[string]anyReader{}, iters: map[string]iterator{}}, nil
}

// close releases everything the ops left open, then the DB.
func (r *runner) close() error {
	for _, it := range r.iters {
		_ = it.Close()
	}
	for _, s := range r.snaps {
		_ = s.Close()
	}
	if r.batch != nil {
		_ = r.batch.Close()
	}
	return r.e.close()
}

// fileNumbers matches the table and WAL numbers in Pebble's error messages.
// They depend on when background flushes and compactions ran, which may
// differ between the two engines without either being wrong.
var fileNumbers = regexp.MustCompile(`\b\d{6}\b`)

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return "err: " + fileNumbers.ReplaceAllString(err.Error(), "NNNNNN")
}

func bound(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

// safeExec is exec with a panic rendered as a result, so that a panic in
// pebblerf is reported (and shrunk) like any other difference from upstream.
func (r *runner) safeExec(o op) (result string) {
	defer func() {
		if p := recover(); p != nil {
			result = fmt.Sprintf("panic: %v", p)
		}
	}()
	return r.exec(o)
}

// exec runs one op and returns its rendered result.
func (r *runner) exec(o op) string {
	a := o.args
	arg := func(i int) []byte { return []byte(a[i]) }
	switch o.name {
	case "set":
		if r.sets++; r.loseSetsEvery > 0 && r.sets%r.loseSetsEvery == 0 {
			return "ok"
		}
		return errText(r.e.db().Set(arg(0), arg(1), nil))
	case "delete":
		return errText(r.e.db().Delete(arg(0), nil))
	case "singledel":
		return errText(r.e.singleDelete(arg(0)))
	case "delrange":
		return errText(r.e.db().DeleteRange(arg(0), arg(1), nil))
	case "merge":
		return errText(r.e.db().Merge(arg(0), arg(1), nil))
	case "get":
		return renderGet(r.e.get(nil, arg(0)))
	case "batch.new":
		r.batch = r.e.newBatch(len(a) > 0 && a[0] == "indexed")
		return "ok"
	case "batch.set":
		return errText(r.batch.Set(arg(0), arg(1), nil))
	case "batch.delete":
		return errText(r.batch.Delete(arg(0), nil))
	case "batch.delrange":
		return errText(r.batch.DeleteRange(arg(0), arg(1), nil))
	case "batch.merge":
		return errText(r.batch.Merge(arg(0), arg(1), nil))
	case "batch.get":
		return renderGet(r.e.get(r.batch, arg(0)))
	case "batch.commit":
		err := r.batch.Commit(nil)
		_ = r.batch.Close()
		r.batch = nil
		return errText(err)
	case "batch.close":
		err := r.batch.Close()
		r.batch = nil
		return errText(err)
	case "snap.new":
		r.snaps[a[0]] = r.e.newSnapshot()
		return "ok"
	case "snap.get":
		return renderGet(r.e.get(r.snaps[a[0]], arg(1)))
	case "snap.close":
		err := r.snaps[a[0]].Close()
		delete(r.snaps, a[0])
		return errText(err)
	case "iter.new":
		return r.newIter(a[0], a[3], iterOptions(a[1], a[2], a[4:]))
	case "iter.op":
		return r.iterOp(r.iters[a[0]], a[1], a[2:])
	case "iter.setbounds":
		it := r.iters[a[0]]
		it.SetBounds(bound(a[1]), bound(a[2]))
		return "ok"
	case "iter.setoptions":
		it := r.iters[a[0]]
		it.SetOptions(iterOptions(a[1], a[2], a[3:]))
		return "ok"
	case "iter.close":
		err := r.iters[a[0]].Close()
		delete(r.iters, a[0])
		return errText(err)
	case "flush":
		return errText(r.e.flush())
	case "compact":
		return errText(r.e.compact(arg(0), arg(1)))
	case "ingest":
		return errText(r.ingest(a))
	case "reopen":
		if err := r.close(); err != nil {
			return errText(err)
		}
		e, err := r.open()
		if err != nil {
			return errText(err)
		}
		r.e = e
		r.snaps, r.iters, r.batch = map[string]anyReader{}, map[string]iterator{}, nil
		return "ok"
	}
	panic(errors.AssertionFailedf("unknown op %q", o.name))
}

func renderGet(v []byte, err error) string {
	if err != nil {
		return errText(err)
	}
	return fmt.Sprintf("%q", v)
}

// iterOptions returns an iterator's options: its bounds and, if timeBound
// holds a TIMEBOUND argument, a time bound (see timeBound).
func iterOptions(lower, upper string, timeBound []string) *pebble.IterOptions {
	o := &pebble.IterOptions{LowerBound: bound(lower), UpperBound: bound(upper)}
	if len(timeBound) > 0 {
		setTimeBound(o, timeBound[0])
	}
	return o
}

func (r *runner) newIter(id, source string, o *pebble.IterOptions) string {
	var src anyReader
	switch source {
	case "db":
	case "batch":
		src = r.batch
	default:
		src = r.snaps[source]
	}
	it, err := r.e.newIter(src, o)
	if err != nil {
		return errText(err)
	}
	r.iters[id] = it
	return "ok"
}

func (r *runner) iterOp(it iterator, name string, args []string) string {
	var valid bool
	switch name {
	case "seekge":
		valid = it.SeekGE([]byte(args[0]))
	case "seeklt":
		valid = it.SeekLT([]byte(args[0]))
	case "seekprefixge":
		valid = it.SeekPrefixGE([]byte(args[0]))
	case "first":
		valid = it.First()
	case "last":
		valid = it.Last()
	case "next":
		valid = it.Next()
	case "prev":
		valid = it.Prev()
	case "nextprefix":
		valid = it.NextPrefix()
	default:
		panic(errors.AssertionFailedf("unknown iterator op %q", name))
	}
	if !valid {
		if err := it.Error(); err != nil {
			return errText(err)
		}
		return "invalid"
	}
	v, err := it.ValueAndErr()
	if err != nil {
		return fmt.Sprintf("%q %s", it.Key(), errText(err))
	}
	return fmt.Sprintf("%q %q", it.Key(), v)
}

// ingest writes the given key/value pairs (already sorted and distinct) to a
// new sstable on this runner's file system and ingests it.
func (r *runner) ingest(kvs []string) error {
	r.ingests++
	path := fmt.Sprintf("ingest-%06d.sst", r.ingests)
	f, err := r.fs.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return err
	}
	wo := sstable.WriterOptions{TableFormat: r.e.tableFormat(), Comparer: r.opts.Comparer,
		MergerName: r.opts.Merger.Name}
	if r.opts.KeySchema != "" {
		wo.KeySchema = r.opts.KeySchemas[r.opts.KeySchema]
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), wo)
	for i := 0; i+1 < len(kvs); i += 2 {
		if err := w.Set([]byte(kvs[i]), []byte(kvs[i+1])); err != nil {
			_ = w.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return r.e.ingest(path)
}

// concatMerger joins merge operands with '+', oldest first; both engines
// get the same one so merges are deterministic.
var concatMerger = &pebble.Merger{
	Name: "pebblerf.metamorphic.concat",
	Merge: func(key, value []byte) (pebble.ValueMerger, error) {
		return &concatValue{buf: append([]byte(nil), value...)}, nil
	},
}

type concatValue struct{ buf []byte }

func (c *concatValue) MergeNewer(v []byte) error {
	c.buf = append(append(c.buf, '+'), v...)
	return nil
}

func (c *concatValue) MergeOlder(v []byte) error {
	c.buf = append(append(append([]byte(nil), v...), '+'), c.buf...)
	return nil
}

func (c *concatValue) Finish(bool) ([]byte, io.Closer, error) { return c.buf, nil, nil }
