// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

// Tables on object storage: -remote, -remote_levels and
// -secondary_cache_size, and what each run's requests to the store cost.
//
// With -remote every engine keeps its tables on an object store named by
// URL (objstore.Open's forms), put into its options by objstore.Configure,
// the one call a program makes. Under -engine=both each engine gets its own
// store built from the same URL: a fresh in-memory store each for sim://
// and mem:// (the same latency model and seed, so the same draws in the
// same order of requests), and <location>/<engine> for file://, sim+file://
// and s3://, as the DBs are <db>/<engine>. Both start with cold caches, as
// every DB pebblebench opens does.
//
// A store lives as long as the process, by DB directory: a reopen within a
// run, and a scenario's later phases, find the tables an in-memory store
// holds. A store holding another program's objects is never emptied: a
// fill that replaces a DB deletes the objects of the store's location only
// when every one is a Pebble object (a table or its reference marker).
//
// Every run reports its requests to the engine's store, counted by
// objstore's meter from just before the run starts to its end, whatever
// made them (the benchmark's reads, and the flushes and compactions that
// ran meanwhile): see remoteLegend for the figures.

import (
	"flag"
	"fmt"
	"io"
	"math"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cockroachdb/errors"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/objstore"
)

func registerRemoteFlags(fs *flag.FlagSet, c *config.Config) {
	fs.StringVar(&c.Remote, "remote", "", "both engines' tables on an object store, each its own (cold caches): sim://?latency=20ms&jitter=5ms&seed=1\n"+
		"(simulated; price_get= etc.), mem://, file:///dir, s3://bucket/prefix?endpoint=host:port (AWS_* credentials); runs print a Legend")
	fs.StringVar(&c.RemoteLevels, "remote_levels", "all", "with -remote, the tables created on the store: all, or lower (L5 and L6, as CockroachDB; L0-L4 stay local)")
	fs.Int64Var(&c.SecondaryCacheSize, "secondary_cache_size", 0, "with -remote, bytes of Pebble's secondary cache: a local on-disk cache of remote blocks (32 KiB each),\n"+
		"consulted before a GET (at least 1 MiB per shard, 2 shards per GOMAXPROCS); 0 = off")
	fs.Int64Var(&c.WriteCacheSize, "write_cache_size", 0, "with -remote, bytes of objstore's write cache on pebblerf: the tables it wrote last, kept in memory\n"+
		"and read without a GET (objstore.Config.WriteCacheSize; upstream reads through Pebble's caches alone); 0 = off")
}

// validateRemote checks the flags of object storage, naming the one at
// fault. The URL is parsed, not opened: nothing is created or dialled
// before the run starts.
func validateRemote(c *config.Config) error {
	if c.Remote == "" {
		for _, name := range []string{"remote_levels", "secondary_cache_size", "write_cache_size"} {
			if c.Given[name] {
				return config.BadFlag(name, "has no effect without -remote")
			}
		}
		return nil
	}
	if err := objstore.CheckURL(c.Remote); err != nil {
		return config.BadFlag("remote", "%v", err)
	}
	if _, err := objstore.ParseLevels(c.RemoteLevels); err != nil {
		return config.BadFlag("remote_levels", "%q is not one of all, lower", c.RemoteLevels)
	}
	if c.SecondaryCacheSize < 0 {
		return config.BadFlag("secondary_cache_size", "%d must not be negative", c.SecondaryCacheSize)
	}
	if c.WriteCacheSize < 0 {
		return config.BadFlag("write_cache_size", "%d must not be negative", c.WriteCacheSize)
	}
	return nil
}

// remoteInMemory reports whether the -remote URL names a store that lives
// in this process's memory.
func remoteInMemory(rawURL string) bool {
	return strings.HasPrefix(rawURL, "sim:") || strings.HasPrefix(rawURL, "mem:")
}

