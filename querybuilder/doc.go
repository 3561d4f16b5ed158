// Package querybuilder plans bounded reads over a Pebble DB so that sorted
// runs and tables that cannot answer a read are never opened.
//
// It offers a Builder (New for an upstream DB; a pebblerf DB's
// RangeQueries) whose NewIter returns an Iterator with pebble.Iterator's
// methods and results, planned per query: Options choose the Plan, the
// comparer and the range filters, and Explain runs one query and says, run
// by run, what it read and what it skipped and why.
//
// Pebble's merging iterator always holds every memtable, every L0 sublevel
// and every non-empty level; the exported API cannot drop one. What Pebble
// does do is skip, without opening it, every file that lies wholly outside
// the iterator's bounds. So the builder's lever is the bounds: it gives the
// upstream iterator the tightest bounds that are still correct, and moves
// them as the caller moves.
//
// # Stepped bounds
//
// A SeekGE(k) on a plain iterator positions every sorted run: a run whose
// file holds k reads the block holding k, and a run whose next file starts
// after k opens that file and reads its first block, although in an LSM with
// staggered runs (time-ordered data, many small runs) the answer almost
// always comes from the runs that hold k. The builder therefore first
// iterates within [lower, U), where U is the nearest file start above k in
// any run: files starting at or after U are outside the bounds and are never
// opened. Only when the caller moves past U does the iterator widen its upper
// bound, to the next file start above U (the query's bound once none is
// left), and re-seek to U. The result is exactly a plain
// iterator's, for any U > k: Pebble returns every key of its view inside its
// bounds, and the widening resumes at the first key the narrower bounds hid.
// This is the "deferral" of Speedb's query builder, done with bounds instead
// of a modified merging iterator.
//
// Because correctness does not depend on U, the file list that U is computed
// from may be older or newer than the iterator's view (a flush or compaction
// may land in between): a stale list only defers too little or too much.
//
// Reverse iteration is not stepped: SeekLT, Last and Prev see the query's
// full upper bound (or a step that already lies above the seek key). The
// symmetric rule would need a lower bound just above a file's largest key,
// which needs a key successor the Comparer does not define in general, and
// reverse short scans are rare in the workloads stepping is meant for.
//
// # Auto prefix mode
//
// When [lower, upper) lies within one Comparer.Split prefix, every key the
// query can return has that prefix, so forward seeks are issued as
// SeekPrefixGE: Pebble then consults table filters (Bloom, Ribbon) and skips
// files whose smallest prefix is beyond the seek's, as RocksDB's
// auto_prefix_mode does. Reverse moves leave prefix mode by re-seeking.
//
// # Plans
//
// A query runs under one Plan: PlanPlain (a plain upstream iterator),
// PlanStepped or PlanPrefix. PlanAuto picks per query: prefix mode when the
// bounds allow it, stepping when the LSM's shape says a seek would defer
// enough runs (the deferred runs averaged over seek keys weighted by where
// the data lies, Options.MinDeferrable), plain otherwise; an iterator that keeps
// having to widen stops stepping. Iterators that read range keys are always
// plain, because Pebble truncates range keys to the iterator's bounds.
//
// # What stepping saves, and what it cannot
//
// A stepped seek reads the blocks of the runs that hold its key (one or two
// on staggered runs) instead of a block in every run whose next file starts
// after the key, which is what an oracle that knows every file start loads
// (docs/benchmarks.md has the figures on staggered runs). What it
// cannot save is what every seek pays on both sides: reading the block that
// holds the answer (with a block cache smaller than the data, a miss about
// as often for both), stepping through the keys the caller asks for, and,
// with a new iterator per seek, building and closing the upstream iterator,
// which holds a level iterator per run however narrow its bounds. The
// speed-up therefore grows with the number of runs a seek defers and shrinks
// as those shared costs grow: with fewer runs, more Next calls, more cache
// misses, or an iterator per seek.
//
// # Statistics
//
// The queries of a pebblerf DB with per-level statistics on report the
// caller's seeks and value reads to them, as the DB's plain iterators do,
// so reads through a query are counted as reads through an ordinary
// iterator are; Explain's probes are not counted.
//
// # Explain
//
// Builder.Explain runs one query and reports, for every sorted run, whether
// it was skipped by bounds, deferred by stepping, read, or (with the help of
// an Annotator such as the seek statistics) skipped by a prefix or range
// filter.
package querybuilder
