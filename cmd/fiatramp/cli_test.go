package main

// The commands that call the service, run as a user runs them: the binary,
// built once in TestMain, executed against a sandbox served in-process,
// judged by its stdout, stderr and exit status, and by the requests the
// sandbox received.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
)

// binary is the path of the fiatramp binary TestMain built.
var binary string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "fiatramp-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "fiatramp")
	build := exec.Command("go", "build", "-o", binary, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the binary: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// seen is one request the sandbox received.
type seen struct {
	Method, Path, Query string
	Header              http.Header
	Body                []byte
}

// world is a sandbox served in-process, recording each request.
type world struct {
	sb   *sandbox.Sandbox
	demo sandbox.Demo
	url  string
	env  []string

	mu   sync.Mutex
	reqs []seen
}

func (w *world) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.mu.Lock()
	w.reqs = append(w.reqs, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
	w.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	w.sb.ServeHTTP(rw, r)
}

// requests returns the requests received so far and forgets them.
func (w *world) requests() []seen {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.reqs
	w.reqs = nil
	return out
}

func newWorld(t *testing.T, opts ...sandbox.Option) *world {
	t.Helper()
	w := &world{sb: sandbox.New(opts...)}
	var err error
	w.demo, err = w.sb.SeedDemo()
	require.NoError(t, err)
	srv := httptest.NewServer(w)
	t.Cleanup(srv.Close)
	w.url = srv.URL
	w.env = []string{
		fiatramp.EnvBaseURL + "=" + srv.URL,
		fiatramp.EnvAPIKey + "=" + w.demo.Organization.APIKey,
		fiatramp.EnvAPISecret + "=" + w.demo.Organization.APISecret,
	}
	return w
}

// result is what one run of the binary gave.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// cli runs the binary with env (and PATH, HOME) and stdin.
func cli(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "running %v: %v", args, err)
		code = ee.ExitCode()
	}
	return result{out.String(), errOut.String(), code}
}

// compact is raw without white space, for comparing JSON texts.
func compact(t *testing.T, raw string) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, []byte(raw)), raw)
	return b.String()
}

// signedBy checks the authentication headers of r against the demo
// organization and returns the signed body.
func (w *world) checkSigned(t *testing.T, r seen) {
	t.Helper()
	assert.Equal(t, w.demo.Organization.APIKey, r.Header.Get("X-Api-Key"))
	signed := r.Body
	if r.Method == http.MethodGet || len(signed) == 0 {
		signed = []byte("{}")
	}
	var ts int64
	_, err := fmt.Sscan(r.Header.Get("X-Timestamp"), &ts)
	require.NoError(t, err)
	assert.InDelta(t, time.Now().Unix(), ts, 60)
	assert.Equal(t, fiatramp.Sign(w.demo.Organization.APIKey, w.demo.Organization.APISecret, ts, signed), r.Header.Get("X-Signature"))
	assert.True(t, strings.HasPrefix(r.Header.Get("User-Agent"), "fiatramp-cli fiatramp-go/"), r.Header.Get("User-Agent"))
}

func TestCLIPayoutsBalance(t *testing.T) {
	w := newWorld(t)
	// More digits than a float64 holds: the output must keep every one.
	require.NoError(t, w.sb.SetBalance(w.demo.Organization.ID, "USDC", decimal.RequireFromString("12345678901234567890.123456789")))

	r := cli(t, w.env, "", "payouts", "balance")
	require.Equal(t, 0, r.code, r)
	assert.Empty(t, r.stderr)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `{"USDC":"12345678901234567890.123456789","USDT":"1000"}`, compact(t, string(got["available_balance"])))
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/balance", reqs[0].Path)
	assert.Empty(t, reqs[0].Body)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "payouts", "balance", "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, "ASSET  AVAILABLE\nUSDC   12345678901234567890.123456789\nUSDT   1000\n", r.stdout)
}

