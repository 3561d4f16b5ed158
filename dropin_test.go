package pebble

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDropInProgram is the drop-in claim, tested the way a user meets it:
// testdata/dropin/main.go is an ordinary program written against upstream
// Pebble. It is built once as it is and once with only the import path
// changed, both are run, and their outputs must be identical.
func TestDropInProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	src, err := os.ReadFile(filepath.Join("testdata", "dropin", "main.go"))
	require.NoError(t, err)
	const upstreamImport = `"github.com/cockroachdb/pebble/v2"`
	require.Contains(t, string(src), upstreamImport)
	switched := strings.Replace(string(src), upstreamImport, `"github.com/pebblerf/pebble"`, 1)

	upstreamOut := buildAndRun(t, string(src))
	pebblerfOut := buildAndRun(t, switched)

	require.Equal(t, "github.com/cockroachdb/pebble/v2", implOf(t, upstreamOut))
	require.Equal(t, "github.com/pebblerf/pebble", implOf(t, pebblerfOut))
	for _, scenario := range []string{"reopen", "batches", "snapshots", "iterators", "prefix",
		"rangedel", "merge", "ingest", "checkpoint", "metrics"} {
		require.Contains(t, upstreamOut, "== "+scenario+"\n")
	}
	require.Equal(t, withoutImpl(upstreamOut), withoutImpl(pebblerfOut))
}

// buildAndRun builds src as the main package of a scratch module that
// resolves this module from the work tree, runs it, and returns its stdout.
func buildAndRun(t *testing.T, src string) string {
	root, err := os.Getwd()
	require.NoError(t, err)
	dir := t.TempDir()
	goMod := "module dropinprogram\n\ngo 1.26\n\n" +
		"require github.com/pebblerf/pebble v0.0.0\n\n" +
		"replace github.com/pebblerf/pebble => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644))

	build := exec.Command("go", "build", "-o", "prog", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building:\n%s", out)

	run := exec.Command(filepath.Join(dir, "prog"))
	run.Dir = dir
	stdout, err := run.Output()
	require.NoError(t, err, "running:\n%s", stdout)
	return string(stdout)
}

func implOf(t *testing.T, out string) string {
	for _, line := range strings.Split(out, "\n") {
		if impl, ok := strings.CutPrefix(line, "impl: "); ok {
			return impl
		}
	}
	t.Fatalf("no impl line in output:\n%s", out)
	return ""
}

func withoutImpl(out string) string {
	var kept []string
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "impl: ") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// wrappedTypes pairs each upstream type that pebblerf wraps with its wrapper.
var wrappedTypes = map[reflect.Type]reflect.Type{
	reflect.TypeOf((*upstream.DB)(nil)):                         reflect.TypeOf((*DB)(nil)),
	reflect.TypeOf((*upstream.Iterator)(nil)):                   reflect.TypeOf((*Iterator)(nil)),
	reflect.TypeOf((*upstream.Batch)(nil)):                      reflect.TypeOf((*Batch)(nil)),
	reflect.TypeOf((*upstream.Snapshot)(nil)):                   reflect.TypeOf((*Snapshot)(nil)),
	reflect.TypeOf((*upstream.EventuallyFileOnlySnapshot)(nil)): reflect.TypeOf((*EventuallyFileOnlySnapshot)(nil)),
	reflect.TypeOf((*upstream.Reader)(nil)).Elem():              reflect.TypeOf((*Reader)(nil)).Elem(),
	reflect.TypeOf((*upstream.Writer)(nil)).Elem():              reflect.TypeOf((*Writer)(nil)).Elem(),
}

// TestWrapperMethodSets checks that every exported method of every wrapped
// upstream type exists on the wrapper with upstream's signature, up to the
// substitution of wrapped types by their wrappers.
func TestWrapperMethodSets(t *testing.T) {
	for up, ours := range wrappedTypes {
		for i := 0; i < up.NumMethod(); i++ {
			want := up.Method(i)
			got, ok := ours.MethodByName(want.Name)
			if !assert.Truef(t, ok, "%s lacks method %s", ours, want.Name) {
				continue
			}
			wantType, gotType := want.Type, got.Type
			// Concrete methods carry their receiver as the first input.
			skip := 0
			if up.Kind() != reflect.Interface {
				skip = 1
			}
			require.Equal(t, wantType.NumIn(), gotType.NumIn(), "%s.%s inputs", ours, want.Name)
			require.Equal(t, wantType.NumOut(), gotType.NumOut(), "%s.%s outputs", ours, want.Name)
			require.Equal(t, wantType.IsVariadic(), gotType.IsVariadic(), "%s.%s variadic", ours, want.Name)
			for j := skip; j < wantType.NumIn(); j++ {
				require.Equal(t, substitute(wantType.In(j)), gotType.In(j), "%s.%s input %d", ours, want.Name, j)
			}
			for j := 0; j < wantType.NumOut(); j++ {
				require.Equal(t, substitute(wantType.Out(j)), gotType.Out(j), "%s.%s output %d", ours, want.Name, j)
			}
		}
	}
}

func substitute(t reflect.Type) reflect.Type {
	if ours, ok := wrappedTypes[t]; ok {
		return ours
	}
	return t
}

// TestAliasesUpToDate fails when upstream's exported API no longer matches
// the committed re-exports, for example after a Pebble upgrade.
func TestAliasesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	cmd := exec.Command("go", "run", "./internal/dropingen")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	generated, err := cmd.Output()
	require.NoError(t, err)
	committed, err := os.ReadFile("aliases_gen.go")
	require.NoError(t, err)
	require.Equal(t, string(generated), string(committed),
		"aliases_gen.go is stale: run go run ./internal/dropingen > aliases_gen.go")
}
