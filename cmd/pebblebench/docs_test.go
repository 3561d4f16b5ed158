// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

// TestDocs keeps what the README and docs/ show true, as TestReadmeCode does
// for the README's code: every pebblebench flag they name exists, every
// pebblebench command line they give parses, every Go name they cite (a
// package's function, type, field or method, or a chain of calls on a DB)
// resolves, every ticker they name is one a DB counts, every Go benchmark
// they run exists, and every sample output marked as generated is what the
// command prints now. `make docs` (go test -run '^TestDocs$' -docs.rewrite)
// regenerates the samples.
//
// A sample is a fenced block after a marker line:
//
//	<!-- make docs: pebblebench FLAGS ; from "FIRST LINE PREFIX" to "LAST LINE PREFIX" -->
//
// The command runs in-process at the scale its flags give (seconds), and
// the lines from the first that starts with FIRST to the next that starts
// with LAST replace the block. Its deterministic figures (a fixed seed,
// one thread, no timing) are compared as they are, an explain's block
// bytes apart (maskVolatile); lines of timings are not sampled. A marker
// that ends in "; shape" compares only the sample's kinds of line
// (shapeOf), for an LSM whose counts move from run to run. The README's demo table is marked "demo table": make docs
// reruns the demo for it, and the test checks its scenarios and header
// against the code without running it.

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/vfs"
	pebblerf "github.com/pebblerf/pebble"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/scenario"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

var docsRewrite = flag.Bool("docs.rewrite", false, "regenerate the docs' samples (make docs)")

// docFiles are the documents TestDocs reads, from the repository's root.
// CHANGELOG.md is history: it names what was removed.
var docFiles = []string{"README.md", "DESIGN.md", "docs/guide.md", "docs/benchmarks.md", "docs/prometheus.md"}

// goToolFlags are flags of go test and the Go tool that the docs give in
// commands beside pebblebench's.
var goToolFlags = map[string]bool{
	"run": true, "bench": true, "benchmem": true, "benchtime": true, "count": true, "cpu": true,
	"short": true, "race": true, "fuzz": true, "fuzztime": true, "timeout": true, "v": true,
	"rewrite": true, "tags": true, "o": true, "list": true, "docs.rewrite": true,
	"metamorphic.duration": true,
}

type docSpan struct {
	file string
	line int
	text string
	// block is true for a fenced block's whole text, false for an inline
	// code span.
	block bool
}

// readDocs returns every code span and fenced block of the documents.
func readDocs(t *testing.T) []docSpan {
	var spans []docSpan
	inline := regexp.MustCompile("`([^`\n]+)`")
	for _, f := range docFiles {
		raw, err := os.ReadFile(filepath.Join("..", "..", f))
		require.NoError(t, err)
		lines := strings.Split(string(raw), "\n")
		for i := 0; i < len(lines); i++ {
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
				start := i
				var body []string
				for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
					body = append(body, lines[i])
				}
				spans = append(spans, docSpan{f, start + 1, strings.Join(body, "\n"), true})
				continue
			}
			for _, m := range inline.FindAllStringSubmatch(lines[i], -1) {
				spans = append(spans, docSpan{f, i + 1, m[1], false})
			}
		}
	}
	return spans
}

func (s docSpan) String() string { return fmt.Sprintf("%s:%d", s.file, s.line) }

