// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

// The object-storage scenarios: the shapes production Pebble DBs have
// (Pebble's own compactions running, data several times the block cache),
// with the tables on a simulated object store (remote.go), where a block
// read that misses the cache is a ranged GET with a round trip's latency and
// a price. Both engines get identical, separate stores: the same latency
// model and seed, cold caches, no secondary cache unless the user adds
// -secondary_cache_size. Their verdicts (remoteVerdict) name the remote
// GETs, the p50 latency and the cost per million operations against
// upstream.
//
// The reads run on 8 threads: the simulated store has no queueing (objstore's
// package doc), so a thread waits for its own requests only and the
// operations' latency is what one reader would see, while a phase takes an
// eighth of the wall time. The build phases pay the same latency for their
// flushes and compactions, which is what makes L0 deepen while Pebble's
// compactions catch up on a remote store.

// remoteSim is the store of the remote scenarios: 20 ms per request plus up
// to 5 ms of jitter, S3 Standard's list prices.
const remoteSim = "-remote=sim://?latency=20ms&jitter=5ms&seed=1"

// remoteDemoSim is the demo's store: the same model at a tenth of the
// latency, so that make demo stays short.
const remoteDemoSim = "-remote=sim://?latency=2ms&jitter=500us&seed=1"

// lockChecksUnderWrites is a read phase of remote-locktable: lock-table
// checks for 20 s while one more thread writes intents at 1 MB/s into 1 MiB
// memtables, so that a flush lands about every second; extra shapes the
// checks.
func lockChecksUnderWrites(name string, extra ...string) phase {
	return phase{name, append([]string{"-use_existing_db", "-benchmarks=locktablescanwhilewriting", "-reads=1000000000",
		"-duration=20", "-benchmark_write_rate_limit=1000000", "-write_buffer_size=1048576", "-lsm_sample_ms=200"}, extra...)}
}