// engineRemoteURL is the URL of engine name's store: -remote itself with one
// engine or an in-memory store (each Open is a new store), else -remote
// with the engine's name added to its location.
func engineRemoteURL(c *config.Config, name string) (string, error) {
	if c.Engine != config.EngineBoth || remoteInMemory(c.Remote) {
		return c.Remote, nil
	}
	u, err := url.Parse(c.Remote)
	if err != nil {
		return "", config.BadFlag("remote", "%v", err) // checked by validateRemote
	}
	u.Path = path.Join("/", u.Path, name)
	return u.String(), nil
}

// remoteStore is the store of one DB directory.
type remoteStore struct {
	url   string
	meter *objstore.Meter
}

// remoteStores are the stores of the DBs the process has opened, by
// absolute DB directory.
var remoteStores = struct {
	sync.Mutex
	m map[string]*remoteStore
}{m: map[string]*remoteStore{}}

// configureRemote puts the engine's tables on its store (-remote), through
// objstore.Configure, before opts opens the DB. It refuses a DB whose
// tables live elsewhere than the flags say: without -remote it needs local
// tables, and with it the store the DB was filled with.
func (s *engineState) configureRemote(opts *upstream.Options) error {
	c := s.cfg
	existing := hasDB(s.dir)
	var fill *fillRecord
	if existing {
		var err error
		if fill, err = readFillRecord(s.dir); err != nil {
			return err
		}
	}
	if c.Remote == "" {
		s.store = nil
		if fill != nil && fill.Remote != "" {
			return config.BadFlag("remote", "the DB in %s keeps its tables on -remote=%s: pass it", s.dir, fill.Remote)
		}
		return nil
	}
	if fill != nil && (fill.Remote != c.Remote || fill.RemoteLevels != c.RemoteLevels) {
		was := "local tables"
		if fill.Remote != "" {
			was = fmt.Sprintf("-remote=%s -remote_levels=%s", fill.Remote, fill.RemoteLevels)
		}
		return config.BadFlag("remote", "the DB in %s was filled with %s; pass the same", s.dir, was)
	}
	store, err := openRemoteStore(c, s.name, s.dir, existing)
	if err != nil {
		return err
	}
	s.store = store.meter
	levels, _ := objstore.ParseLevels(c.RemoteLevels) // validated
	// A new DB (a fill replaces the old one) replaces its store's tables too.
	fresh := !existing && !remoteInMemory(store.url)
	var writeCache int64
	if s.name == config.EnginePebbleRF {
		writeCache = c.WriteCacheSize
	}
	return objstore.Configure(s.dir, opts, objstore.Config{
		Store: store.meter, Levels: levels, SecondaryCacheSize: c.SecondaryCacheSize, WriteCacheSize: writeCache,
		CreatorID: 1, Fresh: fresh,
	})
}

// openRemoteStore returns the store of the DB in dir: the one the process
// already has for it, or a new one from the engine's URL. A new DB
// (existing false) gets an empty store.
func openRemoteStore(c *config.Config, name, dir string, existing bool) (*remoteStore, error) {
	u, err := engineRemoteURL(c, name)
	if err != nil {
		return nil, err
	}
	key, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	remoteStores.Lock()
	defer remoteStores.Unlock()
	if st := remoteStores.m[key]; st != nil && st.url == u {
		if existing || !remoteInMemory(u) {
			return st, nil
		}
	}
	if existing && remoteInMemory(u) {
		return nil, config.BadFlag("remote", "%s keeps its tables in this process's memory, and the DB in %s was filled by another one: "+
			"refill it, or fill and read it with a store that outlives the process (file://, sim+file://, s3://)", c.Remote, dir)
	}
	m, err := objstore.Open(u)
	if err != nil {
		return nil, errors.Wrapf(err, "-remote")
	}
	st := &remoteStore{url: u, meter: m}
	remoteStores.m[key] = st
	return st, nil
}

// remoteSnapshot is the engine's store's counts so far, with its
// iterators' GETs in Reads; zero without -remote.
func (s *engineState) remoteSnapshot() result.Remote {
	if s.store == nil {
		return result.Remote{}
	}
	return result.Remote{Snapshot: s.store.Snapshot(), Reads: s.db.ReadGets()}
}