func TestCLIPayoutsCreateGet(t *testing.T) {
	w := newWorld(t)
	q, cust := w.demo.Quotations[0].ID.String(), w.demo.Customer.ID.String()

	// No terminal, no --yes: refused, nothing sent.
	r := cli(t, w.env, "yes\n", "payouts", "create", "-quotation", q, "-customer", cust, "-reference", "cli-1")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "pass --yes")
	assert.Contains(t, r.stderr, "Create a payout of quotation "+q)
	assert.Empty(t, r.stdout)
	assert.Empty(t, w.requests())
	assert.Empty(t, w.sb.Payouts(w.demo.Organization.ID))

	r = cli(t, w.env, "", "payouts", "create", "-quotation", q, "-customer", cust, "-reference", "cli-1", "--yes")
	require.Equal(t, 0, r.code, r)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/initiate", reqs[0].Path)
	assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
	assert.Equal(t, `{"client_reference_id":"cli-1","customer_id":"`+cust+`","quotation_id":"`+q+`"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	stored, ok := w.sb.PayoutByReference(w.demo.Organization.ID, "cli-1")
	require.True(t, ok)
	created := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `"`+stored.ID.String()+`"`, string(created["id"]))
	assert.Equal(t, `"PROCESSING"`, string(created["status"]))
	assert.Equal(t, "882.5", string(created["receiving_amount"]), "a number stays the number sent")

	// A generated reference when none is given, named in the output.
	r = cli(t, w.env, "", "payouts", "create", "-quotation", w.demo.Quotations[1].ID.String(), "-customer", cust, "--yes")
	require.Equal(t, 0, r.code, r)
	reqs = w.requests()
	require.Len(t, reqs, 1)
	var body map[string]string
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	assert.True(t, strings.HasPrefix(body["client_reference_id"], "cli-"), body["client_reference_id"])
	assert.Contains(t, r.stdout, body["client_reference_id"])

	// Refused by the service: exit 1, status, message and sentinel.
	r = cli(t, w.env, "", "payouts", "create", "-quotation", q, "-customer", cust, "-reference", "cli-3", "--yes")
	assert.Equal(t, 1, r.code, r)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "fiatramp: HTTP 400: Quotation is already linked to another payout\n")
	assert.Contains(t, r.stderr, "  status: 400\n")
	assert.Contains(t, r.stderr, "  message: Quotation is already linked to another payout\n")
	assert.Contains(t, r.stderr, "  sentinel: ErrQuotationAlreadyLinked\n")
	w.requests()

	// An expired quotation: the sentinel names the refusal.
	expired, err := w.sb.AddQuotation(sandbox.Quotation{
		CustomerID: w.demo.Customer.ID, SendingAmount: decimal.NewFromInt(5), ExpiresAt: time.Now().Add(-time.Minute),
	})
	require.NoError(t, err)
	r = cli(t, w.env, "", "payouts", "create", "-quotation", expired.ID.String(), "-customer", cust, "--yes")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "  message: Quotation has expired\n")
	assert.Contains(t, r.stderr, "  sentinel: ErrQuotationExpired\n")
	w.requests()

	// get, as JSON and as a table; flags after the argument work too.
	r = cli(t, w.env, "", "payouts", "get", stored.ID.String())
	require.Equal(t, 0, r.code, r)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `"`+stored.ID.String()+`"`, string(got["id"]))
	assert.Equal(t, `"882.5"`, string(got["receiveing_amount"]), "the fetch spelling and string, as sent")
	reqs = w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/pos/api/v1/payout/"+stored.ID.String(), reqs[0].Path)
	assert.Empty(t, reqs[0].Body)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "payouts", "get", stored.ID.String(), "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^receiving_amount +882\.5$`, r.stdout)
	assert.Regexp(t, `(?m)^client_reference_id +cli-1$`, r.stdout)
	assert.Regexp(t, `(?m)^utr +-$`, r.stdout)

	// Unknown payout: refused; a bad id: exit 2, nothing sent.
	r = cli(t, w.env, "", "payouts", "get", uuid.NewString())
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "status: 400")
	w.requests()
	r = cli(t, w.env, "", "payouts", "get", "not-a-uuid")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, `PAYOUT_ID "not-a-uuid" is not a uuid`)
	assert.Empty(t, w.requests())
}

