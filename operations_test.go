package fiatramp_test

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// This file checks the index of operations (operations.go) against what
// must agree with it: the services' methods, their doc lines,
// docs/operations.md's table and the names Client.Do gives the paths it knows. Each
// failure names the operation.

// serviceAPIs are the services' method sets, by the Client field they are
// called on.
var serviceAPIs = map[string]reflect.Type{
	"Payouts":      reflect.TypeFor[fiatramp.PayoutsAPI](),
	"Payins":       reflect.TypeFor[fiatramp.PayinsAPI](),
	"Customers":    reflect.TypeFor[fiatramp.CustomersAPI](),
	"KYC":          reflect.TypeFor[fiatramp.KYCAPI](),
	"Organization": reflect.TypeFor[fiatramp.OrganizationAPI](),
	"Widget":       reflect.TypeFor[fiatramp.WidgetAPI](),
}

// indexRows maps every method the index covers, "Service.Method", to the
// row of the call it makes: an operation to its own row, a helper (Wait,
// an iterator, a page from a link) to the row it reuses.
func indexRows(t *testing.T) map[string]fiatramp.OperationInfo {
	t.Helper()
	rows := make(map[string]fiatramp.OperationInfo)
	add := func(name string, row fiatramp.OperationInfo) {
		if prev, dup := rows[name]; dup {
			t.Errorf("%s is in the index twice: rows %s and %s", name, prev.Name, row.Name)
		}
		rows[name] = row
	}
	for _, row := range fiatramp.Operations() {
		assert.Equal(t, row.Service+"."+row.Method, row.Name, "row %s: Name is Service.Method", row.Name)
		add(row.Name, row)
		for _, h := range row.Helpers {
			add(row.Service+"."+h, row)
		}
	}
	return rows
}

// TestOperationsCoverEveryMethod: every method of every service's
// interface has exactly one row of the index, its own or (for a helper)
// the one it reuses, and every row names a method that exists.
func TestOperationsCoverEveryMethod(t *testing.T) {
	rows := indexRows(t)
	methods := make(map[string]bool)
	for service, api := range serviceAPIs {
		for i := range api.NumMethod() {
			name := service + "." + api.Method(i).Name
			methods[name] = true
			if _, ok := rows[name]; !ok {
				t.Errorf("%s has no row in the index of operations (operations.go), neither its own nor as a helper", name)
			}
		}
	}
	for name, row := range rows {
		if !methods[name] {
			t.Errorf("the index names %s (row %s), which no service's interface has", name, row.Name)
		}
	}
}

// TestOperationsRows: each row is well formed: an HTTP method, a path
// under one of the service's groups, a known safety, the members its
// result is known by; a create-once operation is a POST.
func TestOperationsRows(t *testing.T) {
	template := regexp.MustCompile(`^/(pos|pis|cms|ren|org)/api/v1(/([a-z-]+|\{[a-z_]+\}))+$|^/widget/initialize$`)
	seen := make(map[string]string)
	for _, row := range fiatramp.Operations() {
		assert.Contains(t, []string{"GET", "POST", "PATCH"}, row.HTTPMethod, row.Name)
		assert.Regexp(t, template, row.Path, row.Name)
		assert.Contains(t, []fiatramp.Safety{fiatramp.SafetyRead, fiatramp.SafetyUpdate, fiatramp.SafetyCreate, fiatramp.SafetyCreateOnce}, row.Safety, row.Name)
		assert.NotEmpty(t, row.Required, "%s: no member its result is known by", row.Name)
		if row.Safety == fiatramp.SafetyRead {
			assert.Equal(t, "GET", row.HTTPMethod, "%s: a read is a GET", row.Name)
		}
		if row.Safety == fiatramp.SafetyCreateOnce {
			assert.Contains(t, []string{"POST", "PATCH"}, row.HTTPMethod, "%s: a create-once is a POST or a PATCH", row.Name)
		}
		route := row.HTTPMethod + " " + row.Path
		if prev, dup := seen[route]; dup {
			t.Errorf("%s and %s share the route %s", prev, row.Name, route)
		}
		seen[route] = row.Name
	}
	ops := fiatramp.Operations()
	ops[0].Required[0], ops[0].Name = "changed", "changed"
	assert.NotEqual(t, "changed", fiatramp.Operations()[0].Required[0], "Operations returns a copy")
	assert.NotEqual(t, "changed", fiatramp.Operations()[0].Name, "Operations returns a copy")
}

