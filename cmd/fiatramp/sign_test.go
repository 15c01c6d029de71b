package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

const (
	testKey    = "sbx_key_test0001"
	testSecret = "sbx_secret_do_not_print_0123456789"
	testTS     = "1700000000"
)

var signEnv = []string{fiatramp.EnvAPIKey + "=" + testKey, fiatramp.EnvAPISecret + "=" + testSecret}

// hmacOf is the signature computed independently of the library.
func hmacOf(secret, key, ts, body string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(key + "|" + ts + "|" + body))
	return m.Sum(nil)
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// signCLI runs fiatramp sign and checks that the secret appears nowhere.
func signCLI(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	r := cli(t, env, stdin, append([]string{"sign"}, args...)...)
	assert.NotContains(t, r.stdout+r.stderr, testSecret, "the secret is printed")
	return r
}

// line is the value of the "name:" line of sign's text output.
func line(t *testing.T, out, name string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, name+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %q line in:\n%s", name, out)
	return ""
}

func TestSignPrints(t *testing.T) {
	body := "{\"b\": [1, 2.50, true], \"a\": \"caf\u00e9 <&>\"}\n"
	canonical := `{"a":"caf\u00e9 <&>","b":[1,2.5,true]}`
	r := signCLI(t, signEnv, body, "-timestamp", testTS)
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, "POST", line(t, r.stdout, "method"))
	assert.Equal(t, canonical, line(t, r.stdout, "canonical body"))
	assert.Equal(t, testKey+"|"+testTS+"|"+canonical, line(t, r.stdout, "string signed"))
	assert.Equal(t, testKey, line(t, r.stdout, "X-API-KEY"))
	assert.Equal(t, testTS, line(t, r.stdout, "X-TIMESTAMP"))
	assert.Equal(t, b64(hmacOf(testSecret, testKey, testTS, canonical)), line(t, r.stdout, "X-SIGNATURE"))
	assert.Contains(t, r.stdout, "note: the input's trailing line break is taken as not part of the body")
	assert.Contains(t, r.stdout, "first difference at byte offset 2: sent 'b', canonical 'a'")

	// The same from a file, with the secret from a file (its line break
	// dropped), the key from -key, as JSON.
	dir := t.TempDir()
	bodyFile, secretFile := filepath.Join(dir, "body.json"), filepath.Join(dir, "secret")
	require.NoError(t, os.WriteFile(bodyFile, []byte(body), 0o600))
	require.NoError(t, os.WriteFile(secretFile, []byte(testSecret+"\n"), 0o600))
	r = signCLI(t, nil, "", "-timestamp", testTS, "-key", testKey, "-secret-file", secretFile, "-o", "json", bodyFile)
	require.Equal(t, 0, r.code, r)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, canonical, rep["canonical_body"])
	assert.Equal(t, b64(hmacOf(testSecret, testKey, testTS, canonical)), rep["signature"])
	assert.NotContains(t, rep, "match", "no comparison, no verdict")

	// A GET signs {} and reads no body; the timestamp defaults to now.
	before := time.Now().Unix()
	r = signCLI(t, signEnv, "ignored", "-method", "get")
	require.Equal(t, 0, r.code, r)
	ts := line(t, r.stdout, "X-TIMESTAMP")
	n, err := strconv.ParseInt(ts, 10, 64)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, n, before)
	assert.Equal(t, "{}", line(t, r.stdout, "canonical body"))
	assert.Equal(t, b64(hmacOf(testSecret, testKey, ts, "{}")), line(t, r.stdout, "X-SIGNATURE"))
}

func TestSignBadInput(t *testing.T) {
	for _, tc := range []struct {
		env   []string
		stdin string
		args  []string
		want  string
	}{
		{signEnv[:1], "{}", nil, "no API secret"},
		{signEnv[1:], "{}", nil, "no API key"},
		{signEnv, "{}", []string{"-secret", "x"}, "flag provided but not defined: -secret"},
		{signEnv, "{}", []string{"-secret-file", "/no/such/file"}, "no such file"},
		{signEnv, "{nope", nil, "not one JSON document"},
		{signEnv, "{}", []string{"-timestamp", "+17"}, "want Unix seconds"},
		{signEnv, "{}", []string{"-request", "x.http", "-compare", "abc"}, "-request takes"},
		{signEnv, "{}", []string{"-o", "yaml"}, `-o "yaml"`},
	} {
		r := signCLI(t, tc.env, tc.stdin, tc.args...)
		assert.Equal(t, 2, r.code, "%v: %s", tc.args, r)
		assert.Contains(t, r.stderr, tc.want, "%v", tc.args)
		assert.Empty(t, r.stdout, "%v", tc.args)
	}
}