// A create whose answer is lost exits 3 and says how to reconcile; the
// repeat it suggests is refused as a duplicate, so nothing is paid twice.
func TestCLIPayoutsCreateOutcomeUnknown(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.sb.InjectFault(sandbox.Fault{Kind: sandbox.FaultDropAfter, Path: "/pos/api/v1/payout/initiate", Count: 1}))
	args := []string{"payouts", "create", "-quotation", w.demo.Quotations[0].ID.String(),
		"-customer", w.demo.Customer.ID.String(), "-reference", "lost-1", "--yes"}

	r := cli(t, w.env, "", args...)
	assert.Equal(t, 3, r.code, r)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "fiatramp: outcome unknown: POST /pos/api/v1/payout/initiate")
	assert.Contains(t, r.stderr, "sentinel: ErrOutcomeUnknown")
	assert.Contains(t, r.stderr, "--reference lost-1")
	_, stored := w.sb.PayoutByReference(w.demo.Organization.ID, "lost-1")
	assert.True(t, stored, "the drop came after the effect")

	r = cli(t, w.env, "", args...)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "ErrClientReferenceExists")
	assert.Len(t, w.sb.Payouts(w.demo.Organization.ID), 1)
}

func TestCLICustomersBanks(t *testing.T) {
	w := newWorld(t, func(s *sandbox.Settings) { s.PageSize = 1 })
	_, err := w.sb.AddBankAccount(sandbox.BankAccount{
		CustomerID: w.demo.Customer.ID, AccountNumber: "999900001111", IFSC: "HDFC0000002",
		AccountName: "Evil\x1b[31mRed", BankName: "HDFC",
	})
	require.NoError(t, err)
	cust := w.demo.Customer.ID.String()

	r := cli(t, w.env, "", "customers", "banks", cust)
	require.Equal(t, 0, r.code, r)
	var items []map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &items))
	require.Len(t, items, 3, "every page")
	assert.Equal(t, w.demo.BankAccount.ID.String(), items[0]["id"])
	assert.Equal(t, w.demo.VPA.ID.String(), items[1]["id"])
	reqs := w.requests()
	require.Len(t, reqs, 3)
	for i, want := range []string{"", "page=2", "page=3"} {
		assert.Equal(t, http.MethodGet, reqs[i].Method)
		assert.Equal(t, "/cms/api/v1/bank/list/"+cust, reqs[i].Path)
		assert.Equal(t, want, reqs[i].Query)
		w.checkSigned(t, reqs[i])
	}

	r = cli(t, w.env, "", "customers", "banks", "-o", "table", cust)
	require.Equal(t, 0, r.code, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 4)
	assert.Regexp(t, `^ID +TYPE +STATUS +ACCOUNT_NUMBER +IFSC +VPA +NAME$`, lines[0])
	assert.Regexp(t, `^`+w.demo.VPA.ID.String()+` +vpa +VERIFIED +- +- +asha\.rao@upi +Asha Rao$`, lines[2])
	assert.NotContains(t, r.stdout, "\x1b", "a terminal escape from the service is not passed to the terminal")
	assert.Contains(t, lines[3], `"Evil\x1b[31mRed"`)

	// A customer of nobody: refused.
	r = cli(t, w.env, "", "customers", "banks", uuid.NewString())
	assert.Equal(t, 1, r.code, r)
	assert.Empty(t, r.stdout, "no partial list")
	assert.Contains(t, r.stderr, "sentinel: ErrCustomerNotFound")
}

