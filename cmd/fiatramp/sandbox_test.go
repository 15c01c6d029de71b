package main

// fiatramp sandbox run in-process: its start document, flags, limits and
// failures.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

const fixturesFile = "../../sandbox/testdata/fixtures.json"

// syncBuffer is a bytes.Buffer safe to write from run's goroutine while
// the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// printed is the startup document.
type printed struct {
	BaseURL  string            `json:"base_url"`
	Demo     *sandbox.Demo     `json:"demo"`
	Fixtures *sandbox.Fixtures `json:"fixtures"`
}

// running is the command running in-process.
type running struct {
	doc    printed
	raw    []byte
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

// stop cancels the command and returns run's result.
func (r *running) stop(t *testing.T) error {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancellation")
		return nil
	}
}

// start runs `fiatramp sandbox -addr 127.0.0.1:0 args...` and waits for its
// startup document.
func start(t *testing.T, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	r := &running{stderr: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() {
		err := run(ctx, append([]string{"sandbox", "-addr", "127.0.0.1:0"}, args...), pw, r.stderr)
		_ = pw.CloseWithError(io.EOF)
		r.done <- err
	}()
	t.Cleanup(func() {
		cancel()
		_ = pr.Close()
	})

	type result struct {
		raw []byte
		err error
	}
	got := make(chan result, 1)
	go func() {
		var raw json.RawMessage
		err := json.NewDecoder(pr).Decode(&raw)
		got <- result{raw, err}
		_, _ = io.Copy(io.Discard, pr) // the rest, if any, never blocks run
	}()
	select {
	case res := <-got:
		require.NoError(t, res.err, "stderr: %s", r.stderr.String())
		r.raw = res.raw
		require.NoError(t, json.Unmarshal(res.raw, &r.doc))
	case err := <-r.done:
		t.Fatalf("run returned before printing: %v; stderr: %s", err, r.stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("no startup document")
	}
	return r
}

func callCtx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestSandboxDemo(t *testing.T) {
	r := start(t)
	require.NotNil(t, r.doc.Demo)
	assert.Nil(t, r.doc.Fixtures)
	assert.NotContains(t, string(r.raw), `"fixtures"`, "omitted, not null")
	assert.True(t, strings.HasPrefix(r.doc.BaseURL, "http://127.0.0.1:"), r.doc.BaseURL)
	assert.True(t, json.Valid(r.raw))
	assert.Contains(t, string(r.raw), "\n  \"base_url\": ", "indented")

	// One line on stderr naming the URL.
	note := r.stderr.String()
	assert.Equal(t, 1, strings.Count(note, "\n"), note)
	assert.Contains(t, note, "serving "+r.doc.BaseURL)
	assert.Contains(t, note, "demo organization "+r.doc.Demo.Organization.ID.String())

	demo := r.doc.Demo
	require.NotEmpty(t, demo.Organization.APIKey)
	require.NotEmpty(t, demo.Organization.APISecret)
	c, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)

	cfg, err := c.KYC.GetConfiguration(callCtx(t), demo.Customer.ID)
	require.NoError(t, err)
	assert.Contains(t, cfg.SupportedDocumentTypes, "AADHAAR")

	bank, err := c.Customers.GetBankAccount(callCtx(t), demo.Customer.ID, demo.BankAccount.ID)
	require.NoError(t, err)
	assert.Equal(t, demo.BankAccount.AccountNumber, bank.AccountNumber)

	require.Len(t, demo.Quotations, 3)
	p, err := c.Payouts.Create(callCtx(t), types.CreatePayoutRequest{
		QuotationID: demo.Quotations[0].ID, CustomerID: demo.Customer.ID, ClientReferenceID: "cli-1",
	})
	require.NoError(t, err)
	assert.Equal(t, types.PayoutProcessing, p.Status)

	// A wrong secret is refused: the printed secret is the one in use.
	bad, err := fiatramp.New(demo.Organization.APIKey, "not-the-secret", fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)
	_, err = bad.KYC.GetConfiguration(callCtx(t), demo.Customer.ID)
	assert.True(t, errors.Is(err, fiatramp.ErrUnauthorized), "%v", err)

	require.NoError(t, r.stop(t))
}

func TestSandboxFixtures(t *testing.T) {
	r := start(t, "-fixtures", fixturesFile, "-no-demo")
	assert.Nil(t, r.doc.Demo)
	assert.NotContains(t, string(r.raw), `"demo"`)
	require.NotNil(t, r.doc.Fixtures)
	require.Len(t, r.doc.Fixtures.Organizations, 2)
	assert.Contains(t, r.stderr.String(), "2 fixture organizations")
	assert.NotContains(t, r.stderr.String(), "demo")

	acme, beta := r.doc.Fixtures.Organizations[0], r.doc.Fixtures.Organizations[1]
	assert.Equal(t, "acme_sandbox_key", acme.APIKey)
	require.NotEmpty(t, beta.APISecret, "generated secrets are printed")

	asha := acme.Customers[0]
	c, err := fiatramp.New(acme.APIKey, acme.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)
	page, err := c.Customers.ListBankAccounts(callCtx(t), asha.ID)
	require.NoError(t, err)
	assert.Equal(t, 2, page.Count)

	vikram := beta.Customers[0]
	cb, err := fiatramp.New(beta.APIKey, beta.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)
	q := vikram.BankAccounts[0].Quotations[0]
	p, err := cb.Payouts.Create(callCtx(t), types.CreatePayoutRequest{QuotationID: q.ID, CustomerID: vikram.ID})
	require.NoError(t, err)
	assert.Equal(t, "USDC", p.Asset)
	assert.Equal(t, q.ReceivingAmount.String(), p.ReceivingAmount.String())

	require.NoError(t, r.stop(t))
}

func TestSandboxFixturesAndDemo(t *testing.T) {
	r := start(t, "-fixtures", fixturesFile)
	require.NotNil(t, r.doc.Demo)
	require.NotNil(t, r.doc.Fixtures)
	assert.Contains(t, r.stderr.String(), "demo organization")
	assert.Contains(t, r.stderr.String(), "2 fixture organizations")
}

func TestSandboxEmpty(t *testing.T) {
	r := start(t, "-no-demo")
	assert.Equal(t, map[string]bool{"base_url": true}, keys(t, r.raw))
	assert.Contains(t, r.stderr.String(), "empty")
}

func keys(t *testing.T, raw []byte) map[string]bool {
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// Cancelling the context stops the server: the port refuses connections
// afterwards.
func TestSandboxStopsOnCancel(t *testing.T) {
	r := start(t)
	u, err := url.Parse(r.doc.BaseURL)
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err, "serving")
	_ = conn.Close()

	require.NoError(t, r.stop(t))
	_, err = net.DialTimeout("tcp", u.Host, 2*time.Second)
	require.Error(t, err, "still accepting after cancellation")
	assert.Contains(t, err.Error(), "refused")
}

// The settings flags reach the sandbox.
func TestSandboxSettingsFlags(t *testing.T) {
	r := start(t, "-page-size", "1", "-public-url", "https://sandbox.example.test/base", "-remittance-path", "/remit/v9/payout")
	demo := r.doc.Demo
	c, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)

	// -page-size and -public-url: the demo customer's two accounts come one
	// per page, the next link on the public URL.
	page, err := c.Customers.ListBankAccounts(callCtx(t), demo.Customer.ID)
	require.NoError(t, err)
	assert.Equal(t, 2, page.Count)
	require.Len(t, page.Results, 1)
	require.NotNil(t, page.Next)
	assert.True(t, strings.HasPrefix(*page.Next, "https://sandbox.example.test/base/cms/api/v1/bank/list/"), *page.Next)

	// -remittance-path: the operation moved; the default path is unknown.
	status := func(path string) int {
		resp, err := http.Post(r.doc.BaseURL+path, "application/json", strings.NewReader("{}"))
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusNotFound, status(sandbox.DefaultRemittancePayoutPath))
	assert.Equal(t, http.StatusUnauthorized, status("/remit/v9/payout"))
	cr, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret,
		fiatramp.WithBaseURL(r.doc.BaseURL), fiatramp.WithRemittancePayoutPath("/remit/v9/payout"))
	require.NoError(t, err)
	rp, err := cr.Payouts.CreateRemittance(callCtx(t), types.CreateRemittancePayoutRequest{
		QuotationID: demo.Quotations[2].ID, CustomerID: demo.Customer.ID, RemitterID: demo.Remitter.ID,
	})
	require.NoError(t, err)
	require.NotNil(t, rp)
}