// TestSecretFileValueNotEchoed: an operator who passes the secret
// itself to -secret-file must not see it printed back in the error.
func TestSecretFileValueNotEchoed(t *testing.T) {
	const secret = "sbx_secret_passed_as_a_path_by_mistake"
	env := []string{fiatramp.EnvAPIKey + "=k"}
	for _, args := range [][]string{
		{"sign", "-timestamp", "1700000000", "-secret-file", secret},
		{"webhook", "verify", "-secret-file", secret},
		{"webhook", "send", "-secret-file", secret, "http://127.0.0.1:9/"},
	} {
		r := cli(t, env, "{}", args...)
		assert.Equal(t, 2, r.code, r)
		assert.NotContains(t, r.stdout+r.stderr, secret, "%v", args)
		assert.Contains(t, r.stderr, "-secret-file", "%v", args)
	}
}

// What sign prints is what the service accepts: its headers and canonical
// body, sent as printed, pass the sandbox's authentication.
func TestSignAcceptedBySandbox(t *testing.T) {
	w := newWorld(t)
	cust, vpa := w.demo.Customer.ID.String(), w.demo.VPA.ID.String()
	send := func(method, path, body string, out string) int {
		req, err := http.NewRequest(method, w.url+path, strings.NewReader(body))
		require.NoError(t, err)
		for _, h := range []string{"X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"} {
			req.Header.Set(h, line(t, out, h))
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}

	r := signCLI(t, w.env, "", "-method", "GET")
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, http.StatusOK, send("GET", "/cms/api/v1/kyc/configuration/"+cust, "", r.stdout))

	body := `{"sending_amount": "2600", "asset": "usdt", "fiat": "inr", "customer_id": "` + cust + `", "bank_id": "` + vpa +
		`", "payment_method": "UPI", "risk_parameters": {"suspicious_activity_report": false, "law_enforcement_agency_report": false}}`
	r = signCLI(t, w.env, body)
	require.Equal(t, 0, r.code, r)
	canonical := line(t, r.stdout, "canonical body")
	assert.Equal(t, http.StatusUnauthorized, send("POST", "/pis/api/v1/payin/quotation", body, r.stdout), "the body as typed is not canonical")
	assert.Equal(t, http.StatusOK, send("POST", "/pis/api/v1/payin/quotation", canonical, r.stdout))
}

