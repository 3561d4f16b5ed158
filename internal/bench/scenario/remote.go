// Copyright 2026 The pebblerf Authors. All rights reserved.

package scenario

import (
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/result"
)

// remoteTotals are one engine's remote figures over the runs of a
// benchmark in a phase.
type remoteTotals struct {
	gets, requests, bytes, ops int64
	// readGets and readBytes are the iterators' own GETs and the bytes
	// they moved (result.Remote.Reads).
	readGets, readBytes int64
	// writes are the objects the run created (flushes' and compactions'
	// uploads).
	writes int64
	cost   float64
	p50    float64
}

// remoteTotals sums engine's runs of bench; ok is false when none ran
// with -remote.
func (p *PhaseResult) remoteTotals(bench, engine string) (t remoteTotals, ok bool) {
	runs := p.byEngine(bench, engine)
	for _, r := range runs {
		if r.Remote == nil {
			continue
		}
		ok = true
		t.gets += r.Remote.GETs()
		t.readGets += r.Remote.Reads.Requests
		t.readBytes += r.Remote.Reads.Bytes
		t.requests += r.Remote.Total().Requests
		t.bytes += r.Remote.Gets().Bytes
		t.writes += r.Remote.Write.Requests
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
type RemoteRead struct {
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
// bytes they moved, the p50 operation latency and the cost per million
// operations of pebblerf over upstream, on the first of reads (the
// headline) and, stated beside it, on the others. A scenario where pebblerf
// makes more remote requests of any kind than upstream (what its plug-ins
// read included), or moves more bytes, on any of the reads, is a loss.
func remoteVerdict(name, what string, reads []RemoteRead, rs []*PhaseResult) Verdict {
	type figs struct {
		label                        string
		up, rf                       remoteTotals
		own                          bool
		gets, bytes, p50, cost, reqs float64
		// allGets and allBytes are the ratios of every GET of the runs and
		// the bytes they moved; gets and bytes are the judged ones (the
		// reads' own, with own).
		allGets, allBytes float64
	}
	var all []figs
	ran := false
	store := ""
	for _, r := range reads {
		if r.phase >= len(rs) {
			continue
		}
		p := rs[r.phase]
		if store == "" && p.Config != nil {
			store = describeStore(p.Config.Remote)
		}
		ran = ran || len(p.byEngine(r.bench, config.EnginePebble)) > 0 && len(p.byEngine(r.bench, config.EnginePebbleRF)) > 0
		up, ok1 := p.remoteTotals(r.bench, config.EnginePebble)
		rf, ok2 := p.remoteTotals(r.bench, config.EnginePebbleRF)
		if !ok1 || !ok2 {
			continue
		}
		f := figs{label: r.label, up: up, rf: rf, own: r.own, gets: ratioOf(rf.gets, up.gets), allGets: ratioOf(rf.gets, up.gets),
			bytes: ratioOf(rf.bytes, up.bytes), allBytes: ratioOf(rf.bytes, up.bytes),
			p50: rf.p50 / up.p50, cost: rf.costPerMOp() / up.costPerMOp(), reqs: ratioOf(rf.requests, up.requests)}
		if r.own {
			f.gets, f.bytes = ratioOf(rf.readGets, up.readGets), ratioOf(rf.readBytes, up.readBytes)
		}
		all = append(all, f)
	}
	if len(all) == 0 {
		if !ran {
			return noComparison(name)
		}
		return Verdict{Headline: "n/a", Outcome: "no remote figures (run with -remote)",
			Line: name + ": no remote figures: the scenario's reads ran without -remote"}
	}
	h := all[0]
	gets := "remote GETs"
	if h.own {
		gets = "GETs of the reads themselves"
	}
	v := Verdict{Headline: fmt.Sprintf("%s %s, %s bytes, %s p50, %s cost/Mop (%s)", fmtFineRatio(h.gets), gets, fmtFineRatio(h.bytes),
		fmtFineRatio(h.p50), fmtFineRatio(h.cost), store)}
	// More requests of any kind, or more bytes moved, is a loss on any of
	// the reads: a store bills both, and waits for both.
	var more []string
	for _, f := range all {
		if f.reqs > 1/fewerBelow {
			more = append(more, fmt.Sprintf("%s %s the requests", f.label, fmtRatio(f.reqs)))
		}
		if f.bytes > 1/fewerBelow {
			more = append(more, fmt.Sprintf("%s %s the bytes", f.label, fmtRatio(f.bytes)))
		}
	}
	pct := func(r float64) string { return fmt.Sprintf("%.0f%%", 100*(1-r)) }
	switch {
	case len(more) > 0:
		v.Outcome = "loss: more remote requests or bytes than upstream: " + strings.Join(more, ", ")
	case h.gets < fewerBelow && h.p50 < fewerBelow:
		v.Outcome = fmt.Sprintf("win: %s fewer %s, p50 %s lower, cost %s", pct(h.gets), gets, fmtRatio(1/h.p50), fmtFineRatio(h.cost))
	case h.gets < fewerBelow:
		v.Outcome = fmt.Sprintf("GET win: %s fewer %s, p50 %s", pct(h.gets), gets, fmtFineRatio(h.p50))
	case h.gets > 1/fewerBelow:
		v.Outcome = fmt.Sprintf("loss: %s the %s", fmtRatio(h.gets), gets)
	default:
		v.Outcome = fmt.Sprintf("no win: %s the %s, p50 %s", fmtFineRatio(h.gets), gets, fmtFineRatio(h.p50))
	}
	if h.own && (h.cost > 1/fewerBelow || h.allBytes > 1/fewerBelow) {
		// Judged by the reads' own requests, the verdict says why the
		// run's cost or bytes in all went the other way.
		v.Outcome += fmt.Sprintf(" (the run's requests in all, its flushes' and compactions' included, cost %s and moved %s the bytes: "+
			"the engines' background work differs over a timed run, here %d uploads against %d)",
			fmtFineRatio(h.cost), fmtFineRatio(h.allBytes), h.rf.writes, h.up.writes)
	}
	var parts []string
	for _, f := range all {
		part := fmt.Sprintf("%s: remote GETs %d vs %d (%s), bytes %s vs %s (%s), p50 %s vs %s (%s), USD/Mop %.3f vs %.3f (%s)",
			f.label, f.rf.gets, f.up.gets, fmtFineRatio(f.allGets), result.FormatBytes(f.rf.bytes), result.FormatBytes(f.up.bytes), fmtFineRatio(f.allBytes),
			result.FormatMicros(f.rf.p50), result.FormatMicros(f.up.p50), fmtFineRatio(f.p50), f.rf.costPerMOp(), f.up.costPerMOp(), fmtFineRatio(f.cost))
		if f.own {
			part += fmt.Sprintf(", operations %d vs %d (%s), the reads' own GETs %d vs %d (%s) and bytes %s vs %s (%s)",
				f.rf.ops, f.up.ops, fmtRatio(ratioOf(f.rf.ops, f.up.ops)), f.rf.readGets, f.up.readGets, fmtFineRatio(f.gets),
				result.FormatBytes(f.rf.readBytes), result.FormatBytes(f.up.readBytes), fmtFineRatio(f.bytes))
		}
		parts = append(parts, part)
	}
	v.Line = fmt.Sprintf("%s: pebblerf vs %s (lower is better), %s, each engine on its own %s from the same -remote URL, same data, same run: %s; %s",
		name, upstreamName(), what, store, strings.Join(parts, "; "), v.Outcome)
	return v
}

// fmtFineRatio is fmtRatio with three significant digits below 0.1, where
// remote ratios often are.
func fmtFineRatio(r float64) string {
	if r > 0 && r < 0.1 {
		return fmt.Sprintf("%.3gx", r)
	}
	return fmtRatio(r)
}

// describeStore names the store of a -remote URL as a verdict states it:
// a simulated store by its GETs' latency (the figure that makes the
// p50s), a real one by its scheme and host.
func describeStore(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "store"
	}
	q := u.Query()
	switch u.Scheme {
	case "sim", "sim+file":
		switch {
		case q.Get("latency_file") != "":
			return "simulated store, latencies from " + filepath.Base(q.Get("latency_file"))
		case q.Get("latency") == "":
			return "simulated store, no latency"
		case q.Get("jitter") != "":
			return fmt.Sprintf("simulated store, %s+0-%s per request", q.Get("latency"), q.Get("jitter"))
		default:
			return fmt.Sprintf("simulated store, %s per request", q.Get("latency"))
		}
	case "":
		return "store"
	case "s3":
		if ep := q.Get("endpoint"); ep != "" {
			return "S3 store at " + ep
		}
		return "S3 store"
	default:
		return u.Scheme + " store"
	}
}