// finishRemote records in res the requests the engine's store saw since
// before, the snapshot taken as the run started.
func (s *engineState) finishRemote(res *result.Result, before result.Remote) {
	if s.store == nil {
		return
	}
	now := s.remoteSnapshot()
	res.Remote = &result.Remote{Snapshot: now.Snapshot.Sub(before.Snapshot), Reads: now.Reads.Sub(before.Reads)}
}

// printRemoteHeader prints the header's line about the store, and the
// legend of the remote lines.
func printRemoteHeader(w io.Writer, c *config.Config) {
	if c.Remote == "" {
		return
	}
	each := ""
	if c.Engine == config.EngineBoth {
		each = "; each engine its own store"
		if !remoteInMemory(c.Remote) {
			each += " at <location>/<engine>"
		}
	}
	sc := "off"
	if c.SecondaryCacheSize > 0 {
		sc = fmt.Sprintf("%d bytes", c.SecondaryCacheSize)
	}
	wc := ""
	if c.WriteCacheSize > 0 {
		wc = fmt.Sprintf("; write cache %d bytes on pebblerf", c.WriteCacheSize)
	}
	fmt.Fprintf(w, "Remote:     %s%s; tables on the store: %s levels; secondary cache %s%s\n", c.Remote, each, c.RemoteLevels, sc, wc)
	fmt.Fprintf(w, "Legend:     %s\n", result.RemoteLegend)
}

// remoteTotals are one engine's remote figures over the runs of a
// benchmark in a phase.
type remoteTotals struct {
	gets, requests, bytes, ops int64
	// readGets are the iterators' own GETs (remoteRun.Reads).
	readGets int64
	cost     float64
	p50      float64
}

// remoteTotals sums engine's runs of bench; ok is false when none ran
// with -remote.
func (p *phaseResult) remoteTotals(bench, engine string) (t remoteTotals, ok bool) {
	runs := p.byEngine(bench, engine)
	for _, r := range runs {
		if r.Remote == nil {
			continue
		}
		ok = true
		t.gets += r.Remote.GETs()
		t.readGets += r.Remote.Reads.Requests
		t.requests += r.Remote.Total().Requests
		t.bytes += r.Remote.Gets().Bytes
		t.cost += r.Remote.Cost()
		t.ops += r.Ops
	}
	if h := result.MergedHist(runs); h.Count() > 0 {
		t.p50 = h.Summary().P50
	}
	return t, ok
}

func (t remoteTotals) costPerMOp() float64 {
	if t.ops == 0 {
		return math.NaN()
	}
	return t.cost / float64(t.ops) * 1e6
}

// remoteRead is one read a remote verdict judges: benchmark bench in
// phase (an index into the scenario's phases), stated as label.
type remoteRead struct {
	phase        int
	bench, label string
	// own judges the read by the GETs its operations made themselves
	// (remoteRun.Reads), not by all of the run's: for timed reads beside a
	// rate-limited writer, where both engines take the same writes in the
	// same time (so the same new tables to read), while the flushes' and
	// compactions' GETs are not the reads' doing. The counts are per run,
	// not per operation: the tables a faster engine's extra operations read
	// are the ones the slower engine read too.
	own bool
}

