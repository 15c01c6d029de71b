package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
	"github.com/fiatramp/fiatramp-go/webhook"
)

const (
	hookKey    = "sbx_key_hooks"
	hookSecret = "sbx_secret_hooks_do_not_print"
)

var hookEnv = []string{fiatramp.EnvAPIKey + "=" + hookKey, fiatramp.EnvAPISecret + "=" + hookSecret}

// dump writes a captured delivery: headers, a blank line, the body.
func dump(h http.Header, body string) string {
	var b strings.Builder
	b.WriteString("POST /webhooks HTTP/1.1\r\n")
	for _, k := range []string{"Content-Type", "X-Timestamp", "X-Signature"} {
		if v := h.Get(k); v != "" {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString("\r\n" + body)
	return b.String()
}

// signedDump is body signed at time at with the hook key and secret.
func signedDump(t *testing.T, body string, at time.Time) string {
	t.Helper()
	h, err := webhook.Sign(hookKey, hookSecret, []byte(body), at)
	require.NoError(t, err)
	return dump(h, body)
}

func TestCLIWebhookVerify(t *testing.T) {
	now := time.Now()
	body := `{"type":"PAYOUT","id":"0b5e3c1e-7d4e-4b8e-9a51-1f2d3c4b5a69","event":"SUCCESS",` +
		`"timestamp":"2026-11-21T09:30:00.123456Z","metadata":{"utr":"UTR123","extra":1}}`

	r := cli(t, hookEnv, signedDump(t, body, now), "webhook", "verify")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, "VERIFIED\n"+
		"type:        PAYOUT\n"+
		"id:          0b5e3c1e-7d4e-4b8e-9a51-1f2d3c4b5a69\n"+
		"event:       SUCCESS\n"+
		"timestamp:   2026-11-21T09:30:00.123456Z\n"+
		"utr:         UTR123\n"+
		`metadata:    {"extra":1,"utr":"UTR123"}`+"\n"+
		"dedupe key:  PAYOUT/SUCCESS/0b5e3c1e-7d4e-4b8e-9a51-1f2d3c4b5a69\n", r.stdout)
	assert.Empty(t, r.stderr)

	// From a file, as JSON.
	file := filepath.Join(t.TempDir(), "delivery.http")
	require.NoError(t, os.WriteFile(file, []byte(signedDump(t, body, now)), 0o600))
	r = cli(t, hookEnv, "", "webhook", "verify", "-o", "json", file)
	require.Equal(t, 0, r.code, r)
	var rep struct {
		Verified  bool
		Event     map[string]any
		DedupeKey string `json:"dedupe_key"`
		Known     bool
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.True(t, rep.Verified)
	assert.True(t, rep.Known)
	assert.Equal(t, "SUCCESS", rep.Event["event"])
	assert.Equal(t, map[string]any{"utr": "UTR123", "extra": float64(1)}, rep.Event["metadata"])

	// The key and secret from flags and a file; -now sets the clock.
	secretFile := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(secretFile, []byte(hookSecret+"\n"), 0o600))
	old := time.Unix(1700000000, 0)
	r = cli(t, nil, signedDump(t, body, old), "webhook", "verify", "-key", hookKey, "-secret-file", secretFile, "-now", "1700000100")
	require.Equal(t, 0, r.code, r)

	for name, tc := range map[string]struct {
		env        []string
		stdin      string
		args       []string
		reason     string
		says       []string
		notSaysAny []string
	}{
		"wrong secret": {
			env:    []string{fiatramp.EnvAPIKey + "=" + hookKey, fiatramp.EnvAPISecret + "=another-secret"},
			stdin:  signedDump(t, body, now),
			reason: "invalid_signature",
			says:   []string{"X-SIGNATURE does not match", "the secret is not the one of key sbx_key_hooks"},
		},
		"body signed as sent": {
			stdin: func() string {
				raw := `{"type": "PAYOUT", "id": "x", "event": "FAILED", "metadata": {}, "timestamp": null}`
				ts := now.Unix()
				h := http.Header{}
				h.Set("X-Timestamp", strconv.FormatInt(ts, 10))
				h.Set("X-Signature", fiatramp.Sign(hookKey, hookSecret, ts, []byte(raw)))
				return dump(h, raw)
			}(),
			reason:     "invalid_signature",
			says:       []string{"signed the body as sent, not its canonical form"},
			notSaysAny: []string{"body is not canonical"},
		},
		"stale": {
			stdin:  signedDump(t, body, now.Add(-301*time.Second)),
			reason: "stale_timestamp",
			says:   []string{"X-TIMESTAMP is 5m1s old (tolerance 5m0s)"},
		},
		"no timestamp": {
			stdin:  "X-Signature: abc\n\n" + body,
			reason: "malformed",
			says:   []string{"no X-TIMESTAMP header"},
		},
		"tampered body": {
			stdin:  strings.Replace(signedDump(t, body, now), "UTR123", "UTR999", 1),
			reason: "invalid_signature",
			says:   []string{"does not match"},
		},
		"not json": {
			stdin:  signedDump(t, `{"a":1}`, now)[:len(signedDump(t, `{"a":1}`, now))-1],
			reason: "malformed",
			says:   []string{"body is not JSON"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			env := tc.env
			if env == nil {
				env = hookEnv
			}
			r := cli(t, env, tc.stdin, "webhook", "verify", "-now", strconv.FormatInt(now.Unix(), 10))
			require.Equal(t, 1, r.code, r)
			assert.True(t, strings.HasPrefix(r.stdout, "REFUSED ("+tc.reason+"): "), r.stdout)
			for _, s := range tc.says {
				assert.Contains(t, r.stdout, s)
			}
			for _, s := range tc.notSaysAny {
				assert.NotContains(t, r.stdout, s)
			}
			assert.NotContains(t, r.stdout+r.stderr, hookSecret)
			assert.NotContains(t, r.stdout+r.stderr, "another-secret")
		})
	}

	// Bad input: exit 2, nothing verified.
	for name, tc := range map[string]struct {
		env  []string
		args []string
		says string
	}{
		"no key":        {[]string{fiatramp.EnvAPISecret + "=" + hookSecret}, nil, "no API key"},
		"no secret":     {[]string{fiatramp.EnvAPIKey + "=" + hookKey}, nil, "no API secret"},
		"secret flag":   {hookEnv, []string{"-secret", hookSecret}, "flag provided but not defined: -secret"},
		"bad output":    {hookEnv, []string{"-o", "yaml"}, `-o "yaml"`},
		"two files":     {hookEnv, []string{"a", "b"}, `unexpected argument "b"`},
		"missing file":  {hookEnv, []string{"/nonexistent/delivery"}, "no such file"},
		"bad now":       {hookEnv, []string{"-now", "soon"}, `-now "soon"`},
		"bad tolerance": {hookEnv, []string{"-tolerance", "0s"}, "not positive"},
	} {
		t.Run(name, func(t *testing.T) {
			r := cli(t, tc.env, signedDump(t, body, now), append([]string{"webhook", "verify"}, tc.args...)...)
			assert.Equal(t, 2, r.code, r)
			assert.Contains(t, r.stderr, tc.says)
			assert.Empty(t, r.stdout)
			assert.NotContains(t, r.stderr, hookSecret)
		})
	}
}

// TestCLIWebhookVerifySandboxDeliveries verifies deliveries the sandbox
// really sent, as a receiver captured them: the honest one passes, the
// forged one (a bad_signature fault) is refused.
func TestCLIWebhookVerifySandboxDeliveries(t *testing.T) {
	var mu sync.Mutex
	var dumps []string
	w := newWorld(t, func(s *sandbox.Settings) { s.WebhookInitialBackoff = time.Millisecond })
	recv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		raw, err := httputil.DumpRequest(r, true)
		if err != nil {
			rw.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		dumps = append(dumps, string(raw))
		mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		if _, err := webhook.Verify(w.demo.Organization.APIKey, w.demo.Organization.APISecret, r.Header, body, time.Now()); err != nil {
			rw.WriteHeader(http.StatusUnauthorized)
			return
		}
		rw.WriteHeader(http.StatusOK)
	}))
	defer recv.Close()
	require.NoError(t, w.sb.SetWebhookURL(w.demo.Organization.ID, recv.URL))
	require.NoError(t, w.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultBadSignature, Count: 1}))
	cl, err := fiatramp.New(w.demo.Organization.APIKey, w.demo.Organization.APISecret, fiatramp.WithBaseURL(w.url))
	require.NoError(t, err)
	_, err = cl.KYC.SimulateStatus(callCtx(t), w.demo.PendingCustomer.ID, types.KYCVerified)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, w.sb.WaitDeliveries(ctx))
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, dumps, 2, "the forged attempt, then the honest one")

	r := cli(t, w.env, dumps[0], "webhook", "verify")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stdout, "REFUSED (invalid_signature)")
	assert.Contains(t, r.stdout, "the secret is not the one of key "+w.demo.Organization.APIKey)

	r = cli(t, w.env, dumps[1], "webhook", "verify")
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "type:        CUSTOMER\nid:          "+w.demo.PendingCustomer.ID.String()+"\nevent:       VERIFIED\n")
	assert.NotContains(t, r.stdout, w.demo.Organization.APISecret)
}

