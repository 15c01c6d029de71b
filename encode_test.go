package fiatramp_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

var updateGolden = flag.Bool("update-request-golden", false, "rewrite testdata/requests.golden from the current code")

// recordTransport answers every request with a bare success envelope and
// records what was sent: method, path, body and signature.
type recordTransport struct{ log *strings.Builder }

func (rt recordTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		_ = req.Body.Close()
	}
	fmt.Fprintf(rt.log, "%s %s\nbody %s\nsig %s\n", req.Method, req.URL.Path, strconv.Quote(string(body)), req.Header.Get("X-Signature"))
	return &http.Response{
		StatusCode: 200, Header: http.Header{}, Request: req,
		Body: io.NopCloser(strings.NewReader(`{"status":true,"data":{}}`)),
	}, nil
}

// TestRequestBytesGolden pins the exact bytes sent (and signed) for every
// request type, over inputs that exercise the service's escaping (non-ASCII,
// control characters, HTML characters, invalid UTF-8, long decimals). The
// golden file was written by the code before request types wrote their own
// canonical JSON; any change to a body byte fails here.
func TestRequestBytesGolden(t *testing.T) {
	var log strings.Builder
	c, err := fiatramp.New(testKey, testSecret,
		fiatramp.WithBaseURL(testBase),
		fiatramp.WithHTTPClient(&http.Client{Transport: recordTransport{&log}}),
		fiatramp.WithClock(func() time.Time { return testNow }),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}),
		fiatramp.WithClientReferenceGenerator(nil),
	)
	require.NoError(t, err)
	ctx := context.Background()
	texts := []string{
		"", "ref-1", "é€😀", `<a href="x">&amp;</a>`, "tab\tnl\ncr\rbs\\q\"/", "\x00\x01\x1f\x7f",
		"\u2028\u2029\ufeff", "bad\xffutf8\xc3", "\U0010ffff\ud7ff\ue000", strings.Repeat("z", 300),
	}
	amounts := []string{"2600.50", "0.000000001", "1", "123456789012345678901234567890.1200", "5e3", "-0", "1.5E-7", "100"}
	step := func(name string) { fmt.Fprintf(&log, "== %s\n", name) }
	for i, s := range texts {
		step("payout create " + strconv.Itoa(i))
		_, _ = c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ExchangeOrderID: s, ClientReferenceID: s})
		step("prefunded create " + strconv.Itoa(i))
		_, _ = c.Payouts.CreatePrefunded(ctx, types.CreatePrefundedPayoutRequest{QuotationID: quotationID,
			Customer: types.PrefundedCustomer{Sender: types.CustomerRef{ID: senderID}, Receiver: types.CustomerRef{ID: customerID}}, ClientReferenceID: s})
		step("remittance create " + strconv.Itoa(i))
		_, _ = c.Payouts.CreateRemittance(ctx, types.CreateRemittancePayoutRequest{QuotationID: quotationID, CustomerID: customerID,
			RemitterID: remitterID, ClientReferenceID: s, TransactionHash: s + "0xabc"})
		step("add wallet " + strconv.Itoa(i))
		_, _ = c.Customers.AddWallet(ctx, types.AddWalletRequest{CustomerID: customerID, WalletAddress: "w" + s})
		step("payin quotation " + strconv.Itoa(i))
		_, _ = c.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
			Asset: "USDT" + s, Fiat: "InR" + s, SendingAmount: decimal.RequireFromString(amounts[i%len(amounts)]),
			CustomerID: customerID, BankID: bankID, PaymentMethod: []types.PaymentMethod{types.PaymentMethodIMPS, types.PaymentMethodUPI}[i%2],
			RiskParameters: types.RiskParameters{IPAddress: s, DeviceID: s, SuspiciousActivityReport: i%2 == 0, LawEnforcementAgencyReport: i%3 == 0},
		})
	}
	for _, a := range amounts {
		step("payin quotation amount " + a)
		_, _ = c.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{
			Asset: "usdt", Fiat: "inr", SendingAmount: decimal.RequireFromString(a).Abs().Add(decimal.New(1, -30)),
			CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodUPI,
		})
	}
	step("payin quotation exponent")
	_, _ = c.Payins.CreateQuotation(ctx, types.CreatePayinQuotationRequest{Asset: "usdt", Fiat: "inr", SendingAmount: decimal.New(5, 3),
		CustomerID: customerID, BankID: bankID, PaymentMethod: types.PaymentMethodUPI})
	for _, st := range types.PayoutStatus("").Values() {
		step("payout simulate " + string(st))
		_, _ = c.Payouts.SimulateStatus(ctx, payoutID, st)
	}
	for _, st := range types.PayinStatus("").Values() {
		step("payin simulate " + string(st))
		_, _ = c.Payins.SimulateStatus(ctx, payoutID, st)
	}
	for _, st := range types.KYCStatus("").Values() {
		step("kyc simulate " + string(st))
		_, _ = c.KYC.SimulateStatus(ctx, customerID, st)
	}
	for _, st := range types.BankAccountStatus("").Values() {
		step("bank simulate " + string(st))
		_, _ = c.Customers.SimulateBankVerification(ctx, customerID, bankID, st)
	}
	step("gets")
	_, _ = c.Payouts.Get(ctx, payoutID)
	_, _ = c.Payouts.GetBalance(ctx)
	_, _ = c.Payins.GetQuotation(ctx, payinQuotation)
	_, _ = c.Customers.GetBankAccount(ctx, customerID, bankID)
	_, _ = c.Customers.ListBankAccounts(ctx, customerID)
	_, _ = c.KYC.GetConfiguration(ctx, customerID)
	for i, s := range texts {
		step("payin initiate " + strconv.Itoa(i))
		_, _ = c.Payins.Initiate(ctx, types.InitiatePayinRequest{QuotationID: payinQuotation, CustomerID: customerID, UTR: "u" + s, ClientReferenceID: s})
		step("payin link transfer " + strconv.Itoa(i))
		_, _ = c.Payins.LinkTransfer(ctx, types.LinkPayinTransferRequest{PayinID: payoutID, ExchangeTransferID: "t" + s})
	}
	step("payin reads")
	_, _ = c.Payins.Get(ctx, payoutID)
	_, _ = c.Payins.List(ctx, types.PayinListFilter{})
	_, _ = c.Payins.List(ctx, types.PayinListFilter{Status: "ON HOLD&x=1", CustomerID: customerID,
		StartDate: testNow, EndDate: testNow.AddDate(0, 1, 0)})
	for i, body := range []any{
		map[string]any{"z": 1, "a": []any{"é", 1.5, nil, true}, "m": map[string]string{"k": "<&>"}},
		json.RawMessage(` {"b" : 1.10, "a":"\u00e9\ud83d\ude00", "a":2, "c":1E2} `),
		[]byte(`[1,2,{"y":"x","x":"y"}]`),
		struct {
			B string `json:"b"`
			A int    `json:"a"`
		}{"<>", 3},
	} {
		step("do " + strconv.Itoa(i))
		_ = c.Do(ctx, http.MethodPost, "/pos/api/v1/anything", body, nil)
	}

	for i, s := range texts {
		step("payout create with hash " + strconv.Itoa(i))
		_, _ = c.Payouts.Create(ctx, types.CreatePayoutRequest{QuotationID: quotationID, CustomerID: customerID, ClientReferenceID: "ref-h", TransactionHash: s})
		step("payout quotation " + strconv.Itoa(i))
		_, _ = c.Payouts.CreateQuotation(ctx, types.CreatePayoutQuotationRequest{
			Asset: "USDT" + s, Fiat: "InR" + s, SendingAmount: decimal.RequireFromString(amounts[i%len(amounts)]).Abs().Add(decimal.New(1, -9)),
			CustomerID: customerID, BankID: bankID, Network: s,
			RiskParameters: types.RiskParameters{IPAddress: s, DeviceID: s, SuspiciousActivityReport: i%2 == 0, LawEnforcementAgencyReport: i%3 == 0},
		})
		step("link transfer " + strconv.Itoa(i))
		_, _ = c.Payouts.LinkTransfer(ctx, types.LinkTransferRequest{ExchangeOrderID: "o" + s, ExchangeTransferID: "t" + s})
	}
	step("payout quotation fetch and history")
	_, _ = c.Payouts.GetQuotation(ctx, quotationID)
	_, _ = c.Payouts.List(ctx, types.PayoutListFilter{})

	const path = "testdata/requests.golden"
	if *updateGolden {
		require.NoError(t, os.WriteFile(path, []byte(log.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), log.String())
}

// bodyEncoderProblems checks that every request body encoder of the Go
// sources files (name to text) is declared one way: a package-level
// `var xBody = compileBody[T]()` right before the one function that sends
// it, in that function's file (never in encode.go, which holds the
// encoder itself). It returns one line per encoder declared otherwise.
func bodyEncoderProblems(files map[string]string) []string {
	fset := token.NewFileSet()
	type encoder struct {
		file string
		next string // the function declared right after it, "" if none
	}
	encoders := make(map[string]encoder)
	users := make(map[string][]string)
	var problems []string
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, files[name], 0)
		if err != nil {
			return []string{err.Error()}
		}
		for i, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				ast.Inspect(fn, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						users[id.Name] = append(users[id.Name], fn.Name.Name)
					}
					return true
				})
				continue
			}
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for j, v := range vs.Values {
					call, ok := v.(*ast.CallExpr)
					if !ok {
						continue
					}
					idx, ok := call.Fun.(*ast.IndexExpr)
					if !ok {
						continue
					}
					if id, ok := idx.X.(*ast.Ident); !ok || id.Name != "compileBody" {
						continue
					}
					e := encoder{file: name}
					if len(gen.Specs) > 1 {
						problems = append(problems, fmt.Sprintf("%s: %s is declared in a block with others", name, vs.Names[j].Name))
					}
					if i+1 < len(f.Decls) {
						if fn, ok := f.Decls[i+1].(*ast.FuncDecl); ok {
							e.next = fn.Name.Name
						}
					}
					encoders[vs.Names[j].Name] = e
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(encoders)) {
		e := encoders[name]
		switch u := slices.Compact(slices.Sorted(slices.Values(users[name]))); {
		case e.file == "encode.go":
			problems = append(problems, fmt.Sprintf("%s: %s belongs beside the method that sends it", e.file, name))
		case len(u) != 1:
			problems = append(problems, fmt.Sprintf("%s: %s is sent by %d functions %v, not one", e.file, name, len(u), u))
		case e.next != u[0]:
			problems = append(problems, fmt.Sprintf("%s: %s is not declared right before %s, which sends it", e.file, name, u[0]))
		}
	}
	return problems
}

// TestBodyEncodersDeclaredOneWay: every body encoder is declared beside
// the method that sends it, right before it, so that adding an operation
// touches its own file only.
func TestBodyEncodersDeclaredOneWay(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	files := make(map[string]string)
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			files[name] = string(b)
		}
	}
	assert.Empty(t, bodyEncoderProblems(files))

	// Declared the other ways, each is named.
	assert.Equal(t, []string{
		"a.go: aBody is declared in a block with others",
		"a.go: bBody is declared in a block with others",
		"a.go: aBody is not declared right before A, which sends it",
		"a.go: bBody is sent by 2 functions [A B], not one",
		"encode.go: cBody belongs beside the method that sends it",
	}, bodyEncoderProblems(map[string]string{
		"a.go": "package p\nvar (\n\taBody = compileBody[int]()\n\tbBody = compileBody[int]()\n)\n" +
			"func B() { bBody(1) }\nfunc A() { aBody(1); bBody(2) }\n",
		"encode.go": "package p\nvar cBody = compileBody[int]()\nfunc C() { cBody(1) }\n",
	}))
}
