// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package dbbench maps the vocabulary of RocksDB's db_bench
// (tools/db_bench_tool.cc) onto Pebble's and pebblerf's: the -benchmarks
// list with its bracket arguments, the codecs of -compression_type, the
// styles of -compaction_style, and the filter options -bloom_bits,
// -use_ribbon_filter, -bloom_before_level and -use_l6_filters, read as
// RocksDB reads them. A db_bench command line so means the same to
// pebblebench; where Pebble lacks what a value asks for (a codec, FIFO
// compaction), the value is an error rather than something else quietly.
//
// The errors name no flag: the caller, which knows the flag, says which.
package dbbench

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/errors"
)

// Spec is one entry of -benchmarks: a benchmark name with db_bench's
// optional bracket arguments, `X<n>` (run n times and print AVG and MEDIAN
// lines) and `W<n>` (n warm-up runs first), separated by '-' as in
// `seekrandom[X5-W1]`. Empty arguments are ignored as db_bench does; unlike
// db_bench, an unknown letter is an error rather than silently ignored.
type Spec struct {
	Name    string
	Repeats int
	Warmups int
}

// ParseBenchmarks parses a -benchmarks value. Commas inside brackets are
// not allowed, so splitting on commas first is safe. It does not check the
// names.
func ParseBenchmarks(s string) ([]Spec, error) {
	var specs []Spec
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		spec, err := parseSpec(item)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	if len(specs) == 0 {
		return nil, errors.New("no benchmark named")
	}
	return specs, nil
}

func parseSpec(item string) (Spec, error) {
	spec := Spec{Name: item, Repeats: 1}
	open := strings.IndexByte(item, '[')
	if open < 0 {
		if strings.IndexByte(item, ']') >= 0 {
			return spec, errors.Newf("%q has ']' without '['", item)
		}
		return spec, nil
	}
	if !strings.HasSuffix(item, "]") || strings.Count(item, "[") != 1 || strings.Count(item, "]") != 1 {
		return spec, errors.Newf("%q: arguments must be one trailing [...]", item)
	}
	spec.Name = item[:open]
	for _, arg := range strings.Split(item[open+1:len(item)-1], "-") {
		if arg == "" {
			continue
		}
		n, err := strconv.Atoi(arg[1:])
		if err != nil || n < 0 {
			return spec, errors.Newf("%q: bad count in argument %q", item, arg)
		}
		switch arg[0] {
		case 'X':
			if n < 1 {
				return spec, errors.Newf("%q: X needs a count of at least 1", item)
			}
			spec.Repeats = n
		case 'W':
			spec.Warmups = n
		default:
			return spec, errors.Newf("%q: unknown argument %q (X<n> repeats, W<n> warm-ups)", item, arg)
		}
	}
	return spec, nil
}
