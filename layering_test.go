// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLayering holds the dependency rules DESIGN.md states, read from the
// go tool's own view of the module:
//
//   - the internal packages the root package and the public packages are
//     built on import no public package and not the root: where both need
//     a type, it lives below both;
//   - no public package imports the root, but for promstats, which exports
//     a root DB's statistics and so sits above it;
//   - the filter packages know nothing of the statistics.
//
// The internal packages of the tools (pebblebench's internal/bench/...,
// cmd/filterreport's internal/filterbench, the metamorphic harness, the
// generators) sit above the public packages and may use them.
func TestLayering(t *testing.T) {
	const module = "github.com/pebblerf/pebble"
	public := []string{"compactionext", "objstore", "pointfilter", "promstats", "querybuilder", "rangefilter", "seekstats", "whatif"}
	isPublic := func(p string) bool {
		return p == module || slices.Contains(public, strings.TrimPrefix(p, module+"/"))
	}
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	require.NoError(t, err)
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if strings.HasPrefix(fields[0], module) {
			imports[fields[0]] = fields[1:]
		}
	}
	// The library's internal packages: those the root and the public
	// packages reach.
	library := map[string]bool{}
	var visit func(p string)
	visit = func(p string) {
		for _, d := range imports[p] {
			if strings.HasPrefix(d, module+"/internal/") && !library[d] {
				library[d] = true
				visit(d)
			}
		}
	}
	for p := range imports {
		if isPublic(p) {
			visit(p)
		}
	}
	require.NotEmpty(t, library)
	for p := range library {
		for _, d := range imports[p] {
			require.False(t, isPublic(d), "internal package %s, which the library is built on, imports %s", p, d)
		}
	}
	for p, ds := range imports {
		if !isPublic(p) || p == module {
			continue
		}
		for _, d := range ds {
			if d == module {
				require.Equal(t, module+"/promstats", p, "public package %s imports the root package", p)
			}
		}
	}
	for _, f := range []string{"pointfilter", "rangefilter"} {
		require.NotContains(t, imports[module+"/"+f], module+"/seekstats", "filter package %s imports the statistics", f)
		require.NotContains(t, imports[module+"/"+f], module+"/internal/attribution", "filter package %s imports the statistics", f)
	}
}
