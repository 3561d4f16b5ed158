// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeCode keeps the README's Go honest: every ```go block in
// README.md is one or more example functions, each the very source of an
// example function of the same name in the module's example_test.go files,
// which go test compiles and runs against its Output comment. Editing the one
// without the other fails here.
func TestReadmeCode(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	blocks := goBlocks(string(readme))
	require.NotEmpty(t, blocks, "README.md has no Go blocks; this test would check nothing")

	examples := map[string]string{}
	files, err := filepath.Glob("example_test.go")
	require.NoError(t, err)
	more, err := filepath.Glob("examples/*/example_test.go")
	require.NoError(t, err)
	for _, path := range append(files, more...) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		for name, fn := range exampleFuncs(t, path, src, false) {
			examples[name] = fn
		}
	}

	for i, block := range blocks {
		src := []byte("package readme\n\n" + block)
		funcs := exampleFuncs(t, fmt.Sprintf("README.md Go block %d", i+1), src, true)
		require.NotEmpty(t, funcs, "README.md Go block %d holds no example function:\n%s", i+1, block)
		for name, fn := range funcs {
			want, ok := examples[name]
			require.True(t, ok, "README.md shows %s, which no example_test.go defines", name)
			require.Equal(t, want, fn, "README.md's %s differs from example_test.go's", name)
		}
	}
}

// goBlockRE matches a fenced Go block and captures its body.
var goBlockRE = regexp.MustCompile("(?ms)^```go\n(.*?)^```\n")

func goBlocks(md string) []string {
	var out []string
	for _, m := range goBlockRE.FindAllStringSubmatch(md, -1) {
		out = append(out, m[1])
	}
	return out
}

// exampleFuncs parses src and returns its Example functions, each gofmt'ed
// with its doc comment, by name. A bare statement or an elision ("...")
// fails the parse, which is the point; with strict, so does any declaration
// other than an Example function.
func exampleFuncs(t *testing.T, name string, src []byte, strict bool) map[string]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	require.NoError(t, err, "%s does not parse as Go", name)
	out := map[string]string{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fn.Name.Name, "Example") {
			require.False(t, strict, "%s declares something other than an example function", name)
			continue
		}
		start, end := fset.Position(fn.Pos()).Offset, fset.Position(fn.End()).Offset
		if fn.Doc != nil {
			start = fset.Position(fn.Doc.Pos()).Offset
		}
		formatted, err := format.Source(src[start:end])
		require.NoError(t, err, "%s: %s", name, fn.Name.Name)
		out[fn.Name.Name] = string(bytes.TrimSpace(formatted))
	}
	return out
}