// -seed makes the generated references repeatable: two runs with the same
// seed generate the same account numbers for a file that leaves them out.
func TestSandboxSeed(t *testing.T) {
	generated := func(seed string) string {
		r := start(t, "-no-demo", "-fixtures", fixturesFile, "-seed", seed)
		defer func() { _ = r.stop(t) }()
		return r.doc.Fixtures.Organizations[0].Customers[2].BankAccounts[0].AccountNumber
	}
	a, b, c := generated("42"), generated("42"), generated("43")
	assert.Len(t, a, 12)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
}

func TestSandboxStartErrors(t *testing.T) {
	runNow := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := run(ctx, append([]string{"sandbox", "-addr", "127.0.0.1:0"}, args...), &out, &errOut)
		assert.Empty(t, out.String(), "nothing printed on a failed start")
		return errOut.String(), err
	}

	_, err := runNow("-fixtures", "testdata/no-such-file.json")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-file.json")
	var msg bytes.Buffer
	assert.Equal(t, 1, exitCode(err, &msg))
	assert.Contains(t, msg.String(), "fiatramp: open testdata/no-such-file.json")

	dir := t.TempDir()
	badJSON := dir + "/bad.json"
	require.NoError(t, os.WriteFile(badJSON, []byte(`{"organizations": [{"nmae": "typo"}]}`), 0o600))
	_, err = runNow("-fixtures", badJSON)
	require.Error(t, err)
	assert.Equal(t, badJSON+`: sandbox: load: organizations[0]: unknown field "nmae"`, err.Error())

	badTree := dir + "/tree.json"
	require.NoError(t, os.WriteFile(badTree, []byte(`{"organizations": [{"customers": [{"kyc_status": "DONE"}]}]}`), 0o600))
	_, err = runNow("-fixtures", badTree)
	require.Error(t, err)
	assert.Equal(t, badTree+`: sandbox: load: organizations[0].customers[0]: customer: unknown KYC status "DONE"`, err.Error())

	// The address is taken.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	var out, errOut bytes.Buffer
	err = run(context.Background(), []string{"sandbox", "-addr", ln.Addr().String()}, &out, &errOut)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "address already in use")
	assert.Empty(t, out.String())
}