// pebblebenchCommands returns the argument lists of the pebblebench
// command lines in a block: what follows "pebblebench" on a line (lines
// continued with a backslash joined), up to a comment or a shell operator.
func pebblebenchCommands(text string) [][]string {
	text = strings.ReplaceAll(text, "\\\n", " ")
	var cmds [][]string
	for _, line := range strings.Split(text, "\n") {
		i := strings.Index(line, "pebblebench ")
		if i < 0 || strings.HasPrefix(strings.TrimSpace(line[i+len("pebblebench"):]), ":") {
			continue
		}
		rest := line[i+len("pebblebench "):]
		for _, stop := range []string{" #", " |", " >", " &&", ";", " 2>"} {
			if j := strings.Index(rest, stop); j >= 0 {
				rest = rest[:j]
			}
		}
		var args []string
		unquote := strings.NewReplacer(`'`, "", `"`, "")
		for _, f := range strings.Fields(rest) {
			args = append(args, unquote.Replace(f))
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// placeholder reports whether a flag's value stands for one (NAME, N, ...).
func placeholder(arg string) bool {
	_, v, _ := strings.Cut(arg, "=")
	return strings.Contains(arg, "...") || strings.Contains(v, "|") || strings.Contains(v, "$") || strings.Contains(v, "<") ||
		regexp.MustCompile(`^[A-Z][A-Z_]*$`).MatchString(v)
}

func TestDocs(t *testing.T) {
	spans := readDocs(t)
	fs := newFlagSet(&config.Config{})
	known := func(arg string) bool {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		return fs.Lookup(name) != nil || name == "help" || name == "h" // the flag package's own
	}

	t.Run("flags", func(t *testing.T) {
		for _, s := range spans {
			if s.block {
				for _, args := range pebblebenchCommands(s.text) {
					full := true
					for _, a := range args {
						if !strings.HasPrefix(a, "-") {
							full = false // a placeholder word, or not a command
							continue
						}
						if !known(a) {
							t.Errorf("%s: pebblebench has no flag %s", s, a)
						}
						full = full && !placeholder(a)
					}
					if full && len(args) > 0 {
						if err := parseCommand(args); err != nil {
							t.Errorf("%s: pebblebench %s: %v", s, strings.Join(args, " "), err)
						}
					}
				}
				continue
			}
			// An inline span of flags: each must be pebblebench's, or the Go
			// tool's in a go command.
			if !strings.HasPrefix(s.text, "-") || strings.HasPrefix(s.text, "--") {
				continue
			}
			for _, a := range strings.Fields(s.text) {
				name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
				if strings.HasPrefix(a, "-") && name != "" && !goToolFlags[name] && !known(a) {
					t.Errorf("%s: pebblebench has no flag %s", s, a)
				}
			}
		}
	})

	t.Run("names", func(t *testing.T) {
		names := exportedNames(t)
		chain := regexp.MustCompile(`^([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*(?:\([^()]*\))?)+)`)
		seg := regexp.MustCompile(`\.([A-Za-z_]\w*)(?:\([^()]*\))?`)
		file := regexp.MustCompile(`^[\w-]+\.(go|md|mod|sum|pprof|csv|html|txt|sh|json)$`)
		for _, s := range spans {
			if s.block || file.MatchString(s.text) {
				continue
			}
			m := chain.FindStringSubmatch(s.text)
			if m == nil {
				continue
			}
			var segs []string
			for _, sm := range seg.FindAllStringSubmatch(m[2], -1) {
				segs = append(segs, sm[1])
			}
			if err := resolveName(names, m[1], segs); err != nil {
				t.Errorf("%s: `%s`: %v", s, s.text, err)
			}
		}
	})

	t.Run("tickers", func(t *testing.T) {
		tickers := tickerNames(t)
		ticker := regexp.MustCompile(`^(pebblerf|rocksdb)\.[a-z0-9.]+\*?$`)
		for _, s := range spans {
			if s.block || !ticker.MatchString(s.text) {
				continue
			}
			name := strings.TrimSuffix(s.text, "*")
			found := tickers[name]
			if strings.HasSuffix(s.text, "*") {
				for n := range tickers {
					found = found || strings.HasPrefix(n, name)
				}
			}
			if !found {
				t.Errorf("%s: no ticker or property named %s", s, s.text)
			}
		}
	})

	t.Run("benchmarks", func(t *testing.T) {
		bench := regexp.MustCompile(`-bench='?\^?(Benchmark\w+)`)
		for _, s := range spans {
			for _, line := range strings.Split(s.text, "\n") {
				m := bench.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				pkg := "."
				if f := strings.Fields(line); strings.HasPrefix(f[len(f)-1], "./") {
					pkg = f[len(f)-1]
				}
				if !declares(t, pkg, "func "+m[1]+"(") {
					t.Errorf("%s: %s has no %s", s, pkg, m[1])
				}
			}
		}
	})

	t.Run("sections", func(t *testing.T) { checkSectionRefs(t) })

	t.Run("samples", func(t *testing.T) { checkSamples(t) })
}

// checkSectionRefs checks that every section the docs and the code's
// comments cite by title (the document's name, a comma and the title in
// double quotes) is a heading of that document.
func checkSectionRefs(t *testing.T) {
	headings := map[string]map[string]bool{}
	for _, doc := range []string{"benchmarks.md", "guide.md"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
		require.NoError(t, err)
		headings[doc] = map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^#+ (.+)$`).FindAllStringSubmatch(string(raw), -1) {
			headings[doc][strings.Trim(m[1], "`")] = true
		}
	}
	ref := regexp.MustCompile(`(benchmarks|guide)\.md\)?[,:]? \(?"([^"]+)"(?: and "([^"]+)")?`)
	comment := regexp.MustCompile(`\n\s*// ?`)
	var files []string
	for _, f := range docFiles {
		files = append(files, filepath.Join("..", "..", f))
	}
	require.NoError(t, filepath.WalkDir(filepath.Join("..", ".."), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != filepath.Join("..", "..") {
			if err == nil {
				return filepath.SkipDir
			}
			return err
		}
		if strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	}))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		text := string(raw)
		if strings.HasSuffix(f, ".go") {
			text = comment.ReplaceAllString(text, " ")
		}
		for _, m := range ref.FindAllStringSubmatch(text, -1) {
			for _, title := range m[2:] {
				title = strings.Join(strings.Fields(title), " ")
				if title != "" && !headings[m[1]+".md"][title] {
					t.Errorf("%s cites %s.md, %q, which has no such section", f, m[1], title)
				}
			}
		}
	}
}

