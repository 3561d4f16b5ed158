// Copyright 2026 The pebblerf Authors. All rights reserved.

package promstats

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDocQueries keeps docs/prometheus.md's example queries working: every
// series they name is one testdata/names lists (so a rename that forgets
// the docs fails here), and, where promtool is installed, each parses as
// PromQL (promtool check rules, on a rule file of them).
func TestDocQueries(t *testing.T) {
	doc, err := os.ReadFile("../docs/prometheus.md")
	require.NoError(t, err)
	names, err := os.ReadFile("testdata/names")
	require.NoError(t, err)
	families := map[string]bool{}
	for _, line := range strings.Split(string(names), "\n") {
		if strings.HasPrefix(line, "pebblerf_") {
			families[strings.SplitN(line, "{", 2)[0]] = true
		}
	}

	blocks := regexp.MustCompile("(?s)```promql\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	require.GreaterOrEqual(t, len(blocks), 5, "docs/prometheus.md: too few example queries")
	metric := regexp.MustCompile(`pebblerf_[a-z0-9_]+`)
	var rules strings.Builder
	rules.WriteString("groups:\n- name: docs\n  rules:\n")
	for i, b := range blocks {
		query := strings.TrimSpace(b[1])
		used := metric.FindAllString(query, -1)
		require.NotEmpty(t, used, "query %d names no series: %s", i+1, query)
		for _, name := range used {
			require.True(t, families[name], "query %d names %s, which is not exported: %s", i+1, name, query)
		}
		fmt.Fprintf(&rules, "  - record: docs:example_%d\n    expr: |\n      %s\n", i+1, strings.ReplaceAll(query, "\n", "\n      "))
	}

	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not found (Debian: apt-get install prometheus): the queries' names checked, not their syntax")
	}
	file := filepath.Join(t.TempDir(), "docs.rules.yml")
	require.NoError(t, os.WriteFile(file, []byte(rules.String()), 0o644))
	out, err := exec.Command(promtool, "check", "rules", file).CombinedOutput()
	require.NoError(t, err, "promtool check rules:\n%s\n%s", out, rules.String())
}