// TestSandboxStartupFile: -startup-file holds the start document once the
// sandbox serves, appears whole (never empty), is left as it was by a
// start that fails on a taken port, and goes when the sandbox stops.
func TestSandboxStartupFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sandbox.json")
	entries := func() []string {
		var names []string
		list, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range list {
			names = append(names, e.Name())
		}
		return names
	}

	// A first sandbox writes it, mode 0600, and prints no document.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	errOut := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"sandbox", "-addr", "127.0.0.1:0", "-startup-file", file}, &out, errOut)
	}()
	var raw []byte
	require.Eventually(t, func() bool {
		var err error
		raw, err = os.ReadFile(file)
		return err == nil
	}, 10*time.Second, 10*time.Millisecond, "no startup file; stderr: %s", errOut.String())
	var doc printed
	require.NoError(t, json.Unmarshal(raw, &doc), "the file is read whole the moment it exists: %q", raw)
	require.NotNil(t, doc.Demo)
	fi, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the document holds secrets")
	assert.Equal(t, []string{"sandbox.json"}, entries(), "no temporary file left")
	assert.Contains(t, errOut.String(), "start document in "+file)
	assert.Contains(t, errOut.String(), "serving "+doc.BaseURL)

	// A second one on the taken port fails and leaves the first's document.
	taken := strings.TrimPrefix(doc.BaseURL, "http://")
	var out2, errOut2 bytes.Buffer
	err = run(context.Background(), []string{"sandbox", "-addr", taken, "-startup-file", file}, &out2, &errOut2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "address already in use")
	after, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(after), "the failed start changed the file")
	assert.Equal(t, []string{"sandbox.json"}, entries())

	// Stopping the first removes its document.
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancellation")
	}
	assert.Empty(t, out.String(), "the document went to the file, not stdout")
	assert.Empty(t, entries(), "the document of a stopped sandbox stays behind")

	// A failed start with no file before leaves none.
	err = run(context.Background(), []string{"sandbox", "-addr", "127.0.0.1:-1", "-startup-file", file}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Empty(t, entries())

	// A file that cannot be written is an error before serving.
	err = run(context.Background(), []string{"sandbox", "-addr", "127.0.0.1:0", "-startup-file", filepath.Join(dir, "no", "such", "dir.json")}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Empty(t, entries())
}

func TestReachable(t *testing.T) {
	assert.Equal(t, "http://127.0.0.1:4010", reachable("http://0.0.0.0:4010"))
	assert.Equal(t, "http://127.0.0.1:4010", reachable("http://[::]:4010"))
	assert.Equal(t, "http://127.0.0.1:4010", reachable("http://127.0.0.1:4010"))
	assert.Equal(t, "http://[::1]:4010", reachable("http://[::1]:4010"))
	assert.Equal(t, "http://192.0.2.7:80", reachable("http://192.0.2.7:80"))
}

func TestSandboxQuotationValidity(t *testing.T) {
	before := time.Now()
	r := start(t, "-quotation-validity", "24h")
	for _, q := range r.doc.Demo.Quotations {
		assert.WithinRange(t, q.ExpiresAt, before.Add(24*time.Hour), time.Now().Add(24*time.Hour))
	}
	require.NoError(t, r.stop(t))

	var stderr bytes.Buffer
	err := run(context.Background(), []string{"sandbox", "-addr", "127.0.0.1:0", "-quotation-validity", "0s"}, io.Discard, &stderr)
	require.Error(t, err)
	assert.Contains(t, stderr.String(), "-quotation-validity 0s is not positive")
}

func TestSandboxControlFlag(t *testing.T) {
	type doc struct {
		BaseURL string `json:"base_url"`
		Control *struct {
			URL   string `json:"url"`
			Token string `json:"token"`
		} `json:"control"`
	}
	get := func(url, token string) int {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}

	// Off by default: no control member, and /_sandbox is unknown.
	r := start(t)
	var d doc
	require.NoError(t, json.Unmarshal(r.raw, &d))
	assert.Nil(t, d.Control)
	assert.Equal(t, http.StatusNotFound, get(d.BaseURL+"/_sandbox/clock", "anything"))
	require.NoError(t, r.stop(t))

	// -control: a random token, printed in the document only.
	r = start(t, "-control")
	require.NoError(t, json.Unmarshal(r.raw, &d))
	require.NotNil(t, d.Control)
	assert.Equal(t, d.BaseURL+"/_sandbox", d.Control.URL)
	assert.Regexp(t, `^sbx_admin_[0-9a-f]{48}$`, d.Control.Token)
	assert.NotEqual(t, r.doc.Demo.Organization.APISecret, d.Control.Token)
	assert.Equal(t, http.StatusOK, get(d.Control.URL+"/clock", d.Control.Token))
	assert.Equal(t, http.StatusUnauthorized, get(d.Control.URL+"/clock", ""))
	assert.Contains(t, r.stderr.String(), "control plane at "+d.Control.URL)
	assert.NotContains(t, r.stderr.String(), d.Control.Token)
	require.NoError(t, r.stop(t))

	// The token from the environment.
	t.Setenv("FIATRAMP_SANDBOX_CONTROL_TOKEN", "my-own-admin-token-1234")
	r = start(t, "-control")
	require.NoError(t, json.Unmarshal(r.raw, &d))
	assert.Equal(t, "my-own-admin-token-1234", d.Control.Token)
	assert.Equal(t, http.StatusOK, get(d.Control.URL+"/clock", "my-own-admin-token-1234"))
	require.NoError(t, r.stop(t))

	t.Setenv("FIATRAMP_SANDBOX_CONTROL_TOKEN", "short")
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := run(ctx, []string{"sandbox", "-addr", "127.0.0.1:0", "-control"}, &out, &errOut)
	require.Error(t, err)
	assert.Empty(t, out.String(), "nothing printed on a failed start")
	assert.Contains(t, err.Error(), "control token: 5 characters, want at least 16")
}

// limitsConn opens a raw connection to the running command.
func limitsConn(t *testing.T, r *running) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(r.doc.BaseURL, "http://"), 5*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c, bufio.NewReader(c)
}