// parseCommand parses a documented command line as pebblebench would:
// with -scenario, every phase of each scenario named, with the other
// flags as its overrides; else the flags alone.
func parseCommand(args []string) error {
	value, rest, ok := scenarioArg(args)
	if !ok {
		_, err := parseFlags(args, io.Discard)
		return err
	}
	if value == "list" {
		return nil
	}
	names, demo, err := parseScenarioNames(value)
	if err != nil {
		return err
	}
	if err := checkScenarioOverrides(rest); err != nil {
		return err
	}
	user, err := scenarioOverrides(rest)
	if err != nil {
		return err
	}
	for _, name := range names {
		s, _ := scenario.ByName(name)
		for i := range s.Phases {
			if _, err := parseFlags(s.PhaseArgs(i, demo, user), io.Discard); err != nil {
				return errors.Wrapf(err, "-scenario=%s, phase %s", name, s.Phases[i].Name)
			}
		}
	}
	return nil
}

// exportedNames are the exported top-level names of pebblerf's packages,
// and their methods and fields as Type.Member, read from their source.
func exportedNames(t *testing.T) map[string]map[string]bool {
	names := map[string]map[string]bool{}
	for _, pkg := range []string{"pebble", "pointfilter", "rangefilter", "seekstats", "querybuilder",
		"compactionext", "objstore", "whatif", "promstats"} {
		dir := filepath.Join("..", "..", pkg)
		if pkg == "pebble" {
			dir = filepath.Join("..", "..")
		}
		set := map[string]bool{}
		aliases := parsePackage(t, dir, set)
		// An alias of an internal package's type has that type's members.
		for name, target := range aliases {
			if !strings.HasPrefix(target[0], "github.com/pebblerf/pebble/") {
				continue // upstream's: its members are not pebblerf's to check
			}
			inner := map[string]bool{}
			parsePackage(t, filepath.Join("..", "..", strings.TrimPrefix(target[0], "github.com/pebblerf/pebble/")), inner)
			for member := range inner {
				if after, ok := strings.CutPrefix(member, target[1]+"."); ok {
					set[name+"."+after] = true
				}
			}
		}
		names[pkg] = set
	}
	return names
}

// parsePackage adds the exported declarations of the package in dir to
// set, and returns its aliases of other packages' types: name to import
// path and type name.
func parsePackage(t *testing.T, dir string, set map[string]bool) map[string][2]string {
	aliases := map[string][2]string{}
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		imports := map[string]string{}
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			name := filepath.Base(path)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = path
		}
		for _, d := range f.Decls {
			addDecl(set, d)
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range g.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || !ts.Assign.IsValid() {
					continue
				}
				if sel, ok := ts.Type.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok {
						aliases[ts.Name.Name] = [2]string{imports[x.Name], sel.Sel.Name}
					}
				}
			}
		}
	}
	return aliases
}

func addDecl(set map[string]bool, d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			set[d.Name.Name] = true
			return
		}
		recv := d.Recv.List[0].Type
		if s, ok := recv.(*ast.StarExpr); ok {
			recv = s.X
		}
		if id, ok := recv.(*ast.Ident); ok {
			set[id.Name+"."+d.Name.Name] = true
		}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch spec := spec.(type) {
			case *ast.TypeSpec:
				set[spec.Name.Name] = true
				if st, ok := spec.Type.(*ast.StructType); ok {
					for _, f := range st.Fields.List {
						for _, n := range f.Names {
							set[spec.Name.Name+"."+n.Name] = true
						}
					}
				}
			case *ast.ValueSpec:
				for _, n := range spec.Names {
					set[n.Name] = true
				}
			}
		}
	}
}

