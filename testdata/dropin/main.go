// Command dropin is an ordinary Pebble program, written against upstream
// github.com/cockroachdb/pebble/v2. The drop-in test builds it twice, once as
// it is and once with only that import path replaced by
// github.com/pebblerf/pebble, runs both, and requires identical output.
//
// Each scenario prints what a user would look at. Everything runs on an
// in-memory file system with automatic compactions off, so the output is
// deterministic.
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

func main() {
	fs := vfs.NewMem()
	scenarios := []struct {
		name string
		run  func(fs vfs.FS, dir string) error
	}{
		{"reopen", reopen},
		{"batches", batches},
		{"snapshots", snapshots},
		{"iterators", iterators},
		{"prefix", prefixSeeks},
		{"rangedel", rangeDeletions},
		{"merge", merges},
		{"ingest", ingest},
		{"checkpoint", checkpoint},
		{"metrics", metrics},
	}
	for _, s := range scenarios {
		fmt.Printf("== %s\n", s.name)
		if err := s.run(fs, s.name); err != nil {
			fmt.Printf("error: %v\n", err)
			os.Exit(1)
		}
	}
}

func options(fs vfs.FS) *pebble.Options {
	opts := &pebble.Options{FS: fs, DisableAutomaticCompactions: true}
	opts.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
	return opts
}

// printImpl names the package that implements *DB, so the test can check
// that the rewritten program really ran the drop-in.
func printImpl(db *pebble.DB) {
	fmt.Printf("impl: %s\n", reflect.TypeOf(db).Elem().PkgPath())
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func key(i int) []byte { return []byte(fmt.Sprintf("key%04d", i)) }

func get(r pebble.Reader, k string) string {
	v, closer, err := r.Get([]byte(k))
	if err == pebble.ErrNotFound {
		return k + "=<not found>"
	} else if err != nil {
		return k + "=<error " + err.Error() + ">"
	}
	defer closer.Close()
	return k + "=" + string(v)
}

// scan prints every visible key and value of an iterator, forwards.
func scan(it *pebble.Iterator) string {
	var b strings.Builder
	for valid := it.First(); valid; valid = it.Next() {
		fmt.Fprintf(&b, "%s:%s ", it.Key(), it.Value())
	}
	if err := it.Error(); err != nil {
		fmt.Fprintf(&b, "err:%v", err)
	}
	return strings.TrimSpace(b.String())
}

func reopen(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	printImpl(db)
	for i := 0; i < 100; i++ {
		must(db.Set(key(i), []byte(fmt.Sprint(i)), pebble.Sync))
	}
	must(db.Flush())
	must(db.Set(key(100), []byte("unflushed"), pebble.Sync))
	must(db.Close())

	db, err = pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	fmt.Println(get(db, "key0007"), get(db, "key0100"), get(db, "key0200"))
	_, err = pebble.Open(dir, &pebble.Options{FS: fs, ErrorIfExists: true})
	fmt.Println("ErrorIfExists:", err != nil)
	return nil
}

func batches(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	b := db.NewBatch()
	must(b.Set([]byte("a"), []byte("1"), nil))
	must(b.Set([]byte("b"), []byte("2"), nil))
	must(b.Delete([]byte("a"), nil))
	fmt.Println("count:", b.Count(), "empty:", b.Empty())
	must(b.Commit(pebble.Sync))
	fmt.Println(get(db, "a"), get(db, "b"))

	ib := db.NewIndexedBatch()
	must(ib.Set([]byte("c"), []byte("3"), nil))
	must(ib.DeleteRange([]byte("b"), []byte("bb"), nil))
	fmt.Println("batch view:", get(ib, "b"), get(ib, "c"), "db view:", get(db, "c"))
	it, err := ib.NewIter(nil)
	must(err)
	fmt.Println("batch iter:", scan(it))
	must(it.Close())
	must(db.Apply(ib, pebble.NoSync))
	must(ib.Close())

	var w pebble.Writer = db
	must(w.Set([]byte("d"), []byte("4"), nil))
	it, err = db.NewIter(nil)
	must(err)
	fmt.Println("after apply:", scan(it))
	return it.Close()
}

func snapshots(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	must(db.Set([]byte("x"), []byte("old"), nil))
	snap := db.NewSnapshot()
	must(db.Set([]byte("x"), []byte("new"), nil))
	must(db.Set([]byte("y"), []byte("added"), nil))
	must(db.Flush())
	fmt.Println("snapshot:", get(snap, "x"), get(snap, "y"), "db:", get(db, "x"))
	it, err := snap.NewIter(nil)
	must(err)
	fmt.Println("snapshot iter:", scan(it))
	must(it.Close())
	must(snap.Close())

	efos := db.NewEventuallyFileOnlySnapshot([]pebble.KeyRange{{Start: []byte("a"), End: []byte("z")}})
	defer efos.Close()
	must(db.Set([]byte("x"), []byte("newer"), nil))
	fmt.Println("efos:", get(efos, "x"))
	return nil
}

func iterators(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	for i := 0; i < 50; i++ {
		must(db.Set(key(i), []byte(fmt.Sprint(i)), nil))
		if i%10 == 9 {
			must(db.Flush())
		}
	}
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: key(10), UpperBound: key(15)})
	must(err)
	fmt.Println("bounded:", scan(it))
	var back []string
	for valid := it.Last(); valid; valid = it.Prev() {
		back = append(back, string(it.Key()))
	}
	fmt.Println("reverse:", back)
	fmt.Println("SeekGE key0012:", it.SeekGE(key(12)), string(it.Key()))
	fmt.Println("SeekLT key0012:", it.SeekLT(key(12)), string(it.Key()))
	it.SetBounds(key(40), key(43))
	fmt.Println("SetBounds:", scan(it))
	it.SetOptions(&pebble.IterOptions{LowerBound: key(45)})
	fmt.Println("SetOptions:", scan(it))
	clone, err := it.Clone(pebble.CloneOptions{})
	must(err)
	fmt.Println("clone:", scan(clone))
	must(clone.Close())
	v, err := func() ([]byte, error) { it.SeekGE(key(47)); return it.ValueAndErr() }()
	fmt.Println("ValueAndErr:", string(v), err)
	lv := it.LazyValue()
	lvBytes, _, err := lv.Value(nil)
	fmt.Println("LazyValue:", string(lvBytes), err)
	st := it.Stats()
	fmt.Println("stats seeks>0:", st.ForwardSeekCount[pebble.InterfaceCall] > 0)
	return it.Close()
}

