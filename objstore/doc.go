// Package objstore keeps a Pebble DB's sstables on object storage, and
// counts what that costs.
//
// # The idea
//
// On a local disk with a warm page cache, a block that a filter lets a read
// skip saves a few microseconds. When the table lives on object storage,
// every block read that misses the caches is a ranged GET: a network round
// trip (S3's first-byte latency is typically 10-50 ms) and a per-request
// price. The same skipped block is then a GET saved, which is where range
// filters, filter plans and the query builder pay most. This package
// provides the stores, and a meter that says, per kind of request, how many
// GETs a run made, how many bytes they moved, how long it waited and what it
// would cost.
//
// Configure is the one call that puts a DB's tables on a store, for
// pebble.Open (upstream's or pebblerf's) and pebblerf's OpenWithPlugins
// alike:
//
//	store, err := objstore.Open("s3://bucket/db1?region=eu-west-1")
//	...
//	err = objstore.Configure(dir, opts, objstore.Config{Store: store, Levels: objstore.LowerLevels})
//	...
//	db, err := pebble.Open(dir, opts)
//
// It fills the options Pebble (v2) already has for tables on shared
// storage: Options.Experimental.RemoteStorage (a factory that resolves the
// locator "pebblerf" to the store), CreateOnShared (remote.CreateOnSharedAll
// for every table, or remote.CreateOnSharedLower for L5 and L6 only, as
// CockroachDB does), CreateOnSharedLocator and SecondaryCacheSizeBytes (a
// local on-disk cache of remote blocks, in 32 KiB blocks). What stays
// local: the WAL, the manifest, the remote-object catalog, the secondary
// cache, and with CreateOnSharedLower the tables of L0-L4 (a table that a
// move compaction takes down to L5 stays where it was written). A DB
// creates tables on the store only once it has a creator ID, which names
// its objects; Configure records it in the directory before Open, so that
// Open's own flushes go to the store too. A reopen needs the same local
// directory (its catalog lists the remote tables), the same store contents
// (Configure again, with a store over them) and the same creator ID
// (persisted in the catalog). DBs that share a store need distinct creator
// IDs.
//
// # Stores
//
// Open takes a URL and returns a Meter around the store it names:
//
//	mem://                   in memory (tests)
//	file:///dir              a directory: objects are files (tests, one host)
//	s3://bucket/prefix?...   S3 or an S3-compatible service (MinIO, Ceph, ...)
//	sim://?...               a simulated object store in memory
//	sim+file:///dir?...      the same, backed by a directory
//
// s3:// speaks to the service through minio-go. Credentials come from the
// standard AWS chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN; then ~/.aws/credentials; then the instance's IAM role),
// never from the URL. Parameters:
//
//	endpoint=host:port  the service (default AWS S3)
//	region=...          the bucket's region
//	secure=false        plain HTTP (default true)
//	lookup=path|dns|auto  bucket addressing (default auto)
//	timeout=30s         bound on each store call, retries included; an HTTP
//	                    attempt that has not answered in a quarter of it is
//	                    abandoned and retried
//	retries=10          attempts per request for 5xx, throttling and network
//	                    errors, with minio-go's exponential backoff
//	part_size=16MiB     multipart part size (at least 5MiB)
//	create_bucket=true  create the bucket if it does not exist (default
//	                    false: a missing bucket is an error, so that a
//	                    mistyped name makes no new, empty bucket)
//
// A ReadObject is one HEAD (for the size); each ReadAt is one ranged GET
// that returns exactly the bytes asked for or an error: a response whose
// Content-Range is not the range asked for, or whose body ends early, is an
// error (a cut body is tried again, up to min(retries, 3) times). An object
// no larger than a part is uploaded with one PUT at Close; a larger one as a
// multipart upload, one part at a time as it is written. Uploads carry
// Content-MD5, which the service checks. A failed upload fails Close (or
// the Write that sent the part) and is aborted: no partial object appears.
// S3's NoSuchKey is what IsNotExistError recognises.
//
// Open checks that the bucket exists (create_bucket=true creates it).
// Configure, unless the DB is opened read-only, also checks that it takes
// writes: it writes and deletes one small object,
// pebblerf-write-check-<creator ID>, uncounted. Pebble opens a new DB
// without writing to the store and retries a failed flush without end, so
// a bucket that takes no writes (a full service, read-only credentials)
// would otherwise show as writes that stall and a log of flushes retried,
// rather than as one error.
//
// sim:// is a latency and price model in front of an in-memory store (or a
// directory), with seeded fault injection for tests. Parameters:
//
//	latency=20ms, jitter=5ms  each request takes latency plus a uniform
//	                          draw in [0, jitter)
//	latency_file=path         instead, a draw from a file of latencies, one
//	                          a line (a Go duration or milliseconds)
//	bandwidth=100MiB          bytes per second per request (default: none)
//	seed=1                    seeds latency draws and fault decisions
//	get_error, get_timeout, get_truncate  rates in [0, 1] of reads (GETs and
//	                          HEADs; truncation for GETs) that fail with a
//	                          503-like error, hang then time out, or deliver
//	                          a cut body (an error, as on S3)
//	put_error, put_timeout    the same for uploads (the object is not made)
//	fault_timeout=1s          how long a timed-out request hangs
//
// The latency is real: a request sleeps for it (its context ends the sleep
// early), so whatever waits on the request, a Get or an iterator step,
// measures the simulated latency. Fault decisions depend only on the seed,
// the request and how often that request was made before, so they do not
// change with goroutine scheduling; latency draws follow request order.
// To stop the faults, reopen over a new simulated store on the same
// contents (newSim over the same inner store, or sim+file:// on the same
// directory).
//
// Every URL form also takes the price model: price_get (default USD
// 0.0004 per 1,000; HEADs are priced as GETs), price_put and price_list
// (0.005), price_delete (0): S3 Standard's list prices, as parameters.
//
// # The meter
//
// A Meter counts each request it passes to its store under one kind, with
// the request's wait and bytes, failed requests included (S3 bills them):
// Stat (HEADs: opening an object, Size), Write (an object created, counted
// at Close, with the bytes written), List, Delete, and five kinds of GET:
// Open (footer, metaindex, properties: what Pebble reads to open a table),
// Index, Filter, Data (data blocks and the other blocks that hold keys or
// values) and Other (objects that are not sstables, and tables whose layout
// could not be read): the fields of a Snapshot. Meter.Snapshot copies the
// counts; Snapshot.Sub gives the counts of an interval, Cost its price,
// String a short table.
//
// To tell a table's GETs apart, the meter learns the table's layout (which
// byte ranges are which blocks) once per object, through Pebble's sstable
// reader, from the store itself: those reads are not counted (Snapshot
// counts them as LayoutReads), a simulated store serves them without
// latency or faults, and on S3 they are real requests, usually one GET of
// the table's last 256 KiB. Configure gives the meter the DB's reader
// options, so tables written with another comparer or key schema than
// Pebble's defaults are classified too.
//
// A GET often spans blocks of several kinds, because Pebble reads before
// and ahead of the block it wants. It counts once, under one kind, and its
// bytes are split by the blocks they belong to. The kind follows how Pebble
// reads a remote table: the first GET on a reader that reaches the footer
// opens the table (Open); a GET that ends exactly where an index,
// filter or properties block ends was asked for that block, with
// read-before (that block's kind); any other GET is of the kind of its
// first byte, since read-ahead extends a data read forward (so a
// compaction's whole-table read is Data).
//
// A GET made under a context that carries an internal readctx.Counter is
// also added to that Counter: Pebble hands an iterator's context down to
// its table opens and block reads, so a benchmark can tell the GETs its
// reads made from its flushes' and compactions' (pebblebench's read.gets).
//
// # The write cache
//
// Config.WriteCacheSize keeps the objects the DB wrote last, whole, in
// memory, within that many bytes (oldest out first; none larger than a
// quarter of it), and serves their reads without a request: no HEAD, no
// GET; Snapshot.Cached counts them. Pebble's own caches fill on reads only,
// so without it the first read of every block of a new table (a flush's,
// a compaction's output) is a GET although this process wrote the bytes:
// the GETs that reads still make under writes, and most of what a
// compaction of L0 reads. It writes nothing different to the store, costs
// up to its budget in memory, is empty after a restart, and is turned off
// by leaving the size 0 (writecache.go).
//
// # What is approximate
//
// The classification is exact for Pebble's reads without a secondary
// cache. With one, reads are widened to 32 KiB cache blocks: table opens
// still count as Open, but an index read rarely ends at its block's end
// any more and counts by its first byte. Write counts are objects, not
// PUT-class requests: a multipart upload makes two requests plus one per
// part, and a List one request per 1,000 names, but each counts once. List
// applies its delimiter on the client (Pebble lists without one). The
// latency model has no queueing: concurrent requests do not slow each
// other. Prices are list prices, not a bill.
package objstore
