// Copyright 2026 The pebblerf Authors. All rights reserved.

package result

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/pebblerf/pebble/internal/bench/hist"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/readctx"
	"github.com/pebblerf/pebble/objstore"
)

// remoteRun is what one run's requests to its engine's store were.
type Remote struct {
	objstore.Snapshot
	// Reads are the GETs the run's iterators made themselves (table opens
	// and block reads), told apart from the flushes' and compactions' by
	// the iterators' context (internal/readctx). Gets are not in it.
	Reads readctx.Counts
}

// The names of the remote figures, as the per-run lines, the ratio lines,
// -json and -report_html give them.
const (
	FigRemoteGets  = "remote.gets"
	FigReadGets    = "read.gets"
	FigRemoteBytes = "remote.bytes"
	FigRemoteWait  = "remote.wait"
	FigCostPerMOp  = "usd_per_mop"
	FigP50         = "p50"
	FigP99         = "p99"
)

// RemoteLegend explains every figure of a remote line, for the header.
const RemoteLegend = FigRemoteGets + " = ranged GETs to the store, by kind (open: a table's footer, metaindex and properties; " +
	"index, filter, data: blocks; other: not a table); stat = HEADs (an object opened for reading), write = objects created, " +
	"list and delete = calls; " + FigReadGets + " = the GETs the benchmark's iterators made themselves (table opens, blocks), " +
	"the rest being flushes', compactions' and DB.Get's; cached = reads the write cache served, no request made; " + FigRemoteBytes + " = bytes the GETs moved; " + FigRemoteWait + " = time spent in requests, summed over threads; " +
	FigCostPerMOp + " = USD per million operations, every request of the run priced by the URL's model; " +
	FigP50 + ", " + FigP99 + " = operation latency percentiles. Counted from the run's start to its end, flushes and compactions included"

// namedCounts is one kind of request, by the name the figures give it.
type namedCounts struct {
	name   string
	counts objstore.Counts
}

// getKinds are the run's GETs by kind, in the order of a table's life.
func (r *Remote) getKinds() []namedCounts {
	return []namedCounts{{"open", r.Open}, {"index", r.Index}, {"filter", r.Filter}, {"data", r.Data}, {"other", r.Other}}
}

// otherKinds are the run's requests that are not GETs.
func (r *Remote) otherKinds() []namedCounts {
	return []namedCounts{{"stat", r.Stat}, {"write", r.Write}, {"list", r.List}, {"delete", r.Delete}}
}

// gets is the run's GET count.
func (r *Remote) GETs() int64 { return r.Gets().Requests }

// costPerMOp is the run's cost per million operations, NaN without
// operations.
func (r *Remote) CostPerMOp(ops int64) float64 {
	if ops == 0 {
		return math.NaN()
	}
	return r.Cost() / float64(ops) * 1e6
}

// wait is the time the run's requests took, summed.
func (r *Remote) WaitTime() time.Duration { return r.Total().Wait }

// remoteLine is the line after a run's result line under -remote:
//
//	label : remote.gets N (open .. index .. filter .. data .. other ..) stat .. write .. list .. delete .. read.gets .. remote.bytes ..MB remote.wait ..s usd_per_mop .. p50 .. p99 ..
func RemoteLine(label string, res *Result) string {
	r := res.Remote
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s : %s %d (", label, FigRemoteGets, r.GETs())
	for i, k := range r.getKinds() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s %d", k.name, k.counts.Requests)
	}
	b.WriteByte(')')
	for _, k := range r.otherKinds() {
		fmt.Fprintf(&b, " %s %d", k.name, k.counts.Requests)
	}
	if e := r.Total().Errors; e > 0 {
		fmt.Fprintf(&b, " errors %d", e)
	}
	fmt.Fprintf(&b, " %s %d", FigReadGets, r.Reads.Requests)
	if n := r.Cached.Requests; n > 0 {
		fmt.Fprintf(&b, " cached %d", n)
	}
	fmt.Fprintf(&b, " %s %.1fMB %s %.1fs %s %.4f %s %s %s %s", FigRemoteBytes, float64(r.Gets().Bytes)/(1<<20),
		FigRemoteWait, r.WaitTime().Seconds(), FigCostPerMOp, r.CostPerMOp(res.Ops),
		FigP50, FormatMicros(res.Percentile(50)), FigP99, FormatMicros(res.Percentile(99)))
	return b.String()
}