// limitsGet sends an unsigned keep-alive GET on c and returns the status
// of its answer, or an error when none comes within wait.
func limitsGet(t *testing.T, c net.Conn, br *bufio.Reader, wait time.Duration) (int, error) {
	t.Helper()
	_, err := fmt.Fprintf(c, "GET /pos/api/v1/payout/balance HTTP/1.1\r\nHost: sandbox\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(wait)))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestSandboxIdleTimeoutFlag(t *testing.T) {
	r := start(t, "-idle-timeout", "200ms")
	c, br := limitsConn(t, r)
	status, err := limitsGet(t, c, br, 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, status)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(3*time.Second)))
	_, err = io.Copy(io.Discard, br)
	assert.False(t, isTimeout(err), "idle connection still open after 3 s")
	require.NoError(t, r.stop(t))
}

func TestSandboxMaxConnsFlag(t *testing.T) {
	r := start(t, "-max-conns", "1")
	first, firstBr := limitsConn(t, r)
	_, err := limitsGet(t, first, firstBr, 5*time.Second)
	require.NoError(t, err)

	// At the cap, the second connection closes the idle first one.
	second, secondBr := limitsConn(t, r)
	status, err := limitsGet(t, second, secondBr, 5*time.Second)
	require.NoError(t, err, "not served at the cap")
	assert.Equal(t, http.StatusUnauthorized, status)
	require.NoError(t, first.SetReadDeadline(time.Now().Add(3*time.Second)))
	_, err = io.Copy(io.Discard, firstBr)
	assert.False(t, isTimeout(err), "the idle first connection still open over -max-conns 1")
	require.NoError(t, r.stop(t))
}