// services returns the services in the Client's order: the names of its
// fields that hold a service.
func services(t *testing.T) []string {
	t.Helper()
	var out []string
	client := reflect.TypeFor[fiatramp.Client]()
	for i := range client.NumField() {
		f := client.Field(i)
		if f.IsExported() && f.Type.Kind() == reflect.Pointer && f.Type.Elem().Name() == f.Name+"Service" {
			out = append(out, f.Name)
		}
	}
	require.Len(t, out, len(serviceAPIs), "the Client's service fields and serviceAPIs disagree")
	return out
}

// TestOperationsOrder: the index is ordered by service, in the Client's
// order, then by path, then by HTTP method, so that a new row has one
// place and a reader finds a resource's operations together.
func TestOperationsOrder(t *testing.T) {
	rank := make(map[string]int)
	for i, s := range services(t) {
		rank[s] = i
	}
	ops := fiatramp.Operations()
	byServiceAndPath := func(a, b fiatramp.OperationInfo) int {
		return cmp.Or(cmp.Compare(rank[a.Service], rank[b.Service]), cmp.Compare(a.Path, b.Path), cmp.Compare(a.HTTPMethod, b.HTTPMethod))
	}
	if !slices.IsSortedFunc(ops, byServiceAndPath) {
		want := slices.Clone(ops)
		slices.SortStableFunc(want, byServiceAndPath)
		for i := range ops {
			if ops[i].Name != want[i].Name {
				t.Errorf("row %d of the index is %s; by service and path it is %s", i, ops[i].Name, want[i].Name)
			}
		}
	}
}

// indexSequence is the methods of the index in its order, "Service.Method",
// each row followed by its helpers.
func indexSequence() []string {
	var out []string
	for _, row := range fiatramp.Operations() {
		out = append(out, row.Name)
		for _, h := range row.Helpers {
			out = append(out, row.Service+"."+h)
		}
	}
	return out
}

// TestOperationsTableOrder: docs/operations.md lists the operations in the
// index's order (an operation's helpers after it), Client.Do last.
func TestOperationsTableOrder(t *testing.T) {
	var listed []string
	for _, r := range tableOperations(t) {
		listed = append(listed, r.name)
	}
	listed = slices.Compact(listed) // two rows of one method are one place
	require.NotEmpty(t, listed)
	assert.Equal(t, "Do", listed[len(listed)-1], "%s: Client.Do is the last row", operationsDoc)
	assert.Equal(t, indexSequence(), listed[:len(listed)-1], "%s: the rows are not in the index's order", operationsDoc)
}

// TestServiceInterfacesFollowTheIndex: each service's interface
// (PayoutsAPI...) declares its operations in the index's order, each
// followed by its helpers, and then the methods that make no call of the
// index.
func TestServiceInterfacesFollowTheIndex(t *testing.T) {
	pkg := packageDoc(t)
	seq := indexSequence()
	for service, api := range serviceAPIs {
		var typ *doc.Type
		for _, ty := range pkg.Types {
			if ty.Name == api.Name() {
				typ = ty
			}
		}
		require.NotNil(t, typ, "no type %s in the package's source", api.Name())
		iface, ok := typ.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.InterfaceType)
		require.True(t, ok, "%s is not an interface", api.Name())
		var declared []string
		for _, m := range iface.Methods.List {
			for _, n := range m.Names {
				declared = append(declared, service+"."+n.Name)
			}
		}
		var want, rest []string
		for _, name := range seq {
			if slices.Contains(declared, name) {
				want = append(want, name)
			}
		}
		for _, name := range declared {
			if !slices.Contains(seq, name) {
				rest = append(rest, name)
			}
		}
		assert.Equal(t, append(want, rest...), declared, "%s declares its methods out of the index's order", api.Name())
	}
}

// TestOperationsNameWhatTheyCreate: a create or create-once row names what
// it creates, for the message of an *OutcomeUnknownError; a read or an
// update names nothing.
func TestOperationsNameWhatTheyCreate(t *testing.T) {
	for _, row := range fiatramp.Operations() {
		creates, ok := fiatramp.OperationCreates(row.Name)
		require.True(t, ok, row.Name)
		switch row.Safety {
		case fiatramp.SafetyCreate, fiatramp.SafetyCreateOnce:
			assert.Regexp(t, `^the [a-zA-Z ]+$`, creates, "%s: what it creates", row.Name)
		default:
			assert.Empty(t, creates, "%s: a %s creates nothing", row.Name, row.Safety)
		}
	}
}