func TestSignCompare(t *testing.T) {
	canonical := `{"a":"x","b":1}`
	right := b64(hmacOf(testSecret, testKey, testTS, canonical))
	now := []string{"-timestamp", testTS, "-now", "1700000100"}

	r := signCLI(t, signEnv, canonical, append(now, "-compare", right)...)
	require.Equal(t, 0, r.code, r)
	assert.Equal(t, "MATCH", line(t, r.stdout, "verdict"))
	assert.Equal(t, right, line(t, r.stdout, "given signature"))

	r = signCLI(t, signEnv, canonical, append(now, "-compare", right, "-o", "json")...)
	require.Equal(t, 0, r.code, r)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, true, rep["match"])

	mac := hmacOf(testSecret, testKey, testTS, canonical)
	for _, tc := range []struct {
		name, method, body, sig, want string
	}{
		{"body as sent", "POST", `{"b": 1, "a": "x"}`, b64(hmacOf(testSecret, testKey, testTS, `{"b": 1, "a": "x"}`)),
			"the signer signed the body as sent, not its canonical form"},
		{"python default separators", "POST", canonical, b64(hmacOf(testSecret, testKey, testTS, `{"a": "x", "b": 1}`)),
			`signed json.dumps with the default separators`},
		{"go encoding/json", "POST", `{"a":"é<"}`, b64(hmacOf(testSecret, testKey, testTS, `{"a":"é\u003c"}`)),
			"signed what Go's encoding/json writes"},
		{"unsorted", "POST", `{"b":1,"a":"x"}`, b64(hmacOf(testSecret, testKey, testTS, `{"b":1,"a":"x"}`)),
			"signed the body as sent"},
		{"empty object for a POST", "POST", canonical, b64(hmacOf(testSecret, testKey, testTS, `{}`)),
			"signed {} (as for a GET) but sent a body"},
		{"empty body for a GET", "GET", "", b64(hmacOf(testSecret, testKey, testTS, ``)),
			"signed an empty body; a GET signs {}"},
		{"other timestamp", "POST", canonical, b64(hmacOf(testSecret, testKey, "1699999990", canonical)),
			"signed the timestamp 1699999990 but sent X-TIMESTAMP 1700000000"},
		{"hex", "POST", canonical, hex.EncodeToString(mac), "encoded the HMAC as hex"},
		{"url-safe", "POST", canonical, strings.TrimRight(base64.URLEncoding.EncodeToString(mac), "="), "URL-safe Base64 without padding"},
		{"secret with line break", "POST", canonical, b64(hmacOf(testSecret+"\n", testKey, testTS, canonical)),
			"the secret plus a trailing line break"},
		{"wrong secret", "POST", canonical, b64(hmacOf("another-secret", testKey, testTS, canonical)),
			"matches none of the usual mistakes"},
		{"not a signature", "POST", canonical, "hello", "is not a Base64 (or hex) HMAC-SHA256"},
	} {
		r := signCLI(t, signEnv, tc.body, append(now, "-method", tc.method, "-compare", tc.sig)...)
		assert.Equal(t, 1, r.code, "%s: %s", tc.name, r)
		assert.Contains(t, r.stdout, tc.want, tc.name)
		assert.Contains(t, line(t, r.stdout, "verdict"), "MISMATCH: ", tc.name)
	}

	// The timestamp window, both ways, before the signature.
	r = signCLI(t, signEnv, canonical, "-timestamp", testTS, "-now", "1700000400", "-compare", right)
	assert.Equal(t, 1, r.code, r)
	assert.Equal(t, "MISMATCH: X-TIMESTAMP 1700000000 is 400 s behind the clock (1700000400): outside the 300-second window "+
		"(AUTH_UNAUTHORIZED: an expired timestamp); correct the signer's clock, or sign with the service's time "+
		"(fiatramp sign -timestamp SECONDS; the sandbox's clock: GET /_sandbox/clock)", line(t, r.stdout, "verdict"))
	r = signCLI(t, signEnv, canonical, "-timestamp", testTS, "-now", "1699999699", "-compare", right)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, line(t, r.stdout, "verdict"), "is 301 s ahead of the clock")
	r = signCLI(t, signEnv, canonical, "-timestamp", testTS, "-now", "1700000300", "-compare", right)
	assert.Equal(t, 0, r.code, "300 s is inside the window: %s", r)

	// Without -now, a -timestamp is a sent request's, judged against no
	// clock (this machine's now says nothing of the service's then)...
	r = signCLI(t, signEnv, canonical, "-timestamp", testTS, "-compare", right)
	assert.Equal(t, 0, r.code, "a timestamp of 2023 without -now: %s", r)
	assert.Equal(t, "MATCH", line(t, r.stdout, "verdict"))
	// ... except one in milliseconds, which no clock would take.
	ms := "1700000000000"
	r = signCLI(t, signEnv, canonical, "-timestamp", ms, "-compare", b64(hmacOf(testSecret, testKey, ms, canonical)))
	assert.Equal(t, 1, r.code, r)
	assert.Equal(t, "MISMATCH: X-TIMESTAMP 1700000000000 is outside any window of the service's clock (AUTH_UNAUTHORIZED: an expired timestamp): "+
		"it has 13 digits, like Unix milliseconds; X-TIMESTAMP is seconds", line(t, r.stdout, "verdict"))
	r = signCLI(t, signEnv, canonical, "-timestamp", ms, "-now", testTS, "-compare", b64(hmacOf(testSecret, testKey, ms, canonical)))
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, line(t, r.stdout, "verdict"), "is 1698300000000 s ahead of the clock (1700000000): outside the 300-second window "+
		"(AUTH_UNAUTHORIZED: an expired timestamp): it has 13 digits, like Unix milliseconds; X-TIMESTAMP is seconds; correct the signer's clock")

	// A body that is not canonical: where, and both forms; the signature
	// over its canonical form is right.
	r = signCLI(t, signEnv, `{"a":"x", "b":1}`, append(now, "-compare", right)...)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, line(t, r.stdout, "verdict"), "first difference at byte offset 9: sent ' ', canonical '\"'")
	caret := strings.Repeat(" ", 18+9) + "^\n"
	assert.Contains(t, r.stdout, "       sent:      {\"a\":\"x\", \"b\":1}\n"+caret)
	assert.Contains(t, r.stdout, "       canonical: {\"a\":\"x\",\"b\":1}\n"+caret)
	assert.Contains(t, r.stdout, "note: the signature is right for the canonical form of the body")

	// A window that needs quoting: the caret still points at the byte.
	r = signCLI(t, signEnv, "{\"a\":\"é\",\t\"b\":1}", append(now, "-compare", right)...)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, r.stdout, "sent:      \"{\\\"a\\\":\\\"é\\\",\\t\\\"b\\\":1}\"\n"+strings.Repeat(" ", 18+10)+"^\n")

	// Not JSON at all.
	r = signCLI(t, signEnv, `{"a":`, append(now, "-compare", right)...)
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, line(t, r.stdout, "verdict"), "the body is not one JSON document")
}

