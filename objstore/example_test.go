// Copyright 2026 The pebblerf Authors. All rights reserved.

package objstore_test

import (
	"fmt"
	"log"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/objstore"
	"github.com/pebblerf/pebble/rangefilter"
)

// Example_configure keeps a DB's tables on an object store (here in memory;
// "s3://bucket/prefix?region=..." for S3) and counts the GETs two bounded
// reads make: one over a range that holds a key, one over a range that
// holds none, which the table's range filter rules out before any data
// block is fetched.
func Example_configure() {
	store, err := objstore.Open("mem://")
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	opts := &pebble.Options{FS: vfs.NewMem()}
	// After the rest of opts is set; a reopen calls it again, with the
	// same store and directory.
	if err := objstore.Configure("db", opts, objstore.Config{Store: store, Levels: objstore.AllLevels}); err != nil {
		log.Fatal(err)
	}
	db, err := pebble.OpenWithPlugins("db", opts, pebble.Plugins{RangeFilter: &rangefilter.Config{BitsPerKey: 16}})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 1000; i += 2 { // even keys only
		if err := db.Set(fmt.Appendf(nil, "key%04d", i), []byte("v"), nil); err != nil {
			log.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil { // the table goes to the store
		log.Fatal(err)
	}

	scan := func(lower, upper string) {
		before := store.Snapshot()
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: []byte(lower), UpperBound: []byte(upper)})
		if err != nil {
			log.Fatal(err)
		}
		found := it.First()
		if err := it.Close(); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("[%s, %s) found %v, data GETs %d\n", lower, upper, found, store.Snapshot().Sub(before).Data.Requests)
	}
	scan("key0100", "key0101")
	scan("key0101", "key0102")
	// Output:
	// [key0100, key0101) found true, data GETs 1
	// [key0101, key0102) found false, data GETs 0
}
