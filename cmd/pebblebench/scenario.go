// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

// -scenario: the scenarios are data (internal/bench/scenario); here each
// phase's command line goes through parseFlags and the driver exactly as a
// command line does, so a scenario is never more than a command line a user
// could type, and flags given after -scenario override the scenario's own
// (each phase's command line holds every flag once, with the user's value
// where the user gave one).

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/driver"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/scenario"
)

// scenarioFlagsRefused are flags that would take a scenario apart: its
// phases are defined by their benchmarks and by which DB they start from.
var scenarioFlagsRefused = []string{"benchmarks", "use_existing_db"}

// scenarioArg finds -scenario in args: its value, the other arguments in
// their order, and whether it was there. It scans rather than parses, so
// that the user's other flags are checked later, together with each
// phase's. It stops at "--", as the flag package does; an argument that is
// not a flag is passed on (it may be the value of "-name value"), and
// parseFlags refuses it if it is not.
func scenarioArg(args []string) (value string, rest []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return value, append(rest, args[i:]...), ok
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "scenario" {
			rest = append(rest, a)
			continue
		}
		ok = true
		if hasVal {
			value = val
		} else if i+1 < len(args) {
			i++
			value = args[i]
		}
	}
	return value, rest, ok
}

// runScenarios is -scenario=NAME[,NAME...]: it runs each scenario and
// prints its verdict, and after more than one a table of all of them.
// "demo" stands for make demo's scenarios and puts every scenario named
// with it at its demo scale; "list" prints the scenarios.
func runScenarios(value string, user []string, stdout, stderr io.Writer) int {
	if value == "list" {
		scenario.PrintList(stdout)
		return exitOK
	}
	names, demo, err := parseScenarioNames(value)
	if err == nil {
		err = checkScenarioOverrides(user)
	}
	if err == nil {
		user, err = scenarioOverrides(user)
	}
	if err != nil {
		return reportError(stderr, err)
	}
	// Every phase's flags are checked before anything runs, so a bad
	// override fails at once, not after minutes of building.
	out := stdout // human-readable output; stderr under -json
	for _, name := range names {
		s, _ := scenario.ByName(name)
		for i := range s.Phases {
			c, err := parseFlags(s.PhaseArgs(i, demo, user), stdout)
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			if err == nil && i == 0 {
				err = checkDBLayout(c)
			}
			if err != nil {
				return reportError(stderr, errors.Wrapf(err, "-scenario=%s", name))
			}
			if c.JSON {
				out = stderr
			}
		}
	}

	stop, release := catchInterrupts(stderr)
	defer release()
	var verdicts []scenario.Verdict
	for _, name := range names {
		if stop.Load() {
			break
		}
		s, _ := scenario.ByName(name)
		v, err := runScenario(s, demo, user, stdout, stderr, stop)
		if err != nil {
			return reportError(stderr, errors.Wrapf(err, "-scenario=%s", name))
		}
		if stop.Load() {
			fmt.Fprintf(out, "%s: interrupted, no verdict\n", name)
			break
		}
		fmt.Fprintln(out, v.Line)
		verdicts = append(verdicts, v)
	}
	if len(verdicts) > 1 {
		fmt.Fprintln(out)
		scenario.PrintVerdictTable(out, verdicts)
	}
	if stop.Load() {
		return exitInterrupted
	}
	return exitOK
}

// parseScenarioNames splits -scenario's value into known scenario names.
func parseScenarioNames(value string) (names []string, demo bool, err error) {
	for _, n := range strings.Split(value, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
		case n == "demo":
			demo = true
			names = append(names, scenario.DemoScenarios...)
		case n == "list":
			return nil, false, config.BadFlag("scenario", "list cannot be combined with scenarios")
		default:
			if _, ok := scenario.ByName(n); !ok {
				return nil, false, config.BadFlag("scenario", "unknown scenario %q (known: %s)", n, strings.Join(scenario.Names(), ", "))
			}
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, false, config.BadFlag("scenario", "no scenario named (known: %s)", strings.Join(scenario.Names(), ", "))
	}
	return names, demo, nil
}

// checkScenarioOverrides refuses the flags a scenario defines itself.
func checkScenarioOverrides(user []string) error {
	for _, a := range user {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		for _, refused := range scenarioFlagsRefused {
			if strings.HasPrefix(a, "-") && name == refused {
				return config.BadFlag(refused, "a scenario sets it per phase; run the phases' command lines (-scenario=list) to change it")
			}
		}
	}
	return nil
}

// scenarioOverrides returns the flags given with -scenario in -name=value
// form, each once with its last value, so that a scenario's phases can
// merge them into their own (scenario.Scenario.PhaseArgs). A flag that
// does not parse is a usage error here, as it would be in a command line.
func scenarioOverrides(user []string) ([]string, error) {
	fs := newFlagSet(&config.Config{})
	if err := fs.Parse(user); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return []string{"-help"}, nil // parseFlags prints the help
		}
		return nil, &config.UsageError{Msg: err.Error(), PointToHelp: true}
	}
	if fs.NArg() > 0 {
		return nil, &config.UsageError{Msg: fmt.Sprintf("unexpected argument %q (flags are -name=value)", fs.Arg(0)), PointToHelp: true}
	}
	var flags []string
	fs.Visit(func(f *flag.Flag) { flags = append(flags, "-"+f.Name+"="+f.Value.String()) })
	return flags, nil
}