func TestCLIWebhookSend(t *testing.T) {
	var mu sync.Mutex
	var got []*webhook.Event
	var raw []*http.Request
	h := webhook.Handler(hookKey, hookSecret, func(_ context.Context, ev *webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ev)
		return nil
	})
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		raw = append(raw, r.Clone(context.Background()))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer recv.Close()

	r := cli(t, hookEnv, "", "webhook", "send", "-type", "PAYOUT", "-event", "FAILED", "-id", "payout-1",
		"-metadata", `{"failure_reason":"Account closed","utr":null}`, recv.URL+"/hooks")
	require.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "POST "+recv.URL+"/hooks\nX-TIMESTAMP: ")
	assert.Contains(t, r.stdout, "receiver answered: 200 OK\n")
	assert.NotContains(t, r.stdout+r.stderr, hookSecret)
	mu.Lock()
	require.Len(t, got, 1)
	ev := got[0]
	assert.Equal(t, webhook.TypePayout, ev.Type)
	assert.Equal(t, webhook.EventFailed, ev.Event)
	assert.Equal(t, "payout-1", ev.ID)
	require.NotNil(t, ev.Metadata.FailureReason)
	assert.Equal(t, "Account closed", *ev.Metadata.FailureReason)
	assert.WithinDuration(t, time.Now(), ev.Timestamp, time.Minute)
	assert.Equal(t, http.MethodPost, raw[0].Method)
	assert.Equal(t, "/hooks", raw[0].URL.Path)
	assert.Equal(t, "application/json", raw[0].Header.Get("Content-Type"))
	mu.Unlock()

	// The same event again: the receiver acknowledges it without running
	// its function (deduplicated), still 200.
	r = cli(t, hookEnv, "", "webhook", "send", "-type", "PAYOUT", "-event", "FAILED", "-id", "payout-1", recv.URL+"/hooks")
	require.Equal(t, 0, r.code, r)
	mu.Lock()
	assert.Len(t, got, 1)
	mu.Unlock()

	// A wrong signature: the receiver answers 401, the command exits 1.
	r = cli(t, hookEnv, "", "webhook", "send", "-bad-signature", recv.URL)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stdout, "receiver answered: 401 Unauthorized\n")
	assert.Contains(t, r.stdout, "(signed with a wrong secret on purpose)")

	// Nobody listening: exit 1.
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	r = cli(t, hookEnv, "", "webhook", "send", deadURL)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stdout, "no answer: ")

	// Bad input: exit 2, nothing sent.
	mu.Lock()
	before := len(raw)
	mu.Unlock()
	for name, tc := range map[string]struct {
		env  []string
		args []string
		says string
	}{
		"remote":       {hookEnv, []string{"http://example.com/hooks"}, `host "example.com" is not this machine`},
		"not http":     {hookEnv, []string{"ftp://127.0.0.1/x"}, "want an absolute http or https URL"},
		"no url":       {hookEnv, nil, "want 1 argument(s), got 0"},
		"unknown type": {hookEnv, []string{"-type", "PAYMENT", recv.URL}, `-type "PAYMENT": want one of [CUSTOMER BANK PAYIN PAYOUT EDD]`},
		"wrong event":  {hookEnv, []string{"-type", "CUSTOMER", "-event", "SUCCESS", recv.URL}, `-event "SUCCESS" is not documented for CUSTOMER`},
		"bad metadata": {hookEnv, []string{"-metadata", `[1]`, recv.URL}, "-metadata: want a JSON object"},
		"no secret":    {[]string{fiatramp.EnvAPIKey + "=k"}, []string{recv.URL}, "no API secret"},
		"secret flag":  {hookEnv, []string{"-secret", "x", recv.URL}, "flag provided but not defined: -secret"},
		"zero timeout": {hookEnv, []string{"-timeout", "0s", recv.URL}, "not positive"},
	} {
		t.Run(name, func(t *testing.T) {
			r := cli(t, tc.env, "", append([]string{"webhook", "send"}, tc.args...)...)
			assert.Equal(t, 2, r.code, r)
			assert.Contains(t, r.stderr, tc.says)
		})
	}
	mu.Lock()
	assert.Equal(t, before, len(raw), "nothing was sent")
	mu.Unlock()
}