func init() {
	scenarios = append(scenarios,
		&scenario{
			name:  "remote-locktable",
			short: "range filters on CockroachDB's lock-table checks before MVCC scans, tables on object storage",
			models: "a CockroachDB-style store on object storage: MVCC keys with CockroachDB's Pebble options and lock keys, " +
				"10 flushed rounds of versions with Pebble's compactions on (L0 deepens while compactions on the remote store lag; " +
				"-lsm_sample_ms samples the runs), data several times the block cache; read by KV reads that check the " +
				"lock table's span before each MVCC scan (lockedscan), then by lock-table checks alone (locktablescan), then by " +
				"lock-table checks while a writer writes and resolves intents at 1 MB/s into 1 MiB memtables, so that the checks keep " +
				"meeting tables just flushed or compacted (locktablescanwhilewriting, 20 s per run, judged by the checks' own GETs: " +
				"read.gets); then the same with objstore's write cache on pebblerf (32 MiB of the tables it wrote last, a third of the DB); " +
				"then rare checks under the same writes, as a range read twice a second sees them (one thread, one key a check, " +
				"-benchmark_read_rate_limit=2), without and with the write cache",
			plugins: "range filters (16 bits/key) on pebblerf, and in the reads that say so objstore's write cache (-write_cache_size); its statistics off; " +
				"Bloom(10) on every level of both, read with L6 filters",
			common: []string{"-engine=both", "-seed=20", "-key_format=mvcc", "-num=100000", "-versions_per_key=10",
				"-bloom_bits=10", "-use_l6_filters", "-cache_size=8388608", "-write_buffer_size=8388608",
				"-range_filter_bits=16", "-pebblerf_statistics=false", remoteSim, "-remote_levels=all"},
			phases: []phase{
				{"build", []string{"-benchmarks=fillmvcc,levelstats", "-lsm_sample_ms=200"}},
				{"read", []string{"-use_existing_db", "-benchmarks=lockedscan[X2],locktablescan[X2]", "-reads=300", "-threads=8"}},
				lockChecksUnderWrites("read-writing", "-threads=8"),
				lockChecksUnderWrites("read-writing-cached", "-threads=8", "-write_cache_size=33554432"),
				// A range read rarely on a store whose writers flush every
				// second: each check meets tables no check has read yet.
				lockChecksUnderWrites("read-rare", "-threads=1", "-benchmark_read_rate_limit=2", "-mvcc_scan_keys=1"),
				lockChecksUnderWrites("read-rare-cached", "-threads=1", "-benchmark_read_rate_limit=2", "-mvcc_scan_keys=1",
					"-write_cache_size=33554432"),
			},
			demo: []string{"-num=20000", "-reads=100", remoteDemoSim},
			verdict: remoteVerdict("remote-locktable", "on lock-table checks before MVCC scans",
				remoteRead{5, "locktablescanwhilewriting", "rare lock checks (2 a second, one key each) while intents flush, 32 MiB write cache on pebblerf", true},
				remoteRead{4, "locktablescanwhilewriting", "rare lock checks (2 a second, one key each) while intents flush", true},
				remoteRead{3, "locktablescanwhilewriting", "lock checks while intents flush, 32 MiB write cache on pebblerf", true},
				remoteRead{2, "locktablescanwhilewriting", "lock checks while intents flush", true},
				remoteRead{1, "lockedscan", "lock checks and MVCC scans", false}, remoteRead{1, "locktablescan", "lock checks alone", false}),
		},
		&scenario{
			name:  "remote-range-filters",
			short: "range filters on bounded scans, half of the ranges empty, a leveled DB on object storage",
			models: "a leveled DB on object storage (fillrandom over a sparse key space, Pebble's compactions on, data " +
				"several times the block cache), read by short bounded scans (8 key positions, 1 Next), half of them over " +
				"ranges that hold no key; then by the same scans, every one over an empty range",
			plugins: "range filters (16 bits/key) on pebblerf; its statistics off, so the ratio measures the filters alone",
			common: []string{"-engine=both", "-seed=7", "-num=20000000", "-writes=1500000", "-cache_size=4194304",
				"-write_buffer_size=4194304", "-range_filter_bits=16", "-pebblerf_statistics=false", remoteSim, "-remote_levels=all"},
			phases: []phase{
				{"build", []string{"-benchmarks=fillrandom,levelstats", "-lsm_sample_ms=200"}},
				{"read", []string{"-use_existing_db", "-benchmarks=seekrandom[X3]", "-reads=300", "-threads=8",
					"-seek_upper_bound_len=8", "-empty_range_fraction=0.5", "-seek_nexts=1"}},
				{"read-empty", []string{"-use_existing_db", "-benchmarks=seekrandom[X2]", "-reads=300", "-threads=8",
					"-seek_upper_bound_len=8", "-empty_range_fraction=1", "-seek_nexts=1"}},
			},
			demo: []string{"-num=2000000", "-writes=150000", "-reads=150", remoteDemoSim},
			verdict: remoteVerdict("remote-range-filters", "on bounded scans",
				remoteRead{1, "seekrandom", "half of the ranges empty", false}, remoteRead{2, "seekrandom", "every range empty", false}),
		},
		&scenario{
			name:  "remote-absent-keys",
			short: "Gets, half of them absent, with L5 and L6 on object storage (CockroachDB's split)",
			models: "a DB whose lower levels (L5, L6) are on object storage and the rest local, as CockroachDB places them " +
				"(fillrandom with Pebble's compactions on, then a manual compaction, so that both engines read the same " +
				"shape: the tables in L6), data several times the block cache; read by Gets of which half look for absent keys. Pebble's DB.Get never consults L6 filters, so upstream reads an L6 data block " +
				"(a GET) for most absent keys",
			plugins: "pebblerf's Gets consult L6 filters, every Get (-get_l6_filters=on, Plugins.GetL6Filters; auto starts on upstream's Get and decides per window of 1024 Gets, so it GETs more in these runs); " +
				"Bloom(10) on every level of both, L6 included, as Pebble writes it with a filter policy on every level (the same filters and filter memory); " +
				"both read through DB.Get, upstream's never consulting L6 filters",
			common: []string{"-engine=both", "-seed=3", "-num=1500000", "-bloom_bits=10", "-get_l6_filters=on",
				"-cache_size=8388608", "-write_buffer_size=4194304", "-pebblerf_statistics=false", remoteSim, "-remote_levels=lower"},
			phases: []phase{
				{"build", []string{"-benchmarks=fillrandom,compact,levelstats", "-lsm_sample_ms=200"}},
				{"read", []string{"-use_existing_db", "-benchmarks=readrandom[X3]", "-reads=300", "-threads=8", "-missing_fraction=0.5"}},
			},
			demo:    []string{"-num=200000", "-reads=150", remoteDemoSim},
			verdict: remoteVerdict("remote-absent-keys", "L5 and L6 on the store", remoteRead{1, "readrandom", "Gets, half absent", false}),
		},
	)
}