func TestSandboxReadTimeoutFlag(t *testing.T) {
	r := start(t, "-read-timeout", "300ms")
	c, br := limitsConn(t, r)
	// A body promised and never sent.
	_, err := fmt.Fprintf(c, "POST /cms/api/v1/wallet/add HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	require.NoError(t, r.stop(t))
}

func TestSandboxLimitFlagsRefused(t *testing.T) {
	for _, bad := range [][]string{
		{"-read-header-timeout", "-1s"},
		{"-read-timeout", "-1ms"},
		{"-write-timeout", "-2s"},
		{"-idle-timeout", "-1s"},
		{"-max-conns", "-1"},
		{"-max-conns", "many"},
		{"-read-timeout", "30"},
	} {
		var out, errOut bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := run(ctx, append([]string{"sandbox", "-addr", "127.0.0.1:0"}, bad...), &out, &errOut)
		require.Error(t, err, "%v", bad)
		assert.Equal(t, 2, exitCode(err, io.Discard), "%v: %v", bad, err)
		assert.Contains(t, errOut.String(), bad[0], "%v", bad)
		assert.Empty(t, out.String())
	}

	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"help", "sandbox"}, &out, io.Discard))
	for _, f := range []string{"-read-header-timeout", "-read-timeout", "-write-timeout", "-idle-timeout", "-max-conns", "(default 4096)", "(default 30s)", "(default 1m0s)", "(default 2m0s)", "(default 10s)"} {
		assert.Contains(t, out.String(), f)
	}
}