// remoteVerdict judges an object-storage scenario by the remote GETs, the
// p50 operation latency and the cost per million operations of pebblerf
// over upstream, on the first of reads (the headline) and, stated beside
// it, on the others. A scenario where pebblerf makes more remote requests
// of any kind than upstream (what its plug-ins read included) is a loss.
func remoteVerdict(name, what string, reads ...remoteRead) func([]*phaseResult) verdict {
	return func(rs []*phaseResult) verdict {
		type figs struct {
			label                 string
			up, rf                remoteTotals
			own                   bool
			gets, p50, cost, reqs float64
			// allGets is the ratio of every GET of the runs; gets is the
			// judged one (the reads' own, with own).
			allGets float64
		}
		var all []figs
		ran := false
		for _, r := range reads {
			if r.phase >= len(rs) {
				continue
			}
			p := rs[r.phase]
			ran = ran || len(p.byEngine(r.bench, config.EnginePebble)) > 0 && len(p.byEngine(r.bench, config.EnginePebbleRF)) > 0
			up, ok1 := p.remoteTotals(r.bench, config.EnginePebble)
			rf, ok2 := p.remoteTotals(r.bench, config.EnginePebbleRF)
			if !ok1 || !ok2 {
				continue
			}
			f := figs{label: r.label, up: up, rf: rf, own: r.own, gets: ratioOf(rf.gets, up.gets), allGets: ratioOf(rf.gets, up.gets),
				p50: rf.p50 / up.p50, cost: rf.costPerMOp() / up.costPerMOp(), reqs: ratioOf(rf.requests, up.requests)}
			if r.own {
				f.gets = ratioOf(rf.readGets, up.readGets)
			}
			all = append(all, f)
		}
		if len(all) == 0 {
			if !ran {
				return noComparison(name)
			}
			return verdict{headline: "n/a", outcome: "no remote figures (run with -remote)",
				line: name + ": no remote figures: the scenario's reads ran without -remote"}
		}
		h := all[0]
		gets := "remote GETs"
		if h.own {
			gets = "GETs of the reads themselves"
		}
		v := verdict{headline: fmt.Sprintf("%s %s, %s p50, %s cost/Mop", fmtFineRatio(h.gets), gets, fmtFineRatio(h.p50), fmtFineRatio(h.cost))}
		var more []string
		for _, f := range all {
			if f.reqs > 1/fewerBelow {
				more = append(more, fmt.Sprintf("%s %s the requests", f.label, fmtRatio(f.reqs)))
			}
		}
		pct := func(r float64) string { return fmt.Sprintf("%.0f%%", 100*(1-r)) }
		switch {
		case len(more) > 0:
			v.outcome = "loss: more remote requests than upstream: " + strings.Join(more, ", ")
		case h.gets < fewerBelow && h.p50 < fewerBelow:
			v.outcome = fmt.Sprintf("win: %s fewer %s, p50 %s lower, cost %s", pct(h.gets), gets, fmtRatio(1/h.p50), fmtFineRatio(h.cost))
		case h.gets < fewerBelow:
			v.outcome = fmt.Sprintf("GET win: %s fewer %s, p50 %s", pct(h.gets), gets, fmtFineRatio(h.p50))
		case h.gets > 1/fewerBelow:
			v.outcome = fmt.Sprintf("loss: %s the %s", fmtRatio(h.gets), gets)
		default:
			v.outcome = fmt.Sprintf("no win: %s the %s, p50 %s", fmtFineRatio(h.gets), gets, fmtFineRatio(h.p50))
		}
		var parts []string
		for _, f := range all {
			part := fmt.Sprintf("%s: remote GETs %d vs %d (%s), bytes %s vs %s, p50 %s vs %s (%s), USD/Mop %.3f vs %.3f (%s)",
				f.label, f.rf.gets, f.up.gets, fmtFineRatio(f.allGets), result.FormatBytes(f.rf.bytes), result.FormatBytes(f.up.bytes),
				result.FormatMicros(f.rf.p50), result.FormatMicros(f.up.p50), fmtFineRatio(f.p50), f.rf.costPerMOp(), f.up.costPerMOp(), fmtFineRatio(f.cost))
			if f.own {
				part += fmt.Sprintf(", operations %d vs %d (%s), the reads' own GETs %d vs %d (%s)",
					f.rf.ops, f.up.ops, fmtRatio(ratioOf(f.rf.ops, f.up.ops)), f.rf.readGets, f.up.readGets, fmtFineRatio(f.gets))
			}
			parts = append(parts, part)
		}
		v.line = fmt.Sprintf("%s: pebblerf vs %s (lower is better), %s, each engine on its own store from the same -remote URL, same data, same process: %s; %s",
			name, upstreamName(), what, strings.Join(parts, "; "), v.outcome)
		return v
	}
}

// fmtFineRatio is fmtRatio with three significant digits below 0.1, where
// remote ratios often are.
func fmtFineRatio(r float64) string {
	if r > 0 && r < 0.1 {
		return fmt.Sprintf("%.3gx", r)
	}
	return fmtRatio(r)
}