// packageDoc reads the package's Go source (its test files aside).
func packageDoc(t *testing.T) *doc.Package {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/fiatramp/fiatramp-go")
	require.NoError(t, err)
	return pkg
}

// serviceDocs returns the doc comment of every exported method of the
// services' types (PayoutsService...), by "Service.Method", read from the
// package's Go source.
func serviceDocs(t *testing.T) map[string]string {
	t.Helper()
	pkg := packageDoc(t)
	docs := make(map[string]string)
	for _, typ := range pkg.Types {
		service, ok := strings.CutSuffix(typ.Name, "Service")
		if !ok {
			continue
		}
		for _, m := range typ.Methods {
			docs[service+"."+m.Name] = strings.Join(strings.Fields(m.Doc), " ")
		}
	}
	return docs
}

// TestOperationsDocLines: each method's doc comment names the HTTP call
// it makes, "METHOD /path" as in its row of the index, and every exported
// method of a service is in the index.
func TestOperationsDocLines(t *testing.T) {
	rows := indexRows(t)
	docs := serviceDocs(t)
	require.NotEmpty(t, docs)
	for name, row := range rows {
		d, ok := docs[name]
		if !ok {
			t.Errorf("%s: no such method in the package's source", name)
			continue
		}
		line := row.HTTPMethod + " " + row.Path
		if !strings.Contains(d, line) {
			t.Errorf("%s: its doc comment lacks its line %q (row %s of the index)", name, line, row.Name)
		}
	}
	for name := range docs {
		if _, ok := rows[name]; !ok {
			t.Errorf("%s is exported but has no row in the index of operations", name)
		}
	}
}

// tableOperation is one row of docs/operations.md's table.
type tableOperation struct {
	name string // "Payouts.Create", from `client.Payouts.Create`
	http string // the HTTP cell
}

// operationsDoc is the document whose table lists the operations.
const operationsDoc = "docs/operations.md"

// tableOperations reads the first table of docs/operations.md, whose rows
// are | Operation | Method | HTTP | Refusals |, the Method cell like
// `client.Payouts.Create` and the HTTP cell like `POST /path`.
func tableOperations(t *testing.T) []tableOperation {
	t.Helper()
	text, err := os.ReadFile(operationsDoc)
	require.NoError(t, err)
	var out []tableOperation
	header := false
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if header {
				break // the table ended
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if !header {
			require.GreaterOrEqual(t, len(cells), 4, "%s: table header: %s", operationsDoc, line)
			require.Equal(t, []string{"Operation", "Method", "HTTP"}, cells[:3], "%s: table header", operationsDoc)
			require.True(t, strings.HasPrefix(cells[3], "Refusals"), "%s: table header: %s", operationsDoc, line)
			header = true
			continue
		}
		if strings.Trim(cells[0], "-: ") == "" {
			continue // the delimiter row
		}
		name, ok := strings.CutPrefix(strings.Trim(cells[1], "`"), "client.")
		require.True(t, ok, "%s: row %q: Method cell %q is not `client.Service.Method`", operationsDoc, cells[0], cells[1])
		out = append(out, tableOperation{name: name, http: cells[2]})
	}
	require.NotEmpty(t, out, "%s's table has no rows", operationsDoc)
	return out
}

// httpLine is the first `METHOD /path` of a table's HTTP cell.
var httpLine = regexp.MustCompile("`([A-Z]+ /[^`\\s]*)`")

// TestOperationsTable: docs/operations.md's table and the index agree
// both ways: every row of the index and every helper has a row of the
// table, and every method the table names (but Client.Do) is in the index,
// with the HTTP line of its row where the table gives one. An operation's
// own row must give it.
func TestOperationsTable(t *testing.T) {
	rows := indexRows(t)
	listed := make(map[string]bool)
	for _, r := range tableOperations(t) {
		if r.name == "Do" {
			continue
		}
		listed[r.name] = true
		row, ok := rows[r.name]
		if !ok {
			t.Errorf("%s lists client.%s, which the index of operations does not have", operationsDoc, r.name)
			continue
		}
		m := httpLine.FindStringSubmatch(r.http)
		if m == nil {
			if row.Name == r.name {
				t.Errorf("%s: the row of client.%s gives no `%s %s`", operationsDoc, r.name, row.HTTPMethod, row.Path)
			}
			continue
		}
		assert.Equal(t, row.HTTPMethod+" "+row.Path, m[1], "%s: the row of client.%s disagrees with the index", operationsDoc, r.name)
	}
	for name := range rows {
		if !listed[name] {
			t.Errorf("%s is in the index of operations but not in %s", name, operationsDoc)
		}
	}
}

