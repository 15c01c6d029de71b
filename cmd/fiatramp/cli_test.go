package main

// What the commands share (cli.go), and the harness of every command's
// tests: the binary, built once in TestMain, run as a user runs it against
// a sandbox served in-process, judged by its stdout, stderr and exit
// status, and by the requests the sandbox received.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
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

func TestCLICredentials(t *testing.T) {
	w := newWorld(t)
	cust := w.demo.Customer.ID.String()

	r := cli(t, nil, "", "kyc", "get-configuration", cust)
	assert.Equal(t, 2, r.code, r)
	assert.Contains(t, r.stderr, "FIATRAMP_API_KEY and FIATRAMP_API_SECRET must be set")

	r = cli(t, w.env[:2], "", "payouts", "get-balance")
	assert.Equal(t, 2, r.code, r)

	// A wrong secret: refused as unauthorized, and the secret is never
	// printed.
	const secret = "sbx_secret_wrong_0123456789"
	env := append(w.env[:2:2], fiatramp.EnvAPISecret+"="+secret)
	r = cli(t, env, "", "kyc", "get-configuration", cust)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "status: 401")
	assert.Contains(t, r.stderr, "err_code: AUTH_INVALID_SIGNATURE")
	assert.Contains(t, r.stderr, "sentinel: ErrUnauthorized")
	assert.NotContains(t, r.stdout+r.stderr, secret)

	// The service cannot be reached: exit 1.
	env = append([]string{fiatramp.EnvBaseURL + "=http://127.0.0.1:1"}, w.env[1:]...)
	r = cli(t, env, "", "kyc", "get-configuration", cust, "-timeout", "3s")
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
	assert.Contains(t, r.stderr, "fiatramp payouts get-balance")

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
func TestCLIMalformedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		status     int
		args       []string
		want       string
	}{
		{"balance without available_balance", `{"status":true,"message":"ok","data":{"balance":{"USDT":"1"}}}`, 200,
			[]string{"payouts", "get-balance"}, `response data has no "available_balance"`},
		{"balance amount not a number", `{"status":true,"message":"ok","data":{"available_balance":{"USDT":"x"}}}`, 200,
			[]string{"payouts", "get-balance"}, "Balance.available_balance.USDT"},
		{"balance amount null", `{"status":true,"message":"ok","data":{"available_balance":{"USDT":null}}}`, 200,
			[]string{"payouts", "get-balance"}, "sentinel: ErrMalformedResponse"},
		{"not JSON", `<html>bad request</html>`, 400, []string{"payouts", "get-balance"}, "status: 400"},
		{"status false on 200", `{"status":false,"message":"Quotation has expired","data":null}`, 200,
			[]string{"kyc", "get-configuration", uuid.NewString()}, "sentinel: ErrQuotationExpired"},
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

	r := cli(t, w.env, "", "payouts", "get-balance")
	require.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stderr, "clock skew")
	assert.Contains(t, r.stderr, "; correct this machine's clock or pass -correct-clock]")
	assert.NotContains(t, r.stderr, "WithClockCorrection", "a Go option is no remedy at the shell")
	assert.Contains(t, r.stderr, "  sentinel: ErrUnauthorized, ErrClockSkew\n")

	r = cli(t, w.env, "", "payouts", "get-balance", "-correct-clock")
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

// rawOf prints a result of the library from its Raw JSON, and refuses an
// answer without one instead of printing nothing.
func TestRawOf(t *testing.T) {
	raw, err := rawOf(&types.Payout{Raw: json.RawMessage(`{"id":"x"}`)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"x"}`, string(raw))
	raw, err = rawOf(json.RawMessage(`[1]`))
	require.NoError(t, err)
	assert.Equal(t, `[1]`, string(raw))
	for _, bad := range []any{nil, "text", (*types.Payout)(nil), &struct{ Raw string }{"x"}, struct{ Raw json.RawMessage }{}} {
		_, err := rawOf(bad)
		assert.Error(t, err, "%#v", bad)
	}
}
