package main

// The command table against the library's index of operations, and the
// overview the help prints from it.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// tools are the commands that are not one operation of the library.
var tools = map[string]bool{
	"sign": true, "call": true, "webhook verify": true, "webhook send": true,
	// Reads several operations to settle one create.
	"payouts reconcile": true,
}

// commandTableProblems lists what is wrong with cs against ops: a command
// whose operation is not a row (or a row's helper) of ops, a command not
// named as its operation, a tool that is not in tools, a name or an
// operation given twice.
func commandTableProblems(cs []*command, ops []fiatramp.OperationInfo) []string {
	known := map[string]bool{}
	for _, op := range ops {
		known[op.Name] = true
		for _, h := range op.Helpers {
			known[op.Service+"."+h] = true
		}
	}
	var problems []string
	names, calls := map[string]bool{}, map[string]string{}
	for _, c := range cs {
		if names[c.name] {
			problems = append(problems, fmt.Sprintf("%s: named twice", c.name))
		}
		names[c.name] = true
		switch {
		case c.op == "" && !tools[c.name]:
			problems = append(problems, fmt.Sprintf("%s: calls no operation and is not a tool", c.name))
		case c.op == "":
		case !known[c.op]:
			problems = append(problems, fmt.Sprintf("%s: %s is not an operation or helper of the library", c.name, c.op))
		case commandName(c.op) != c.name:
			problems = append(problems, fmt.Sprintf("%s: calls %s, so it is named %q", c.name, c.op, commandName(c.op)))
		case calls[c.op] != "":
			problems = append(problems, fmt.Sprintf("%s: %s already has the command %q", c.name, c.op, calls[c.op]))
		default:
			calls[c.op] = c.name
		}
	}
	return problems
}

// TestCommandsAreOperations: every command that calls one operation is
// named as the library's method (service, then the method in kebab case)
// and maps to a row of fiatramp.Operations (the method or a helper), each
// row to at most one command; the other commands are the tools.
func TestCommandsAreOperations(t *testing.T) {
	ops := fiatramp.Operations()
	assert.Empty(t, commandTableProblems(commands(), ops))

	var without []string
	for _, op := range ops {
		covered := false
		for _, c := range commands() {
			if c.op == op.Name || strings.HasPrefix(c.op, op.Service+".") && contains(op.Helpers, strings.TrimPrefix(c.op, op.Service+".")) {
				covered = true
			}
		}
		if !covered {
			without = append(without, op.Name)
		}
	}
	t.Logf("operations without a command (fiatramp call reaches them): %s", strings.Join(without, ", "))

	// The check can fail.
	broken := []*command{
		{name: "payouts balance", op: "Payouts.GetBalance"},
		{name: "payouts cancel", op: "Payouts.Cancel"},
		{name: "customers bank-accounts", op: "Customers.BankAccounts"},
		{name: "customers list-bank-accounts", op: "Customers.BankAccounts"},
		{name: "payouts get", op: "Payouts.Get"},
		{name: "payouts get", op: "Payouts.Get"},
		{name: "payouts export"},
		{name: "sign"},
	}
	assert.Equal(t, []string{
		`payouts balance: calls Payouts.GetBalance, so it is named "payouts get-balance"`,
		`payouts cancel: Payouts.Cancel is not an operation or helper of the library`,
		`customers list-bank-accounts: calls Customers.BankAccounts, so it is named "customers bank-accounts"`,
		`payouts get: named twice`,
		`payouts get: Payouts.Get already has the command "payouts get"`,
		`payouts export: calls no operation and is not a tool`,
	}, commandTableProblems(broken, ops))
}