// fillTemplate puts a distinct id in each placeholder of a path template.
func fillTemplate(path string) string {
	ids := []string{customerID.String(), bankID.String()}
	segs := strings.Split(path, "/")
	n := 0
	for i, s := range segs {
		if strings.HasPrefix(s, "{") {
			segs[i] = ids[n%len(ids)]
			n++
		}
	}
	return strings.Join(segs, "/")
}

// TestOperationsNameDoCalls: a call through Do to a path of the index is
// named as the typed method's call is, with the row's template; the
// remittance payout by the Client's path for it.
func TestOperationsNameDoCalls(t *testing.T) {
	ctx := context.Background()
	call := func(t *testing.T, method, path string, opts ...fiatramp.Option) fiatramp.CallInfo {
		t.Helper()
		rec := new(recorder)
		h := newHarness(t, append(opts, fiatramp.WithObserver(rec))...)
		h.mock.RegisterNoResponder(httpmock.NewStringResponder(400, fail("Refused", "BAD_REQUEST", `{}`)))
		var body any
		if method != "GET" {
			body = map[string]string{}
		}
		require.Error(t, h.client.Do(ctx, method, path, body, nil))
		require.Len(t, rec.calls, 1)
		return rec.calls[0]
	}
	for _, row := range fiatramp.Operations() {
		t.Run(row.Name, func(t *testing.T) {
			got := call(t, row.HTTPMethod, fillTemplate(row.Path))
			assert.Equal(t, row.Name, got.Operation)
			assert.Equal(t, row.Path, got.Route)
		})
	}
	t.Run("Payouts.CreateRemittance elsewhere", func(t *testing.T) {
		opt := fiatramp.WithRemittancePayoutPath("/pos/api/v2/remit")
		got := call(t, "POST", "/pos/api/v2/remit", opt)
		assert.Equal(t, "Payouts.CreateRemittance", got.Operation)
		assert.Equal(t, "/pos/api/v2/remit", got.Route)
		got = call(t, "POST", fiatramp.DefaultRemittancePayoutPath, opt)
		assert.Equal(t, "Client.Do", got.Operation, "the default path is no remittance payout when the Client has another")
	})
	t.Run("unknown", func(t *testing.T) {
		got := call(t, "GET", "/pos/api/v1/payout/"+payoutID.String()+"/x")
		assert.Equal(t, "Client.Do", got.Operation)
		assert.Equal(t, "/pos/api/v1/payout/{id}/x", got.Route)
	})
	t.Run("a method the index does not give the path", func(t *testing.T) {
		got := call(t, "PATCH", "/pos/api/v1/payout/balance")
		assert.Equal(t, "Client.Do", got.Operation)
	})
}

// TestOperationsListHelpersReuseTheirRow: the three calls of a list are
// one row: the iterator and the page of a link name the list's operation.
func TestOperationsListHelpersReuseTheirRow(t *testing.T) {
	for _, row := range fiatramp.Operations() {
		if row.Name != "Customers.ListBankAccounts" {
			continue
		}
		assert.True(t, slices.Equal([]string{"BankAccounts", "ListBankAccountsPage"}, row.Helpers), "%v", row.Helpers)
		return
	}
	t.Fatal("no Customers.ListBankAccounts row")
}

// ExampleOperations lists the payout operations of the index: what an
// Observer will call them, their HTTP call, how they are retried and the
// members their result must carry.
func ExampleOperations() {
	for _, op := range fiatramp.Operations() {
		if op.Service != "Payouts" {
			continue
		}
		fmt.Println(op.Name, op.HTTPMethod, op.Path, op.Safety, op.Required, op.Helpers)
	}
	// Output:
	// Payouts.GetBalance GET /pos/api/v1/payout/balance read [available_balance] []
	// Payouts.GetConfiguration GET /pos/api/v1/payout/configuration read [supported_assets] []
	// Payouts.GetRate GET /pos/api/v1/payout/fetch-rate read [rate] []
	// Payouts.List GET /pos/api/v1/payout/history read [results] [All ListPage]
	// Payouts.Create POST /pos/api/v1/payout/initiate create-once [id status] []
	// Payouts.SimulateStatus PATCH /pos/api/v1/payout/mock-payout-status update [payout_id payout_status] []
	// Payouts.CreateQuotation POST /pos/api/v1/payout/quotation create [id] []
	// Payouts.GetQuotation GET /pos/api/v1/payout/quotation/{quotation_id} read [id] [Reconcile ReconcileOutcome]
	// Payouts.LinkTransfer PATCH /pos/api/v1/payout/update-transfer-id update [exchange_order_id exchange_transfer_id] []
	// Payouts.Get GET /pos/api/v1/payout/{payout_id} read [id status] [Wait]
	// Payouts.CreatePrefunded POST /pos/api/v1/prefunded/payout/initiate create-once [id status] []
	// Payouts.CreateRemittance POST /pos/api/v1/remittance-payout/initiate create-once [id] []
	// Payouts.SaveEDD POST /ren/api/v1/payout/edd/save create-once [id status] []
	// Payouts.GetLimits GET /ren/api/v1/payout/limits/{customer_id} read [available_limit] []
}