// remoteFigures are the remote figures of a ratio line, other over base.
func remoteFigures(base, other *Result) []Figure {
	if base.Remote == nil || other.Remote == nil {
		return nil
	}
	b, o := base.Remote, other.Remote
	return []Figure{
		{FigRemoteGets, Ratio(float64(b.GETs()), float64(o.GETs())), "lower"},
		{FigReadGets, Ratio(float64(b.Reads.Requests), float64(o.Reads.Requests)), "lower"},
		{FigRemoteBytes, Ratio(float64(b.Gets().Bytes), float64(o.Gets().Bytes)), "lower"},
		{FigRemoteWait, Ratio(b.WaitTime().Seconds(), o.WaitTime().Seconds()), "lower"},
		{FigCostPerMOp, Ratio(b.CostPerMOp(base.Ops), o.CostPerMOp(other.Ops)), "lower"},
		{FigP50, Ratio(base.Percentile(50), other.Percentile(50)), "lower"},
		{FigP99, Ratio(base.Percentile(99), other.Percentile(99)), "lower"},
	}
}

// remoteJSON is a run's "remote" object under -json (its p50 and p99 are
// the result's histogram_micros).
type remoteJSON struct {
	Gets       int64            `json:"gets"`
	GetsByKind map[string]int64 `json:"gets_by_kind"`
	// BytesByKind are the bytes the GETs of each kind moved, beside them.
	BytesByKind map[string]int64 `json:"bytes_by_kind"`
	ReadGets    int64            `json:"read_gets"`
	// ReadBytes are the bytes the reads' own GETs moved.
	ReadBytes  int64    `json:"read_bytes"`
	Cached     int64    `json:"cached_reads"`
	Stat       int64    `json:"stat"`
	Write      int64    `json:"write"`
	List       int64    `json:"list"`
	Delete     int64    `json:"delete"`
	Errors     int64    `json:"errors"`
	Bytes      int64    `json:"bytes"`
	WaitSecs   float64  `json:"wait_seconds"`
	CostUSD    float64  `json:"usd"`
	CostPerMOp *float64 `json:"usd_per_mop"`
}

func (r *Remote) JSON(ops int64) *remoteJSON {
	if r == nil {
		return nil
	}
	j := &remoteJSON{Gets: r.GETs(), GetsByKind: map[string]int64{}, BytesByKind: map[string]int64{},
		ReadGets: r.Reads.Requests, ReadBytes: r.Reads.Bytes, Cached: r.Cached.Requests,
		Stat: r.Stat.Requests, Write: r.Write.Requests, List: r.List.Requests, Delete: r.Delete.Requests,
		Errors: r.Total().Errors, Bytes: r.Gets().Bytes, WaitSecs: r.WaitTime().Seconds(), CostUSD: r.Cost()}
	for _, k := range r.getKinds() {
		j.GetsByKind[k.name] = k.counts.Requests
		j.BytesByKind[k.name] = k.counts.Bytes
	}
	if x := r.CostPerMOp(ops); x == x {
		j.CostPerMOp = &x
	}
	return j
}

// report is the run's row of -report_html's object-store section.
func (r *Remote) Report(res *Result) report.RemoteRun {
	var kinds []string
	for _, k := range r.getKinds() {
		kinds = append(kinds, fmt.Sprintf("%s %d", k.name, k.counts.Requests))
	}
	kinds = append(kinds, fmt.Sprintf("%s %d", FigReadGets, r.Reads.Requests))
	if n := r.Cached.Requests; n > 0 {
		kinds = append(kinds, fmt.Sprintf("cached %d", n))
	}
	return report.RemoteRun{Benchmark: res.Benchmark, Engine: res.Engine, Gets: r.GETs(), ByKind: strings.Join(kinds, " "),
		Bytes: r.Gets().Bytes, WaitSecs: r.WaitTime().Seconds(), CostPerMOp: r.CostPerMOp(res.Ops),
		P50: FormatMicros(res.Percentile(50)), P99: FormatMicros(res.Percentile(99))}
}

// mergedHist is the latency histogram of several runs together.
func MergedHist(runs []*Result) *hist.Histogram {
	h := hist.New()
	for _, r := range runs {
		if r.Hist != nil {
			h.Merge(r.Hist)
		}
	}
	return h
}

// fmtBytes prints a byte count in MB (KB below 1 MB).
func FormatBytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1fKB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
}
