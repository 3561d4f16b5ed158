// Copyright 2026 The pebblerf Authors. All rights reserved.

package scenario

// table is every scenario, in the order -scenario=list prints them. Each is
// data: its phases are the command lines -scenario=list prints, and its
// verdict is chosen by name (Judge.By) with the figures it judges.
//
// The CockroachDB scenarios share MVCC keys with CockroachDB's options on
// both engines, 10 rounds of versions with no compactions (so at least 10
// L0 sublevels), CockroachDB's Bloom(10) on every level, read with L6
// filters, and a cache a fraction of the data.
//
// The object-storage scenarios (remote-*) have the shapes production Pebble
// DBs have (Pebble's own compactions running, data several times the block
// cache), with the tables on a simulated object store, where a block read
// that misses the cache is a ranged GET with a round trip's latency and a
// price: 20 ms per request plus up to 5 ms of jitter and S3 Standard's list
// prices (the demo: a tenth of the latency, so that make demo stays short).
// Both engines get identical, separate stores: the same latency model and
// seed, cold caches, no secondary cache unless the user adds
// -secondary_cache_size. Their reads run on 8 threads: the simulated store
// has no queueing (objstore's package doc), so a thread waits for its own
// requests only and the operations' latency is what one reader would see,
// while a phase takes an eighth of the wall time. The build phases pay the
// same latency for their flushes and compactions, which is what makes L0
// deepen while Pebble's compactions catch up on a remote store.
// remote-locktable's reads under writes check the lock table for 20 s while
// one more thread writes intents at 1 MB/s into 1 MiB memtables, so that a
// flush lands about every second.
//
// The matrix runs the workloads users run, on both engines over the same
// data, pebblerf with pebble.Recommended(), on the shapes a DB with Pebble's
// compactions has, ending in one table of ratios: it answers the question a
// user asks before switching (will my ordinary workload get slower?), as
// the other scenarios answer where pebblerf wins. Every workload runs 5
// paired runs ([X5]), and a cell is the median of the paired ratios with
// their range. A paired run is interleaved (-interleave=1000): both engines
// run it at once, taking turns of 1000 operations (a few milliseconds of
// Gets: long enough that handing over costs little, short enough that a
// burst of the machine's spans turns of both), so that what the machine
// does meanwhile falls on both; whole runs one after the other each met the
// machine as it was for their own second, and moved cells by a tenth either
// way with the same code on both sides. A phase's name is its shape and its
// step ("leveled/read"), so the table can say which shape a row ran on; the
// shape is also measured: each engine's L0 sublevels when the phase starts.
// Pebble's compactions run on their own clock, so two engines given the
// same writes can be caught at different depths (0 and 17 sublevels were
// seen), which would measure the shape, not the engine: each fill is
// therefore followed by a manual compaction, and the burst builds its L0
// under a trigger it never reaches.
var table = []*Scenario{
	{
		Name:  "range-filters",
		Short: "range filters on bounded seeks over 8 overlapping runs, 90% of the ranges empty",
		Models: "many overlapping sorted runs (8 flushes of random keys over a sparse key space, no compactions) read " +
			"by short bounded seeks (8 key positions), 90% of them over ranges that hold no key",
		Plugins: "range filters (16 bits/key) on pebblerf; its statistics off, so the ratio measures the filters alone",
		Common: []string{"-engine=both", "-seed=7", "-num=8000000", "-writes=100000", "-compaction_style=3", "-range_filter_bits=16",
			"-pebblerf_statistics=false"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillrandom,flush,overwrite,flush,overwrite,flush,overwrite,flush,overwrite,flush,overwrite,flush,overwrite,flush,overwrite,flush,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandom[X3]", "-reads=20000", "-seek_upper_bound_len=8",
				"-empty_range_fraction=0.9"}},
		},
		Demo:    []string{"-num=2000000", "-writes=25000", "-reads=10000"},
		Verdict: Judge{By: "seek", What: "on bounded ranges, 90% empty"},
	},
	{
		Name:  "staggered-runs",
		Short: "the query builder on short seeks over about 40 staggered runs",
		Models: "time-ordered writes (fillseq, each new key followed by an overwrite of one of the last few thousand) " +
			"flushed into about 40 staggered L0 sorted runs with no compactions, read by short seeks (1 Next) on " +
			"a reused iterator",
		Plugins: "query builder (auto plan: stepped bounds defer the runs that start later) on pebblerf, with the " +
			"explain of one sample query; its statistics off",
		Common: []string{"-engine=both", "-seed=1", "-num=800000", "-fillseq_overwrite_window=5000", "-compaction_style=3",
			"-write_buffer_size=6291456", "-cache_size=67108864", "-pebblerf_statistics=false"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillseq,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandom[X3-W1]", "-reads=30000", "-seek_nexts=1", "-use_tailing_iterator",
				"-use_query_builder", "-explain"}},
		},
		Demo:    []string{"-num=300000", "-fillseq_overwrite_window=2000", "-write_buffer_size=4194304"},
		Verdict: Judge{By: "seek", What: "on short seeks over staggered runs"},
	},
	{
		Name:  "absent-keys",
		Short: "Ribbon filters' space on Gets, half of them absent",
		Models: "point reads (Get) of which half look for absent keys, over a DB compacted into L6: the case table " +
			"filters are for",
		Plugins: "pebblerf's point filters, Bloom on L0 and Ribbon from L1 down (the same false-positive rate in less " +
			"space), against upstream's Bloom of the same bits; L6 filters on both engines; pebblerf's statistics " +
			"off",
		Common: []string{"-engine=both", "-seed=3", "-num=1000000", "-bloom_bits=10", "-use_ribbon_filter", "-use_l6_filters",
			"-write_buffer_size=4194304", "-pebblerf_statistics=false"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillrandom,compact,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=readrandom[X3]", "-reads=300000", "-missing_fraction=0.5"}},
		},
		Demo:    []string{"-num=200000", "-reads=100000"},
		Verdict: Judge{By: "absent-keys"},
	},
	{
		Name:  "rocksdb-seed",
		Short: "RocksDB's seek-statistics test plan, with the per-level table",
		Models: "the test plan of RocksDB's seek and prefix-filter statistics change at this machine's scale: " +
			"fillrandom with no compaction (FIFO there), then prefix seeks with one Next over 8-byte prefixes and " +
			"8-bit filters",
		Plugins: "per-level seek statistics (-pebblerf_statistics), printed per level with -statistics; pebblerf's " +
			"Bloom filter on prefixes",
		Common: []string{"-engine=both", "-seed=43", "-num=1000000", "-bloom_bits=8", "-compaction_style=3", "-prefix_size=8",
			"-write_buffer_size=30000000", "-pebblerf_statistics"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillrandom,flush,levelstats", "-disable_wal"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandom", "-seek_nexts=1", "-reads=200000", "-statistics"}},
		},
		Demo:    []string{"-num=200000", "-reads=50000"},
		Verdict: Judge{By: "rocksdb-seed"},
	},
	{
		Name:  "speedb-seed",
		Short: "Speedb's query-builder test plan: seeks while writing, with an explain",
		Models: "the test plan of Speedb's range-query builder at this machine's scale: fillseq on the " +
			"many-sorted-runs shape (universal compaction there), then seeks while a writer adds random keys, " +
			"targets drawn from 10x the filled range",
		Plugins: "query builder (auto plan) on pebblerf, with the explain of one sample query; the many-runs shape on " +
			"both engines",
		Common: []string{"-engine=both", "-seed=4", "-num=200000", "-compaction_style=1", "-write_buffer_size=4194304",
			"-cache_size=33554432", "-value_size=200"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillseq"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandomwhilewriting", "-duration=20", "-threads=2",
				"-seek_target_range_multiplier=10", "-benchmark_write_rate_limit=4000000", "-use_query_builder", "-explain"}},
		},
		Demo:    []string{"-duration=5"},
		Verdict: Judge{By: "seek", What: "on seeks while writing, targets from 10x the range"},
	},
	{
		Name:  "cockroach-locktable",
		Short: "range filters on CockroachDB's lock-table checks over 10 L0 sublevels",
		Models: "a CockroachDB-style store after a write burst: MVCC keys with CockroachDB's Pebble options, 10 " +
			"rounds of versions with a few lock-table keys each, every round a flushed L0 sublevel (no " +
			"compactions), a cache smaller than the data; read by the lock-table span checks that precede KV " +
			"reads, almost all of them empty",
		Plugins: "range filters (16 bits/key) on pebblerf; its statistics off, so the ratio measures the filters alone",
		Common: []string{"-engine=both", "-seed=20", "-key_format=mvcc", "-num=200000", "-versions_per_key=10", "-compaction_style=3",
			"-bloom_bits=10", "-use_l6_filters", "-cache_size=16777216", "-range_filter_bits=16",
			"-pebblerf_statistics=false"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillmvcc,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=locktablescan[X3]", "-reads=20000"}},
		},
		Demo:    []string{"-num=50000", "-reads=5000"},
		Verdict: Judge{By: "seek", What: "on lock-table span checks, almost all empty", Benches: []string{"locktablescan"}},
	},
	{
		Name:  "cockroach-mvcc",
		Short: "CockroachDB's point gets (half absent), MVCC scans and time-bound scans with every plug-in",
		Models: "the same store with its 2 oldest rounds compacted into L6 below 8 L0 sublevels, read by point gets " +
			"(SeekPrefixGE at a read timestamp, half the keys absent), short MVCC scans and time-bound scans of " +
			"one round",
		Plugins: "pebblerf's point filters (Bloom on L0, Ribbon below, Bloom(10)'s false-positive rate), range filters " +
			"(16 bits/key) and statistics, against upstream's Bloom(10) on every level; L6 filters on both",
		Common: []string{"-engine=both", "-seed=20", "-key_format=mvcc", "-num=200000", "-versions_per_key=10", "-compaction_style=3",
			"-bloom_bits=10", "-use_l6_filters", "-cache_size=16777216", "-range_filter_bits=16", "-use_ribbon_filter",
			"-bloom_before_level=0", "-mvcc_compact_rounds=2"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillmvcc,levelstats"}},
			{"read", []string{"-use_existing_db", "-benchmarks=mvccget[X3],mvccscan[X3],mvcctimebound[X3]", "-reads=20000",
				"-missing_fraction=0.5", "-statistics"}},
		},
		Demo:    []string{"-num=50000", "-reads=5000"},
		Verdict: Judge{By: "cockroach-mvcc"},
	},
	{
		Name:  "remote-locktable",
		Short: "range filters on CockroachDB's lock-table checks before MVCC scans, tables on object storage",
		Models: "a CockroachDB-style store on object storage: MVCC keys with CockroachDB's Pebble options and lock " +
			"keys, 10 flushed rounds of versions with Pebble's compactions on (L0 deepens while compactions on " +
			"the remote store lag; -lsm_sample_ms samples the runs), data several times the block cache; read by " +
			"KV reads that check the lock table's span before each MVCC scan (lockedscan), then by lock-table " +
			"checks alone (locktablescan), then by lock-table checks while a writer writes and resolves intents " +
			"at 1 MB/s into 1 MiB memtables, so that the checks keep meeting tables just flushed or compacted " +
			"(locktablescanwhilewriting, 20 s per run, judged by the checks' own GETs: read.gets); then the same " +
			"with objstore's write cache on pebblerf (32 MiB of the tables it wrote last, a third of the DB); " +
			"then rare checks under the same writes, as a range read twice a second sees them (one thread, one " +
			"key a check, -benchmark_read_rate_limit=2), without and with the write cache",
		Plugins: "range filters (16 bits/key) on pebblerf, and in the reads that say so objstore's write cache " +
			"(-write_cache_size); its statistics off; Bloom(10) on every level of both, read with L6 filters",
		Common: []string{"-engine=both", "-seed=20", "-key_format=mvcc", "-num=100000", "-versions_per_key=10", "-bloom_bits=10",
			"-use_l6_filters", "-cache_size=8388608", "-write_buffer_size=8388608", "-range_filter_bits=16",
			"-pebblerf_statistics=false", "-remote=sim://?latency=20ms&jitter=5ms&seed=1", "-remote_levels=all"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillmvcc,levelstats", "-lsm_sample_ms=200"}},
			{"read", []string{"-use_existing_db", "-benchmarks=lockedscan[X2],locktablescan[X2]", "-reads=300", "-threads=8"}},
			{"read-writing", []string{"-use_existing_db", "-benchmarks=locktablescanwhilewriting", "-reads=1000000000", "-duration=20",
				"-benchmark_write_rate_limit=1000000", "-write_buffer_size=1048576", "-lsm_sample_ms=200", "-threads=8"}},
			{"read-writing-cached", []string{"-use_existing_db", "-benchmarks=locktablescanwhilewriting", "-reads=1000000000", "-duration=20",
				"-benchmark_write_rate_limit=1000000", "-write_buffer_size=1048576", "-lsm_sample_ms=200", "-threads=8",
				"-write_cache_size=33554432"}},
			// A range read rarely on a store whose writers flush every second:
			// each check meets tables no check has read yet.
			{"read-rare", []string{"-use_existing_db", "-benchmarks=locktablescanwhilewriting", "-reads=1000000000", "-duration=20",
				"-benchmark_write_rate_limit=1000000", "-write_buffer_size=1048576", "-lsm_sample_ms=200", "-threads=1",
				"-benchmark_read_rate_limit=2", "-mvcc_scan_keys=1"}},
			{"read-rare-cached", []string{"-use_existing_db", "-benchmarks=locktablescanwhilewriting", "-reads=1000000000", "-duration=20",
				"-benchmark_write_rate_limit=1000000", "-write_buffer_size=1048576", "-lsm_sample_ms=200", "-threads=1",
				"-benchmark_read_rate_limit=2", "-mvcc_scan_keys=1", "-write_cache_size=33554432"}},
		},
		Demo: []string{"-num=20000", "-reads=100", "-remote=sim://?latency=2ms&jitter=500us&seed=1"},
		Verdict: Judge{By: "remote", What: "on lock-table checks before MVCC scans", Reads: []RemoteRead{
			{5, "locktablescanwhilewriting", "rare lock checks (2 a second, one key each) while intents flush, 32 MiB write cache on pebblerf", true},
			{4, "locktablescanwhilewriting", "rare lock checks (2 a second, one key each) while intents flush", true},
			{3, "locktablescanwhilewriting", "lock checks while intents flush, 32 MiB write cache on pebblerf", true},
			{2, "locktablescanwhilewriting", "lock checks while intents flush", true},
			{1, "lockedscan", "lock checks and MVCC scans", false},
			{1, "locktablescan", "lock checks alone", false},
		}},
	},
	{
		Name:  "remote-range-filters",
		Short: "range filters on bounded scans, half of the ranges empty, a leveled DB on object storage",
		Models: "a leveled DB on object storage (fillrandom over a sparse key space, Pebble's compactions on, data " +
			"several times the block cache), read by short bounded scans (8 key positions, 1 Next), half of them " +
			"over ranges that hold no key; then by the same scans, every one over an empty range",
		Plugins: "range filters (16 bits/key) on pebblerf; its statistics off, so the ratio measures the filters alone",
		Common: []string{"-engine=both", "-seed=7", "-num=20000000", "-writes=1500000", "-cache_size=4194304",
			"-write_buffer_size=4194304", "-range_filter_bits=16", "-pebblerf_statistics=false",
			"-remote=sim://?latency=20ms&jitter=5ms&seed=1", "-remote_levels=all"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillrandom,levelstats", "-lsm_sample_ms=200"}},
			{"read", []string{"-use_existing_db", "-benchmarks=seekrandom[X3]", "-reads=300", "-threads=8", "-seek_upper_bound_len=8",
				"-empty_range_fraction=0.5", "-seek_nexts=1"}},
			{"read-empty", []string{"-use_existing_db", "-benchmarks=seekrandom[X2]", "-reads=300", "-threads=8", "-seek_upper_bound_len=8",
				"-empty_range_fraction=1", "-seek_nexts=1"}},
		},
		Demo: []string{"-num=2000000", "-writes=150000", "-reads=150", "-remote=sim://?latency=2ms&jitter=500us&seed=1"},
		Verdict: Judge{By: "remote", What: "on bounded scans", Reads: []RemoteRead{
			{1, "seekrandom", "half of the ranges empty", false},
			{2, "seekrandom", "every range empty", false},
		}},
	},
	{
		Name:  "remote-absent-keys",
		Short: "Gets, half of them absent, with L5 and L6 on object storage (CockroachDB's split)",
		Models: "a DB whose lower levels (L5, L6) are on object storage and the rest local, as CockroachDB places " +
			"them (fillrandom with Pebble's compactions on, then a manual compaction, so that both engines read " +
			"the same shape: the tables in L6), data several times the block cache; read by Gets of which half " +
			"look for absent keys. Pebble's DB.Get never consults L6 filters, so upstream reads an L6 data block " +
			"(a GET) for most absent keys",
		Plugins: "pebblerf's Gets consult L6 filters, every Get (-get_l6_filters=on, Plugins.GetL6Filters; auto starts " +
			"on upstream's Get and decides per window of 1024 Gets, so it GETs more in these runs); Bloom(10) on " +
			"every level of both, L6 included, as Pebble writes it with a filter policy on every level (the same " +
			"filters and filter memory); both read through DB.Get, upstream's never consulting L6 filters",
		Common: []string{"-engine=both", "-seed=3", "-num=1500000", "-bloom_bits=10", "-get_l6_filters=on", "-cache_size=8388608",
			"-write_buffer_size=4194304", "-pebblerf_statistics=false", "-remote=sim://?latency=20ms&jitter=5ms&seed=1",
			"-remote_levels=lower"},
		Phases: []Phase{
			{"build", []string{"-benchmarks=fillrandom,compact,levelstats", "-lsm_sample_ms=200"}},
			{"read", []string{"-use_existing_db", "-benchmarks=readrandom[X3]", "-reads=300", "-threads=8", "-missing_fraction=0.5"}},
		},
		Demo: []string{"-num=200000", "-reads=150", "-remote=sim://?latency=2ms&jitter=500us&seed=1"},
		Verdict: Judge{By: "remote", What: "L5 and L6 on the store", Reads: []RemoteRead{
			{1, "readrandom", "Gets, half absent", false},
		}},
	},
	{
		Name:  "matrix",
		Short: "the workloads users run (YCSB A-F, db_bench's), pebble.Recommended() against upstream, one table",
		Models: "YCSB's core workloads A-F (Zipfian, 1 KiB values) and db_bench's fillrandom, readrandom, seekrandom " +
			"with and without bounds (half of the bounded ranges empty), readseq and overwrite, with Pebble's " +
			"compactions on and data several times the block cache, on a leveled DB (compacted after its fill, so " +
			"both engines read the same shape) and on the same DB after an overwrite burst left L0 many sublevels " +
			"deep; 5 paired runs of each, interleaved",
		Plugins: "pebble.Recommended() on pebblerf (-pebblerf_recommended: range filters with their gate, Gets that " +
			"consult L6 filters when it pays); Bloom(10) on every level of both, as a user's options name it",
		Common: []string{"-engine=both", "-seed=11", "-pebblerf_recommended", "-bloom_bits=10", "-num=200000", "-key_stride=16",
			"-reads=100000", "-ycsb_record_count=200000", "-cache_size=2097152", "-write_buffer_size=4194304",
			"-pebblerf_statistics=false", "-interleave=1000"},
		Phases: []Phase{
			{"leveled/fill", []string{"-benchmarks=fillrandom[X5],compact,levelstats"}},
			// A read run lasts a few seconds: interleaved, the pairs of shorter
			// runs still spread by several percent either way.
			{"leveled/read", []string{"-use_existing_db", "-benchmarks=readrandom[X5],seekrandom[X5]", "-reads=300000"}},
			// A Next costs a fraction of a Get: many times the entries, so that a
			// run lasts as long as the others.
			{"leveled/scan", []string{"-use_existing_db", "-benchmarks=readseq[X5]", "-reads=5000000"}},
			{"leveled/bounded", []string{"-use_existing_db", "-benchmarks=seekrandom[X5]", "-seek_upper_bound_len=8", "-empty_range_fraction=0.5"}},
			{"leveled/overwrite", []string{"-use_existing_db", "-benchmarks=overwrite[X5]"}},
			// The burst: an overwrite burst on a compacted DB with an L0 trigger
			// high enough (Pebble compacts L0 once its sublevels reach half of it)
			// that the flushes stay in L0 as sublevels, as under writes that
			// outpace compactions; the depth depends on the writes alone, so both
			// engines read the same one. Reads drain L0 (read-triggered
			// compactions), so each read phase gets a burst of its own.
			{"l0-burst/build", []string{"-benchmarks=fillrandom,compact,overwrite,levelstats", "-level0_file_num_compaction_trigger=40",
				"-write_buffer_size=2097152"}},
			// Upstream's bounded seeks read every sublevel: fewer of them.
			{"l0-burst/bounded", []string{"-use_existing_db", "-benchmarks=seekrandom[X5]", "-reads=30000", "-level0_file_num_compaction_trigger=40",
				"-write_buffer_size=2097152", "-seek_upper_bound_len=8", "-empty_range_fraction=0.5"}},
			{"l0-burst/rebuild", []string{"-benchmarks=fillrandom,compact,overwrite", "-level0_file_num_compaction_trigger=40",
				"-write_buffer_size=2097152"}},
			{"l0-burst/read", []string{"-use_existing_db", "-benchmarks=readrandom[X5],seekrandom[X5]", "-level0_file_num_compaction_trigger=40",
				"-write_buffer_size=2097152"}},
			{"ycsb/load", []string{"-benchmarks=ycsb_load[X5],compact,levelstats"}},
			{"ycsb/read", []string{"-use_existing_db", "-benchmarks=ycsb_c[X5],ycsb_b[X5],ycsb_d[X5]", "-reads=300000"}},
			// A short scan costs a dozen Gets.
			{"ycsb/scan", []string{"-use_existing_db", "-benchmarks=ycsb_e[X5]", "-reads=50000"}},
			// Half of A's and F's operations write, and a run's ratio moves with
			// the few flushes and compactions in it: four times the operations,
			// so that each run has dozens.
			{"ycsb/update", []string{"-use_existing_db", "-benchmarks=ycsb_a[X5],ycsb_f[X5]", "-reads=200000"}},
		},
		Demo:    []string{"-num=50000", "-ycsb_record_count=10000", "-reads=5000", "-cache_size=1048576"},
		Verdict: Judge{By: "matrix"},
	},
}