func TestSignCapturedRequest(t *testing.T) {
	body := `{"b": 1, "a": "x"}`
	sig := b64(hmacOf(testSecret, testKey, testTS, body))
	dump := "POST /pos/api/v1/payout/initiate HTTP/1.1\r\nHost: api.example.test\r\nX-API-KEY: " + testKey +
		"\r\nX-TIMESTAMP: " + testTS + "\r\nX-SIGNATURE: " + sig + "\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body + "\n\n"
	file := filepath.Join(t.TempDir(), "req.http")
	require.NoError(t, os.WriteFile(file, []byte(dump), 0o600))

	// The key comes from the request; the secret from the environment.
	env := []string{fiatramp.EnvAPISecret + "=" + testSecret}
	r := signCLI(t, env, "", "-request", file, "-now", testTS)
	assert.Equal(t, 1, r.code, r)
	assert.Equal(t, testKey, line(t, r.stdout, "X-API-KEY"))
	assert.Equal(t, sig, line(t, r.stdout, "given signature"))
	assert.Contains(t, line(t, r.stdout, "verdict"), "the body is not canonical: first difference at byte offset 2")
	assert.Contains(t, r.stdout, "2. the signature is wrong (AUTH_INVALID_SIGNATURE): the signer signed the body as sent")
	assert.Contains(t, r.stdout, "note: 2 bytes after the Content-Length of 18 are not part of the body")

	// A right request from standard input, headers as curl -v shows them,
	// no request line: the method comes from -method.
	canonical := `{"a":"x","b":1}`
	good := "> X-API-KEY: " + testKey + "\n> X-TIMESTAMP: " + testTS + "\n> X-SIGNATURE: " +
		b64(hmacOf(testSecret, testKey, testTS, canonical)) + "\n\n" + canonical
	r = signCLI(t, env, good, "-request", "-", "-now", testTS)
	assert.Equal(t, 0, r.code, r)
	assert.Equal(t, "MATCH", line(t, r.stdout, "verdict"))

	// A GET dump: signs {} whatever follows.
	get := "GET /pos/api/v1/payout/balance HTTP/1.1\nX-API-KEY: " + testKey + "\nX-TIMESTAMP: " + testTS +
		"\nX-SIGNATURE: " + b64(hmacOf(testSecret, testKey, testTS, "{}")) + "\n\n"
	r = signCLI(t, env, get, "-request", "-", "-now", testTS)
	assert.Equal(t, 0, r.code, r)
	assert.Equal(t, "GET", line(t, r.stdout, "method"))

	// A missing header comes first.
	r = signCLI(t, env, "POST /x HTTP/1.1\nX-API-KEY: "+testKey+"\nX-TIMESTAMP: "+testTS+"\n\n"+canonical, "-request", "-", "-now", testTS)
	assert.Equal(t, 1, r.code, r)
	assert.Equal(t, "MISMATCH: header X-SIGNATURE is missing (AUTH_MISSING_HEADERS)", line(t, r.stdout, "verdict"))

	// The request's key is not the one of the environment: said.
	r = signCLI(t, append(env, fiatramp.EnvAPIKey+"=sbx_key_other"), good, "-request", "-", "-now", testTS)
	assert.Equal(t, 0, r.code, r)
	assert.Contains(t, r.stdout, "is not your FIATRAMP_API_KEY sbx_key_other")

	// Without -now a captured request, a fresh one, is judged against this
	// machine's clock.
	r = signCLI(t, env, good, "-request", "-")
	assert.Equal(t, 1, r.code, r)
	assert.Contains(t, line(t, r.stdout, "verdict"), "MISMATCH: X-TIMESTAMP 1700000000 is ")
	assert.Contains(t, line(t, r.stdout, "verdict"), " s behind the clock (")

	// Garbage is bad input.
	r = signCLI(t, env, "this is not a request\nat all", "-request", "-")
	assert.Equal(t, 2, r.code, r)
}