// apiPath is an HTTP path of the service in a doc comment.
var apiPath = regexp.MustCompile(`/(pos|pis|cms|ren|org)/api/v1/|/widget/initialize`)

// docProblems returns why the package doc and the docs of Client and the
// services' types could go stale: the package doc must name the services
// as the Client's fields are, in their order; the others must name no HTTP
// path (each method's own doc names its call, and Operations lists them).
func docProblems(packageDoc string, typeDocs map[string]string, services []string) []string {
	var problems []string
	flat := strings.Join(strings.Fields(packageDoc), " ")
	list := strings.Join(services[:len(services)-1], ", ") + " and " + services[len(services)-1]
	if !strings.Contains(flat, "one value per service of the API: "+list+".") {
		problems = append(problems, "the package doc does not name the services as the Client has them: "+list)
	}
	for _, name := range slices.Sorted(maps.Keys(typeDocs)) {
		if m := apiPath.FindString(typeDocs[name]); m != "" {
			problems = append(problems, name+"'s doc lists an operation ("+m+"...): leave that to its methods and Operations")
		}
	}
	return problems
}

// TestPackageAndServiceDocsCannotGoStale: the package doc names the
// services the Client has, and the docs of Client and of each service
// enumerate no operations, so that adding one changes neither. A doc that
// lists a path, or a service the Client lacks, is caught.
func TestPackageAndServiceDocsCannotGoStale(t *testing.T) {
	pkg := packageDoc(t)
	names := services(t)
	typeDocs := make(map[string]string)
	for _, typ := range pkg.Types {
		if typ.Name == "Client" || serviceAPIs[strings.TrimSuffix(typ.Name, "Service")] != nil && strings.HasSuffix(typ.Name, "Service") {
			typeDocs[typ.Name] = typ.Doc
		}
	}
	require.Len(t, typeDocs, len(names)+1, "Client and one type per service")
	assert.Empty(t, docProblems(pkg.Doc, typeDocs, names))

	assert.Equal(t, []string{
		"the package doc does not name the services as the Client has them: " + strings.Join(names[:len(names)-1], ", ") + ", Extra and " + names[len(names)-1],
		"PayoutsService's doc lists an operation (/pos/api/v1/...): leave that to its methods and Operations",
	}, docProblems(pkg.Doc, map[string]string{"PayoutsService": "fetch by id (GET /pos/api/v1/payout/{payout_id})"},
		append(append(slices.Clone(names[:len(names)-1]), "Extra"), names[len(names)-1])))
}

// TestResponsesTableFollowsTheIndex: the table of required members in
// docs/responses.md has one row per operation of the index, in its order,
// each naming the members the row requires (before any parenthesis, which
// holds notes).
func TestResponsesTableFollowsTheIndex(t *testing.T) {
	text, err := os.ReadFile("docs/responses.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(text), "| Operation | Result | Required members |\n")
	require.True(t, ok, "docs/responses.md has no table of required members")
	span := regexp.MustCompile("`([^`]+)`")
	var names []string
	members := make(map[string][]string)
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if strings.HasPrefix(cells[0], "---") {
			continue
		}
		require.Len(t, cells, 3, line)
		name := span.FindStringSubmatch(cells[0])
		require.NotNil(t, name, line)
		names = append(names, name[1])
		required, _, _ := strings.Cut(cells[2], "(")
		for _, m := range span.FindAllStringSubmatch(required, -1) {
			members[name[1]] = append(members[name[1]], m[1])
		}
	}
	var want []string
	for _, row := range fiatramp.Operations() {
		want = append(want, row.Name)
		assert.Equal(t, row.Required, members[row.Name], "docs/responses.md: the required members of %s", row.Name)
	}
	assert.Equal(t, want, names, "docs/responses.md: one row per operation, in the index's order")
}