// runScenario runs s's phases in one directory, -db's if given, else a
// temporary one removed afterwards.
func runScenario(s *scenario.Scenario, demo bool, user []string, stdout, stderr io.Writer, stop *atomic.Bool) (scenario.Verdict, error) {
	var results []*scenario.PhaseResult
	var root string
	var seed int64
	// The engines live across the phases: a store in memory holds what
	// the first phase wrote for the next to read.
	var engines []driver.Engine
	for i, p := range s.Phases {
		args := s.PhaseArgs(i, demo, user)
		if i == 0 {
			first, err := parseFlags(args, io.Discard)
			if err != nil {
				return scenario.Verdict{}, err // checked by runScenarios
			}
			root = first.DB
			if !first.DBGiven {
				if root, err = os.MkdirTemp("", "pebblebench-"+s.Name+"-"); err != nil {
					return scenario.Verdict{}, errors.Wrap(err, "making the scenario's directory")
				}
				defer os.RemoveAll(root)
			}
			seed = first.Seed // drawn by parseFlags for -seed=0
			var closeEngines func() error
			if engines, closeEngines, err = startEngines(first, stderr, stop, ""); err != nil {
				return scenario.Verdict{}, err
			}
			defer func() { _ = closeEngines() }()
		}
		// Every phase works in the first one's directory, with its seed
		// (reads draw from other streams than writes, so they do not
		// replay the fill's keys), as if both flags ended its command
		// line; each phase of each scenario writes its own report files.
		c, err := parseFlags(args, io.Discard)
		if err != nil {
			return scenario.Verdict{}, err // checked by runScenarios
		}
		own := append(append([]string(nil), user...), "-db="+root, fmt.Sprintf("-seed=%d", seed))
		if c.ReportHTML != "" {
			own = append(own, "-report_html="+phaseReportPath(c.ReportHTML, s.Name, p.Name))
		}
		if c.ReportIntervalSeconds > 0 {
			own = append(own, "-report_file="+phaseReportPath(c.ReportFile, s.Name, p.Name))
		}
		args = s.PhaseArgs(i, demo, own)
		if c, err = parseFlags(args, io.Discard); err != nil {
			return scenario.Verdict{}, err
		}

		out, jsonOut := stdout, io.Writer(nil)
		if c.JSON {
			out, jsonOut = stderr, stdout
		}
		fmt.Fprintf(out, "=== scenario %s, phase %d/%d (%s): pebblebench %s\n",
			s.Name, i+1, len(s.Phases), p.Name, strings.Join(args, " "))
		r, err := runPhase(c, root, engines, out, jsonOut, stderr, stop, i == 0)
		if err != nil {
			return scenario.Verdict{}, errors.Wrapf(err, "phase %s", p.Name)
		}
		r.Name = p.Name
		results = append(results, r)
		if stop.Load() {
			return scenario.Verdict{}, nil
		}
	}
	v := s.Judge(results)
	for _, r := range results {
		// Each phase's report heads with the scenario's result.
		if r.Report != nil {
			r.Report.Headline, r.Report.Verdict = v.Headline, v.Line
			if err := driver.WriteHTMLReport(r.Config.ReportHTML, r.Report); err != nil {
				return v, err
			}
		}
	}
	if len(results) > 0 && results[0].Config.JSON {
		if err := result.WriteJSONLine(stdout, map[string]string{
			"record": "verdict", "scenario": v.Scenario, "headline": v.Headline, "outcome": v.Outcome, "verdict": v.Line,
		}); err != nil {
			return v, err
		}
	}
	return v, nil
}

// phaseReportPath is where one phase of a scenario writes -report_html
// path: the scenario's and the phase's names before its extension, so that
// no phase overwrites another's report (report.html becomes
// report-range-filters-read.html).
func phaseReportPath(path, scenario, phase string) string {
	ext := filepath.Ext(path)
	// The matrix's phase names hold a slash ("leveled/read").
	return strings.TrimSuffix(path, ext) + "-" + scenario + "-" + strings.ReplaceAll(phase, "/", "-") + ext
}

// runPhase runs one phase's benchmarks on engines as realMain runs a
// command line's (the header only for the first phase), and keeps what
// they measured and the LSM they left.
func runPhase(c *config.Config, root string, engines []driver.Engine, out, jsonOut, stderr io.Writer, stop *atomic.Bool, header bool) (*scenario.PhaseResult, error) {
	d := driver.New(c, root, engines, out, jsonOut, stderr, stop)
	if err := d.Begin(); err != nil {
		return nil, errors.CombineErrors(err, d.Finish())
	}
	if header {
		d.PrintHeader(out)
	}
	err := d.Run()
	r := &scenario.PhaseResult{Config: c, Results: d.Results(), Report: d.HTMLReport()}
	if err == nil {
		r.Shapes, err = d.Shapes()
	}
	return r, errors.CombineErrors(err, d.Finish())
}

// catchInterrupts makes the first SIGINT set the returned flag (benchmarks
// then finish early and report what they measured) and a second one exit
// at once; release stops catching. realMain and runScenarios both use it.
func catchInterrupts(stderr io.Writer) (stop *atomic.Bool, release func()) {
	stop = new(atomic.Bool)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	go func() {
		for range sigs {
			if stop.Swap(true) {
				fmt.Fprintln(stderr, "pebblebench: interrupted twice, exiting now")
				os.Exit(exitInterrupted)
			}
			fmt.Fprintln(stderr, "pebblebench: interrupted; finishing the current benchmark (interrupt again to exit now)")
		}
	}()
	return stop, func() { signal.Stop(sigs) }
}
