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

// controlHelpers are the package's own unexported names the control plane
// may use: the route matcher it shares with the service's routes, the
// JSON and token helpers and the fixtures decoder's error paths, none of
// which reaches the sandbox's state.
var controlHelpers = map[string]bool{
	"route": true, "match": true, "allowed": true, "splitPath": true,
	"mustJSON": true, "randomToken": true, "fieldPath": true,
}

// controlReaches lists every use, in the control plane's files (named
// control*.go) among files, of an unexported name the rest of the package
// declares (outside controlHelpers), and of an unexported field or method
// of a Sandbox (through c.sb or sb): the control plane must be a client
// of the sandbox's exported Go API, so that everything it does a Go test
// can do too.
func controlReaches(t *testing.T, files map[string]*ast.File) []string {
	t.Helper()
	others := map[string]bool{}
	for name, f := range files {
		if strings.HasPrefix(name, "control") {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					others[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						others[spec.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							others[n.Name] = true
						}
					}
				}
			}
		}
	}
	isSandbox := func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Ident:
			return x.Name == "sb"
		case *ast.SelectorExpr:
			return x.Sel.Name == "sb"
		}
		return false
	}
	var bad []string
	for name, f := range files {
		if !strings.HasPrefix(name, "control") {
			continue
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				// Its name is the control plane's own; look inside.
				if n.Recv != nil {
					ast.Inspect(n.Recv, visit)
				}
				ast.Inspect(n.Type, visit)
				if n.Body != nil {
					ast.Inspect(n.Body, visit)
				}
				return false
			case *ast.KeyValueExpr:
				// A struct literal's key names a field, not a value.
				if _, ok := n.Key.(*ast.Ident); !ok {
					ast.Inspect(n.Key, visit)
				}
				ast.Inspect(n.Value, visit)
				return false
			case *ast.SelectorExpr:
				if isSandbox(n.X) && !ast.IsExported(n.Sel.Name) {
					bad = append(bad, name+": Sandbox."+n.Sel.Name)
				}
				ast.Inspect(n.X, visit)
				return false // n.Sel is a field or method, checked above
			case *ast.Ident:
				// Obj is set for what the file itself declares (its
				// locals and its own top-level names); nil for a name of
				// another file.
				if n.Obj == nil && others[n.Name] && !ast.IsExported(n.Name) && !controlHelpers[n.Name] {
					bad = append(bad, name+": "+n.Name)
				}
			}
			return true
		}
		ast.Inspect(f, visit)
	}
	sort.Strings(bad)
	return bad
}

// parsePackage parses the package's Go files, tests left out, by base
// name.
func parsePackage(t *testing.T) map[string]*ast.File {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		require.NoError(t, err)
		out[p] = f
	}
	return out
}

// TestControlPlaneUsesTheGoAPI: the control plane reaches the sandbox only
// through its exported Go API (and the shared helpers named in
// controlHelpers).
func TestControlPlaneUsesTheGoAPI(t *testing.T) {
	files := parsePackage(t)
	require.Contains(t, files, "control.go")
	assert.Empty(t, controlReaches(t, files))

	// The check fails on a control file reaching into the state.
	broken, err := parser.ParseFile(token.NewFileSet(), "control_broken.go", `package sandbox
func (c *control) broken() int { c.sb.mu.Lock(); return len(c.sb.st.orgs) + len(routeOf(nil)) }`, 0)
	require.NoError(t, err)
	files["control_broken.go"] = broken
	files["routes_extra.go"], err = parser.ParseFile(token.NewFileSet(), "routes_extra.go", `package sandbox
func routeOf(any) []int { return nil }`, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"control_broken.go: Sandbox.mu", "control_broken.go: Sandbox.st", "control_broken.go: routeOf"},
		controlReaches(t, map[string]*ast.File{"control_broken.go": broken, "routes_extra.go": files["routes_extra.go"]}))
}
