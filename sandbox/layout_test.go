package sandbox_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// methodFiles parses the Go files (tests left out) matching glob and
// returns the file (base name) declaring each method, keyed
// "Receiver.Method" with the receiver's type name.
func methodFiles(t *testing.T, glob string) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(glob)
	require.NoError(t, err)
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				out[id.Name+"."+fn.Name.Name] = filepath.Base(p)
			}
		}
	}
	return out
}

// misplacedHandlers lists, as "Service.Method: handler in X, want Y", each
// operation whose sandbox handler does not live in the sandbox file named
// like the client file that defines its method. clientFiles and
// sandboxFiles are methodFiles of the root and of the sandbox.
func misplacedHandlers(t *testing.T, clientFiles, sandboxFiles map[string]string) []string {
	t.Helper()
	handlers := sandbox.RouteHandlers()
	var bad []string
	for _, op := range clientOperations(t) {
		want, ok := clientFiles[op.Service+"Service."+op.Method]
		require.True(t, ok, "no root file declares %sService.%s", op.Service, op.Method)
		handler, ok := handlers[sandbox.Route{Method: op.HTTPMethod, Template: op.Path}]
		require.True(t, ok, "no route for %s", op.Name)
		got := sandboxFiles["Sandbox."+handler]
		if got != want {
			bad = append(bad, op.Name+": handler "+handler+" in sandbox/"+got+", want sandbox/"+want)
		}
	}
	sort.Strings(bad)
	return bad
}

// TestHandlersLiveInTheirClientFilesName: the handler of an operation lives
// in the sandbox file with the base name of the root file defining the
// client method it serves (Payouts.GetQuotation is in payouts_quotations.go,
// so its handler is in sandbox/payouts_quotations.go): open the client's
// file and the sandbox's of the same name to read both sides of an
// operation.
func TestHandlersLiveInTheirClientFilesName(t *testing.T) {
	clientFiles := methodFiles(t, "../*.go")
	sandboxFiles := methodFiles(t, "*.go")
	assert.Empty(t, misplacedHandlers(t, clientFiles, sandboxFiles))

	// The check fails on a handler moved to another file.
	moved := map[string]string{}
	for k, v := range sandboxFiles {
		moved[k] = v
	}
	handler := sandbox.RouteHandlers()[sandbox.Route{Method: "GET", Template: "/pos/api/v1/payout/quotation/{quotation_id}"}]
	moved["Sandbox."+handler] = "payouts.go"
	assert.Equal(t, []string{"Payouts.GetQuotation: handler " + handler + " in sandbox/payouts.go, want sandbox/payouts_quotations.go"},
		misplacedHandlers(t, clientFiles, moved))
}