func TestCLIKYCConfig(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()
	r := cli(t, w.env, "", "kyc", "config", cust)
	require.Equal(t, 0, r.code, r)
	got := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, `["AADHAAR","PASSPORT","VOTER_ID","DRIVING_LICENSE"]`, compact(t, string(got["supported_document_types"])))
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodGet, reqs[0].Method)
	assert.Equal(t, "/cms/api/v1/kyc/configuration/"+cust, reqs[0].Path)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "kyc", "config", "-o", "table", cust)
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^options +\["income_range","profession"\]$`, r.stdout)
}

func TestCLIPayinsQuote(t *testing.T) {
	w := newWorld(t)
	cust, vpa := w.demo.Customer.ID.String(), w.demo.VPA.ID.String()
	r := cli(t, w.env, "", "payins", "quote", "-customer", cust, "-bank", vpa, "-method", "upi",
		"-amount", "2600.50", "-ip", "203.0.113.9", "-device", "dev-1")
	require.Equal(t, 0, r.code, r)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "/pis/api/v1/payin/quotation", reqs[0].Path)
	assert.Equal(t, `{"asset":"usdt","bank_id":"`+vpa+`","customer_id":"`+cust+`","fiat":"inr","payment_method":"UPI",`+
		`"risk_parameters":{"device_id":"dev-1","ip_address":"203.0.113.9","law_enforcement_agency_report":false,"suspicious_activity_report":false},`+
		`"sending_amount":"2600.50"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	q := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, "2600.5", string(q["sending_amount"]))

	var id string
	require.NoError(t, json.Unmarshal(q["id"], &id))
	r = cli(t, w.env, "", "payins", "get", id, "-o", "table")
	require.Equal(t, 0, r.code, r)
	assert.Regexp(t, `(?m)^status +PROCESSING$`, r.stdout)
	assert.Regexp(t, `(?m)^pay_to_account +\d+$`, r.stdout)
	w.requests()

	// Refused: below the minimum.
	r = cli(t, w.env, "", "payins", "quote", "-customer", cust, "-bank", vpa, "-method", "UPI", "-amount", "100")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "sentinel: ErrAmountBelowMinimum")
	w.requests()

	// Bad input: exit 2, nothing sent.
	for _, bad := range [][]string{
		{"-amount", "1e3", "-method", "UPI"},
		{"-amount", "12.5.1", "-method", "UPI"},
		{"-amount", "-5", "-method", "UPI"},
		{"-amount", "2600", "-method", "CARD"},
		{"-amount", "2600"},
	} {
		r = cli(t, w.env, "", append([]string{"payins", "quote", "-customer", cust, "-bank", vpa}, bad...)...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests())
}

