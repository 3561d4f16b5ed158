// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package ycsb generates the operations of the YCSB core workloads, so that
// a benchmark can drive two engines with the same sequence.
//
// # The workloads
//
// The Yahoo! Cloud Serving Benchmark (Cooper et al., "Benchmarking Cloud
// Serving Systems with YCSB", SoCC 2010) models the serving workloads of web
// applications as a table of records, loaded first, then read and written by
// a mix of operations whose records follow a request distribution. Its six
// core workloads are:
//
//	A  update heavy   50% read, 50% update     zipfian  a session store recording recent actions
//	B  read mostly    95% read, 5% update      zipfian  photo tagging: tags are read far more than added
//	C  read only      100% read                zipfian  a user profile cache built elsewhere
//	D  read latest    95% read, 5% insert      latest   status updates: people read the newest
//	E  short ranges   95% scan, 5% insert      zipfian  threaded conversations, a scan per thread
//	F  read-modify-write  50% read, 50% rmw    zipfian  a user database whose records users change
//
// A record here is a key and one value of ValueSize bytes (1 KiB by
// default, near YCSB's 10 fields of 100 bytes). Keys are YCSB's: "user" and
// a number, with YCSB's default insert order "hashed", the number a hash of
// the record number, so records are loaded and inserted in random key order.
//
// # Request distributions
//
// Every operation but an insert picks an existing record:
//
//   - Uniform: each existing record alike.
//   - ScrambledZipfian, YCSB's "zipfian": a rank is drawn from a Zipfian
//     distribution with θ = ZipfianConstant = 0.99 over 10^10 items, hashed
//     (FNV-1a) and taken modulo the record space, so that the popular
//     records are scattered over the records rather than bunched at the
//     first ones. The record space is RecordCount plus twice the inserts
//     expected from OperationCount and the mix, so a record keeps its
//     popularity as records are inserted; a draw of a record not yet
//     inserted is drawn again (so a mix with inserts, few records and a
//     large OperationCount spends many draws an operation at first, as in
//     YCSB). Because the ranks of 10^10 items are folded onto the records,
//     the hottest record's share is 1/ζ(10^10, 0.99) ≈ 3.8% whatever the
//     record count, and the skew is flatter than a Zipfian over the records
//     themselves; this is YCSB's distribution as YCSB implements it.
//   - Latest: a Zipfian rank over recency, rank 0 the newest record, growing
//     with every insert, so the records just inserted are the most read.
//   - Zipfian, Pebble's "zipf" (no core workload's): a Zipfian rank over the
//     records themselves by age, rank 0 the first loaded, growing with every
//     insert. Its hottest record's share is 1/ζ(records, 0.99), higher than
//     the scrambled one's (about 6.5% at 10^6 records), and with Hashed keys
//     its popular records are scattered over the key space too.
//
// The Zipfian draws use the method of Gray et al., "Quickly Generating
// Billion-Record Synthetic Databases" (SIGMOD 1994), as YCSB does: one Pow a
// draw, no table, and an item count that grows incrementally (Zipf).
// Scan lengths are uniform in [MinScanLength, MaxScanLength], 1..100 as in
// workload E.
//
// # Where this differs from YCSB and from Pebble's `pebble bench ycsb`
//
//   - Hashed keys hash the record number with a bijection of uint64
//     (SplitMix64's output function) where YCSB uses FNV-1a and an absolute
//     value, which can map two records to one key; here distinct records
//     always have distinct keys. Ordered keys are zero-padded to 20 digits,
//     so that key order is record order.
//   - Values are incompressible random bytes, as Pebble's default, where
//     YCSB writes random printable characters; an update writes a whole
//     value, as a key-value binding of YCSB writes the whole record.
//   - Uniform picks among every record the source knows exists, inserts
//     included; YCSB's uniform chooser stays on the loaded records.
//   - Threads do not share an insert counter: each owns its inserts and
//     reads only records it knows exist (see Source), so a seed fixes every
//     thread's sequence. With one thread this changes nothing.
//   - Pebble's standard mixes differ from YCSB's in two workloads, and this
//     package follows YCSB: Pebble's F is 100% inserts where YCSB's is 50%
//     read and 50% read-modify-write, and Pebble's D draws records Zipfian
//     by default where YCSB's draws them latest. Pebble's scans default to
//     Zipfian lengths in 1..1000; YCSB's E, and this package, to uniform
//     lengths in 1..100. Pebble's keys carry a 10-byte MVCC suffix; these do
//     not. Pebble's "zipf" is not YCSB's scrambled Zipfian but a Zipfian over
//     the record count, offered here as Zipfian.
//
// # Use
//
// Parse names a workload, "A".."F" or a custom mix such as
// "read=50,update=50"; the caller sets RecordCount, OperationCount and the
// Seed and calls New. A Workload's Loader yields the records to load (split
// into parts to load in parallel); its Source yields one thread's operations:
//
//	c, err := ycsb.Parse("A")
//	c.RecordCount, c.OperationCount, c.Seed = 1_000_000, 10_000_000, 1
//	w, err := ycsb.New(c)
//	l, _ := w.Loader(0, 1)
//	for key, value, ok := l.Next(); ok; key, value, ok = l.Next() {
//		// Set(key, value)
//	}
//	src, _ := w.Source(thread, threads) // one per goroutine
//	var op ycsb.Op
//	for src.Next(&op) {
//		switch op.Kind {
//		case ycsb.Read: // Get(op.Key)
//		case ycsb.Update, ycsb.Insert: // Set(op.Key, op.Value)
//		case ycsb.Scan: // SeekGE(op.Key), then op.ScanLength-1 Next
//		case ycsb.ReverseScan: // SeekLT(op.Key), then op.ScanLength-1 Prev
//		case ycsb.ReadModifyWrite: // Get(op.Key), then Set(op.Key, op.Value)
//		}
//	}
//
// Neither Next allocates: the key is a buffer the loader or source reuses,
// the value a window of a pool of random bytes shared by the workload.
package ycsb