// rootTypes are the root package's types a doc may start a chain from,
// by the names the docs give them or their values.
var rootTypes = map[string]reflect.Type{
	"db": reflect.TypeOf(&pebblerf.DB{}), "DB": reflect.TypeOf(&pebblerf.DB{}),
	"it": reflect.TypeOf(&pebblerf.Iterator{}), "Iterator": reflect.TypeOf(&pebblerf.Iterator{}),
	"Plugins": reflect.TypeOf(&pebblerf.Plugins{}), "Options": reflect.TypeOf(&pebblerf.Options{}),
	"IterOptions": reflect.TypeOf(&pebblerf.IterOptions{}), "Comparer": reflect.TypeOf(&pebblerf.Comparer{}),
	"Statistics": reflect.TypeOf(&pebblerf.Statistics{}), "GetL6Config": reflect.TypeOf(&pebblerf.GetL6Config{}),
	"Batch": reflect.TypeOf(&pebblerf.Batch{}), "Snapshot": reflect.TypeOf(&pebblerf.Snapshot{}),
}

// resolveName resolves first.segs: a package's name (and its Type.Member),
// or a chain of fields and calls from one of the root's types.
func resolveName(names map[string]map[string]bool, first string, segs []string) error {
	if set, ok := names[first]; ok {
		if !set[segs[0]] {
			if typ, ok := rootTypes[segs[0]]; ok && first == "pebble" {
				return resolveChain(typ, segs[1:])
			}
			if first == "pebble" && upstreamName(segs[0]) {
				return nil
			}
			return fmt.Errorf("package %s has no %s", first, segs[0])
		}
		if len(segs) > 1 && !set[segs[0]+"."+segs[1]] {
			if typ, ok := rootTypes[segs[0]]; ok && first == "pebble" {
				return resolveChain(typ, segs[1:])
			}
			return fmt.Errorf("%s.%s has no %s", first, segs[0], segs[1])
		}
		return nil
	}
	if typ, ok := rootTypes[first]; ok {
		return resolveChain(typ, segs)
	}
	return nil // not a name of pebblerf's (a file, a URL, upstream's)
}

// upstreamName reports whether the root re-exports upstream's name.
func upstreamName(name string) bool {
	raw, err := os.ReadFile(filepath.Join("..", "..", "aliases_gen.go"))
	if err != nil {
		return false
	}
	return regexp.MustCompile(`(?m)^\s*(type\s+)?` + regexp.QuoteMeta(name) + `\s*=`).Match(raw)
}

// resolveChain follows fields and methods from typ, each call's first
// result the next step's type.
func resolveChain(typ reflect.Type, segs []string) error {
	for _, seg := range segs {
		if m, ok := typ.MethodByName(seg); ok {
			if m.Type.NumOut() == 0 {
				typ = nil
				continue
			}
			typ = m.Type.Out(0)
			continue
		}
		st := typ
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if st.Kind() == reflect.Struct {
			if f, ok := st.FieldByName(seg); ok {
				typ = f.Type
				if typ.Kind() != reflect.Pointer && typ.Kind() != reflect.Interface {
					typ = reflect.PointerTo(typ)
				}
				continue
			}
		}
		return fmt.Errorf("%s has no method or field %s", typ, seg)
	}
	return nil
}

// tickerNames are the tickers a DB with every plug-in's statistics counts,
// and the names of the properties and filters pebblerf writes.
func tickerNames(t *testing.T) map[string]bool {
	db, err := pebblerf.OpenWithPlugins("", &pebblerf.Options{FS: vfs.NewMem()}, pebblerf.Plugins{Statistics: true})
	require.NoError(t, err)
	defer db.Close()
	names := map[string]bool{rangefilter.Name: true, pointfilter.PlannedPolicyName: true,
		pointfilter.BloomPolicyName: true, pointfilter.RibbonPolicyName: true}
	for _, tk := range db.Statistics().Tickers() {
		names[tk.Name] = true
	}
	require.Greater(t, len(names), 100, "a DB with statistics counts every ticker")
	return names
}

// declares reports whether the package in dir (relative to the root)
// has a _test.go or .go file holding decl.
func declares(t *testing.T, dir, decl string) bool {
	matches, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
	require.NoError(t, err)
	for _, m := range matches {
		raw, err := os.ReadFile(m)
		require.NoError(t, err)
		if bytes.Contains(raw, []byte(decl)) {
			return true
		}
	}
	return false
}

// sampleMarker is a sample's marker line.
var sampleMarker = regexp.MustCompile(`^<!-- make docs: pebblebench (.*?)(?: ; from "(.*)" to "(.*)")?( ; shape)? -->$`)

