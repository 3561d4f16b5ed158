// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package scenario is pebblebench's scenarios: named workloads that show,
// in one command each, where pebblerf differs from upstream Pebble, and the
// verdicts that judge them.
//
// A scenario is data (table.go): a few phases, each a list of ordinary
// command-line flags, run one after the other on the same DB directory (the
// first builds the LSM shape, the later ones reopen it with
// -use_existing_db and read), and a verdict chosen by name that turns what
// the phases measured into one line. Running the phases is pebblebench's
// (each is a command line), judging them is this package's: the verdict
// is computed from the measured figures, never written in, and a scenario
// that shows no win says so.
package scenario

import (
	"fmt"
	"io"
	"strings"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
)

// Scenario is one named workload.
type Scenario struct {
	Name string
	// Short is the one line -help gives it.
	Short string
	// Models says what workload the scenario stands for; Plugins which of
	// pebblerf's plug-ins it turns on. Both are printed by -scenario=list.
	Models, Plugins string
	// Common flags go to every phase: the data and the LSM shape, which
	// every phase must agree on.
	Common []string
	Phases []Phase
	// Demo flags shrink the scenario to a few seconds for make demo; they
	// go to every phase after the phase's own flags.
	Demo []string
	// Verdict is how the phases' results are judged.
	Verdict Judge
}

// Phase is one pebblebench invocation within a scenario: its flags, after
// the scenario's common ones.
type Phase struct {
	Name string
	Args []string
}

// Judge chooses a scenario's verdict by name, with what that verdict needs
// to know of the scenario.
type Judge struct {
	// By names the verdict: "seek" (ops/sec and block bytes of bounded or
	// plain seeks), "absent-keys" (point filters' bytes and Gets' speed),
	// "rocksdb-seed" (seek speed and the prefix filters' false-positive
	// rate), "cockroach-mvcc" (point filters and CockroachDB-style reads),
	// "remote" (GETs, bytes, p50 and cost on an object store) or "matrix"
	// (the workload matrix's table).
	By string
	// What says what the judged reads were, in the verdict's line (seek,
	// remote).
	What string
	// Benches are the benchmarks a seek verdict may judge, the first that
	// ran; none means seekrandom or seekrandomwhilewriting.
	Benches []string
	// Reads are the reads a remote verdict judges, the first one its
	// headline.
	Reads []RemoteRead
}

// judges are the verdicts by name (Judge.By).
var judges = map[string]func(s *Scenario, rs []*PhaseResult) Verdict{
	"seek": func(s *Scenario, rs []*PhaseResult) Verdict {
		return seekVerdict(s.Name, s.Verdict.What, s.Verdict.Benches, rs)
	},
	"absent-keys":    func(_ *Scenario, rs []*PhaseResult) Verdict { return absentKeysVerdict(rs) },
	"rocksdb-seed":   func(_ *Scenario, rs []*PhaseResult) Verdict { return rocksDBSeedVerdict(rs) },
	"cockroach-mvcc": func(_ *Scenario, rs []*PhaseResult) Verdict { return cockroachMVCCVerdict(rs) },
	"remote": func(s *Scenario, rs []*PhaseResult) Verdict {
		return remoteVerdict(s.Name, s.Verdict.What, s.Verdict.Reads, rs)
	},
	"matrix": func(_ *Scenario, rs []*PhaseResult) Verdict { return matrixVerdict(rs) },
}

// Judge states the scenario's verdict on what its phases measured.
func (s *Scenario) Judge(rs []*PhaseResult) Verdict {
	v := judges[s.Verdict.By](s, rs)
	v.Scenario = s.Name
	return v
}

// PhaseResult is what one phase measured.
type PhaseResult struct {
	// Name is the phase's (Phase.Name).
	Name    string
	Config  *config.Config
	Results []*result.Result
	// Shapes is each engine's LSM at the end of the phase.
	Shapes map[string][]lsm.Level
	// Report is the phase's -report_html, nil without it; the scenario's
	// headline and verdict are added to it once they are known.
	Report *report.Report
}

