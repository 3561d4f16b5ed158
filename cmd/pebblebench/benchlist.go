// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"strconv"
	"strings"
)

// benchSpec is one entry of -benchmarks: a benchmark name with db_bench's
// optional bracket arguments, `X<n>` (run n times and print AVG and MEDIAN
// lines) and `W<n>` (n warm-up runs first), separated by '-' as in
// `seekrandom[X5-W1]`. Empty arguments are ignored as db_bench does; unlike
// db_bench, an unknown letter is an error rather than silently ignored.
type benchSpec struct {
	name    string
	repeats int
	warmups int
}

// parseBenchmarkList parses the -benchmarks value. Commas inside brackets are
// not allowed, so splitting on commas first is safe.
func parseBenchmarkList(s string) ([]benchSpec, error) {
	var specs []benchSpec
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		spec, err := parseBenchSpec(item)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	if len(specs) == 0 {
		return nil, badFlag("benchmarks", "no benchmark named")
	}
	return specs, nil
}

func parseBenchSpec(item string) (benchSpec, error) {
	spec := benchSpec{name: item, repeats: 1}
	open := strings.IndexByte(item, '[')
	if open < 0 {
		if strings.IndexByte(item, ']') >= 0 {
			return spec, badFlag("benchmarks", "%q has ']' without '['", item)
		}
		return spec, nil
	}
	if !strings.HasSuffix(item, "]") || strings.Count(item, "[") != 1 || strings.Count(item, "]") != 1 {
		return spec, badFlag("benchmarks", "%q: arguments must be one trailing [...]", item)
	}
	spec.name = item[:open]
	for _, arg := range strings.Split(item[open+1:len(item)-1], "-") {
		if arg == "" {
			continue
		}
		n, err := strconv.Atoi(arg[1:])
		if err != nil || n < 0 {
			return spec, badFlag("benchmarks", "%q: bad count in argument %q", item, arg)
		}
		switch arg[0] {
		case 'X':
			if n < 1 {
				return spec, badFlag("benchmarks", "%q: X needs a count of at least 1", item)
			}
			spec.repeats = n
		case 'W':
			spec.warmups = n
		default:
			return spec, badFlag("benchmarks", "%q: unknown argument %q (X<n> repeats, W<n> warm-ups)", item, arg)
		}
	}
	return spec, nil
}