func prefixSeeks(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	for _, k := range []string{"apple", "apricot", "banana", "blueberry", "cherry"} {
		must(db.Set([]byte(k), []byte(strings.ToUpper(k)), nil))
	}
	must(db.Flush())
	it, err := db.NewIter(&pebble.IterOptions{UseL6Filters: true})
	must(err)
	defer it.Close()
	for _, k := range []string{"apricot", "avocado", "banana", "zucchini"} {
		ok := it.SeekPrefixGE([]byte(k))
		if ok {
			fmt.Printf("SeekPrefixGE(%s): %s=%s\n", k, it.Key(), it.Value())
		} else {
			fmt.Printf("SeekPrefixGE(%s): none\n", k)
		}
	}
	it.SeekGE([]byte("b"))
	fmt.Println("NextPrefix from", string(it.Key()), it.NextPrefix(), string(it.Key()))
	return nil
}

func rangeDeletions(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	for i := 0; i < 30; i++ {
		must(db.Set(key(i), []byte("v"), nil))
	}
	must(db.Flush())
	must(db.DeleteRange(key(5), key(25), nil))
	must(db.SingleDelete(key(27), nil))
	must(db.Flush())
	must(db.Compact(context.Background(), key(0), key(99), false))
	it, err := db.NewIter(nil)
	must(err)
	fmt.Println("after rangedel:", scan(it))
	return it.Close()
}

// concat is a merge operator that joins values with commas.
var concat = &pebble.Merger{
	Name: "concat",
	Merge: func(key, value []byte) (pebble.ValueMerger, error) {
		return &concatMerger{buf: append([]byte(nil), value...)}, nil
	},
}

type concatMerger struct{ buf []byte }

func (m *concatMerger) MergeNewer(value []byte) error {
	m.buf = append(append(m.buf, ','), value...)
	return nil
}

func (m *concatMerger) MergeOlder(value []byte) error {
	m.buf = append(append(append([]byte(nil), value...), ','), m.buf...)
	return nil
}

func (m *concatMerger) Finish(includesBase bool) ([]byte, io.Closer, error) {
	return m.buf, nil, nil
}

func merges(fs vfs.FS, dir string) error {
	opts := options(fs)
	opts.Merger = concat
	db, err := pebble.Open(dir, opts)
	must(err)
	defer db.Close()
	must(db.Set([]byte("m"), []byte("base"), nil))
	must(db.Merge([]byte("m"), []byte("one"), nil))
	must(db.Flush())
	must(db.Merge([]byte("m"), []byte("two"), nil))
	fmt.Println(get(db, "m"))
	return nil
}

func ingest(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	must(db.Set([]byte("k1"), []byte("memtable"), nil))
	f, err := fs.Create("external.sst", vfs.WriteCategoryUnspecified)
	must(err)
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), sstable.WriterOptions{
		TableFormat: db.TableFormat(),
	})
	must(w.Set([]byte("k1"), []byte("ingested")))
	must(w.Set([]byte("k2"), []byte("ingested")))
	must(w.Close())
	must(db.Ingest(context.Background(), []string{"external.sst"}))
	fmt.Println(get(db, "k1"), get(db, "k2"))
	return nil
}

func checkpoint(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	for i := 0; i < 20; i++ {
		must(db.Set(key(i), []byte("cp"), nil))
	}
	must(db.Flush())
	must(db.Checkpoint(dir + "-copy"))
	must(db.Set(key(99), []byte("after"), nil))
	must(db.Close())
	cp, err := pebble.Open(dir+"-copy", options(fs))
	must(err)
	defer cp.Close()
	fmt.Println("checkpoint:", get(cp, "key0003"), get(cp, "key0099"))
	return nil
}

func metrics(fs vfs.FS, dir string) error {
	db, err := pebble.Open(dir, options(fs))
	must(err)
	defer db.Close()
	for i := 0; i < 200; i++ {
		must(db.Set(key(i), bytes.Repeat([]byte{'v'}, 100), nil))
		if i%50 == 49 {
			must(db.Flush())
		}
	}
	m := db.Metrics()
	fmt.Println("L0 tables:", m.Levels[0].TablesCount, "flushes:", m.Flush.Count)
	must(db.Compact(context.Background(), key(0), key(999), false))
	m = db.Metrics()
	var files int64
	for _, l := range m.Levels {
		files += l.TablesCount
	}
	fmt.Println("after compact: L0 tables:", m.Levels[0].TablesCount, "total tables:", files)
	fmt.Println("read amp:", m.ReadAmp())
	return nil
}