// TestCommandFilesNamedLikeClientFiles: the command calling an operation
// (its constructor, lowerCamel of the service and the method followed by
// "Command", as payoutsGetRateCommand) lives in the file whose base name is
// the library's file defining the method (payouts_rates.go), so that one
// name finds the method, its sandbox handler and its command.
func TestCommandFilesNamedLikeClientFiles(t *testing.T) {
	methods := declaredIn(t, filepath.Join("..", ".."), func(fn *ast.FuncDecl) string {
		if fn.Recv == nil || len(fn.Recv.List) != 1 {
			return ""
		}
		star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
		if !ok {
			return ""
		}
		recv, ok := star.X.(*ast.Ident)
		if !ok || !strings.HasSuffix(recv.Name, "Service") {
			return ""
		}
		return strings.TrimSuffix(recv.Name, "Service") + "." + fn.Name.Name
	})
	funcs := declaredIn(t, ".", func(fn *ast.FuncDecl) string {
		if fn.Recv != nil {
			return ""
		}
		return fn.Name.Name
	})
	require.NotEmpty(t, methods)
	checked := 0
	for _, c := range commands() {
		if c.op == "" {
			continue
		}
		service, method, _ := strings.Cut(c.op, ".")
		constructor := strings.ToLower(service) + method + "Command"
		client, ok := methods[c.op]
		if !assert.True(t, ok, "%s: no method %s in the library", c.name, c.op) {
			continue
		}
		file, ok := funcs[constructor]
		if !assert.True(t, ok, "%s: no func %s in cmd/fiatramp", c.name, constructor) {
			continue
		}
		assert.Equal(t, client, file, "%s (%s) is defined in %s", c.name, c.op, client)
		checked++
	}
	assert.Greater(t, checked, 30)
}

// declaredIn maps name(decl) to the base name of the file declaring it,
// for every function of the package in dir (test files left out) for
// which name gives a name.
func declaredIn(t *testing.T, dir string, name func(*ast.FuncDecl) string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.SkipObjectResolution)
	require.NoError(t, err)
	out := map[string]string{}
	for _, pkg := range pkgs {
		for path, f := range pkg.Files {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok {
					if n := name(fn); n != "" {
						out[n] = filepath.Base(path)
					}
				}
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCommandName(t *testing.T) {
	for op, want := range map[string]string{
		"Payouts.GetBalance":             "payouts get-balance",
		"Payouts.SaveEDD":                "payouts save-edd",
		"KYC.GetConfiguration":           "kyc get-configuration",
		"KYC.UpdateTaxInfo":              "kyc update-tax-info",
		"Organization.SetWebhookURL":     "organization set-webhook-url",
		"Customers.BankAccounts":         "customers bank-accounts",
		"Widget.Initialize":              "widget initialize",
		"Customers.ListBankAccountsPage": "customers list-bank-accounts-page",
		"Payouts.Get":                    "payouts get",
	} {
		assert.Equal(t, want, commandName(op), op)
	}
}

// TestOverviewGroupedByService: "fiatramp help" lists every command once,
// under its service's heading, the services in the order of the library's
// index and the tools last, every summary starting in the same column;
// two calls print the same text.
func TestOverviewGroupedByService(t *testing.T) {
	whole := overview()
	assert.Equal(t, whole, overview(), "stable")
	_, text, _ := strings.Cut(whole, "\nUsage:\n")
	text, _, _ = strings.Cut(text, usageOutro)

	var services []string
	for _, op := range fiatramp.Operations() {
		if !contains(services, op.Service) {
			services = append(services, op.Service)
		}
	}
	headings := regexp.MustCompile(`(?m)^([A-Za-z]+):$`).FindAllStringSubmatch(text, -1)
	var got []string
	for _, h := range headings {
		got = append(got, h[1])
	}
	var want []string
	for _, s := range services {
		for _, c := range commands() {
			if serviceOf(strings.Fields(c.name)[0]) == s {
				want = append(want, s)
				break
			}
		}
	}
	assert.Equal(t, append(want, "Tools"), got)

	for _, c := range commands() {
		section := sectionOf(text, "\tfiatramp "+c.name+" ")
		want := "Tools"
		if s := serviceOf(strings.Fields(c.name)[0]); s != "" {
			want = s
		}
		assert.Equal(t, want, section, c.name)
		assert.Equal(t, 1, strings.Count(text, "\tfiatramp "+c.name+" "), c.name)
	}

	summaryColumn := map[int]bool{}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "\tfiatramp ") {
			continue
		}
		i := strings.Index(line, "  ")
		summaryColumn[i+len(line[i:])-len(strings.TrimLeft(line[i:], " "))] = true
	}
	assert.Len(t, summaryColumn, 1, "the summaries start in one column")
}

// sectionOf is the heading above the line of text that starts with prefix.
func sectionOf(text, prefix string) string {
	heading := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasSuffix(line, ":") && !strings.HasPrefix(line, "\t") && !strings.Contains(line, " ") {
			heading = strings.TrimSuffix(line, ":")
		}
		if strings.HasPrefix(line, prefix) {
			return heading
		}
	}
	return ""
}