// TestSandboxBankVerificationDelay: with -bank-verification-delay an added
// bank account verifies itself; a negative delay is refused.
func TestSandboxBankVerificationDelay(t *testing.T) {
	r := start(t, "-bank-verification-delay", "10ms")
	defer func() { require.NoError(t, r.stop(t)) }()
	c, err := fiatramp.New(r.doc.Demo.Organization.APIKey, r.doc.Demo.Organization.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)
	ctx := context.Background()
	b, err := c.Customers.AddBankAccount(ctx, types.AddBankAccountRequest{CustomerID: r.doc.Demo.Customer.ID, VPA: "delay@upi"})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		got, err := c.Customers.GetBankAccount(ctx, r.doc.Demo.Customer.ID, b.ID)
		return err == nil && got.BankAccountStatus == types.BankAccountVerified
	}, 5*time.Second, 5*time.Millisecond)

	var stderr bytes.Buffer
	err = run(context.Background(), []string{"sandbox", "-addr", "127.0.0.1:0", "-bank-verification-delay", "-1s"}, io.Discard, &stderr)
	require.Error(t, err)
	assert.Contains(t, stderr.String(), "-bank-verification-delay -1s is negative")
}

// The sandbox says at start where its webhooks go: by default only to
// this machine, so a URL elsewhere is registered but its deliveries are
// logged not sent; -allow-remote-webhooks lifts that, and says so.
func TestSandboxWebhooksStayLocal(t *testing.T) {
	type delivery struct{ State, Reason string }
	deliveries := func(t *testing.T, r *running) []delivery {
		var d struct {
			Control struct{ URL, Token string } `json:"control"`
		}
		require.NoError(t, json.Unmarshal(r.raw, &d))
		req, err := http.NewRequest(http.MethodGet, d.Control.URL+"/deliveries", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+d.Control.Token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var log struct {
			Deliveries []delivery `json:"deliveries"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&log))
		return log.Deliveries
	}

	r := start(t, "-control")
	assert.Contains(t, r.stderr.String(), "webhooks are delivered only to this machine (localhost, loopback addresses): -allow-remote-webhooks sends elsewhere")
	demo := r.doc.Demo
	c, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)
	_, err = c.Organization.SetWebhookURL(callCtx(t), "https://hooks.example.com/fiatramp")
	require.NoError(t, err, "registered as the service would")
	_, err = c.KYC.SimulateStatus(callCtx(t), demo.PendingCustomer.ID, types.KYCVerified)
	require.NoError(t, err)
	log := deliveries(t, r)
	require.Len(t, log, 1)
	assert.Equal(t, string(sandbox.DeliveryNotSent), log[0].State)
	assert.Contains(t, log[0].Reason, `host "hooks.example.com" is not this machine`)
	require.NoError(t, r.stop(t))

	r = start(t, "-allow-remote-webhooks")
	assert.Contains(t, r.stderr.String(), "webhooks are delivered to any host (-allow-remote-webhooks)")
	assert.NotContains(t, r.stderr.String(), "only to this machine")
}