func TestCLICall(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()
	r := cli(t, w.env, "", "call", "GET", "/cms/api/v1/kyc/configuration/"+cust)
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, `"supported_document_types"`)
	reqs := w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/cms/api/v1/kyc/configuration/"+cust, reqs[0].Path)
	w.checkSigned(t, reqs[0])

	r = cli(t, w.env, "", "call", "get", "/pos/api/v1/payout/balance", "-envelope")
	require.Equal(t, 0, r.code, r)
	env := objectOf(json.RawMessage(r.stdout))
	assert.Equal(t, "true", string(env["status"]))
	assert.Contains(t, string(env["data"]), `"1000"`)
	w.requests()

	// A PATCH asks; without a terminal and --yes it sends nothing.
	r = cli(t, w.env, "", "payouts", "create", "-quotation", w.demo.Quotations[0].ID.String(), "-customer", cust, "-reference", "c-1", "--yes")
	require.Equal(t, 0, r.code, r)
	stored, _ := w.sb.PayoutByReference(w.demo.Organization.ID, "c-1")
	w.requests()
	body := `{ "payout_status": "SUCCESS", "payout_id": "` + stored.ID.String() + `" }`
	r = cli(t, w.env, "", "call", "PATCH", "/pos/api/v1/payout/mock-payout-status", body)
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "pass --yes")
	assert.Empty(t, w.requests())

	// From standard input, sent canonical.
	r = cli(t, w.env, body, "call", "PATCH", "/pos/api/v1/payout/mock-payout-status", "-", "--yes")
	require.Equal(t, 0, r.code, r)
	reqs = w.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, http.MethodPatch, reqs[0].Method)
	assert.Equal(t, `{"payout_id":"`+stored.ID.String()+`","payout_status":"SUCCESS"}`, string(reqs[0].Body))
	w.checkSigned(t, reqs[0])
	after, ok := w.sb.Payout(stored.ID)
	require.True(t, ok)
	assert.Equal(t, "SUCCESS", string(after.Status))

	// From a file; refused by the service.
	file := filepath.Join(t.TempDir(), "body.json")
	require.NoError(t, os.WriteFile(file, []byte(body), 0o600))
	r = cli(t, w.env, "", "call", "PATCH", "/pos/api/v1/payout/mock-payout-status", "@"+file, "--yes")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "status: 400")
	w.requests()

	// Bad input: exit 2, nothing sent.
	for _, bad := range [][]string{
		{"GET"},
		{"GET", "pos/api/v1/payout/balance"},
		{"GET", "/pos/api/v1/payout/balance", "{}"},
		{"POST", "/x", "{not json", "--yes"},
		{"POST", "/x", `{"amount": 12345678901234567.5}`, "--yes"},
		{"GET", "/x", "-o", "table"},
	} {
		r = cli(t, w.env, "", append([]string{"call"}, bad...)...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	assert.Empty(t, w.requests())
}

func TestCLICredentials(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()

	r := cli(t, nil, "", "kyc", "config", cust)
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "FIATRAMP_API_KEY and FIATRAMP_API_SECRET must be set")

	r = cli(t, w.env[:2], "", "payouts", "balance")
	assert.Equal(t, 2, r.code, r)

	// A wrong secret: refused as unauthorized, and the secret is never
	// printed.
	const secret = "sbx_secret_wrong_0123456789"
	env := append(w.env[:2:2], fiatramp.EnvAPISecret+"="+secret)
	r = cli(t, env, "", "kyc", "config", cust)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "status: 401")
	assert.Contains(t, r.stderr, "err_code: AUTH_INVALID_SIGNATURE")
	assert.Contains(t, r.stderr, "sentinel: ErrUnauthorized")
	assert.NotContains(t, r.stdout+r.stderr, secret)

	// The service cannot be reached: exit 1.
	env = append([]string{fiatramp.EnvBaseURL + "=http://127.0.0.1:1"}, w.env[1:]...)
	r = cli(t, env, "", "kyc", "config", cust, "-timeout", "3s")
	assert.Equal(t, 1, r.code, r)
}

func TestCLIHelp(t *testing.T) {
	r := cli(t, nil, "", "help")
	require.Equal(t, 0, r.code, r)
	for _, c := range commands() {
		assert.Contains(t, r.stdout, "fiatramp "+c.name+" ", c.name)

		words := strings.Fields(c.name)
		r := cli(t, nil, "", append([]string{"help"}, words...)...)
		require.Equal(t, 0, r.code, "%s: %s", c.name, r)
		assert.Contains(t, r.stdout, "Usage: fiatramp "+c.name)
		_, example, found := strings.Cut(r.stdout, "\nExample:\n\n\t")
		assert.True(t, found, c.name)
		assert.Contains(t, example, "fiatramp "+c.name+" ", "%s: the example runs the command", c.name)

		r = cli(t, nil, "", append(words, "-h")...)
		assert.Equal(t, 0, r.code, "%s -h: %s", c.name, r)
		assert.Contains(t, r.stderr, "Example:", c.name)
	}

	r = cli(t, nil, "", "payouts")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "fiatramp payouts get")
	assert.Contains(t, r.stderr, "fiatramp payouts balance")

	r = cli(t, nil, "", "payouts", "cancel")
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, `fiatramp: unknown command "payouts cancel"`)
	assert.Contains(t, r.stderr, "fiatramp payouts create")

	r = cli(t, nil, "", "help", "sandbox")
	assert.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "\nExample:\n\n\tfiatramp sandbox ")

	r = cli(t, nil, "", "help", "payouts")
	assert.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "fiatramp payouts get")

	r = cli(t, nil, "", "help", "nothing")
	assert.Equal(t, 2, r.code, r)

	r = cli(t, nil, "", "payouts", "get", "-x", uuid.NewString())
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "flag provided but not defined: -x")
}

