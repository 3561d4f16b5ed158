// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/dbwide"
)

// cockroachCommon is the common flags of the CockroachDB scenarios: MVCC
// keys with CockroachDB's options on both engines, 10 rounds of versions
// with no compactions (so at least 10 L0 sublevels), CockroachDB's Bloom(10)
// on every level, read with L6 filters, and a cache a fraction of the data;
// then the scenario's own plug-in flags.
func cockroachCommon(plugins ...string) []string {
	return append([]string{"-engine=both", "-seed=20", "-key_format=mvcc", "-num=200000", "-versions_per_key=10",
		"-compaction_style=3", "-bloom_bits=10", "-use_l6_filters", "-cache_size=16777216"}, plugins...)
}

// cockroachMVCCVerdict judges the reads of cockroach-mvcc: the point
// filters' bytes against the absent keys they ruled out on mvccget, and the
// speed of each read, where MVCC scans and time-bound scans must not be
// slower than upstream's.
func cockroachMVCCVerdict(rs []*phaseResult) verdict {
	const name = "cockroach-mvcc"
	build, read := rs[0], lastPhase(rs)
	reads := []string{"mvccget", "mvccscan", "mvcctimebound"}
	ops := make(map[string]speed, len(reads))
	for _, b := range reads {
		ops[b] = read.opsRatio(b)
		if math.IsNaN(ops[b].median) {
			return noComparison(name)
		}
	}
	filter := ratioOf(build.filterBytes(config.EnginePebbleRF), build.filterBytes(config.EnginePebble))
	useful := read.tickerRatio("mvccget", dbwide.FilterUseful)
	var speeds, words, slower, faster []string
	for _, b := range reads {
		speeds = append(speeds, fmt.Sprintf("%s %s", b, fmtRatio(ops[b].median)))
		words = append(words, b+" "+ops[b].word())
		switch ops[b].direction() {
		case -1:
			slower = append(slower, b)
		case 1:
			faster = append(faster, b)
		}
	}
	v := verdict{headline: fmt.Sprintf("%s filter bytes, %s filtered; ops/sec %s",
		fmtRatio(filter), fmtRatio(useful), strings.Join(speeds, ", "))}
	each := strings.Join(words, "; ")
	switch {
	case len(slower) > 0:
		v.outcome = fmt.Sprintf("loss: %s slower; %s", strings.Join(slower, ", "), each)
	case filter < fewerBelow && useful >= 0.98:
		v.outcome = fmt.Sprintf("space win: point filters %.0f%% smaller, as many absent keys ruled out; %s",
			100*(1-filter), each)
	case len(faster) > 0:
		v.outcome = fmt.Sprintf("win: %s faster; %s", strings.Join(faster, ", "), each)
	default:
		v.outcome = fmt.Sprintf("no win: filters %s the bytes; %s", fmtRatio(filter), each)
	}
	v.line = fmt.Sprintf("%s: pebblerf %s point-filter bytes (lower is better), %s absent-key gets ruled out by filters, "+
		"ops/sec (higher is better) %s, on CockroachDB-style reads (%s, same options, same data, same process): %s",
		name, fmtRatio(filter), fmtRatio(useful), strings.Join(speeds, ", "), upstreamName(), v.outcome)
	return v
}