// signExample is the "Why was my signature refused?" example of the
// documentation: a shell session, the commands after "$ ", then exactly
// what they print.
const signExample = `$ export FIATRAMP_API_KEY=sbx_key_example FIATRAMP_API_SECRET=sbx_secret_example
$ echo '{"b": 1, "a": "x"}' | fiatramp sign -timestamp 1700000000 -compare 9+UGyQGcXF+zUP986HbhBR7+RcY2CbGMVYNjPLOR3Fw=
method:          POST
canonical body:  {"a":"x","b":1}
string signed:   sbx_key_example|1700000000|{"a":"x","b":1}
X-API-KEY:       sbx_key_example
X-TIMESTAMP:     1700000000
X-SIGNATURE:     tSh+MVOWW3ZTzp2wO9tIn0sTIzR6SKPsDESoVwRrhww=
given signature: 9+UGyQGcXF+zUP986HbhBR7+RcY2CbGMVYNjPLOR3Fw=
verdict:         MISMATCH: the body is not canonical: first difference at byte offset 2: sent 'b', canonical 'a' (the sandbox answers AUTH_INVALID_SIGNATURE, "Request body is not in canonical form"; send exactly the canonical bytes you sign)
  1. the body is not canonical: first difference at byte offset 2: sent 'b', canonical 'a' (the sandbox answers AUTH_INVALID_SIGNATURE, "Request body is not in canonical form"; send exactly the canonical bytes you sign)
       sent:      {"b": 1, "a": "x"}
                    ^
       canonical: {"a":"x","b":1}
                    ^
  2. the signature is wrong (AUTH_INVALID_SIGNATURE): the signer signed the body as sent, not its canonical form (keys sorted, no white space, non-ASCII as \uXXXX)
note: the input's trailing line break is taken as not part of the body
`

// TestSignDocumentedExample runs the documented example as a shell runs
// it, whenever it is run (its timestamp is of 2023), and compares every
// byte it prints.
func TestSignDocumentedExample(t *testing.T) {
	var script, want strings.Builder
	for _, l := range strings.SplitAfter(signExample, "\n") {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			script.WriteString(cmd)
		} else {
			want.WriteString(l)
		}
	}
	// The signature shown is the one of the body as typed, not canonical.
	require.Contains(t, script.String(), b64(hmacOf("sbx_secret_example", "sbx_key_example", testTS, `{"b": 1, "a": "x"}`)))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script.String())
	cmd.Env = []string{"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "a mismatch exits 1; stderr: %s", errOut.String())
	assert.Equal(t, 1, ee.ExitCode())
	assert.Equal(t, want.String(), out.String())
	assert.Empty(t, errOut.String())
}