// Every sentinel the library exports has its name in the table the
// messages use.
func TestSentinelTableComplete(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "../..", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	require.NoError(t, err)
	var exported []string
	for _, pkg := range pkgs {
		for _, file := range pkg.Files {
			for _, decl := range file.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					for _, name := range spec.(*ast.ValueSpec).Names {
						if strings.HasPrefix(name.Name, "Err") && name.IsExported() {
							exported = append(exported, name.Name)
						}
					}
				}
			}
		}
	}
	require.NotEmpty(t, exported)
	named := map[string]bool{}
	for _, s := range sentinels() {
		named[s.name] = true
	}
	for _, n := range exported {
		assert.True(t, named[n], "sentinel %s has no name in sentinels()", n)
	}
	assert.Len(t, sentinels(), len(exported))
}

func TestParseInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args, pos []string
		o         string
	}{
		{[]string{"ID", "-o", "table"}, []string{"ID"}, "table"},
		{[]string{"-o", "table", "A", "B"}, []string{"A", "B"}, "table"},
		{[]string{"A", "--", "-o", "table"}, []string{"A", "-o", "table"}, "json"},
		{[]string{"A", "-", "B"}, []string{"A", "-", "B"}, "json"},
		{nil, nil, "json"},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		o := fs.String("o", "json", "")
		pos, err := parseInterspersed(fs, tc.args)
		require.NoError(t, err, "%v", tc.args)
		assert.Equal(t, tc.pos, pos, "%v", tc.args)
		assert.Equal(t, tc.o, *o, "%v", tc.args)
	}
}

func TestConfirm(t *testing.T) {
	c := &command{name: "payouts create"}
	for answer, ok := range map[string]bool{"yes\n": true, "y\n": true, " YES \r\n": true, "no\n": false, "": false, "yess\n": false} {
		var errOut bytes.Buffer
		err := confirm(streams{in: strings.NewReader(answer), err: &errOut, inTTY: true}, c, "Create?")
		assert.Equal(t, ok, err == nil, "%q", answer)
		assert.Contains(t, errOut.String(), "Create?\nType yes to go ahead: ")
	}
	var errOut bytes.Buffer
	err := confirm(streams{in: strings.NewReader("yes\n"), err: &errOut}, c, "Create?")
	require.Error(t, err, "no terminal: no question, whatever stdin holds")
	assert.Contains(t, errOut.String(), "pass --yes")

	// The answer is read with a bound: "payouts create < /dev/zero" grew
	// the process to tens of gigabytes looking for a line break.
	z := &zeros{max: 64 << 20}
	errOut.Reset()
	err = confirm(streams{in: z, err: &errOut, inTTY: true}, c, "Create?")
	require.Error(t, err, "NUL bytes are not a yes")
	assert.LessOrEqual(t, z.n, 4096, "bytes read looking for the answer")
	assert.Contains(t, errOut.String(), "not confirmed; nothing was sent")
	// A long answer is refused, not read to its end.
	long := strings.Repeat(" ", 1<<20) + "yes\n"
	err = confirm(streams{in: strings.NewReader(long), err: &errOut, inTTY: true}, c, "Create?")
	require.Error(t, err)
}

// zeros is an endless run of NUL bytes, as /dev/zero gives (a character
// device, so stdinIsTerminal takes it for a terminal), failing after max
// bytes so that an unbounded reader stops; n counts what was read.
type zeros struct{ n, max int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n >= z.max {
		return 0, errors.New("read too far")
	}
	m := min(len(p), z.max-z.n)
	clear(p[:m])
	z.n += m
	return m, nil
}

