// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package apilist lists the exported API of the module's public packages:
// every package outside internal/, cmd/, examples/ and testdata/, with
// aliases_gen.go (the generated upstream aliases) left out. It is the
// compatibility promise made explicit, one declaration a line, so that a
// change of it shows as a diff of the root package's testdata/api.
//
// Each line is "<package> <kind> <declaration>", where kind is one of
// type, func, method, const, var (the identifiers the summary counts) or
// field, imethod (a struct's exported fields and an interface's methods,
// listed but not counted). Declarations are printed without bodies or
// comments, so a changed signature shows too.
package apilist

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// skipped are the directories whose packages make no promise: internal/,
// the commands, the examples and test data.
var skipped = map[string]bool{"internal": true, "cmd": true, "examples": true, "testdata": true}

// counted are the kinds of line the summary counts.
var counted = map[string]bool{"type": true, "func": true, "method": true, "const": true, "var": true}

// List returns the exported API of the module rooted at root: a summary
// (identifiers counted per package, then the total), then one line per
// declaration, sorted.
func List(root string) (string, error) {
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (skipped[name] || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == "aliases_gen.go" {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		more, err := file(path, filepath.ToSlash(rel))
		lines = append(lines, more...)
		return err
	})
	if err != nil {
		return "", err
	}
	sort.Strings(lines)
	perPackage := map[string]int{}
	var packages []string
	total := 0
	for _, l := range lines {
		f := strings.SplitN(l, " ", 3)
		if !counted[f[1]] {
			continue
		}
		if perPackage[f[0]] == 0 {
			packages = append(packages, f[0])
		}
		perPackage[f[0]]++
		total++
	}
	sort.Strings(packages)
	var b strings.Builder
	for _, p := range packages {
		fmt.Fprintf(&b, "%s: %d\n", p, perPackage[p])
	}
	fmt.Fprintf(&b, "total: %d\n\n", total)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// file lists the exported declarations of one source file of package pkg.
func file(path, pkg string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	add := func(kind, decl string) { out = append(out, pkg+" "+kind+" "+decl) }
	format := func(n ast.Node) string {
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			sig := format(d.Type)
			sig = strings.TrimPrefix(sig, "func")
			if d.Recv == nil {
				add("func", d.Name.Name+sig)
				continue
			}
			recv := receiver(d.Recv.List[0].Type)
			if recv == "" {
				continue
			}
			add("method", recv+"."+d.Name.Name+sig)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						typeSpec(s, add, format)
					}
				case *ast.ValueSpec:
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					for _, n := range s.Names {
						if n.IsExported() {
							add(kind, n.Name)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// receiver returns the name of a method's receiver type, or "" if it is
// not exported.
func receiver(t ast.Expr) string {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok && id.IsExported() {
		return id.Name
	}
	return ""
}

// typeSpec lists an exported type, and its exported fields or interface
// methods.
func typeSpec(s *ast.TypeSpec, add func(kind, decl string), format func(ast.Node) string) {
	name := s.Name.Name
	switch t := s.Type.(type) {
	case *ast.StructType:
		add("type", name+" struct")
		for _, f := range t.Fields.List {
			for _, n := range f.Names {
				if n.IsExported() {
					add("field", name+"."+n.Name+" "+format(f.Type))
				}
			}
			if len(f.Names) == 0 {
				add("field", name+" embeds "+format(f.Type))
			}
		}
	case *ast.InterfaceType:
		add("type", name+" interface")
		for _, m := range t.Methods.List {
			for _, n := range m.Names {
				if n.IsExported() {
					add("imethod", name+"."+n.Name+strings.TrimPrefix(format(m.Type), "func"))
				}
			}
			if len(m.Names) == 0 {
				add("imethod", name+" embeds "+format(m.Type))
			}
		}
	default:
		if s.Assign.IsValid() {
			add("type", name+" = "+format(s.Type))
			return
		}
		add("type", name+" "+format(s.Type))
	}
}
