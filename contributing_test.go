package fiatramp_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vocabularyRow is one row of CONTRIBUTING.md's vocabulary table.
type vocabularyRow struct {
	resource, root string
	types, sandbox []string // files; none for "—"
	methods        []string // "Service.Method"
}

// codeCells are the `...` spans of a table cell.
var codeCells = regexp.MustCompile("`([^`]+)`")

// vocabularyTable reads the table under CONTRIBUTING.md's "## Vocabulary"
// heading.
func vocabularyTable(t *testing.T) []vocabularyRow {
	t.Helper()
	text, err := os.ReadFile("CONTRIBUTING.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(text), "\n## Vocabulary")
	require.True(t, ok, "CONTRIBUTING.md has no ## Vocabulary section")
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []vocabularyRow
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "| Resource") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		require.Len(t, cells, 5, "vocabulary row %q", line)
		spans := func(cell string) []string {
			var out []string
			for _, m := range codeCells.FindAllStringSubmatch(cell, -1) {
				out = append(out, m[1])
			}
			return out
		}
		root := spans(cells[1])
		require.Len(t, root, 1, "vocabulary row %q: one root file", line)
		rows = append(rows, vocabularyRow{
			resource: strings.TrimSpace(cells[0]), root: root[0],
			types: spans(cells[2]), sandbox: spans(cells[3]), methods: spans(cells[4]),
		})
	}
	require.NotEmpty(t, rows, "CONTRIBUTING.md's vocabulary table has no rows")
	return rows
}

// serviceMethodFiles maps each root file to the exported methods of the
// services (PayoutsService...) it defines, as "Service.Method".
func serviceMethodFiles(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	out := make(map[string][]string)
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			if id, ok := star.X.(*ast.Ident); ok {
				if service, ok := strings.CutSuffix(id.Name, "Service"); ok {
					out[name] = append(out[name], service+"."+fn.Name.Name)
				}
			}
		}
	}
	return out
}

// TestVocabularyTable: each row of CONTRIBUTING.md's vocabulary table
// names the service methods its root file defines, no more and no fewer,
// and files that exist, its sandbox file named like its root file; every
// root file that defines a service method has a row.
func TestVocabularyTable(t *testing.T) {
	defined := serviceMethodFiles(t)
	seen := make(map[string]bool)
	for _, row := range vocabularyTable(t) {
		assert.False(t, seen[row.root], "%s has two rows", row.root)
		seen[row.root] = true
		want := slices.Sorted(slices.Values(defined[row.root]))
		got := slices.Sorted(slices.Values(row.methods))
		assert.Equal(t, want, got, "%s (%s): the methods its root file defines", row.resource, row.root)
		for _, f := range append(slices.Clone(row.types), row.sandbox...) {
			_, err := os.Stat(f)
			assert.NoError(t, err, "%s: %s", row.resource, f)
		}
		for _, f := range row.sandbox {
			assert.Equal(t, "sandbox/"+row.root, f, "%s: the sandbox file is named like the root file", row.resource)
		}
	}
	for file := range defined {
		assert.True(t, seen[file], "%s defines %v but has no row in CONTRIBUTING.md's vocabulary table", file, defined[file])
	}
}