// A service answering a shape the command does not expect gets a clear
// error and exit 1, never a silent success or a panic.
func TestCLIHostileAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		status     int
		args       []string
		want       string
	}{
		{"balance without available_balance", `{"status":true,"message":"ok","data":{"balance":{"USDT":"1"}}}`, 200,
			[]string{"payouts", "balance"}, `response data has no "available_balance"`},
		{"balance amount not a number", `{"status":true,"message":"ok","data":{"available_balance":{"USDT":"x"}}}`, 200,
			[]string{"payouts", "balance"}, "Balance.available_balance.USDT"},
		{"balance amount null", `{"status":true,"message":"ok","data":{"available_balance":{"USDT":null}}}`, 200,
			[]string{"payouts", "balance"}, "sentinel: ErrMalformedResponse"},
		{"not JSON", `<html>bad request</html>`, 400, []string{"payouts", "balance"}, "status: 400"},
		{"status false on 200", `{"status":false,"message":"Quotation has expired","data":null}`, 200,
			[]string{"kyc", "config", uuid.NewString()}, "sentinel: ErrQuotationExpired"},
		{"payout data null", `{"status":true,"message":"ok","data":null}`, 200,
			[]string{"payouts", "get", uuid.NewString()}, "ErrMalformedResponse"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
			rw.WriteHeader(tc.status)
			_, _ = io.WriteString(rw, tc.body)
		}))
		env := []string{fiatramp.EnvBaseURL + "=" + srv.URL, fiatramp.EnvAPIKey + "=k", fiatramp.EnvAPISecret + "=s"}
		r := cli(t, env, "", append(tc.args, "-timeout", "5s")...)
		srv.Close()
		assert.Equal(t, 1, r.code, "%s: %s", tc.name, r)
		assert.Empty(t, r.stdout, tc.name)
		assert.Contains(t, r.stderr, tc.want, tc.name)
	}
}

// On a terminal, payouts create asks and goes ahead only on "yes": run
// under a pseudo-terminal made by python3's pty module.
func TestCLIConfirmOnTerminal(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the terminal confirmation is not run")
	}
	w := newWorld(t)
	const script = `
import os, pty, sys
answer = sys.argv[1].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
os.write(fd, answer + b"\n")
out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
`
	run := func(answer, ref string, q uuid.UUID) result {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, python, "-c", script, answer, binary, "payouts", "create",
			"-quotation", q.String(), "-customer", w.demo.Customer.ID.String(), "-reference", ref)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, w.env...)
		out, err := cmd.Output()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		return result{stdout: string(out), code: code}
	}

	r := run("no", "tty-1", w.demo.Quotations[0].ID)
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stdout, "Type yes to go ahead: ")
	assert.Contains(t, r.stdout, "not confirmed; nothing was sent")
	assert.Empty(t, w.requests())

	r = run("yes", "tty-2", w.demo.Quotations[0].ID)
	assert.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "Create a payout of quotation "+w.demo.Quotations[0].ID.String())
	_, ok := w.sb.PayoutByReference(w.demo.Organization.ID, "tty-2")
	assert.True(t, ok, "created after yes")
	assert.Len(t, w.requests(), 1)
}

// TestCLIClockSkewHint: a call refused for its timestamp says what to do
// from the shell (the -correct-clock flag, not the library's Go option),
// and the flag does it.
func TestCLIClockSkewHint(t *testing.T) {
	w := newWorld(t)
	w.sb.Advance(time.Hour) // the service's clock an hour ahead of this machine's

	r := cli(t, w.env, "", "payouts", "balance")
	require.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "clock skew")
	assert.Contains(t, r.stderr, "; correct this machine's clock or pass -correct-clock]")
	assert.NotContains(t, r.stderr, "WithClockCorrection", "a Go option is no remedy at the shell")
	assert.Contains(t, r.stderr, "  sentinel: ErrUnauthorized, ErrClockSkew\n")

	r = cli(t, w.env, "", "payouts", "balance", "-correct-clock")
	require.Equal(t, 0, r.code, r)
	r = cli(t, w.env, "", "call", "GET", "/pos/api/v1/payout/balance", "-correct-clock")
	require.Equal(t, 0, r.code, r)
	for _, c := range commands() {
		fs, _ := c.flags(io.Discard)
		if c.name == "sign" || strings.HasPrefix(c.name, "webhook ") {
			continue // they call no service
		}
		assert.NotNil(t, fs.Lookup("correct-clock"), "%s has no -correct-clock", c.name)
	}
}