// Verdict is a scenario's conclusion. Headline is the ratios that carry
// it, Outcome "win", "no win" or "loss" with the reason, and Line the
// sentence printed at the end of the scenario.
type Verdict struct {
	Scenario, Headline, Outcome, Line string
}

// DemoScenarios are the scenarios make demo runs, at their demo scale; the
// last keeps its tables on a simulated object store.
var DemoScenarios = []string{"range-filters", "staggered-runs", "absent-keys", "remote-range-filters"}

// All lists the scenarios in the order -scenario=list prints them.
func All() []*Scenario { return table }

// ByName returns the scenario of that name.
func ByName(name string) (*Scenario, bool) {
	for _, s := range table {
		if s.Name == name {
			return s, true
		}
	}
	return nil, false
}

// Names lists the values -scenario takes: the scenarios' names, demo and
// list.
func Names() []string {
	names := make([]string, 0, len(table)+2)
	for _, s := range table {
		names = append(names, s.Name)
	}
	return append(names, "demo", "list")
}

// HelpLines are -help's lines about the scenarios, one a scenario.
func HelpLines() []string {
	var lines []string
	for _, s := range table {
		lines = append(lines, fmt.Sprintf("%-16s %s", s.Name, s.Short))
	}
	return append(lines,
		fmt.Sprintf("%-16s %s at a small scale, then one table (make demo)", "demo", strings.Join(DemoScenarios, ", ")),
		fmt.Sprintf("%-16s what each models, its plug-ins and its phases' command lines", "list"))
}

// PhaseArgs is the command line of phase i: the scenario's common flags,
// the phase's, the demo's if demo, then the user's, each flag once with
// the last value given (so the line printed is the one that runs, and
// reads as it). The user's flags must be in -name=value form (a bool flag
// may be a bare -name); a flag keeps the place it first had.
func (s *Scenario) PhaseArgs(i int, demo bool, user []string) []string {
	args := append(append([]string(nil), s.Common...), s.Phases[i].Args...)
	if demo {
		args = append(args, s.Demo...)
	}
	return mergeFlags(append(args, user...))
}

// mergeFlags keeps one -name[=value] argument per name, the last one's
// value at the first one's place.
func mergeFlags(args []string) []string {
	at := map[string]int{}
	var merged []string
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if i, ok := at[name]; ok {
			merged[i] = a
			continue
		}
		at[name] = len(merged)
		merged = append(merged, a)
	}
	return merged
}

// PrintList is -scenario=list.
func PrintList(w io.Writer) {
	fmt.Fprintln(w, "Scenarios (pebblebench -scenario=NAME; flags given with it override the scenario's).")
	fmt.Fprintln(w, "Each runs its phases in one directory, -db's or a temporary one; every phase has the first one's -seed.")
	for _, s := range table {
		fmt.Fprintf(w, "\n%s\n  models:   %s\n  plug-ins: %s\n", s.Name, s.Models, s.Plugins)
		for i, p := range s.Phases {
			fmt.Fprintf(w, "  %-8s  pebblebench %s\n", p.Name+":", strings.Join(s.PhaseArgs(i, false, nil), " "))
		}
	}
	fmt.Fprintf(w, "\ndemo\n  models:   %s at a small scale (make demo), then one table of their verdicts\n",
		strings.Join(DemoScenarios, ", "))
}

// PrintVerdictTable prints one row per scenario: its headline ratios and
// its outcome.
func PrintVerdictTable(w io.Writer, vs []Verdict) {
	nameW, headW := len("scenario"), len("headline (pebblerf/upstream)")
	for _, v := range vs {
		nameW, headW = max(nameW, len(v.Scenario)), max(headW, len(v.Headline))
	}
	fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, "scenario", headW, "headline (pebblerf/upstream)", "verdict")
	fmt.Fprintf(w, "%s  %s  %s\n", strings.Repeat("-", nameW), strings.Repeat("-", headW), strings.Repeat("-", 7))
	for _, v := range vs {
		fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, v.Scenario, headW, v.Headline, v.Outcome)
	}
}