// checkSamples regenerates every marked sample and compares it with the
// document's, or, with -docs.rewrite, writes it into the document.
func checkSamples(t *testing.T) {
	for _, f := range docFiles {
		path := filepath.Join("..", "..", f)
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		lines := strings.Split(string(raw), "\n")
		changed := false
		for i := 0; i < len(lines); i++ {
			m := sampleMarker.FindStringSubmatch(strings.TrimSpace(lines[i]))
			if m == nil {
				continue
			}
			// The fenced block after the marker.
			open := i + 1
			for open < len(lines) && !strings.HasPrefix(lines[open], "```") {
				open++
			}
			end := open + 1
			for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
				end++
			}
			require.Less(t, end, len(lines), "%s:%d: a marker needs a fenced block after it", f, i+1)
			have := lines[open+1 : end]
			where := fmt.Sprintf("%s:%d", f, i+1)
			var want []string
			if m[1] == "-scenario=demo" && m[2] == "" {
				if !*docsRewrite {
					checkDemoTable(t, where, have)
					continue
				}
				want = demoTable(t)
			} else {
				want = runSample(t, where, strings.Fields(m[1]), m[2], m[3])
			}
			if *docsRewrite {
				lines = append(lines[:open+1], append(want, lines[end:]...)...)
				changed = true
				continue
			}
			if m[4] != "" {
				want, have = shapeOf(want), shapeOf(have)
			}
			require.Equal(t, strings.Join(maskVolatile(want), "\n"), strings.Join(maskVolatile(have), "\n"),
				"%s: the sample is not what pebblebench %s prints now; run make docs", where, m[1])
		}
		if changed {
			require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644))
		}
	}
}

// maskVolatile hides the figures of a sample that move from run to run
// with a fixed seed: an explain's block bytes, which depend on what the
// block cache held and on the exact bytes of blocks written while flushes
// ran in the background.
func maskVolatile(lines []string) []string {
	digits := regexp.MustCompile(`[0-9]+`)
	out := make([]string, len(lines))
	for i, l := range lines {
		if strings.HasPrefix(l, "block bytes:") {
			l = digits.ReplaceAllString(l, "N")
		}
		out[i] = l
	}
	return out
}

// shapeOf reduces a sample whose counts move from run to run to its shape:
// each kind of line once, in order, with its numbers and keys masked. A
// shape sample is one whose LSM comes from flushes that memtables cut where
// they fill, which depends on their skiplists' random heights: the names,
// columns and phrases are checked, the counts are not.
func shapeOf(lines []string) []string {
	keys := regexp.MustCompile(`[^\s\[\]]*\\x[0-9a-f]{2}[^\s\[\])]*`)
	numbers := regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	var out []string
	seen := map[string]bool{}
	for _, l := range lines {
		l = numbers.ReplaceAllString(keys.ReplaceAllString(l, "KEY"), "N")
		l = strings.Join(strings.Fields(l), " ")
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// runSample runs pebblebench with args and returns its output's lines
// from the first that starts with from to the next that starts with to.
func runSample(t *testing.T, where string, args []string, from, to string) []string {
	args = append(args, "-db="+t.TempDir())
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, realMain(args, &stdout, &stderr), "%s: %s", where, stderr.String())
	var out []string
	in := false
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " ")
		if !in && strings.HasPrefix(line, from) {
			in = true
		}
		if in {
			out = append(out, line)
			if len(out) > 1 && strings.HasPrefix(line, to) {
				return out
			}
		}
	}
	t.Fatalf("%s: no lines from %q to %q in pebblebench's output:\n%s", where, from, to, stdout.String())
	return nil
}

// demoTable runs make demo's scenarios and returns their verdict table.
func demoTable(t *testing.T) []string {
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, realMain([]string{"-scenario=demo"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	i := strings.LastIndex(out, "\nscenario ")
	require.GreaterOrEqual(t, i, 0, out)
	return strings.Split(strings.TrimRight(out[i+1:], "\n"), "\n")
}

// checkDemoTable checks a demo table's header and scenarios against the
// code, without running the demo.
func checkDemoTable(t *testing.T, where string, have []string) {
	var b bytes.Buffer
	scenario.PrintVerdictTable(&b, nil)
	header := strings.Fields(strings.Split(b.String(), "\n")[0])
	require.GreaterOrEqual(t, len(have), 2+len(scenario.DemoScenarios), "%s: the demo table", where)
	require.Equal(t, header, strings.Fields(have[0]), "%s: the demo table's header; run make docs", where)
	for i, name := range scenario.DemoScenarios {
		require.Equal(t, name, strings.Fields(have[2+i])[0], "%s: the demo's scenarios; run make docs", where)
	}
}