// TestCLIWebhookSendStatusLineEscaped: a receiver's status line is
// text from another program; a terminal escape in it must not reach the
// operator's terminal raw (the body already goes through printable).
func TestCLIWebhookSendStatusLineEscaped(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err == nil {
					_ = req.Body.Close()
				}
				_, _ = c.Write([]byte("HTTP/1.1 200 OK \x1b]0;pwned\x07\x1b[2J\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			}(c)
		}
	}()
	r := cli(t, hookEnv, "", "webhook", "send", "http://"+ln.Addr().String()+"/hooks")
	require.Equal(t, 0, r.code, r)
	assert.NotContains(t, r.stdout, "\x1b", "a terminal escape from the receiver reached stdout")
	assert.NotContains(t, r.stdout, "\x07")
	assert.Contains(t, r.stdout, `receiver answered: "200 OK \x1b]0;pwned\a\x1b[2J"`)
}

// TestReceiverClientLoopbackOnly: without -allow-remote the
// address actually dialed must be a loopback one, whatever the URL's name
// resolved to (a *.localhost name goes to DNS, which may answer with any
// address).
func TestReceiverClientLoopbackOnly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, addr := range []string{"10.255.255.1:9", "192.0.2.1:80", "[2001:db8::1]:80", "0.0.0.0:9"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/hooks", strings.NewReader("{}"))
		require.NoError(t, err)
		_, err = receiverClient(false).Do(req)
		require.Error(t, err, addr)
		assert.Contains(t, err.Error(), "not a loopback address", addr)
	}

	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, host := range []string{"127.0.0.1", "localhost"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+net.JoinHostPort(host, port)+"/", strings.NewReader("{}"))
		require.NoError(t, err)
		resp, err := receiverClient(false).Do(req)
		require.NoError(t, err, host)
		resp.Body.Close()
		assert.Equal(t, 204, resp.StatusCode)
	}
}
